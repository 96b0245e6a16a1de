"""The demo season (``manage.py load_demo``): idempotent, and a season that obeys the rules."""

from collections import Counter, defaultdict
from datetime import date
from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command

from clubs.models import Club, ClubOfficial, Membership, Player, Representation, Season
from pairs.models import PairCompetition, PairEntry, PairHeat
from teams.models import Match, RosterEntry, Team, TeamCompetition, TeamHeat, TeamHeatOrganiser
from tests.factories import final_teams
from ubf.demo.season import PASSWORDS, boards_per_match, build_plan
from ubf.rules.season import DEFAULT_RULES

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    # The season itself; its simulated results are tested in tests/results/test_demo_results.py.
    out = StringIO()
    call_command("load_demo", "--no-results", stdout=out)
    return out.getvalue()


def row_counts() -> dict[str, int]:
    """Every model, historical records included."""
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


def season() -> Season:
    return Season.objects.get(name="2016-2017")


def ubf_club_of(player_ids) -> dict[int, bool]:
    reps = Representation.objects.filter(season=season(), player_id__in=player_ids)
    return {
        r.player_id: r.club.district.code == "UBF" for r in reps.select_related("club__district")
    }


def test_load_demo_twice_leaves_the_same_rows_and_passwords(demo):
    first = row_counts()
    players = list(Player.objects.order_by("mid").values_list())
    out = StringIO()
    call_command("load_demo", "--no-results", stdout=out)
    assert row_counts() == first
    assert list(Player.objects.order_by("mid").values_list()) == players
    assert "0 rader skapade, 0 uppdaterade" in out.getvalue()
    User = get_user_model()
    for username, password in PASSWORDS.items():
        assert User.objects.get(username=username).check_password(password)
        assert f"{username} / {password}" in out.getvalue()
    # Issue 22: club officials and captains log in on the site; only TK also uses the admin.
    assert "Logga in på http://127.0.0.1:8000/konto/login/" in out.getvalue()
    assert "TK (personal) når även administrationen: http://127.0.0.1:8000/admin/" in (
        out.getvalue()
    )


def test_reload_keeps_workflow_state_and_repairs_demo_definitions(demo):
    heat = PairHeat.objects.get(status="applied")
    heat.status = "approved"
    heat.save()
    unpaid = Membership.objects.filter(paid_on__isnull=True).first()
    unpaid.paid_on = date(2016, 10, 3)
    unpaid.save()
    match = Match.objects.filter(stage="kval").first()
    match.status = Match.Status.PLAYED
    match.save()
    club = Club.objects.get(name="Tierps BS")
    club.town = "Gävle"
    club.save()
    user = get_user_model().objects.get(username="tk")
    user.set_password("changed-by-tk")
    user.save()

    call_command("load_demo", "--no-results", stdout=StringIO())

    heat.refresh_from_db()
    unpaid.refresh_from_db()
    match.refresh_from_db()
    club.refresh_from_db()
    user.refresh_from_db()
    assert heat.status == "approved"
    assert unpaid.paid_on == date(2016, 10, 3)
    assert match.status == Match.Status.PLAYED
    assert club.town == "Tierp"
    assert user.check_password("changed-by-tk")


def test_plan_is_deterministic():
    assert build_plan() == build_plan()
    assert build_plan(seed=1).players != build_plan().players


def test_clubs_players_representation_and_membership(demo):
    ubf_clubs = Club.objects.filter(district__code="UBF").count()
    assert 20 <= ubf_clubs <= 30
    assert Club.objects.exclude(district__code="UBF").count() in range(4, 7)
    assert 350 <= Player.objects.count() <= 450
    assert all(p.mid.isdigit() and 5 <= len(p.mid) <= 6 for p in Player.objects.all())
    names = [p.last_name for p in Player.objects.all()]
    assert any("-" in n for n in names)
    assert any(ch in "".join(names) for ch in "åäöÅÄÖ")
    veterans = Player.objects.filter(birth_year__lte=DEFAULT_RULES.veteran_born_on_or_before)
    assert veterans.count() >= 100
    juniors = Player.objects.filter(birth_year__gte=DEFAULT_RULES.junior_born_on_or_after)
    assert juniors.count() >= 10
    pins = Counter(Player.objects.values_list("max_pin", flat=True))
    assert pins[0] + pins[1] + pins[2] > Player.objects.count() / 2
    assert pins[5] + pins[6] + pins[7] >= 3
    reps = Representation.objects.filter(season=season())
    assert reps.count() == Player.objects.count()
    outside = reps.exclude(club__district__code="UBF").count()
    assert 20 <= outside <= 40
    unpaid = Membership.objects.filter(season=season(), paid_on__isnull=True).count()
    assert 3 <= unpaid <= 10
    assert season().is_current and season().start_year == 2016


def test_pair_competitions_follow_the_calendar(demo):
    # R-PAIR-CAL-1: 2016-2017 dates and venues.
    comps = {c.discipline: c for c in PairCompetition.objects.filter(season=season())}
    assert set(comps) == {"dam", "mixed", "veteran", "open"}
    dam = comps["dam"]
    assert (
        dam.is_direct_final
        and dam.final_date == date(2016, 10, 2)
        and dam.final_venue == "Enköping"
    )
    assert dam.heats.count() == 0
    expected = {
        "mixed": (date(2016, 10, 1), date(2016, 11, 15), date(2016, 11, 26)),
        "veteran": (date(2016, 10, 1), date(2017, 2, 1), date(2017, 2, 12)),
        "open": (date(2017, 1, 1), date(2017, 3, 31), date(2017, 4, 22)),
    }
    for discipline, (start, end, final) in expected.items():
        c = comps[discipline]
        assert (c.qualifying_start, c.qualifying_end, c.final_date) == (start, end, final)
        assert c.final_venue == "Bridgens hus, Uppsala" and not c.is_direct_final
        assert c.heat_registration_deadline < start
    assert [comps[d].final_date.strftime("%a") for d in ("dam", "mixed", "veteran", "open")] == [
        "Sun",
        "Sat",
        "Sun",
        "Sat",
    ]


def test_pair_heats_and_entries(demo):
    heats = list(
        PairHeat.objects.filter(competition__season=season()).select_related("competition")
    )
    assert 6 <= len(heats) <= 8
    assert {h.heat_type for h in heats} == {"silver", "bronze"}
    assert any(h.clubs.count() == 2 for h in heats)
    assert [h.status for h in heats].count("applied") == 1
    late = [
        h for h in heats if h.invitation_sent_on and (h.first_date - h.invitation_sent_on).days < 28
    ]
    assert len(late) == 1
    born_limit = DEFAULT_RULES.veteran_born_on_or_before
    played: dict[str, Counter] = defaultdict(Counter)
    out_of_district = 0
    for heat in heats:
        comp = heat.competition
        assert comp.qualifying_start <= heat.first_date <= comp.qualifying_end
        assert heat.registered_on <= comp.heat_registration_deadline
        assert 40 <= heat.table_fee <= 60
        entries = list(heat.entries.select_related("player1", "player2"))
        assert 10 <= len(entries) <= 24
        assert sorted(int(e.pair_number) for e in entries) == list(range(1, len(entries) + 1))
        ubf = ubf_club_of([e.player1_id for e in entries] + [e.player2_id for e in entries])
        for e in entries:
            players = (e.player1, e.player2)
            if comp.discipline == "veteran":
                assert all(p.birth_year <= born_limit for p in players)  # R-PAIR-3
            if comp.discipline == "mixed":
                assert sorted(p.gender for p in players) == ["F", "M"]  # R-PAIR-3
            for p in players:
                played[comp.discipline][p.pk] += 1
                assert Membership.objects.get(player=p, season=season()).paid_on  # R-GEN-2
            out_of_district += not (ubf[e.player1_id] or ubf[e.player2_id])
        if heat.heat_type == "bronze":
            declared = sum(e.takes_part_in_qualifier for e in entries)
            assert 4 <= declared < len(entries)  # R-PAIR-KVAL-5
        else:
            assert all(e.takes_part_in_qualifier for e in entries)
    assert 1 <= out_of_district <= 2
    for counts in played.values():  # R-PAIR-KVAL-7: one qualifier per player and discipline
        assert max(counts.values()) == 1
    dqs = {
        dq.competition.discipline: dq for dq in PairEntry.objects.filter(entered_as="direct").all()
    }
    assert set(dqs) == {"mixed", "open"}
    for discipline, dq in dqs.items():
        assert dq.registered_on < dq.competition.qualifying_end  # R-DIRECT-1
        assert dq.player1_id not in played[discipline]  # R-DIRECT-2
        assert dq.player2_id not in played[discipline]


def test_team_rosters_and_heats(demo):
    heats = list(TeamHeat.objects.filter(competition__season=season()))
    assert len(heats) == 5
    teams = Team.objects.filter(competition__season=season())
    assert 20 <= teams.count() <= 28
    on_rosters = Counter(RosterEntry.objects.values_list("player_id", flat=True))
    assert max(on_rosters.values()) == 1  # a player in at most one team
    mixed_teams = 0
    for team in teams:
        roster = list(team.roster.values_list("player_id", flat=True))
        assert 4 <= len(roster) <= 6  # R-TEAM-2
        assert team.captain_id in roster and team.address and team.phone and team.email
        ubf = ubf_club_of(roster)
        outsiders = sum(not v for v in ubf.values())
        assert outsiders <= 1 and outsiders < len(roster) - outsiders  # R-TEAM-3
        mixed_teams += outsiders
    assert mixed_teams >= 2
    for heat in heats:
        assert heat.start_fee == 500 and heat.status == "approved"
        assert heat.responsible_name and heat.responsible_email and heat.responsible_phone
        heat_teams = list(heat.teams.order_by("number"))
        assert [t.number for t in heat_teams] == list(range(1, len(heat_teams) + 1))
        assert 4 <= len(heat_teams) <= 6  # R-TEAM-KVAL-1
        matches = list(heat.matches.filter(stage="kval"))
        boards = Counter()
        meetings = Counter()
        for m in matches:
            assert m.boards == heat.boards_per_match and m.status == "scheduled"
            assert m.halves == (2 if m.boards >= 16 else 1)  # R-TEAM-KVAL-5
            assert heat.first_date <= m.played_on <= heat.last_date
            boards[m.home_id] += m.boards
            boards[m.away_id] += m.boards
            meetings[frozenset((m.home_id, m.away_id))] += 1
        n = len(heat_teams)
        assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {1}
        assert all(boards[t.pk] >= 70 for t in heat_teams)  # R-TEAM-KVAL-5
        comp = heat.competition
        assert comp.qualifying_start <= heat.first_date <= heat.last_date <= comp.qualifying_end
    assert [boards_per_match(n) for n in (4, 5, 6)] == [24, 18, 16]


def test_one_team_heat_per_club(demo):
    # R-TEAM-KVAL-1: a club arranges at most one heat; one heat is a joint regional heat.
    organisers = TeamHeatOrganiser.objects.all()
    assert max(Counter(o.club_id for o in organisers).values()) == 1
    assert sorted(Counter(o.heat_id for o in organisers).values()) == [1, 1, 1, 1, 2]


def test_team_final(demo):
    comp = TeamCompetition.objects.get(season=season())
    assert (comp.final_day1, comp.final_day2) == (date(2017, 3, 4), date(2017, 3, 5))
    assert comp.final_venue == "Bridgens hus, Uppsala" and comp.sm_semifinal_places == 3
    finalists = final_teams(comp)
    assert sorted(t.final_seat_number for t in finalists) == list(range(1, 11))
    matches = list(Match.objects.filter(competition=comp, stage="final"))
    assert len(matches) == 45
    assert {m.round for m in matches} == set(range(1, 10))
    assert all(m.heat_id is None and m.boards == 20 and m.halves == 2 for m in matches)
    for m in matches:
        assert m.played_on == (comp.final_day1 if m.round <= 5 else comp.final_day2)
    ids = {t.pk for t in finalists}
    pairs = {frozenset((m.home_id, m.away_id)) for m in matches}
    assert len(pairs) == 45 and set().union(*pairs) == ids
    per_round = Counter(m.round for m in matches)
    assert set(per_round.values()) == {5}


def test_demo_users(demo):
    User = get_user_model()
    tk = User.objects.get(username="tk")
    assert tk.is_staff and tk.is_superuser
    klubb = User.objects.get(username="klubb")
    assert not klubb.is_staff
    role = ClubOfficial.objects.get(user=klubb)
    assert role.role == ClubOfficial.Role.HEAT_RESPONSIBLE
    assert TeamHeatOrganiser.objects.filter(club=role.club).exists()
    kapten = User.objects.get(username="kapten")
    assert Team.objects.filter(captain_user=kapten).count() == 1
