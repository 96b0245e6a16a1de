"""R-REPL-1..7, R-ALLOC-2, R-ALLOC-6 as a property over generated seasons: after any sequence
of declines, acceptances and refusals recorded through the services, the final is whole and the
chain behaves: every seat is held by exactly one pair or has one open offer (or, with nobody
left, waits for TK), no pair holds two seats, a pair that accepted keeps its seat until it
gives it up, and the chain never asks a pair that holds a seat or was asked before."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import answer_offer, give_up_seat
from pairs.models import PairEntry
from pairs.selectors import final_seat_holders
from results.models import AllocationRun
from results.services.recompute import recompute_pair_competition
from tests.factories import PairCompetitionFactory, UserFactory, member
from tests.results.test_recompute_pairs import heat_with_results

pytestmark = pytest.mark.django_db

season_shape = st.fixed_dictionaries(
    {
        "heats": st.lists(st.integers(min_value=2, max_value=16), min_size=1, max_size=3),
        "champions": st.sampled_from(["none", "own", "in_heat"]),
        "steps": st.lists(
            st.tuples(st.sampled_from(["decline", "accept", "refuse"]), st.integers(0, 10**6)),
            max_size=6,
        ),
    }
)


def holders_by_entry(comp) -> dict[str, FinalSeat]:
    return {
        h.seat.chain_key if h.seat.holder_id is None else str(h.seat.holder_id): h.seat
        for h in final_seat_holders(comp)
    }


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(shape=season_shape)
def test_the_final_stays_whole_whatever_the_season_does(shape):
    # answers to seat offers are taken up to the final's day (2017-04-22 in the factories)
    with clock.frozen("2017-02-20 10:00"), transaction.atomic():
        tk = UserFactory(is_superuser=True, is_staff=True)
        comp = PairCompetitionFactory(discipline="open")
        heats = [heat_with_results(comp, n) for n in shape["heats"]]
        if shape["champions"] != "none":
            if shape["champions"] == "in_heat":
                e = heats[0][1][0]
                p1, p2 = e.player1, e.player2
            else:
                p1, p2 = member(season=comp.season), member(season=comp.season)
            PairEntry.objects.create(
                entered_as="direct",
                competition=comp,
                player1=p1,
                player2=p2,
                registered_on=date(2016, 12, 1),
            )
        recompute_pair_competition(comp.id)
        size = (
            FinalSeat.objects.filter(competition=comp)
            .exclude(source=FinalSeat.Source.REPLACEMENT)
            .count()
        )
        asked: set[int] = set()
        accepted: set[int] = set()
        gone: set[int] = set()
        for action, pick in shape["steps"]:
            held = list(final_seat_holders(comp))
            pending = list(SeatOffer.objects.filter(seat__competition=comp, answer="pending"))
            if action == "decline" and held:
                seat = held[pick % len(held)].seat
                if seat.holder_id:
                    gone.add(seat.holder_id)
                give_up_seat(tk, seat, reason="Återbud")
            elif action in ("accept", "refuse") and pending:
                offer = pending[pick % len(pending)]
                answer = (
                    SeatOffer.Answer.ACCEPTED if action == "accept" else SeatOffer.Answer.DECLINED
                )
                answer_offer(tk, offer, answer)
                if answer == SeatOffer.Answer.ACCEPTED:
                    accepted.add(offer.entry_id)
            else:
                continue
            recompute_pair_competition(comp.id)

            held = final_seat_holders(comp)
            held_entries = [h.seat.holder_id for h in held if h.seat.holder_id]
            open_offers = list(SeatOffer.objects.filter(seat__competition=comp, answer="pending"))
            # no pair holds two seats, and the final never grows
            assert len(held_entries) == len(set(held_entries))
            # every seat is held or has its open offer, unless nobody is left to ask (TK)
            chain = AllocationRun.objects.get(competition=comp).explanation["chain"]
            waiting_for_tk = sum(1 for c in chain if c["status"] in ("tk_decides", "closed"))
            assert len(held) + len(open_offers) + waiting_for_tk == size
            # a pair that accepted keeps its seat until it gives it up (R-REPL-6)
            assert (accepted - gone) <= set(held_entries)
            for offer in open_offers:
                # never someone who holds a seat, never someone asked before (R-REPL-3)
                assert offer.entry_id not in held_entries
                if offer.pk not in asked:
                    assert offer.entry_id not in {
                        o.entry_id
                        for o in SeatOffer.objects.filter(seat__competition=comp).exclude(
                            pk=offer.pk
                        )
                    }
                    asked.add(offer.pk)
            # one open offer per seat at most
            seats = [o.seat_id for o in open_offers]
            assert len(seats) == len(set(seats))
        transaction.set_rollback(True)
