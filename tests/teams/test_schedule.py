"""The schedules of a team heat and of the DM Lag final (teams.services.schedule, issue 22):
proposed, adjusted, saved in one transaction, refused with every reason and nothing saved.

R-TEAM-KVAL-4 (everyone meets everyone where possible, else a seeded schedule), R-TEAM-KVAL-5
(boards), R-TEAM-FINAL-1 (the final: 8 teams, 24 boards, a single round robin over the two
central days, numbered by the seats), R-TEAM-DF-1 (a direct final's boards set to fit)."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from clubs.models import Decision
from clubs.services.base import ServiceError
from teams.models import Lineup, Match
from teams.services.schedule import (
    final_schedule,
    heat_schedule,
    propose_final_schedule,
    propose_heat_schedule,
    save_final_schedule,
    save_heat_schedule,
)
from tests.factories import (
    ClubFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
    official,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

SAT, SUN = date(2016, 11, 5), date(2016, 11, 6)


def heat_of(n: int, boards: int = 24, **kwargs):
    heat = TeamHeatFactory(boards_per_match=boards, first_date=SAT, last_date=SUN, **kwargs)
    teams = [TeamFactory(heat=heat, number=i, name=f"Lag {i}") for i in range(1, n + 1)]
    return heat, teams


def rows(heat=None, competition=None):
    qs = Match.objects.filter(heat=heat) if heat else Match.objects.filter(stage="final")
    return sorted(
        (m.round, m.played_on, m.home.number if heat else m.home.name, m.away.name, m.boards)
        for m in qs.select_related("home", "away")
    )


def refused(call) -> list[str]:
    before = (Match.objects.count(), Decision.objects.count())
    with pytest.raises(ServiceError) as exc:
        call()
    assert (Match.objects.count(), Decision.objects.count()) == before, "nothing saved"
    return [v.message_sv for v in exc.value.violations]


def as_entered(schedule):
    return [(r.played_on, r.matches) for r in schedule.rounds]


# --- A heat: the proposal -------------------------------------------------------------------


def test_r_team_kval_4_everyone_meets_everyone_when_the_days_allow(recompute):
    heat, _teams = heat_of(4)
    proposal = propose_heat_schedule(heat)
    # 4 teams: 3 rounds of 2 matches, 6 meetings; 2 rounds on Saturday, 1 on Sunday.
    assert [len(r.matches) for r in proposal.rounds] == [2, 2, 2]
    assert proposal.is_full and proposal.full_rounds == 3
    assert [r.played_on for r in proposal.rounds] == [SAT, SAT, SUN]
    # R-TEAM-KVAL-5: 3 matches × 24 boards = 72 ≥ 70; two halves of 12 boards, 90 minutes.
    assert proposal.errors == [] and proposal.halves == 2 and proposal.half_minutes == 90
    assert not Match.objects.exists()  # a proposal saves nothing


def test_r_team_kval_5_a_proposal_with_too_few_boards_says_so():
    heat, _teams = heat_of(4, boards=16)  # 3 × 16 = 48 boards a team, fewer than 70
    proposal = propose_heat_schedule(heat)
    assert [v.clause for v in proposal.errors] == ["R-TEAM-KVAL-5"]
    assert "4 lag spelar färre än 70 brickor" in proposal.errors[0].message_sv
    assert propose_heat_schedule(heat, boards=24).errors == []


def test_r_team_kval_4_seven_teams_with_days_for_four_rounds_are_seeded():
    # 7 teams need 7 rounds for everyone to meet; with 4 the schedule is seeded (worked by
    # hand in tests/rules/test_schedule.py: every team's opponents average seed 4). Seeds
    # here are not the numbers: 7 is the strongest, then 6, ... 1.
    heat, _teams = heat_of(7)
    proposal = propose_heat_schedule(heat, rounds=4, seeds=[7, 6, 5, 4, 3, 2, 1])
    assert len(proposal.rounds) == 4 and proposal.match_count == 12
    seed = {number: i for i, number in enumerate([7, 6, 5, 4, 3, 2, 1], start=1)}
    opponents: dict[int, list[int]] = {n: [] for n in seed}
    for r in proposal.rounds:
        for h, a in r.matches:
            opponents[h].append(seed[a])
            opponents[a].append(seed[h])
    assert {sum(o) / len(o) for o in opponents.values()} == {4.0}
    # 3 matches × 24 = 72 boards for the four that sit out a round: R-TEAM-KVAL-5 holds.
    assert proposal.errors == []
    texts = [v.message_sv for v in proposal.warnings]
    assert any("12 av 21 möten på 4 ronder (alla möter alla kräver 7)" in t for t in texts)
    assert any("spelar färre matcher än de andra (4)" in t for t in texts)
    # Sat 2 rounds, Sun 2 rounds.
    assert [r.played_on for r in proposal.rounds] == [SAT, SAT, SUN, SUN]


def test_a_proposal_needs_every_team_in_the_seeding_once():
    heat, _teams = heat_of(4)
    with pytest.raises(ServiceError):
        propose_heat_schedule(heat, seeds=[1, 2, 3])


# --- A heat: saving -------------------------------------------------------------------------


def test_r_team_kval_4_the_heat_responsible_saves_the_proposal(recompute):
    responsible = UserFactory(username="heatansvarig")
    heat, teams = heat_of(4, responsible_user=responsible)
    proposal = propose_heat_schedule(heat)
    saved = save_heat_schedule(responsible, heat, as_entered(proposal), boards=24)
    assert saved.changed
    assert Match.objects.filter(heat=heat, stage="kval").count() == 6
    assert {(m.boards, m.halves) for m in Match.objects.all()} == {(24, 2)}
    decision = Decision.objects.get(action="teams.schedule.saved")
    assert decision.decided_by == responsible and decision.clause == "R-TEAM-KVAL-4"
    assert decision.data["created"] == 6 and decision.data["full"] is True
    recompute.assert_called_once_with(competition_id=heat.competition_id, heat_ids=[heat.pk])
    # Read back: the same rounds, days and matches.
    back = heat_schedule(heat)
    assert back.saved and as_entered(back) == as_entered(proposal)
    # The same schedule again changes nothing and records nothing.
    again = save_heat_schedule(responsible, heat, as_entered(back), boards=24)
    assert not again.changed and Decision.objects.filter(action="teams.schedule.saved").count() == 1


def test_r_team_kval_4_only_whoever_manages_the_heat_saves_it():
    heat, _teams = heat_of(4)
    other_club_official = official(ClubFactory())
    with pytest.raises(PermissionDenied):
        save_heat_schedule(other_club_official, heat, [(SAT, [(1, 2), (3, 4)])], boards=24)
    assert not Match.objects.exists()


def test_r_team_kval_4_an_entered_schedule_is_checked_before_anything_is_saved(tk):
    heat, _teams = heat_of(4)
    texts = refused(
        lambda: save_heat_schedule(
            tk,
            heat,
            [
                (SAT, [(1, 2), (1, 3)]),  # 1 twice in round 1
                (date(2016, 11, 7), [(2, 1), (3, 4)]),  # a Monday, and 1–2 again
                (SUN, [(1, 4), (2, 9)]),  # 9 is not in the heat
            ],
            boards=26,
        )
    )
    assert "Rond 1: lag 1 spelar 2 matcher." in texts
    assert "Lag 1 och 2 möts 2 gånger." in texts
    assert "Rond 3: lag 9 finns inte i schemat." in texts
    assert "Rond 2 spelas 2016-11-07, utanför speldagarna 2016-11-05–2016-11-06." in texts
    assert any("En match med 26 brickor" in t for t in texts)  # R-TEAM-KVAL-5
    # Rounds out of order and a round without a day.
    texts = refused(
        lambda: save_heat_schedule(
            tk, heat, [(SUN, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)]), (None, [(1, 4), (2, 3)])],
            boards=24,
        )
    )  # fmt: skip
    assert "Rond 2 spelas före rond 1." in texts and "Rond 3: ange speldag." in texts


def test_a_saved_schedule_changes_with_a_reason_and_keeps_the_matches_that_stay(tk):
    heat, teams = heat_of(4)
    first = [(SAT, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)]), (SUN, [(1, 4), (2, 3)])]
    save_heat_schedule(tk, heat, first, boards=24)
    kept = Match.objects.get(home=teams[0], away=teams[1])
    Lineup.objects.create(match=kept, team=teams[0], player=member(), half=1)
    swapped = [(SAT, [(1, 4), (2, 3)]), (SAT, [(1, 3), (2, 4)]), (SUN, [(1, 2), (3, 4)])]
    texts = refused(lambda: save_heat_schedule(tk, heat, swapped, boards=24))
    assert any("varje TK-beslut sparas med vem, när och varför" in t for t in texts)
    saved = save_heat_schedule(tk, heat, swapped, boards=24, reason="Lag 1 kan inte lördag fm")
    assert saved.changed
    kept.refresh_from_db()  # the same row, now in round 3 on Sunday, its line-up with it
    assert (kept.round, kept.played_on, kept.lineups.count()) == (3, SUN, 1)
    assert (
        Decision.objects.filter(action="teams.schedule.saved").order_by("id").last().data["updated"]
        == 4
    )


def test_a_schedule_with_a_result_cannot_change(tk):
    heat, teams = heat_of(4)
    save_heat_schedule(
        tk, heat, [(SAT, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)]), (SUN, [(1, 4), (2, 3)])],
        boards=24,
    )  # fmt: skip
    Match.objects.filter(home=teams[0], away=teams[1]).update(
        status="played", imps_home=30, imps_away=12, vp_home=15, vp_away=5
    )
    texts = refused(
        lambda: save_heat_schedule(
            tk, heat, [(SAT, [(1, 3), (2, 4)]), (SAT, [(1, 2), (3, 4)]), (SUN, [(1, 4), (2, 3)])],
            boards=24, reason="byte",
        )
    )  # fmt: skip
    assert texts == [
        "Spelschemat kan inte ändras: matchen Lag 1 – Lag 2 (rond 1) har redan resultat. Ett "
        "schema ändras bara så länge ingen av dess matcher har resultat."
    ]
    assert heat_schedule(heat).locked


def test_a_dropped_match_with_a_line_up_is_refused(tk):
    heat, teams = heat_of(4)
    # One round: 24 boards a team, fewer than 70 (R-TEAM-KVAL-5).
    texts = refused(lambda: save_heat_schedule(tk, heat, [(SAT, [(1, 2), (3, 4)])], boards=24))
    assert "4 lag spelar färre än 70 brickor totalt i heatet." in texts
    full = [(SAT, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)]), (SUN, [(1, 4), (2, 3)])]
    save_heat_schedule(tk, heat, full, boards=24)
    m = Match.objects.get(home=teams[1], away=teams[2])  # 2–3, round 3
    Lineup.objects.create(match=m, team=teams[1], player=member(), half=1)
    texts = refused(
        lambda: save_heat_schedule(
            tk, heat, [(SAT, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)])], boards=24,
            reason="en rond mindre",
        )
    )  # fmt: skip
    assert any("Matchen Lag 2 – Lag 3 (rond 3) finns inte i det nya schemat" in t for t in texts)


def test_r_team_kval_4_a_partial_schedule_when_a_full_one_fits_is_refused(tk):
    heat, _teams = heat_of(4)
    texts = refused(
        lambda: save_heat_schedule(
            tk, heat, [(SAT, [(1, 2), (3, 4)]), (SAT, [(1, 3), (2, 4)]), (SUN, [(1, 2)])],
            boards=24,
        )
    )  # fmt: skip
    assert any(t.startswith("Alla ska mötas: 2 av 6 möten saknas") for t in texts)


# --- The final (R-TEAM-FINAL-1) -------------------------------------------------------------


@pytest.fixture
def final_of_eight():
    competition = TeamCompetitionFactory()  # central days 2017-03-04 and 2017-03-05
    heat = TeamHeatFactory(competition=competition)
    # Seats numbered 8, 7, ..., 1: the schedule goes by the seat's number, not the team's.
    teams = [
        TeamFactory(heat=heat, name=f"Finallag {9 - n}", final_seat=9 - n) for n in range(1, 9)
    ]
    return competition, teams


def test_r_team_final_1_eight_teams_seven_rounds_over_the_two_central_days(final_of_eight):
    competition, _teams = final_of_eight
    proposal = propose_final_schedule(competition)
    assert [t.number for t in proposal.teams] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [t.name for t in proposal.teams][:2] == ["Finallag 1", "Finallag 2"]
    # 7 rounds of 4 matches; 4 rounds on Saturday 4 March, 3 on Sunday 5 March; 24 boards in
    # two halves of 12, 1 h 30 each.
    assert [len(r.matches) for r in proposal.rounds] == [4] * 7 and proposal.is_full
    assert [r.played_on for r in proposal.rounds] == [date(2017, 3, 4)] * 4 + [date(2017, 3, 5)] * 3
    assert (proposal.boards, proposal.halves, proposal.half_minutes) == (24, 2, 90)
    assert proposal.errors == []


def test_r_team_final_1_tk_saves_the_final(final_of_eight, tk, recompute):
    competition, _teams = final_of_eight
    proposal = propose_final_schedule(competition)
    save_final_schedule(tk, competition, as_entered(proposal))
    assert Match.objects.filter(stage="final").count() == 28
    assert {m.boards for m in Match.objects.all()} == {24}
    first = Match.objects.filter(stage="final", round=1).select_related("home", "away")
    assert all(m.heat_id is None for m in first)
    recompute.assert_called_once_with(competition_id=competition.pk, heat_ids=["final"])
    assert as_entered(final_schedule(competition)) == as_entered(proposal)


def test_r_team_final_1_only_tk_and_a_whole_round_robin(final_of_eight, tk):
    competition, teams = final_of_eight
    heat_responsible = UserFactory()
    teams[0].heat.responsible_user = heat_responsible
    teams[0].heat.save()
    with pytest.raises(PermissionDenied):
        save_final_schedule(heat_responsible, competition, [])
    proposal = propose_final_schedule(competition)
    texts = refused(lambda: save_final_schedule(tk, competition, as_entered(proposal)[:6]))
    assert any(t.startswith("Alla ska mötas: 4 av 28 möten saknas") for t in texts)


def test_r_team_df_1_a_direct_final_sets_its_boards(tk):
    competition = TeamCompetitionFactory(is_direct_final=True)
    heat = TeamHeatFactory(competition=competition)
    for n in range(1, 7):
        TeamFactory(heat=heat, name=f"Direkt {n}", final_seat=n)
    proposal = propose_final_schedule(competition, boards=16)
    # 6 teams: 5 rounds (3 on the first day), 16 boards in two halves of 8, 60 minutes.
    assert len(proposal.rounds) == 5 and proposal.boards == 16 and proposal.half_minutes == 60
    assert proposal.errors == []
    save_final_schedule(tk, competition, as_entered(proposal), boards=16)
    assert {m.boards for m in Match.objects.filter(stage="final")} == {16}
    # An 8-team final that is not a direct one keeps R-TEAM-FINAL-1's 24.
    assert propose_final_schedule(competition, boards=26).errors[0].clause == "R-TEAM-DF-1"
