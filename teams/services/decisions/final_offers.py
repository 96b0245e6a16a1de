"""The team final's replacement chain (R-TEAM-REPL-1, R-REPL-5, R-REPL-6): the answer to an
offer of a final seat, and TK's offer out of the chain's order. The checks and writes both
finals share are :mod:`clubs.services.seats`'s."""

from __future__ import annotations

from django.db import transaction

from clubs import seats, windows
from clubs.locks import lock_row
from clubs.recompute import request_recompute
from clubs.services import seats as seat_services
from clubs.services.base import error, record_decision
from teams.models import (
    Match,
    Team,
    TeamFinalOffer,
    TeamFinalSeat,
)
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
    # R-REPL-5, R-REPL-6: an accepting team holds a seat of its own from now on, with the
    # number of the team it replaces (the seat's last holder).
    previous = seats.last_holding(offer.seat)
    replaced = previous.team
    _seat, outside = seat_services.answer_offer(
        user,
        offer,
        answer,
        competition=offer.competition,
        when=answered_at,
        reason=reason,
        team=offer.team,
        number=previous.number,
    )
    if answer == TeamFinalOffer.Answer.ACCEPTED and replaced is not None:
        # ... and takes the replaced team's place in the final's matches not yet played.
        for side in ("home", "away"):
            Match.objects.filter(
                competition=offer.competition,
                stage=Match.Stage.FINAL,
                status=Match.Status.SCHEDULED,
                **{side: replaced},
            ).update(**{side: offer.team})
    record_decision(
        f"teams.final_offer.{answer}",
        offer,
        user=user,
        clause="R-TEAM-REPL-1",
        season=offer.competition.season,
        team=offer.team.name,
        seat=offer.seat.chain_key,
        replaces=replaced.name if replaced and answer == TeamFinalOffer.Answer.ACCEPTED else None,
    )
    windows.record_late(
        outside, "teams.final_offer", offer, user=user, season=offer.competition.season
    )
    request_recompute(offer.competition_id)
    return offer


@transaction.atomic
def override_team_offer(user, seat: TeamFinalSeat, team: Team, reason: str) -> TeamFinalOffer:
    """R-REPL-5 (and R-REPL-3, R-REPL-7: "TK decides"), R-TEAM-REPL-1: TK offers the vacated
    ``seat`` to ``team`` out of the chain's order, with a recorded reason, as for a pairs seat
    (``pairs.services.decisions.override_offer``). The offer is then answered as any other."""
    _require_tk(user, "R-REPL-5")
    seat = lock_row(TeamFinalSeat.objects.select_related("competition__season"), seat.pk)
    problems = []
    if team.competition_id != seat.competition_id:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Laget %(team)s har inte kvalat i %(competition)s."),
                params={"team": team.name, "competition": seat.competition},
            )
        )
    if team.status != Team.Status.ENTERED:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Laget %(team)s är %(team_status)s och kan inte erbjudas plats."),
                params={"team": team.name, "team_status": team.get_status_display()},
            )
        )
    if seats.held(TeamFinalSeat, seat.competition).filter(team=team).exists():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Laget %(team)s har redan en finalplats."),
                params={"team": team.name},
            )
        )
    if seat.status != TeamFinalSeat.Status.VACATED:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Platsen är inte lämnad; bara en lämnad plats kan erbjudas."),
            )
        )
    seat_services.check_override(seat, reason, problems)
    offer = seat_services.override_offer(
        TeamFinalOffer, user, seat, reason, team=team, competition=seat.competition
    )
    record_decision(
        "teams.final_offer.override",
        offer,
        user=user,
        reason=reason.strip(),
        clause="R-REPL-5",
        season=seat.competition.season,
        seat=seat.chain_key,
        team=team.name,
    )
    request_recompute(seat.competition_id)
    return offer
