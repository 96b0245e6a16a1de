"""Final seats in DM Par: a pair gives up its seat, answers to offers are recorded, TK
overrides a step of the replacement chain (R-REPL-1..7). The chain itself is computed by the
results recompute; these functions only record the people's actions and ask for a recompute.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from clubs import clock, seats, windows
from clubs.locks import lock_row
from clubs.models import Representation
from clubs.permissions import can_act_for_club, can_manage_pair_heat, is_tk
from clubs.recompute import request_recompute
from clubs.seats import tk_override_reason
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
    seat.vacate(
        "R-REPL-7" if seat.direct_qualifier_id and not seat.entry_id else "R-REPL-1",
        Message(
            gettext_noop("Lämnad %(date)s: %(why)s; platsen erbjuds vidare"),
            {"date": clock.today().isoformat(), "why": reason.strip()},
        ),
    )
    seat.save()
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
    # R-REPL-5: answers count up to the final's day; later only TK, with a reason.
    outside = windows.enforce(
        windows.seat_answer_window(offer.seat.competition),
        user,
        reason=reason,
        today=timezone.localdate(when),
    )
    problems = []
    if answer not in (Offer.Answer.ACCEPTED, Offer.Answer.DECLINED):
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Svaret ska vara ja eller nej, inte %(answer)r."),
                params={"answer": answer},
            )
        )
    if offer.answer != Offer.Answer.PENDING:
        problems.append(
            error(
                "R-REPL-6",
                gettext_noop("Erbjudandet är redan besvarat (%(answer)s, %(answered_at)s)."),
                params={
                    "answer": offer.get_answer_display(),
                    "answered_at": f"{offer.answered_at:%Y-%m-%d %H:%M}",
                },
            )
        )
    if when < offer.offered_at:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Svaret kan inte ha kommit före erbjudandet."),
            )
        )
    if when > clock.now():
        problems.append(error("R-REPL-5", gettext_noop("Svarstiden ligger i framtiden.")))
    raise_on_errors(problems)
    offer.answer = answer
    offer.answered_at = when
    offer.recorded_by = user
    offer.save()
    if answer == Offer.Answer.ACCEPTED:
        # R-REPL-5: the pair that accepts holds a seat of its own from now on (the vacated
        # seat and its offers stay as the chain's record); it can give it up in turn.
        seats.take_seat(offer, when=when, entry=offer.entry)
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
    problems = reason_required(reason, "R-REPL-5")
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
    holds = seats.held(FinalSeat, seat.competition).filter(entry=entry).exists()
    if holds:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Paret %(entry)s har redan en finalplats."),
                params={"entry": entry},
            )
        )
    if Offer.objects.filter(seat=seat, answer=Offer.Answer.PENDING).exists():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Ett erbjudande om platsen väntar på svar; registrera svaret först."),
            )
        )
    raise_on_errors(problems)
    offer = Offer(
        seat=seat,
        entry=entry,
        offered_at=clock.now(),
        recorded_by=user,
        override_reason=reason.strip(),
    )
    offer.explain("R-REPL-5", tk_override_reason(reason))
    offer.save()
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
