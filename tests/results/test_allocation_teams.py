"""Final places for DM Lag from the heat standings (R-TEAM-ADV-1 with R-ALLOC-2..6, R-REPL-*)."""

import itertools

import pytest

from clubs.models import SeatOffer
from clubs.services.seats import answer_offer
from results.models import AllocationRun, Lot
from results.services.recompute import recompute_team_competition
from teams.models import Match, Team
from tests.factories import (
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    final_teams,
    seat_in_final,
)
from ubf.rules.vp import victory_points

pytestmark = pytest.mark.django_db


def heat_with(competition, n, *, played=True, prefix="H"):
    heat = TeamHeatFactory(competition=competition)
    teams = [TeamFactory(heat=heat, name=f"{prefix}{heat.id}-{i}") for i in range(n)]
    for rnd, (a, b) in enumerate(itertools.combinations(range(n), 2), start=1):
        # the lower-numbered team always wins by (b - a) * 5 IMPs: ranking follows numbering
        imps = (30 + (b - a) * 5, 30)
        vh, va = victory_points(*imps, 16)
        Match.objects.create(
            competition=competition,
            heat=heat,
            stage="kval",
            round=rnd,
            home=teams[a],
            away=teams[b],
            boards=16,
            **(
                {
                    "status": "played",
                    "imps_home": imps[0],
                    "imps_away": imps[1],
                    "vp_home": vh,
                    "vp_away": va,
                }
                if played
                else {}
            ),
        )
    return heat, teams


def test_r_team_adv_1_proportional_seats_and_holders_in_ranking_order():
    comp = TeamCompetitionFactory()
    big, big_teams = heat_with(comp, 6)
    small, small_teams = heat_with(comp, 4)
    recompute_team_competition(comp.id)
    run = AllocationRun.objects.get(competition=comp)
    assert run.final_size == 8  # fewer than 20 teams took part
    assert run.qualifying_entries == 10
    seats = {v["label"]: v["seats"] for v in run.explanation["venues"]}
    assert seats == {big.name: 5, small.name: 3}  # 4.8 -> 5, 3.2 -> 3 (R-ALLOC-3)
    holders = {v["label"]: [h["name"] for h in v["holders"]] for v in run.explanation["venues"]}
    assert holders[big.name] == [t.name for t in big_teams[:5]]  # R-ALLOC-6
    assert run.provisional is False


def test_r_alloc_5_lot_recorded_once_complete_and_reused():
    comp = TeamCompetitionFactory()
    for i in range(3):
        heat_with(comp, 4, prefix=f"L{i}")
    recompute_team_competition(comp.id)
    lots = Lot.objects.filter(competition=comp)
    assert lots.count() == 1
    lot = lots.get()
    assert len(lot.among) == 3 and len(lot.winners) == 2 and len(lot.losers) == 1
    assert lot.seed
    first = AllocationRun.objects.get(competition=comp).explanation["venues"]
    recompute_team_competition(comp.id)
    assert Lot.objects.filter(competition=comp).count() == 1
    assert AllocationRun.objects.get(competition=comp).explanation["venues"] == first


def test_manual_lot_by_tk_is_respected():
    comp = TeamCompetitionFactory()
    heats = [heat_with(comp, 4, prefix=f"M{i}")[0] for i in range(3)]
    keys = []
    for h in heats:
        keys.append("+".join(str(o.club_id) for o in h.organisers.all()))
    # TK drew by hand: the last two venues win (R-ALLOC-5: entered by TK)
    Lot.objects.create(
        kind="teams",
        season=comp.season,
        competition=comp,
        among=keys,
        winners=keys[1:],
        losers=keys[:1],
        seats=2,
        drawn_by_hand=True,
    )
    recompute_team_competition(comp.id)
    seats = {
        v["key"]: v["seats"]
        for v in AllocationRun.objects.get(competition=comp).explanation["venues"]
    }
    assert seats[keys[0]] == 2 and seats[keys[1]] == 3 and seats[keys[2]] == 3


def test_provisional_while_matches_remain_and_no_lot_recorded():
    comp = TeamCompetitionFactory()
    heat_with(comp, 4, prefix="P0")
    heat_with(comp, 4, prefix="P1")
    heat_with(comp, 4, played=False, prefix="P2")
    recompute_team_competition(comp.id)
    run = AllocationRun.objects.get(competition=comp)
    assert run.provisional is True
    assert not Lot.objects.filter(competition=comp).exists()
    assert len(run.explanation["lots"]) == 1  # shown, not recorded


def test_r_team_repl_1_withdrawn_finalist_seat_offered_to_the_next_of_its_heat():
    comp = TeamCompetitionFactory()
    big, big_teams = heat_with(comp, 6)
    heat_with(comp, 4)
    holder = big_teams[0]
    seat_in_final(holder)
    Team.objects.filter(pk=holder.pk).update(status="withdrawn")
    recompute_team_competition(comp.id)
    run = AllocationRun.objects.get(competition=comp)
    # The allocation does not change: the team took part in the qualifiers.
    assert {v["label"]: v["seats"] for v in run.explanation["venues"]}[big.name] == 5
    (seat,) = run.explanation["chain"]
    # R-REPL-1 / R-TEAM-REPL-1: first the nearest eliminated team of its own heat (6th)
    assert seat["ask"] == big_teams[5].name
    assert seat["steps"][-1]["clause"] == "R-REPL-1"


def test_r_team_repl_1_offers_recorded_and_the_chain_moves_on():
    from django.utils import timezone

    from tests.factories import UserFactory

    tk = UserFactory(username="tk-offers", is_superuser=True, is_staff=True)
    comp = TeamCompetitionFactory()
    big, big_teams = heat_with(comp, 6)
    small, small_teams = heat_with(comp, 4)
    holder = big_teams[0]
    seat_in_final(holder, 1)
    Team.objects.filter(pk=holder.pk).update(status="withdrawn")
    rival = small_teams[0]
    seat_in_final(rival, 2)
    final_match = Match.objects.create(
        competition=comp, stage="final", round=1, home=holder, away=rival, boards=24
    )
    recompute_team_competition(comp.id)
    offer = SeatOffer.objects.get(seat__competition=comp, answer="pending")
    assert offer.entry_id == big_teams[5].pk  # R-REPL-1: its own heat's nearest eliminated team
    # The test runs on today's date, after the final's first day (R-REPL-5): TK gives a reason.
    late = "Svaret kom in per telefon före finalen."
    answer_offer(tk, offer, "declined", reason=late)
    recompute_team_competition(comp.id)
    nxt = SeatOffer.objects.get(seat__competition=comp, answer="pending")
    assert nxt.entry_id == small_teams[3].pk  # R-REPL-2: then the other heat's nearest
    answer_offer(tk, nxt, "accepted", answered_at=timezone.now(), reason=late)
    recompute_team_competition(comp.id)
    assert not SeatOffer.objects.filter(seat__competition=comp, answer="pending").exists()
    (seated,) = [t for t in final_teams(comp) if t.id == nxt.entry_id]
    assert seated.final_seat_number == 1  # the number of the team it replaces
    final_match.refresh_from_db()
    assert final_match.home_id == nxt.entry_id  # takes the place in the unplayed matches
    from clubs.models import Decision

    assert Decision.objects.filter(action="teams.offer.accepted", decided_by=tk).exists()
