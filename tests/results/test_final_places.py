"""Final places through a season's hard turns, as a person sees them: who holds each seat of a
DM Par final, who is asked next and why, and what the final's fee list and upload accept.

Expected figures are worked out by hand in the comments (R-ALLOC-1..6, R-REPL-1..7)."""

from __future__ import annotations

from datetime import date

import pytest

from pairs.models import DirectQualifier, FinalSeat, Offer
from pairs.selectors import final_seat_holders
from pairs.services.decisions import decline_final_seat, record_offer_answer
from portal.services.fees import pair_final_fee_list
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, member
from tests.results.test_recompute_pairs import heat_with_results, seats_by_heat

pytestmark = pytest.mark.django_db


def named_heat(comp, name, n):
    heat, entries = heat_with_results(comp, n)
    heat.name = name
    heat.save()
    return heat, entries


def direct_qualifier(comp, players=None):
    season = comp.season
    p1, p2 = players or (member(season=season), member(season=season))
    return DirectQualifier.objects.create(
        competition=comp, player1=p1, player2=p2, registered_on=date(2016, 12, 1)
    )


def holders(comp) -> set[int]:
    return {h.holder.pk for h in final_seat_holders(comp) if h.seat.entry_id}


def pending_offer(comp) -> Offer:
    return Offer.objects.get(seat__competition=comp, answer=Offer.Answer.PENDING)


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

    seat = FinalSeat.objects.get(competition=comp, direct_qualifier=dq)
    decline_final_seat(tk, seat, reason="Kan inte spela finalen")
    recompute_pair_competition(comp.id)

    # nobody loses a seat: the venues keep 3 / 4 / 20 ...
    assert seats_by_heat(comp)[0] == {"A": 3, "B": 4, "C": 20}
    assert holders(comp) == before
    # ... and the freed seat is offered by closeness (R-REPL-7, R-REPL-2): A's 4th 4 - 2.571
    # = 1.43, B's 5th 5 - 4.500 = 0.50, C's 21st 21 - 19.929 = 1.07: B's 5th pair first.
    assert pending_offer(comp).entry == b_entries[4]


def test_r_repl_5_a_replacement_that_accepts_holds_a_seat_of_its_own_and_pays_for_it(
    season_of_three, tk
):
    comp, _a, (_b, b_entries), _c, dq = season_of_three
    decline_final_seat(
        tk, FinalSeat.objects.get(competition=comp, direct_qualifier=dq), reason="Återbud"
    )
    recompute_pair_competition(comp.id)
    offer = pending_offer(comp)
    record_offer_answer(tk, offer, Offer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)

    assert b_entries[4].pk in holders(comp)
    assert len(final_seat_holders(comp)) == 28  # 27 venue seats and the replacement
    assert not Offer.objects.filter(answer=Offer.Answer.PENDING).exists()
    payers = [row.payer for row in pair_final_fee_list(comp).rows]
    replacement = b_entries[4]
    assert any(replacement.player1.full_name in p for p in payers)
    assert not any(dq.player1.full_name in p for p in payers)
    assert len(payers) == 28


def test_r_repl_6_a_replacement_that_withdraws_in_turn_is_replaced_by_the_next_in_the_chain(
    season_of_three, tk
):
    comp, (_a, a_entries), (_b, b_entries), (_c, c_entries), dq = season_of_three
    decline_final_seat(
        tk, FinalSeat.objects.get(competition=comp, direct_qualifier=dq), reason="Återbud"
    )
    recompute_pair_competition(comp.id)
    record_offer_answer(tk, pending_offer(comp), Offer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)
    own = FinalSeat.objects.get(competition=comp, entry=b_entries[4])
    decline_final_seat(tk, own, reason="Sjukdom")
    recompute_pair_competition(comp.id)
    # next by closeness after B's 5th (0.50): C's 21st (1.07), then A's 4th (1.43)
    assert pending_offer(comp).entry == c_entries[20]
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
    seat = FinalSeat.objects.get(competition=comp, entry=champions)
    assert seat.direct_qualifier == dq and seat.source == FinalSeat.Source.DIRECT

    decline_final_seat(tk, seat, reason="Avstår")
    recompute_pair_competition(comp.id)
    # R-REPL-1: the seat's venue is A: its nearest eliminated pair, A's 18th, is asked first
    assert pending_offer(comp).entry == a_entries[17]
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
    vacant = FinalSeat.objects.get(competition=comp, entry=None, direct_qualifier=None)
    assert vacant.status == FinalSeat.Status.VACATED
    assert pending_offer(comp).entry == x_entries[25]
    # the final: 25 from X, D's other pair, the champions = 27 held, one seat being offered
    assert len(final_seat_holders(comp)) == 27
    record_offer_answer(tk, pending_offer(comp), Offer.Answer.ACCEPTED)
    recompute_pair_competition(comp.id)
    assert len(final_seat_holders(comp)) == 28
