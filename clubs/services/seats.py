"""What both finals' seat decisions share (issue 20, "one seat lifecycle"): the checks and the
writes of an answer to an offer (R-REPL-5, R-REPL-6) and of TK's offer out of the chain's order
(R-REPL-5), for a pairs :class:`pairs.Offer` and a teams :class:`teams.TeamFinalOffer` alike.

The discipline's service keeps what differs (who may answer for a pair or a team, which entry
can be offered the seat, the decision's name, the team's unplayed final matches) and calls these
inside its one transaction, after its lock (``clubs.locks``); the chain itself is the
recompute's (``clubs.seats.sync_seats``)."""

from __future__ import annotations

from django.utils import timezone

from clubs import clock, seats, windows
from clubs.models import FinalSeatBase, SeatOffer
from clubs.services.base import error, raise_on_errors, reason_required
from ubf.rules.i18n import gettext_noop


def answer_offer(user, offer: SeatOffer, answer: str, *, competition, when=None, reason="", **held):
    """R-REPL-5: record ``answer`` (accepted or declined) to ``offer``, when it was given and who
    recorded it; refused (nothing saved) when the answer is neither, the offer is already
    answered (R-REPL-6: an answer never moves), or the time is before the offer or in the
    future; after the final's day only TK, with a reason (``clubs.windows.seat_answer_window``).
    Accepted: the entry holds a confirmed seat of its own from now on
    (:func:`clubs.seats.take_seat`, ``held``: the holder's field and what else the seat keeps).
    Returns ``(seat or None, outside)``: the new seat, and the window's late record for
    ``windows.record_late``."""
    when = when or clock.now()
    outside = windows.enforce(
        windows.seat_answer_window(competition),
        user,
        season=competition.season,
        reason=reason,
        today=timezone.localdate(when),
    )
    problems = []
    if answer not in (SeatOffer.Answer.ACCEPTED, SeatOffer.Answer.DECLINED):
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Svaret ska vara ja eller nej, inte %(answer)r."),
                params={"answer": answer},
            )
        )
    if offer.answer != SeatOffer.Answer.PENDING:
        problems.append(
            error(
                "R-REPL-6",
                gettext_noop("Erbjudandet är redan besvarat (%(answer)s, %(answered_at)s)."),
                params={
                    "answer": offer.get_answer_display(),
                    "answered_at": f"{offer.answered_at:%Y-%m-%d %H:%M}"
                    if offer.answered_at
                    else "",
                },
            )
        )
    if when < offer.offered_at:
        problems.append(
            error("R-REPL-5", gettext_noop("Svaret kan inte ha kommit före erbjudandet."))
        )
    if when > clock.now():
        problems.append(error("R-REPL-5", gettext_noop("Svarstiden ligger i framtiden.")))
    raise_on_errors(problems)
    offer.answer, offer.answered_at, offer.recorded_by = answer, when, user
    offer.save(update_fields=["answer", "answered_at", "recorded_by"])
    seat = None
    if answer == SeatOffer.Answer.ACCEPTED:
        seat = seats.take_seat(offer, when=when, **held)
    return seat, outside


def give_up(seat: FinalSeatBase, clause: str, message) -> None:
    """R-REPL-1, R-REPL-7, R-TEAM-REPL-1: the holder gives ``seat`` up, now, in the service that
    records why (a pair declining its seat, a team withdrawing): the seat stays as the chain's
    record, vacated, saying why; the recompute then offers it down the chain (R-REPL-5)."""
    seat.vacate(clause, message)
    seat.save(update_fields=["status", "reason", "reason_data"])


def check_override(seat: FinalSeatBase, reason: str, problems=()) -> None:
    """R-REPL-5 (and R-REPL-3, R-REPL-7: "TK decides"): TK may offer ``seat`` out of the chain's
    order with a reason, while no offer of the seat waits for an answer. ``problems``: the
    discipline's own (the entry's competition and status, an entry that already holds a
    seat). Raises with every problem; nothing is saved."""
    problems = list(problems) + reason_required(reason, "R-REPL-5")
    if seat.offers.filter(answer=SeatOffer.Answer.PENDING).exists():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Ett erbjudande om platsen väntar på svar; registrera svaret först."),
            )
        )
    raise_on_errors(problems)


def override_offer(offer_model, user, seat: FinalSeatBase, reason: str, **entry) -> SeatOffer:
    """TK's offer of ``seat`` out of the chain's order (checked by :func:`check_override`): a
    pending offer saying TK's reason (``override_reason``, which the chain then follows,
    ``clubs.seats.chain_inputs``), answered as any other."""
    offer = offer_model(
        seat=seat,
        offered_at=clock.now(),
        recorded_by=user,
        override_reason=reason.strip(),
        **entry,
    )
    offer.explain("R-REPL-5", seats.tk_override_reason(reason))
    offer.save()
    return offer
