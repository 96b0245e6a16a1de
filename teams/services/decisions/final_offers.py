"""The team final's replacement chain (R-TEAM-REPL-1, R-REPL-5, R-REPL-6): the answer to an
offer of a final seat."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from clubs import clock, seats, windows
from clubs.locks import lock_row
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    record_decision,
)
from teams.models import (
    Match,
    TeamFinalOffer,
)
from teams.seats import mark_finalists
from teams.services.decisions.common import (
    _require_tk,
)
from ubf.rules.i18n import gettext_noop


@transaction.atomic
def record_team_offer_answer(
    user, offer: TeamFinalOffer, answer: str, *, answered_at=None, reason: str = ""
):
    """R-REPL-5 / R-TEAM-REPL-1: TK records a team's answer to the offer of a final seat.

    Accepted: the team takes the seat (R-REPL-6: it never moves again): it is in the final with
    the number of the team it replaces, and takes that team's place in the final's matches not
    yet played. Declined: the recompute offers the seat to the next team of the chain."""
    _require_tk(user, "R-REPL-5")
    offer = lock_row(
        TeamFinalOffer.objects.select_related("competition__season", "team", "seat"), offer.pk
    )
    when = answered_at or clock.now()
    # R-REPL-5: answers count up to the final's first day; after it TK gives a reason.
    outside = windows.enforce(
        windows.seat_answer_window(offer.competition),
        user,
        reason=reason,
        today=timezone.localdate(when),
    )
    problems = []
    if answer not in (TeamFinalOffer.Answer.ACCEPTED, TeamFinalOffer.Answer.DECLINED):
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Svaret ska vara ja eller nej, inte %(answer)r."),
                params={"answer": answer},
            )
        )
    if offer.answer != TeamFinalOffer.Answer.PENDING:
        problems.append(
            error(
                "R-REPL-6",
                gettext_noop("Erbjudandet är redan besvarat (%(get_answer_display)s)."),
                params={"get_answer_display": offer.get_answer_display()},
            )
        )
    if when < offer.offered_at or when > clock.now():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Svarstiden måste ligga mellan erbjudandet och nu."),
            )
        )
    raise_on_errors(problems)
    offer.answer, offer.answered_at, offer.recorded_by = answer, when, user
    offer.save(update_fields=["answer", "answered_at", "recorded_by"])
    replaced = None
    if answer == TeamFinalOffer.Answer.ACCEPTED:
        # R-REPL-5, R-REPL-6: the team holds a seat of its own from now on, with the number of
        # the team it replaces (the seat's last holder), and takes that team's place in the
        # final's matches not yet played.
        previous = seats.last_holding(offer.seat)
        replaced = previous.team
        seats.take_seat(offer, when=when, team=offer.team, number=previous.number)
        if replaced is not None:
            for side in ("home", "away"):
                Match.objects.filter(
                    competition=offer.competition,
                    stage=Match.Stage.FINAL,
                    status=Match.Status.SCHEDULED,
                    **{side: replaced},
                ).update(**{side: offer.team})
        mark_finalists(offer.competition)
    record_decision(
        f"teams.final_offer.{answer}",
        offer,
        user=user,
        clause="R-TEAM-REPL-1",
        season=offer.competition.season,
        team=offer.team.name,
        seat=offer.seat.chain_key,
        replaces=replaced.name if replaced else None,
    )
    windows.record_late(
        outside, "teams.final_offer", offer, user=user, season=offer.competition.season
    )
    request_recompute(offer.competition_id)
    return offer
