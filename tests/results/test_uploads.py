"""Uploads through the service: realistic files in, broken files out with nothing saved."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied

from pairs.models import PairEntry
from results.importers import parse_upload
from results.models import PairResult, PairTraveller, ResultUpload, StandingSnapshot
from results.services.uploads import UploadRejected, upload_pair_heat, upload_team_results
from teams.models import BoardResult, Match, RosterEntry, Team
from tests.factories import (
    ClubOfficialFactory,
    PairHeatFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "results"


def data(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def counts():
    return (
        ResultUpload.objects.count(),
        PairResult.objects.count(),
        PairTraveller.objects.count(),
        BoardResult.objects.count(),
        Match.objects.filter(status="played").count(),
    )


@pytest.fixture(autouse=True)
def _commit(django_capture_on_commit_callbacks, monkeypatch):
    """Run the recompute scheduled on commit right after each upload, as the real app does."""
    import results.services.uploads as uploads

    for name in ("upload_pair_heat", "upload_team_results"):
        real = getattr(uploads, name)

        def wrapped(*args, _real=real, **kwargs):
            with django_capture_on_commit_callbacks(execute=True):
                return _real(*args, **kwargs)

        monkeypatch.setitem(globals(), name, wrapped)


@pytest.fixture
def tk():
    return UserFactory(username="tk", is_superuser=True, is_staff=True)


def pair_heat_for(name: str, heat_type="silver"):
    """A heat whose entries are the pairs of a fixture file (numbers and MIDs as in the file)."""
    event = parse_upload(data(name), name, "pairs")
    heat = PairHeatFactory(heat_type=heat_type)
    season = heat.competition.season
    for pair in event.pairs:
        players = [member(season=season, mid=p.mid) for p in pair.players]
        PairEntry.objects.create(
            heat=heat, player1=players[0], player2=players[1], pair_number=pair.number
        )
    return heat, event


def team_heat_for(name: str, boards: int):
    event = parse_upload(data(name), name, "teams")
    heat = TeamHeatFactory(boards_per_match=boards)
    season = heat.competition.season
    teams = {}
    for t in event.teams:
        players = [member(season=season, mid=p.mid) for p in t.players]
        team = Team.objects.create(
            competition=heat.competition,
            heat=heat,
            number=int(t.id),
            name=t.name,
            captain=players[0],
            address="Gatan 1",
            phone="018-10 00 00",
            email="k@example.se",
        )
        for p in players:
            RosterEntry.objects.create(team=team, player=p)
        teams[t.id] = team
    for m in event.matches:
        Match.objects.create(
            competition=heat.competition,
            heat=heat,
            stage="kval",
            round=m.round,
            home=teams[m.home],
            away=teams[m.away],
            boards=boards,
        )
    return heat, teams, event


# Counted from the fixture files (tests/fixtures/results/make_fixtures.py describes them):
# the Mitchell has 14 pairs (7 NS + 7 EW) and 28 boards, each played at all 7 tables:
# 28 × 7 = 196 traveller lines; the Howell has 10 pairs and 27 boards at 5 tables, board 12
# not played at table 3: 27 × 5 − 1 = 134 lines (the artificial score on board 20 has
# matchpoints, so it is a line too). `grep -c "<TRAVELLER_LINE>"` on the Howell file says 134.
@pytest.mark.parametrize(
    ("name", "pairs", "lines"),
    [("pairs_ruter_mitchell.pbn", 14, 196), ("pairs_howell_usebio.xml", 10, 134)],
)
def test_pairs_heat_upload_stores_results_travellers_and_standings(tk, name, pairs, lines):
    heat, _ = pair_heat_for(name)
    outcome = upload_pair_heat(tk, heat, data=data(name), filename=name)
    assert outcome.upload.status == "accepted" and not outcome.unchanged
    assert outcome.upload.checksum and outcome.upload.size == len(data(name))
    assert PairResult.objects.filter(heat=heat).count() == pairs
    assert PairTraveller.objects.filter(upload=outcome.upload).count() == lines
    snap = StandingSnapshot.objects.get(scope="pair_heat", heat=heat)
    assert len(snap.data) == pairs
    percentages = [Decimal(r["percentage"]) for r in snap.data]
    assert percentages == sorted(percentages, reverse=True)  # R-PAIR-TIE-1 order


def test_identical_reupload_changes_nothing(tk):
    name = "pairs_ruter_mitchell.pbn"
    heat, _ = pair_heat_for(name)
    first = upload_pair_heat(tk, heat, data=data(name), filename=name)
    before = counts()
    again = upload_pair_heat(tk, heat, data=data(name), filename="copy.pbn")
    assert again.unchanged and again.upload.pk == first.upload.pk
    assert counts() == before


def test_corrected_reupload_replaces_atomically_and_keeps_history(tk):
    name = "pairs_howell_usebio.xml"
    heat, _ = pair_heat_for(name)
    first = upload_pair_heat(tk, heat, data=data(name), filename=name)
    corrected = data(name).replace(b"<EVENT_DESCRIPTION>", b"<EVENT_DESCRIPTION>Corrected ")
    second = upload_pair_heat(tk, heat, data=corrected, filename="rattad.xml")
    first.upload.refresh_from_db()
    assert first.upload.status == "superseded"
    assert second.upload.supersedes_id == first.upload.pk
    assert PairResult.objects.filter(heat=heat).count() == 10  # the Howell's 10 pairs
    assert not PairResult.objects.filter(upload=first.upload).exists()


@pytest.mark.parametrize(
    ("name", "boards"),
    [("teams_usebio.xml", 24), ("teams.csv", 24), ("teams_ruter.pbn", 16)],
)
def test_team_heat_upload_sets_imps_vp_and_boards(tk, name, boards):
    # each team file: 4 teams, 3 rounds of 2 matches (a round robin of 4): 6 matches
    heat, _, _ = team_heat_for(name, boards)
    outcome = upload_team_results(tk, heat=heat, data=data(name), filename=name)
    played = Match.objects.filter(heat=heat, status="played")
    assert played.count() == 6
    m = played.first()
    assert m.vp_home + m.vp_away == Decimal("20.00")
    assert list(m.uploads.all()) == [outcome.upload]
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    assert len(snap.data) == 4 and snap.provisional is False


def test_unknown_mid_and_unknown_team_are_named_and_nothing_saved(tk):
    heat, teams, _ = team_heat_for("teams_usebio.xml", 24)
    RosterEntry.objects.filter(team=teams["1"], player__mid="70236").delete()
    Team.objects.filter(pk=teams["4"].pk).update(number=9)
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=data("teams_usebio.xml"), filename="t.xml")
    text = " ".join(p.message_sv for p in exc.value.problems)
    assert "MID 70236" in text
    assert "Lag 4" in text
    assert counts() == before


def test_wrong_board_count_is_refused(tk):
    # R-TEAM-KVAL-5: every match has the heat's number of boards
    heat, _, _ = team_heat_for("teams_ruter.pbn", 24)
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=data("teams_ruter.pbn"), filename="t.pbn")
    assert any("16" in p.message_sv for p in exc.value.problems)
    assert counts() == before


BROKEN = sorted(p.name for p in (FIXTURES / "broken").iterdir() if p.is_file())


@pytest.mark.parametrize("name", BROKEN)
def test_broken_files_give_a_clear_error_and_leave_the_database_unchanged(tk, name):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    team_heat, _, _ = team_heat_for("teams_usebio.xml", 24)
    before = counts()
    raw = (FIXTURES / "broken" / name).read_bytes()
    with pytest.raises(UploadRejected) as exc:
        if "team" in name or name.endswith(".csv"):
            upload_team_results(tk, heat=team_heat, data=raw, filename=name)
        else:
            upload_pair_heat(tk, heat, data=raw, filename=name)
    assert exc.value.problems and all(p.message_sv for p in exc.value.problems)
    assert counts() == before


def test_twenty_megabyte_file_is_refused_quickly(tk):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=b"<USEBIO>" + b" " * (20 * 1024 * 1024), filename="x.xml")
    assert "MB" in exc.value.problems[0].message_sv
    assert ResultUpload.objects.count() == 0


@pytest.mark.parametrize("role", ["anonymous", "other_club", "own_club", "tk"])
def test_who_may_upload_a_pairs_heat(role, tk, client):
    from django.contrib.auth.models import AnonymousUser

    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    users = {
        "anonymous": AnonymousUser(),
        "other_club": ClubOfficialFactory().user,
        "own_club": ClubOfficialFactory(club=heat.clubs.first()).user,
        "tk": tk,
    }
    name = "pairs_howell_usebio.xml"
    if role in ("own_club", "tk"):
        assert upload_pair_heat(users[role], heat, data=data(name), filename=name).upload
    else:
        with pytest.raises(PermissionDenied):
            upload_pair_heat(users[role], heat, data=data(name), filename=name)
        assert ResultUpload.objects.count() == 0


def test_team_final_upload_is_for_tk_only(tk):
    heat, teams, _ = team_heat_for("teams_usebio.xml", 24)
    with pytest.raises(PermissionDenied):
        upload_team_results(
            ClubOfficialFactory().user,
            competition=heat.competition,
            data=data("teams_usebio.xml"),
            filename="f.xml",
        )


def test_matches_not_in_the_schedule_are_refused(tk):
    heat, teams, _ = team_heat_for("teams_usebio.xml", 24)
    Match.objects.filter(heat=heat, round=1).delete()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=data("teams_usebio.xml"), filename="t.xml")
    assert any("finns inte i spelschemat" in p.message_sv for p in exc.value.problems)
    assert not Match.objects.filter(heat=heat, status="played").exists()


def test_two_teams_twice_in_one_file_are_refused_not_last_one_wins(tk):
    # Round 3 of the file pairs 2–1 and 4–3, whom round 1 already has as 1–2 and 3–4: the
    # heat's schedule has one match for each pair of teams, so both name it, and the earlier
    # store silently overwrote it with round 3's result. Now it is an error, nothing stored.
    heat, _teams, _ = team_heat_for("teams.csv", 24)
    text = data("teams.csv").decode("utf-8-sig")
    text = text.replace("\n3;1;4;", "\n3;2;1;").replace("\n3;2;3;", "\n3;4;3;")
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=text.encode(), filename="t.csv")
    twice = [p for p in exc.value.problems if p.code == "duplicate-match"]
    assert [p.element for p in twice] == ["rond 3: 2–1", "rond 3: 4–3"]
    assert "finns redan i filen som rond 1: 1–2" in twice[0].message_sv
    assert "already in the file as round 1: 1–2" in twice[0].message_en
    assert counts() == before


def test_a_team_file_stores_every_board_and_one_history_record_per_match(tk):
    # teams.csv: round 1's two matches with their 24 boards each, rounds 2 and 3 as totals
    heat, teams, _ = team_heat_for("teams.csv", 24)
    outcome = upload_team_results(tk, heat=heat, data=data("teams.csv"), filename="t.csv")
    first = Match.objects.get(heat=heat, home=teams["1"], away=teams["2"])
    assert first.board_results.count() == 24
    assert (
        Match.objects.get(heat=heat, home=teams["3"], away=teams["4"]).board_results.count() == 24
    )
    assert BoardResult.objects.count() == 48
    board8 = first.board_results.get(board_number=8)  # "board;1;1;2;8;790;200"
    assert (board8.score_ns_room1, board8.score_ns_room2) == (790, 200)
    assert outcome.upload.matches.count() == 6
    played = Match.history.filter(heat=heat, status="played")
    assert played.count() == 6  # each match's change recorded once, by who uploaded it
    assert {h.history_user for h in played} == {tk}
    assert first.imps_home == Decimal(59) and first.imps_away == Decimal(29)
