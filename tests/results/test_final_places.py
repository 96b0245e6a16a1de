"""Final places through a season's hard turns, as a person sees them: who holds each seat of a
DM Par final, who is asked next and why, and what the final's fee list and upload accept.

Expected figures are worked out by hand in the comments (R-ALLOC-1..6, R-REPL-1..7)."""

from __future__ import annotations

from datetime import date

import pytest

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import answer_offer, give_up_seat, override_offer
from pairs.models import PairEntry
from pairs.selectors import final_seat_holders
from portal.services.fees import pair_final_fee_list
from results.models import AllocationRun
from results.services.allocation import venue_key
from results.services.recompute import recompute_pair_competition, recompute_team_competition
from teams.models import Team
from teams.services.entries import withdraw_team
from tests.factories import (
    PairCompetitionFactory,
    TeamCompetitionFactory,
    TeamFactory,
    accepted_upload,
    final_teams,
    member,
)
from tests.results.test_allocation_teams import heat_with
from tests.results.test_recompute_pairs import heat_with_results, seats_by_heat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_the_season():
    """Offers are answered before the finals (team final 4 Mar 2017, pairs final 22 Apr 2017):
    an answer after the final's first day is TK's, with a reason (R-REPL-5, clubs.windows)."""
    with clock.frozen("2017-02-20 10:00"):
        yield


def named_heat(comp, name, n):
    heat, entries = heat_with_results(comp, n)
    heat.name = name
    heat.save()
    return heat, entries


def direct_qualifier(comp, players=None):
    season = comp.season
    p1, p2 = players or (member(season=season), member(season=season))
    return PairEntry.objects.create(
        competition=comp,
        entered_as=PairEntry.EnteredAs.DIRECT,
        player1=p1,
        player2=p2,
        registered_on=date(2016, 12, 1),
    )


def holders(comp) -> set[int]:
    """The heat entries holding a seat (a direct qualifier that played no heat left out)."""
    return {h.holder.pk for h in final_seat_holders(comp) if h.holder.heat_id}


def pending_offer(comp) -> SeatOffer:
    return SeatOffer.objects.get(seat__competition=comp, answer=SeatOffer.Answer.PENDING)


@pytest.fixture
def season_of_three(tk):
    """Heats of 4, 7 and 31 pairs plus last season's champions: 42 qualifying pairs give a
    28-pair final (R-ALLOC-1), 27 seats to the venues. Shares 27·4/42 = 2.571, 27·7/42 = 4.500,
    27·31/42 = 19.929; whole seats 2 + 4 + 19 = 25, the two left go to the largest fractions,
    .929 (C) and .571 (A): 3 / 4 / 20."""
    comp = PairCompetitionFactory(discipline="open")
    a = named_heat(comp, "A", 4)
    b = named_heat(comp, "B", 7)
    c = named_heat(comp, "C", 31)
    dq = direct_qualifier(comp)
    recompute_pair_competition(comp.id)
    return comp, a, b, c, dq


def test_r_repl_7_a_direct_qualifier_that_gives_up_its_seat_starts_the_chain(season_of_three, tk):
    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    assert seats_by_heat(comp)[0] == {"A": 3, "B": 4, "C": 20}
    before = holders(comp)
    assert len(before) == 27

    seat = FinalSeat.objects.get(competition=comp, holder=dq)
    give_up_seat(tk, seat, reason="Kan inte spela finalen")
    recompute_pair_competition(comp.id)

    # nobody loses a seat: the venues keep 3 / 4 / 20 ...
    assert seats_by_heat(comp)[0] == {"A": 3, "B": 4, "C": 20}
    assert holders(comp) == before
    # ... and the freed seat is offered by closeness (R-REPL-7, R-REPL-2): A's 4th 4 - 2.571
    # = 1.43, B's 5th 5 - 4.500 = 0.50, C's 21st 21 - 19.929 = 1.07: B's 5th pair first.
    assert pending_offer(comp).entry_id == b_entries[4].pk


def test_r_repl_5_a_replacement_that_accepts_holds_a_seat_of_its_own_and_pays_for_it(
    season_of_three, tk
):
    comp, _a, (_b, b_entries), _c, dq = season_of_three
    give_up_seat(tk, FinalSeat.objects.get(competition=comp, holder=dq), reason="Återbud")
    recompute_pair_competition(comp.id)
    offer = pending_offer(comp)
    answer_offer(tk, offer, SeatOffer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)

    assert b_entries[4].pk in holders(comp)
    assert len(final_seat_holders(comp)) == 28  # 27 venue seats and the replacement
    assert not SeatOffer.objects.filter(answer=SeatOffer.Answer.PENDING).exists()
    payers = [row.payer for row in pair_final_fee_list(comp).rows]
    replacement = b_entries[4]
    assert any(replacement.player1.full_name in p for p in payers)
    assert not any(dq.player1.full_name in p for p in payers)
    assert len(payers) == 28


def test_r_repl_6_a_replacement_that_withdraws_in_turn_is_replaced_by_the_next_in_the_chain(
    season_of_three, tk
):
    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    give_up_seat(tk, FinalSeat.objects.get(competition=comp, holder=dq), reason="Återbud")
    recompute_pair_competition(comp.id)
    answer_offer(tk, pending_offer(comp), SeatOffer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)
    own = FinalSeat.objects.get(competition=comp, holder=b_entries[4])
    give_up_seat(tk, own, reason="Sjukdom")
    recompute_pair_competition(comp.id)
    # next by closeness after B's 5th (0.50): C's 21st (1.07), then A's 4th (1.43)
    assert pending_offer(comp).entry_id == c_entries[20].pk
    assert b_entries[4].pk not in holders(comp)


def test_r_alloc_2_a_direct_qualifier_that_played_a_heat_has_a_seat_and_can_give_it_up(tk):
    """Heats of 30 and 20 pairs, the champions play heat A (pair 12 there): 50 qualifying pairs
    give 28 (R-ALLOC-1), 27 seats to the venues: 27·30/50 = 16.2 and 27·20/50 = 10.8, whole
    16 + 10, the last to B (.8): 16 / 11. A's seats go to its first 16 pairs but the champions
    (R-ALLOC-2 passes them over), so A's 17th pair goes on too."""
    comp = PairCompetitionFactory(discipline="open")
    _a, a_entries = named_heat(comp, "A", 30)
    _b, b_entries = named_heat(comp, "B", 20)
    champions = a_entries[11]
    dq = direct_qualifier(comp, (champions.player1, champions.player2))
    recompute_pair_competition(comp.id)

    assert seats_by_heat(comp)[0] == {"A": 16, "B": 11}
    seated = holders(comp)
    assert len(final_seat_holders(comp)) == 28
    assert champions.pk in seated and a_entries[16].pk in seated
    assert a_entries[17].pk not in seated
    seat = FinalSeat.objects.get(competition=comp, holder=champions)
    assert seat.source == FinalSeat.Source.DIRECT

    give_up_seat(tk, seat, reason="Avstår")
    recompute_pair_competition(comp.id)
    dq.refresh_from_db()  # the champions gave their direct place up (R-REPL-7's record)
    assert dq.status == PairEntry.Status.DECLINED and dq.status_reason == "Avstår"
    # R-REPL-1: the seat's venue is A: its nearest eliminated pair, A's 18th, is asked first
    assert pending_offer(comp).entry_id == a_entries[17].pk
    assert len(final_seat_holders(comp)) == 27


def test_r_alloc_6_a_seat_its_venue_cannot_fill_is_offered(tk):
    """Heat D has 2 pairs, one of them the champions; heat X has 28. 30 qualifying pairs give
    28 (R-ALLOC-1), 27 to the venues: 27·2/30 = 1.8 and 27·28/30 = 25.2, whole 1 + 25, the last
    to D (.8): 2 / 25. D has only one pair besides the champions, so one seat is vacant and is
    offered down the chain: X's 26th pair (26 - 25.2 = 0.8) is asked."""
    comp = PairCompetitionFactory(discipline="open")
    _d, d_entries = named_heat(comp, "D", 2)
    _x, x_entries = named_heat(comp, "X", 28)
    champions = d_entries[0]
    direct_qualifier(comp, (champions.player1, champions.player2))
    recompute_pair_competition(comp.id)

    assert seats_by_heat(comp)[0] == {"D": 2, "X": 25}
    vacant = FinalSeat.objects.get(competition=comp, holder=None)
    assert vacant.status == FinalSeat.Status.VACATED
    assert pending_offer(comp).entry_id == x_entries[25].pk
    # the final: 25 from X, D's other pair, the champions = 27 held, one seat being offered
    assert len(final_seat_holders(comp)) == 27
    answer_offer(tk, pending_offer(comp), SeatOffer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)
    assert len(final_seat_holders(comp)) == 28


# --- DM Lag ---------------------------------------------------------------------------------


def team_seats(comp) -> dict[str, int]:
    run = AllocationRun.objects.get(competition=comp)
    return {v["label"]: v["seats"] for v in run.explanation["venues"]}


def team_heat(comp, label, n):
    heat, teams = heat_with(comp, n, prefix=label)
    heat.name = label
    heat.save()
    return heat, teams


@pytest.fixture
def lag_season():
    """Heats of 8, 11 and 11 teams plus last season's champions: 30 qualifying teams give a
    10-team final (R-TEAM-ADV-1), 9 seats to the heats: 9·8/30 = 2.4, 9·11/30 = 3.3 and 3.3;
    whole 2 + 3 + 3, the last seat to the largest fraction (.4, A): 3 / 3 / 3."""
    comp = TeamCompetitionFactory()
    a = team_heat(comp, "A", 8)
    b = team_heat(comp, "B", 11)
    c = team_heat(comp, "C", 11)
    champions = TeamFactory(heat=None, competition=comp, name="Mästarna", is_direct_qualifier=True)
    recompute_team_competition(comp.id)
    return comp, a, b, c, champions


def test_r_team_repl_1_champions_who_withdraw_leave_the_heats_seats_as_they_were(lag_season, tk):
    comp, (a, a_teams), (b, b_teams), (c, c_teams), champions = lag_season
    assert team_seats(comp) == {"A": 3, "B": 3, "C": 3}
    finalists = {t.id for t in final_teams(comp)}
    # the final is set from the allocation: the 9 heat holders and the champions
    assert finalists == {t.id for t in a_teams[:3] + b_teams[:3] + c_teams[:3]} | {champions.id}

    withdraw_team(tk, champions, reason="Laget har upplösts")
    recompute_team_competition(comp.id)

    assert team_seats(comp) == {"A": 3, "B": 3, "C": 3}
    # R-REPL-7 by closeness: A's 4th 4 - 2.4 = 1.6, B's and C's 4th 4 - 3.3 = 0.7 each; equal
    # closeness and equal shares: the venue key decides (R-REPL-2)
    key = {h.name: venue_key(o.club_id for o in h.organisers.all()) for h in (b, c)}
    first = b_teams[3] if key["B"] < key["C"] else c_teams[3]
    offer = SeatOffer.objects.get(seat__competition=comp, answer=SeatOffer.Answer.PENDING)
    assert offer.entry_id == first.pk


def test_r_team_repl_1_a_qualified_team_that_withdraws_is_replaced_and_stays_out(lag_season, tk):
    comp, (_a, a_teams), (_b, b_teams), (_c, c_teams), _champions = lag_season
    leaver = a_teams[0]
    withdraw_team(tk, leaver, reason="Två spelare sjuka")
    recompute_team_competition(comp.id)
    offer = SeatOffer.objects.get(seat__competition=comp, answer=SeatOffer.Answer.PENDING)
    assert offer.entry_id == a_teams[3].pk  # R-REPL-1: its own heat's nearest eliminated team
    answer_offer(tk, offer, SeatOffer.Answer.ACCEPTED)
    recompute_team_competition(comp.id)

    chain = {s["seat"]: s for s in AllocationRun.objects.get(competition=comp).explanation["chain"]}
    assert chain[str(leaver.id)]["holder"] == a_teams[3].name  # the withdrawal is remembered
    assert not leaver.is_finalist

    # a second withdrawal: the chain asks a team that is not in the final already
    withdraw_team(tk, b_teams[0], reason="Återbud")
    recompute_team_competition(comp.id)
    nxt = SeatOffer.objects.get(seat__competition=comp, answer=SeatOffer.Answer.PENDING)
    assert nxt.entry_id == b_teams[3].pk
    finalists = {t.id for t in final_teams(comp)}
    assert nxt.entry_id not in finalists and a_teams[3].id in finalists


def test_withdrawing_a_team_needs_a_reason_and_the_right_to_speak_for_it(lag_season, tk):
    from django.core.exceptions import PermissionDenied

    from clubs.services.base import ServiceError
    from tests.factories import UserFactory

    comp, (_a, a_teams), _b, _c, _champions = lag_season
    with pytest.raises(PermissionDenied):
        withdraw_team(UserFactory(), a_teams[0], reason="?")
    with pytest.raises(ServiceError) as exc:
        withdraw_team(tk, a_teams[0], reason=" ")
    assert "R-TEAM-REPL-1" in str(exc.value)
    a_teams[0].refresh_from_db()
    assert a_teams[0].status == Team.Status.ENTERED


#: Matchpoints of three pairs on equal score, board by board: boards 1-5 3/1/3, boards 6-8
#: 1/3/2, board 9 1/2/3. Boards won between the first two: 5 to 4; counting the third as well,
#: the first has 5 + 0 = 5 and the second 4 + 3 = 7 (R-PAIR-TIE-1 (1)).
THREE_TIED = {**dict.fromkeys(range(1, 6), (3, 1, 3)), 6: (1, 3, 2), 7: (1, 3, 2), 8: (1, 3, 2)}
THREE_TIED[9] = (1, 2, 3)


def test_r_pair_tie_1_a_bronze_heats_qualifiers_are_separated_among_themselves(tk):
    """R-PAIR-TIE-1 "berörda par", R-PAIR-KVAL-5: in bronze heat Z, A and B declared for the
    qualifier and C did not; all three scored 55 %. Boards 1-5: A 3, B 1, C 3 matchpoints;
    boards 6-8: A 1, B 3, C 2; board 9: A 1, B 2, C 3. Boards won between A and B: A 5, B 4,
    so A is ahead. Counting C as well would give A 5 + 0 = 5 and B 4 + 3 = 7.
    Two more declared pairs at 60 % make Z's four declared pairs (the bronze minimum). With a
    silver heat X of 40 pairs, 44 qualify, a 28-pair final: 28·4/44 = 2.545 seats for Z and
    28·40/44 = 25.455 for X; whole 2 + 25, the last to Z (.545 against .455): Z has three
    seats, the two 60 % pairs and then A."""
    from decimal import Decimal

    from pairs.models import PairEntry
    from results.models import PairResult, PairTraveller
    from tests.factories import PairHeatFactory

    comp = PairCompetitionFactory(discipline="open")
    named_heat(comp, "X", 40)
    heat = PairHeatFactory(competition=comp, heat_type="bronze", name="Z")
    upload = accepted_upload(comp, heat, "z.pbn")
    season = comp.season

    def entry(number, declared, pct):
        e = PairEntry.objects.create(
            heat=heat,
            player1=member(season=season),
            player2=member(season=season),
            pair_number=str(number),
            takes_part_in_qualifier=declared,
        )
        PairResult.objects.create(
            upload=upload,
            heat=heat,
            entry=e,
            total=Decimal(pct),
            percentage=Decimal(pct),
            boards_played=24,
        )
        return e

    top = [entry(4, True, 60), entry(5, True, 60)]
    a, b, c = entry(1, True, 55), entry(2, True, 55), entry(3, False, 55)
    opponents = [entry(10 + k, False, 40 - k) for k in range(3)]
    for board, values in THREE_TIED.items():
        for pair, opponent, mp in zip((a, b, c), opponents, values, strict=True):
            PairTraveller.objects.create(
                upload=upload,
                board_number=board,
                ns=pair,
                ew=opponent,
                mp_ns=Decimal(mp),
                mp_ew=Decimal(4 - mp),
            )
    recompute_pair_competition(comp.id)

    assert seats_by_heat(comp)[0] == {"X": 25, "Z": 3}
    seated = holders(comp)
    assert {top[0].pk, top[1].pk, a.pk} <= seated
    assert b.pk not in seated and c.pk not in seated


def test_r_pair_mp_3_title_gold_plaque_and_bonus_go_to_the_same_ubf_pair(tk):
    """R-PAIR-TIE-2, R-PAIR-MP-3: UBF pairs U1 and U2 and out-of-district pair O all score
    60 %. Matchpoints (U1, U2, O): boards 1-5 3/1/3, boards 6-8 1/3/2, board 9 1/2/3. Between
    U1 and U2 U1 wins 5 boards to 4, so U1 has the gold plaque; counted with O, U2 (7) would
    come above U1 (5), and the title and bonus would go to U2. They must go to U1 too."""
    from decimal import Decimal

    from results.models import PairFinalResult, PairFinalTraveller, StandingSnapshot
    from tests.factories import ClubFactory, DistrictFactory

    comp = PairCompetitionFactory(discipline="open", sm_places=0)
    season = comp.season
    away = ClubFactory(district=DistrictFactory(code="SBD", name="Stockholms BF"))
    upload = accepted_upload(comp, None, "final.xml")

    def pair(pct, club=None):
        p1, p2 = member(season=season, club=club), member(season=season, club=club)
        PairFinalResult.objects.create(
            upload=upload,
            competition=comp,
            player1=p1,
            player2=p2,
            total=Decimal(pct),
            percentage=Decimal(pct),
            boards_played=9,
            out_of_district=club is not None,
        )
        return "-".join(sorted((p1.mid, p2.mid)))

    u1, u2, o = pair(60), pair(60), pair(60, club=away)
    others = [pair(40 - k) for k in range(3)]
    for board, values in THREE_TIED.items():
        for key, opponent, mp in zip((u1, u2, o), others, values, strict=True):
            PairFinalTraveller.objects.create(
                upload=upload,
                board_number=board,
                ns_key=key,
                ew_key=opponent,
                mp_ns=Decimal(mp),
                mp_ew=Decimal(4 - mp),
            )
    recompute_pair_competition(comp.id)

    rows = {
        r["key"]: r
        for r in StandingSnapshot.objects.get(scope="pair_final", competition=comp).data["rows"]
    }
    assert rows[u1]["plaque_place"] == 1 and rows[u2]["plaque_place"] == 2
    assert rows[u1]["title"] and not rows[u2]["title"] and not rows[o]["title"]
    assert rows[u1]["bonus_per_player"] == 60 and rows[u2]["bonus_per_player"] == 40  # Open


def three_tied_heats(comp, clubs=None):
    """Three heats of 10 pairs: 30 qualify, a 28-pair final, 28·10/30 = 9.33 seats each; whole
    9 + 9 + 9 and one seat left for three equal venues: a lot among them (R-ALLOC-5)."""
    heats = []
    for i, label in enumerate("ABC"):
        heat, _entries = named_heat(comp, label, 10)
        if clubs is not None:
            heat.clubs.set([clubs[i]])
        heats.append(heat)
    return heats


def test_r_alloc_5_a_lot_is_drawn_with_a_fresh_seed_recorded_so_that_it_replays():
    from unittest.mock import patch

    from results.models import Lot
    from ubf.rules.draw import seeded_draw

    comp = PairCompetitionFactory(discipline="open")
    three_tied_heats(comp)
    with patch("results.services.allocation.fresh_seed", return_value=424242):
        recompute_pair_competition(comp.id)
    lot = Lot.objects.get(competition=comp)
    assert lot.seed == "424242" and len(lot.among) == 3 and len(lot.winners) == 1
    assert seeded_draw(424242)(list(lot.among), 1) == lot.winners  # anyone can replay it
    by_label = seats_by_heat(comp)[0]
    assert sorted(by_label.values()) == [9, 9, 10]
    recompute_pair_competition(comp.id)  # a later recompute keeps the drawn lot
    assert Lot.objects.filter(competition=comp).count() == 1
    assert seats_by_heat(comp)[0] == by_label


def test_r_alloc_5_precedence_from_a_later_lot_does_not_overturn_an_earlier_one():
    """Open draws a lot among venues A, B, C; its two losers hold precedence. Mixed, later,
    has a tie between those two: the first wins on its precedence, the other loses again and
    holds precedence from Mixed's lot. Recomputing Open must keep Open's lot as drawn: the
    later precedence does not count for a lot drawn before it."""
    from results.models import Lot
    from tests.factories import ClubFactory

    clubs = [ClubFactory() for _ in range(3)]
    open_ = PairCompetitionFactory(discipline="open")
    three_tied_heats(open_, clubs)
    recompute_pair_competition(open_.id)
    first = Lot.objects.get(competition=open_)
    open_seats = seats_by_heat(open_)[0]

    mixed = PairCompetitionFactory(discipline="mixed", season=open_.season)
    loser_clubs = [c for c in clubs if str(c.id) in first.losers]
    for club in loser_clubs:  # two heats of 14: 28 seats, 14 each: no lot ...
        heat, _ = named_heat(mixed, f"M{club.id}", 14)
        heat.clubs.set([club])
    named_heat(mixed, "M-other", 1)  # ... 29 qualify: 28·14/29 = 13.52 each, one seat to draw
    recompute_pair_competition(mixed.id)
    later = Lot.objects.get(competition=mixed)
    assert later.pk > first.pk and later.losers  # recorded after it (the clock is frozen here)

    recompute_pair_competition(open_.id)
    assert Lot.objects.filter(competition=open_).count() == 1
    assert seats_by_heat(open_)[0] == open_seats


def test_r_repl_5_an_offer_tk_made_by_hand_survives_the_recompute(season_of_three, tk):
    """The champions give their seat up and the chain asks heat B's 5th pair (closeness 0.50,
    see above), who declines. Before the chain asks again, TK offers the seat to heat A's 4th
    pair with a reason. Recomputing keeps TK's offer (no second offer for the seat); when A's
    4th declines, the chain asks C's 21st (closeness 21 - 19.929 = 1.07)."""

    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    seat = FinalSeat.objects.get(competition=comp, holder=dq)
    give_up_seat(tk, seat, reason="Återbud")
    recompute_pair_competition(comp.id)
    answer_offer(tk, pending_offer(comp), SeatOffer.Answer.DECLINED)  # B's 5th
    override_offer(tk, seat, a_entries[3], "Paret har bekräftat att det kan spela")
    recompute_pair_competition(comp.id)
    recompute_pair_competition(comp.id)
    assert pending_offer(comp).entry_id == a_entries[3].pk  # TK's offer stands, and is the only one
    assert pending_offer(comp).override_reason
    answer_offer(tk, pending_offer(comp), SeatOffer.Answer.DECLINED)
    recompute_pair_competition(comp.id)
    assert pending_offer(comp).entry_id == c_entries[20].pk


def test_r_pair_df_1_pairs_enter_a_direct_final_pay_its_fee_and_are_in_its_upload(tk):
    """R-PAIR-DF-1: DM Par Dam as a direct final (no heats): six women's pairs are entered straight into the
    final by TK; both hold a seat, the final's fee list charges both, and the final's result
    file with their MIDs is accepted. A pair with a man is refused (R-PAIR-3)."""

    from clubs.services.base import ServiceError
    from pairs.services.entries import enter_direct_final_pair
    from results.models import PairFinalResult
    from results.services.uploads import upload_pair_final
    from ubf.demo.simulate import simulate_pair_heat
    from ubf.demo.writers import write_usebio_pairs

    comp = PairCompetitionFactory(discipline="dam", is_direct_final=True)
    event = simulate_pair_heat(
        [
            (
                str(k),
                (str(910000 + 2 * k), f"Dam {2 * k}"),
                (str(910001 + 2 * k), f"Dam {2 * k + 1}"),
                k,
            )
            for k in range(1, 7)
        ],
        20,
        seed=3,
        movement="howell",
        unplayed=0,
    )
    pairs = event.pairs
    for pair in pairs:
        for pl in pair.players:
            member(season=comp.season, mid=pl.mid, first_name=pl.name, gender="F")
        enter_direct_final_pair(tk, comp, pair.players[0].mid, pair.players[1].mid)
    man = member(season=comp.season, gender="M")
    with pytest.raises(ServiceError) as exc:
        enter_direct_final_pair(tk, comp, man.mid, member(season=comp.season, gender="F").mid)
    assert "R-PAIR-3" in str(exc.value)

    assert len(final_seat_holders(comp)) == 6
    assert len(pair_final_fee_list(comp).rows) == 6
    with clock.frozen("2017-04-22 20:00"):  # the final's evening
        upload_pair_final(tk, comp, data=write_usebio_pairs(event), filename="dam.xml")
    assert PairFinalResult.objects.filter(competition=comp).count() == 6


# --- R-REPL-3: nobody left in the chain, TK decides ---------------------------------------------


@pytest.fixture
def everyone_seated(tk):
    """Heat A (silver, 10 pairs) and heat B (bronze, 6 pairs, 4 of them declared for the
    qualifier): 14 qualifying pairs (R-ALLOC-1, R-PAIR-KVAL-5), fewer than 28, so all 14 go on:
    10 seats from A, 4 from B (14·10/14 and 14·4/14). A seat given up then has nobody left to
    ask: every qualifying pair holds a seat (R-REPL-3)."""
    comp = PairCompetitionFactory(discipline="open")
    _a, a_entries = heat_with_results(comp, 10)
    _b, b_entries = heat_with_results(comp, 6, heat_type="bronze", declared=4)
    recompute_pair_competition(comp.id)
    assert seats_by_heat(comp)[0] == {_a.name: 10, _b.name: 4}
    seat = FinalSeat.objects.get(competition=comp, holder=a_entries[0])
    give_up_seat(tk, seat, reason="Kan inte spela")
    recompute_pair_competition(comp.id)
    return comp, seat, a_entries, b_entries


def _chain_status(comp, seat) -> str:
    chain = AllocationRun.objects.get(competition=comp).explanation["chain"]
    return next(c["status"] for c in chain if c["seat"] == seat.chain_key)


def test_r_repl_3_nobody_left_tk_gives_the_seat_to_a_pair_of_its_choice(everyone_seated, tk):
    comp, seat, _a_entries, b_entries = everyone_seated
    assert _chain_status(comp, seat) == "tk_decides"
    assert not SeatOffer.objects.filter(seat=seat).exists()
    assert len(final_seat_holders(comp)) == 13

    # B's 5th pair did not declare for the qualifier: the chain never asks it, TK may.
    override_offer(tk, seat, b_entries[4], "Ingen kvar i kedjan; paret spelade heat B")
    recompute_pair_competition(comp.id)
    offer = pending_offer(comp)
    assert offer.entry_id == b_entries[4].pk and offer.override_reason
    answer_offer(tk, offer, SeatOffer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)
    assert b_entries[4].pk in holders(comp)
    assert len(final_seat_holders(comp)) == 14


def test_r_repl_3_tk_leaves_the_seat_empty_with_a_reason(everyone_seated, tk):
    from clubs.services.base import ServiceError
    from clubs.services.seats import leave_seat_empty

    comp, seat, _a_entries, b_entries = everyone_seated
    leave_seat_empty(tk, seat, "Finalen spelas med 13 par")
    recompute_pair_competition(comp.id)
    seat.refresh_from_db()
    assert seat.state == FinalSeat.State.EMPTY and seat.closed_reason
    assert _chain_status(comp, seat) == "closed"
    assert not SeatOffer.objects.filter(seat=seat).exists()
    assert len(final_seat_holders(comp)) == 13
    with pytest.raises(ServiceError) as refused:
        leave_seat_empty(tk, seat, "igen")
    assert "R-REPL-3" in str(refused.value)
    # TK may still fill it later: the offer opens the seat again.
    override_offer(tk, seat, b_entries[5], "Ett par har anmält sig")
    seat.refresh_from_db()
    assert seat.closed_reason == "" and pending_offer(comp).entry_id == b_entries[5].pk
