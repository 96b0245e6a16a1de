"""R-TEAM-REPL-1 with R-REPL-1..7 as a property over generated DM Lag seasons: after any
sequence of withdrawals, acceptances and refusals recorded through the services, the final
keeps its size (finalists plus open offers, or TK's turn when nobody is left), no team is asked
twice, a team already in the final is never asked, and a team that accepted stays in the final
until it withdraws; a team that withdrew is never marked for the final without its seat being
on offer (the chain remembers the withdrawal). The seat rows (teams.FinalSeat) say the
same: each seat is held by one team or vacated with its offer open."""

from __future__ import annotations

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from clubs.services.seats import answer_offer
from results.models import AllocationRun
from results.services.recompute import recompute_team_competition
from teams.models import Team
from teams.services.entries import withdraw_team
from tests.factories import TeamCompetitionFactory, UserFactory, final_teams
from tests.results.test_allocation_teams import heat_with

pytestmark = pytest.mark.django_db

season_shape = st.fixed_dictionaries(
    {
        "heats": st.lists(st.integers(min_value=4, max_value=7), min_size=2, max_size=3),
        "steps": st.lists(
            st.tuples(st.sampled_from(["withdraw", "accept", "refuse"]), st.integers(0, 10**6)),
            max_size=5,
        ),
    }
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(shape=season_shape)
def test_the_team_final_stays_whole_whatever_the_season_does(shape):
    with clock.frozen("2017-02-20 10:00"), transaction.atomic():
        tk = UserFactory(is_superuser=True, is_staff=True)
        comp = TeamCompetitionFactory()
        for i, n in enumerate(shape["heats"]):
            heat_with(comp, n, prefix=f"H{i}-")
        recompute_team_competition(comp.id)
        size = len(final_teams(comp))
        accepted: set[int] = set()
        for action, pick in shape["steps"]:
            finalists = final_teams(comp, status=Team.Status.ENTERED)
            pending = list(SeatOffer.objects.filter(seat__competition=comp, answer="pending"))
            if action == "withdraw" and finalists:
                team = finalists[pick % len(finalists)]
                withdraw_team(tk, team, reason="Återbud")
                accepted.discard(team.id)
            elif action in ("accept", "refuse") and pending:
                offer = pending[pick % len(pending)]
                answer = "accepted" if action == "accept" else "declined"
                answer_offer(tk, offer, answer, reason="Svar per telefon")
                if answer == "accepted":
                    accepted.add(offer.entry_id)
            else:
                continue
            recompute_team_competition(comp.id)

            seated = {t.id for t in final_teams(comp, status=Team.Status.ENTERED)}
            open_offers = list(SeatOffer.objects.filter(seat__competition=comp, answer="pending"))
            chain = AllocationRun.objects.get(competition=comp).explanation["chain"]
            waiting_for_tk = sum(1 for c in chain if c["status"] in ("tk_decides", "closed"))
            assert len(seated) + len(open_offers) + waiting_for_tk == size
            assert accepted <= seated
            # a team that withdrew and is still marked for the final has its seat on offer
            gone = len(final_teams(comp, status=Team.Status.WITHDRAWN))
            assert gone <= len(open_offers) + waiting_for_tk
            # the seat rows say the same (one seat lifecycle, issue 9): every seat of the final
            # is held by exactly one team or is vacated with one open offer or TK's turn; the
            # teams holding a seat are the finalists; an accepted team holds a confirmed seat
            held = list(FinalSeat.objects.filter(competition=comp).exclude(status="vacated"))
            holders = [seat.holder_id for seat in held]
            assert len(holders) == len(set(holders))  # nobody holds two seats
            assert set(holders) == seated
            assert len(held) + len(open_offers) + waiting_for_tk == size
            confirmed = {seat.holder_id for seat in held if seat.status == "confirmed"}
            assert accepted <= confirmed
            for offer in open_offers:
                assert offer.seat.status == "vacated" and offer.seat.source != "replacement"
            asked = [o.entry_id for o in SeatOffer.objects.filter(seat__competition=comp)]
            assert len(asked) == len(set(asked))  # nobody is asked twice
            for offer in open_offers:
                assert offer.entry_id not in seated
        transaction.set_rollback(True)
