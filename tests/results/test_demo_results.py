"""The demo season's results (``manage.py load_demo`` → ubf.demo.results): every heat's file
uploaded as a club would, the allocation's holders in the final, seven of nine final rounds
played, and a second run that changes nothing.

The season is loaded once for the module, as the command runs it: outside a test transaction,
each upload committing on its own and its recompute running on commit (Celery eager). The
module's teardown flushes the database again. ~10 s on SQLite (two full load_demo runs).
"""

from __future__ import annotations

from collections import Counter
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.test import override_settings

from clubs.models import HeatStatus, Season
from pairs.models import PairCompetition, PairHeat
from results.importers import parse_upload, validate_pairs
from results.models import AllocationRun, ResultUpload, StandingSnapshot
from results.services.uploads import upload_pair_heat
from teams.models import Match, TeamCompetition, TeamHeat
from tests.factories import final_teams
from ubf.demo.results import allocation_holders, load_demo_results
from ubf.demo.simulate import simulate_pair_heat
from ubf.demo.writers import write_pbn_pairs

pytestmark = pytest.mark.django_db


def _row_counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    from ubf.celery import app

    media = tmp_path_factory.mktemp("demo-media")
    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True  # as tests/conftest.py does, module-wide
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(media),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        ),
    ):
        first = StringIO()
        call_command("load_demo", stdout=first)
        uploads = ResultUpload.objects.count()
        counts = _row_counts()
        second = StringIO()
        call_command("load_demo", stdout=second)
        info = {
            "first": first.getvalue(),
            "second": second.getvalue(),
            "uploads_after_first": uploads,
            "counts_after_first": counts,
            "counts_after_second": _row_counts(),
            "media": media,
        }
        try:
            yield info
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


def season() -> Season:
    return Season.objects.get(name="2016-2017")


def team_competition() -> TeamCompetition:
    return TeamCompetition.objects.get(season=season())


def test_every_approved_pair_heat_has_an_accepted_upload_and_standings(demo):
    heats = PairHeat.objects.filter(competition__season=season(), status=HeatStatus.APPROVED)
    assert heats.count() == 7
    formats = Counter()
    for heat in heats:
        upload = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
        assert upload.uploaded_by.username == "tk"
        assert upload.pair_results.count() == heat.entries.count()
        assert upload.travellers.exists()
        formats[upload.format] += 1
        # The file is kept (under the module's MEDIA_ROOT) and reads back as a valid heat.
        data = (demo["media"] / upload.file.name).read_bytes()
        assert len(data) == upload.size
        event = parse_upload(data, upload.original_name, "pairs")
        assert not [p for p in validate_pairs(event) if p.is_error]
        snapshot = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
        assert not snapshot.provisional
        assert len(snapshot.data) == heat.entries.count()
        assert [row["rank"] for row in snapshot.data] == sorted(r["rank"] for r in snapshot.data)
    assert formats == {"pbn": 3, "usebio": 4}  # by turns, counting the applied heat too
    assert not PairHeat.objects.get(status=HeatStatus.APPLIED).uploads.exists()


def test_allocation_runs_for_every_competition_with_heats(demo):
    for competition in PairCompetition.objects.filter(season=season()):
        runs = AllocationRun.objects.filter(competition=competition)
        if competition.heats.filter(status=HeatStatus.APPROVED).exists():
            run = runs.get()
            assert not run.provisional  # every heat is in (R-ALLOC-*)
            assert run.qualifying_entries > 0 and run.explanation["venues"]
        else:
            assert not runs.exists()  # Dam: a direct final, no heats
    run = AllocationRun.objects.get(competition=team_competition())
    assert not run.provisional and run.final_size == 10  # R-TEAM-ADV-1: 24 teams


def test_every_team_heat_is_played_from_its_upload(demo):
    formats = Counter()
    for heat in TeamHeat.objects.filter(competition=team_competition()):
        upload = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
        formats[upload.format] += 1
        matches = list(heat.matches.filter(stage=Match.Stage.KVAL))
        assert matches
        assert set(upload.matches.values_list("id", flat=True)) == {m.id for m in matches}
        for m in matches:
            assert m.status == Match.Status.PLAYED
            assert m.vp_home + m.vp_away == 20
            assert m.board_results.count() == heat.boards_per_match
        snapshot = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
        assert not snapshot.provisional and len(snapshot.data) == heat.teams.count()
    assert formats == {"usebio": 2, "csv": 2, "pbn": 1}


def test_the_final_teams_are_the_allocations_holders(demo):
    competition = team_competition()
    holders = allocation_holders(competition)
    finalists = final_teams(competition)
    assert len(holders) == 10
    assert {t.id for t in finalists} == set(holders)
    assert sorted(t.final_seat_number for t in finalists) == list(range(1, 11))
    matches = list(Match.objects.filter(competition=competition, stage=Match.Stage.FINAL))
    assert len(matches) == 45  # R-TEAM-FINAL-1: a single round robin
    assert {frozenset((m.home_id, m.away_id)) for m in matches} == {
        frozenset((a, b)) for a in holders for b in holders if a < b
    }
    assert all(m.boards == 20 and m.halves == 2 for m in matches)
    assert Counter(m.round for m in matches) == dict.fromkeys(range(1, 10), 5)


def test_the_final_is_live_after_round_seven(demo, client):
    competition = team_competition()
    finals = Match.objects.filter(competition=competition, stage=Match.Stage.FINAL)
    played = finals.filter(status=Match.Status.PLAYED)
    assert played.count() == 35
    assert set(played.values_list("round", flat=True)) == set(range(1, 8))
    assert not finals.filter(round__gt=7).exclude(status=Match.Status.SCHEDULED).exists()
    uploads = ResultUpload.objects.filter(
        competition=competition, heat=None, status=ResultUpload.Status.ACCEPTED
    )
    assert sorted(uploads.values_list("round", flat=True)) == list(range(1, 8))
    snapshot = StandingSnapshot.objects.get(scope="team_final", competition=competition)
    assert snapshot.provisional and snapshot.rounds_played == 7
    assert len(snapshot.data) == 10
    assert all(row["played"] == 7 for row in snapshot.data)
    page = client.get("/lag/").content.decode()
    assert "rond 7" in page


def test_the_command_prints_a_line_per_import(demo):
    lines = demo["first"].splitlines()
    imported = [x for x in lines if x.rstrip().endswith("inläst")]
    assert len(imported) == 7 + 5 + 7
    assert any("Finalen rond 7: dm-lag-final-rond-7.xml inläst" in x for x in lines)
    assert "19 filer inlästa, 0 oförändrade" in demo["first"]


def test_a_second_run_creates_no_uploads_and_changes_nothing(demo):
    assert ResultUpload.objects.count() == demo["uploads_after_first"] == 19
    assert demo["counts_after_second"] == demo["counts_after_first"]
    assert "0 filer inlästa, 19 oförändrade" in demo["second"]
    assert "0 rader skapade, 0 uppdaterade" in demo["second"]


def test_a_file_tk_replaced_is_kept(demo):
    heat = PairHeat.objects.filter(status=HeatStatus.APPROVED).order_by("first_date").first()
    tk = ResultUpload.objects.filter(heat=heat).first().uploaded_by
    entries = list(heat.entries.select_related("player1", "player2"))
    pairs = [
        (e.pair_number, (e.player1.mid, e.player1.full_name), (e.player2.mid, "x"), 1)
        for e in entries
    ]
    corrected = simulate_pair_heat(pairs, 27, seed="tk-correction", movement="mitchell")
    outcome = upload_pair_heat(
        tk, heat, data=write_pbn_pairs(corrected).encode("latin-1"), filename="rättad.pbn"
    )
    assert not outcome.unchanged

    result = load_demo_results()

    accepted = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
    assert accepted.pk == outcome.upload.pk and accepted.original_name == "rättad.pbn"
    assert result.kept == 1 and result.imported == 0 and result.unchanged == 18
    assert any("behålls" in line and heat.name in line for line in result.lines)


def test_matches_tk_decided_by_hand_are_not_in_the_demo_file(demo):
    heat = TeamHeat.objects.filter(competition=team_competition()).order_by("first_date").first()
    upload = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
    # As if the heat had had no file yet and TK had recorded one match by hand.
    heat.uploads.all().delete()
    matches = list(heat.matches.order_by("round", "id"))
    for m in matches[1:]:
        m.status = Match.Status.SCHEDULED
        m.imps_home = m.imps_away = m.vp_home = m.vp_away = None
        m.save()
        m.board_results.all().delete()
    by_hand = matches[0]
    by_hand.refresh_from_db()
    by_hand.imps_home, by_hand.imps_away = 50, 3
    by_hand.save()

    load_demo_results()

    by_hand.refresh_from_db()
    assert (by_hand.imps_home, by_hand.imps_away) == (50, 3)
    new = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
    assert new.checksum != upload.checksum
    assert set(new.matches.values_list("id", flat=True)) == set(
        heat.matches.exclude(pk=by_hand.pk).values_list("id", flat=True)
    )


def test_a_heat_approved_later_gets_its_file_and_the_others_stay_unchanged(demo):
    heat = PairHeat.objects.get(status=HeatStatus.APPLIED)
    heat.status = HeatStatus.APPROVED
    heat.save()

    result = load_demo_results()

    assert (result.imported, result.unchanged, result.kept) == (1, 19, 0)
    upload = heat.uploads.get(status=ResultUpload.Status.ACCEPTED)
    assert upload.pair_results.count() == heat.entries.count()
    assert StandingSnapshot.objects.filter(scope="pair_heat", heat=heat).exists()
