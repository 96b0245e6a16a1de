"""Final seats in DM Par: a pair gives up its seat, answers to offers are recorded, TK
overrides a step of the replacement chain (R-REPL-1..7). The chain itself is computed by the
results recompute; these functions only record the people's actions and ask for a recompute.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from clubs import clock, seats, windows
from clubs.locks import lock_row
from clubs.models import Representation
from clubs.permissions import can_act_for_club, can_manage_pair_heat, is_tk
from clubs.recompute import request_recompute
from clubs.services import seats as seat_services
from clubs.services.base import error, raise_on_errors, reason_required, record_decision, require
from ubf.rules.i18n import Message, gettext_noop

from ..models import DirectQualifier, FinalSeat, Offer, PairEntry


def can_act_for_pair(user, holder, season) -> bool:
    """Who may speak for a pair (a PairEntry or DirectQualifier): TK, an official of either
    player's representation club this season, or (for an entry) its heat's organiser."""
    if is_tk(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    if isinstance(holder, PairEntry) and can_manage_pair_heat(user, holder.heat):
        return True
    clubs = Representation.objects.filter(
        season=season, player_id__in=[holder.player1_id, holder.player2_id]
    ).values_list("club_id", flat=True)
    return any(can_act_for_club(user, club_id) for club_id in clubs)


@transaction.atomic
def decline_final_seat(user, seat: FinalSeat, *, reason: str) -> FinalSeat:
    """R-REPL-1, R-REPL-7: the pair holding ``seat`` (through its club or heat organiser) or
    TK gives it up. The seat becomes vacated, a direct qualifier's place is marked declined,
    the decision is recorded, and the recompute offers the seat down the chain."""
    seat = lock_row(FinalSeat.objects.select_related("competition__season"), seat.pk)
    season = seat.competition.season
    holder = seat.entry or seat.direct_qualifier
    require(holder is not None and can_act_for_pair(user, holder, season) or is_tk(user))
    problems = reason_required(reason, "R-REPL-1")
    if seat.status == FinalSeat.Status.VACATED:
        problems.append(error("R-REPL-1", gettext_noop("Platsen är redan lämnad.")))
    if holder is None:
        problems.append(error("R-REPL-1", gettext_noop("Ingen har platsen ännu.")))
    raise_on_errors(problems)
    seat_services.give_up(
        seat,
        "R-REPL-7" if seat.direct_qualifier_id and not seat.entry_id else "R-REPL-1",
        Message(
            gettext_noop("Lämnad %(date)s: %(why)s; platsen erbjuds vidare"),
            {"date": clock.today().isoformat(), "why": reason.strip()},
        ),
    )
    if seat.direct_qualifier_id:
        dq = seat.direct_qualifier
        dq.status = DirectQualifier.Status.DECLINED
        dq.status_reason = reason.strip()
        dq.save()
    record_decision(
        "pairs.seat.declined",
        seat,
        user=user,
        reason=reason.strip(),
        clause="R-REPL-7" if seat.direct_qualifier_id and not seat.entry_id else "R-REPL-1",
        season=season,
        holder=str(holder),
        by_tk=is_tk(user),
    )
    request_recompute(seat.competition_id)
    return seat


@transaction.atomic
def record_offer_answer(
    user, offer: Offer, answer: str, *, answered_at: datetime | None = None, reason: str = ""
):
    """R-REPL-5: record the answer to an offer (accepted or declined), when it was given and
    who recorded it. An answered offer is not changed again (R-REPL-6: accepted offers never
    move); the recompute moves the chain on."""
    offer = lock_row(
        Offer.objects.select_related("seat__competition__season", "entry__heat"),
        offer.pk,
        competition="seat__competition_id",
    )
    season = offer.seat.competition.season
    require(can_act_for_pair(user, offer.entry, season))
    when = answered_at or clock.now()
    # R-REPL-5: answers count up to the final's day; later only TK, with a reason. Accepted:
    # the pair holds a seat of its own from now on (the vacated seat and its offers stay as
    # the chain's record); it can give it up in turn.
    _seat, outside = seat_services.answer_offer(
        user,
        offer,
        answer,
        competition=offer.seat.competition,
        when=when,
        reason=reason,
        entry=offer.entry,
    )
    record_decision(
        f"pairs.offer.{answer}",
        offer,
        user=user,
        reason=f"Svar registrerat: {offer.get_answer_display()}",
        clause="R-REPL-5",
        season=season,
        entry=str(offer.entry),
        seat=offer.seat_id,
        offered_at=offer.offered_at,
        answered_at=when,
    )
    windows.record_late(outside, "pairs.offer", offer, user=user, season=season)
    request_recompute(offer.seat.competition_id)
    return offer


@transaction.atomic
def override_offer(user, seat: FinalSeat, entry: PairEntry, reason: str) -> Offer:
    """R-REPL-5 (and R-REPL-3, R-REPL-7: "TK decides"): TK offers ``seat`` to ``entry`` out of
    the chain's order, with a recorded reason. The offer is then answered as any other."""
    require(is_tk(user), gettext_noop("Endast UBF TK kan göra avsteg (R-REPL-5)."))
    seat = lock_row(FinalSeat.objects.select_related("competition__season"), seat.pk)
    season = seat.competition.season
    problems = []
    if entry.heat.competition_id != seat.competition_id:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Paret %(entry)s har inte kvalat i %(competition)s."),
                params={"entry": entry, "competition": seat.competition},
            )
        )
    if entry.status != PairEntry.Status.ENTERED:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Paret %(entry)s är %(entry_status)s och kan inte erbjudas plats."),
                params={
                    "entry": entry,
                    "entry_status": entry.get_status_display(),
                },
            )
        )
    if seats.held(FinalSeat, seat.competition).filter(entry=entry).exists():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Paret %(entry)s har redan en finalplats."),
                params={"entry": entry},
            )
        )
    seat_services.check_override(seat, reason, problems)
    offer = seat_services.override_offer(Offer, user, seat, reason, entry=entry)
    record_decision(
        "pairs.offer.override",
        offer,
        user=user,
        reason=reason.strip(),
        clause="R-REPL-5",
        season=season,
        seat=seat.pk,
        entry=str(entry),
    )
    request_recompute(seat.competition_id)
    return offer
