"""The decisions on final seats, one service module for DM Par and DM Lag (issue 20): a holder
gives its seat up, an answer to an offer is recorded, TK offers a seat out of the chain's order,
TK leaves a seat nobody is left to take empty. Each is one function, one transaction, on the one
seat (:class:`clubs.models.FinalSeat`) and offer (:class:`clubs.models.SeatOffer`) whatever the
discipline; the chain itself is the recompute's (``clubs.seats.sync_seats``), which each of them
asks for.

- :func:`give_up_seat`: R-REPL-1, R-REPL-7, R-TEAM-REPL-1: the pair (through its club or its
  heat's organiser), the team (its captain or whoever manages its heat) or TK gives the seat
  up, saying why; :func:`give_up` is the write itself, also used when a team withdraws from
  the competition (``teams.services.entries.withdraw_team``);
- :func:`answer_offer`: R-REPL-5, R-REPL-6: the answer to an offer, with who recorded it and
  when; accepted, the entry holds a confirmed seat of its own (:func:`clubs.seats.take_seat`);
- :func:`override_offer`: R-REPL-5 (and R-REPL-3, R-REPL-7, "TK decides"): TK offers a vacated
  seat to an entry of its choice, with a reason;
- :func:`leave_seat_empty`: R-REPL-3, R-REPL-5: TK decides that a vacated seat is not filled,
  with a reason.

What differs by discipline is a hook, a signal the discipline's app answers (connected in its
``AppConfig.ready``): :data:`seat_taken` (DM Lag: the replacement takes the replaced team's
final matches not yet played) and :data:`seat_given_up` (DM Par: a direct qualifier that gives
its place up is marked so). Who may speak for an entry is :func:`may_speak_for`."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from clubs import clock, seats, windows
from clubs.locks import lock_row
from clubs.models import Entry, FinalSeat, Representation, SeatOffer
from clubs.permissions import can_act_for_club, can_manage_pair_heat, can_manage_team, is_tk
from clubs.recompute import request_recompute
from clubs.services.base import error, raise_on_errors, reason_required, record_decision, require
from ubf.rules.i18n import Message, gettext_noop

#: Sent when an entry accepted an offer, inside the answer's transaction, with ``offer``, the
#: new ``seat`` and ``replaced`` (the id of the entry whose seat it takes over, or None).
seat_taken = Signal()
#: Sent when a holder gave its seat up (:func:`give_up_seat`), with ``seat`` and ``reason``.
seat_given_up = Signal()

TEAMS = Entry.Kind.TEAMS


def _clause(seat: FinalSeat) -> str:
    """The clause of a seat given up: a team's (R-TEAM-REPL-1), a direct qualifier's that
    played no heat (R-REPL-7), any other pair's (R-REPL-1)."""
    if seat.competition.kind == TEAMS:
        return "R-TEAM-REPL-1"
    if seat.source == FinalSeat.Source.DIRECT and seat.origin_heat_id is None:
        return "R-REPL-7"
    return "R-REPL-1"


def may_speak_for(user, entry: Entry, *, answer: bool = False) -> bool:
    """Who may speak for an entry about its final seat: TK; for a pair an official of either
    player's club this season, or of its heat's arranging clubs; for a team its captain or
    whoever manages its heat, except that a team's answer to an offer is recorded by TK
    (``answer``, R-TEAM-REPL-1)."""
    if is_tk(user):
        return True
    if user is None or not user.is_authenticated:
        return False
    holder = entry.specific
    if entry.kind == TEAMS:
        return not answer and can_manage_team(user, holder)
    if holder.heat_id is not None and can_manage_pair_heat(user, holder.heat):
        return True
    clubs = Representation.objects.filter(
        season_id=holder.competition.season_id,
        player_id__in=[holder.player1_id, holder.player2_id],
    ).values_list("club_id", flat=True)
    return any(can_act_for_club(user, club_id) for club_id in clubs)


def give_up(seat: FinalSeat, clause: str, message) -> None:
    """R-REPL-1, R-REPL-7, R-TEAM-REPL-1: the holder gives ``seat`` up, now, in the service that
    records why (a holder giving its seat up, a team withdrawing): the seat stays as the chain's
    record, vacated, saying why; the recompute then offers it down the chain (R-REPL-5)."""
    seat.vacate(clause, message)
    seat.save(update_fields=["status", "reason", "reason_data"])


def give_up_held(entry: Entry, clause: str, message) -> list[FinalSeat]:
    """Every seat ``entry`` holds, given up (:func:`give_up`): an entry that leaves the
    competition (a team withdrawing, R-TEAM-REPL-1). The caller holds the competition's lock."""
    held = list(seats.held_by(entry))
    for seat in held:
        give_up(seat, clause, message)
    return held


@transaction.atomic
def give_up_seat(user, seat: FinalSeat, *, reason: str) -> FinalSeat:
    """R-REPL-1, R-REPL-7, R-TEAM-REPL-1: the entry holding ``seat`` (who may speak for it,
    :func:`may_speak_for`) or TK gives it up, saying why. Refused (nothing saved) without a
    reason, for a seat already given up or held by nobody. The seat is vacated, the decision
    recorded, and the recompute offers it down the chain."""
    seat = lock_row(
        FinalSeat.objects.select_related("competition__season", *seats.HOLDER_NAMES), seat.pk
    )
    season = seat.competition.season
    holder = seat.holder
    require(is_tk(user) or (holder is not None and may_speak_for(user, holder)))
    clause = _clause(seat)
    problems = reason_required(reason, clause)
    if seat.status == FinalSeat.Status.VACATED:
        problems.append(error(clause, gettext_noop("Platsen är redan lämnad.")))
    if holder is None:
        problems.append(error(clause, gettext_noop("Ingen har platsen ännu.")))
    raise_on_errors(problems)
    give_up(
        seat,
        clause,
        Message(
            gettext_noop("Lämnad %(date)s: %(why)s; platsen erbjuds vidare"),
            {"date": clock.today().isoformat(), "why": reason.strip()},
        ),
    )
    seat_given_up.send(sender=FinalSeat, seat=seat, reason=reason.strip())
    record_decision(
        f"{seat.competition.kind}.seat.declined",
        seat,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=season,
        holder=str(holder),
        by_tk=is_tk(user),
    )
    request_recompute(seat.competition_id)
    return seat


@transaction.atomic
def answer_offer(
    user, offer: SeatOffer, answer: str, *, answered_at: datetime | None = None, reason: str = ""
) -> SeatOffer:
    """R-REPL-5: record ``answer`` (accepted or declined) to ``offer``, when it was given and who
    recorded it (who may speak for the entry asked; a team's answer TK records). Refused
    (nothing saved) when the answer is neither, the offer is already answered (R-REPL-6: an
    answer never moves), or the time is before the offer or in the future; after the final's
    first day only TK, with a reason (``clubs.windows.seat_answer_window``). Accepted: the entry
    holds a confirmed seat of its own from now on (:func:`clubs.seats.take_seat`), with the
    number of the seat it replaces, and :data:`seat_taken` lets the discipline follow (the
    replaced team's final matches); declined: the recompute offers the seat to the next."""
    offer = lock_row(
        SeatOffer.objects.select_related("seat__competition__season", *seats.ENTRY_NAMES),
        offer.pk,
        competition="seat__competition_id",
    )
    competition = offer.seat.competition
    season = competition.season
    require(may_speak_for(user, offer.entry, answer=True))
    when = answered_at or clock.now()
    outside = windows.enforce(
        windows.seat_answer_window(competition.specific),
        user,
        season=season,
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
    replaced = None
    if answer == SeatOffer.Answer.ACCEPTED:
        previous = seats.last_holding(offer.seat)
        replaced = previous.holder
        seat = seats.take_seat(offer, when=when)
        seat_taken.send(sender=SeatOffer, offer=offer, seat=seat, replaced=previous.holder_id)
    record_decision(
        f"{competition.kind}.offer.{answer}",
        offer,
        user=user,
        reason=f"Svar registrerat: {offer.get_answer_display()}",
        clause="R-TEAM-REPL-1" if competition.kind == TEAMS else "R-REPL-5",
        season=season,
        entry=str(offer.entry),
        seat=offer.seat.chain_key,
        offered_at=offer.offered_at,
        answered_at=when,
        replaces=str(replaced) if replaced is not None else None,
    )
    windows.record_late(outside, f"{competition.kind}.offer", offer, user=user, season=season)
    request_recompute(competition.pk)
    return offer


def _tk_seat(user, seat: FinalSeat) -> FinalSeat:
    require(is_tk(user), gettext_noop("Endast UBF TK kan göra avsteg (R-REPL-5)."))
    return lock_row(
        FinalSeat.objects.select_related("competition__season", *seats.HOLDER_NAMES), seat.pk
    )


def _open_seat_problems(seat: FinalSeat, reason: str) -> list:
    """What keeps TK from deciding on ``seat`` (R-REPL-5): a reason is needed, the seat must
    be given up (vacated), and no offer of it may wait for an answer."""
    problems = reason_required(reason, "R-REPL-5")
    if seat.status != FinalSeat.Status.VACATED:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Platsen är inte lämnad; bara en lämnad plats kan erbjudas."),
            )
        )
    if seat.offers.filter(answer=SeatOffer.Answer.PENDING).exists():
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("Ett erbjudande om platsen väntar på svar; registrera svaret först."),
            )
        )
    return problems


@transaction.atomic
def override_offer(user, seat: FinalSeat, entry: Entry, reason: str) -> SeatOffer:
    """R-REPL-5 (and R-REPL-3, R-REPL-7: "TK decides"): TK offers the vacated ``seat`` to
    ``entry`` (a pair or a team of the competition, entered, holding no seat) out of the chain's
    order, with a recorded reason. The offer is pending, says TK's reason
    (``override_reason``, which the chain then follows, ``clubs.seats.chain_inputs``) and is
    answered as any other; a seat TK had left empty is open again. Refused (nothing saved)
    for a seat not given up, with an offer waiting, or an entry that cannot take it."""
    seat = _tk_seat(user, seat)
    competition = seat.competition
    entry = Entry.objects.select_related("team", "pairentry__player1", "pairentry__player2").get(
        pk=entry.pk
    )
    holder = entry.specific
    name = {"entry": str(entry)}
    problems = []
    if holder.competition_id != seat.competition_id:
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("%(entry)s har inte kvalat i %(competition)s."),
                params={**name, "competition": str(competition.specific)},
            )
        )
    if holder.status != "entered":
        problems.append(
            error(
                "R-REPL-5",
                gettext_noop("%(entry)s är %(entry_status)s och kan inte erbjudas plats."),
                params={**name, "entry_status": holder.get_status_display()},
            )
        )
    if seats.held(competition).filter(holder=entry).exists():
        problems.append(
            error("R-REPL-5", gettext_noop("%(entry)s har redan en finalplats."), params=name)
        )
    raise_on_errors(problems + _open_seat_problems(seat, reason))
    if seat.closed_reason:
        seat.closed_reason = ""
        seat.save(update_fields=["closed_reason"])
    offer = SeatOffer(
        seat=seat,
        entry=entry,
        offered_at=clock.now(),
        recorded_by=user,
        override_reason=reason.strip(),
    )
    offer.explain("R-REPL-5", seats.tk_override_reason(reason))
    offer.save()
    record_decision(
        f"{competition.kind}.offer.override",
        offer,
        user=user,
        reason=reason.strip(),
        clause="R-REPL-5",
        season=competition.season,
        seat=seat.chain_key,
        entry=str(entry),
    )
    request_recompute(competition.pk)
    return offer


@transaction.atomic
def leave_seat_empty(user, seat: FinalSeat, reason: str) -> FinalSeat:
    """R-REPL-3 ("if nobody is left, TK decides"), R-REPL-5: TK decides that the vacated
    ``seat`` is not filled, with a recorded reason; the chain then asks nobody for it
    (``ubf.rules.replacement.Override`` without an entry) and the final is played one seat
    short. TK can still offer it later (:func:`override_offer`). Refused (nothing saved) for a
    seat not given up, one left empty already, or with an offer waiting."""
    seat = _tk_seat(user, seat)
    problems = _open_seat_problems(seat, reason)
    if seat.closed_reason:
        problems.append(
            error("R-REPL-3", gettext_noop("TK har redan beslutat att lämna platsen tom."))
        )
    raise_on_errors(problems)
    seat.closed_reason = reason.strip()
    seat.save(update_fields=["closed_reason"])
    record_decision(
        f"{seat.competition.kind}.seat.left_empty",
        seat,
        user=user,
        reason=reason.strip(),
        clause="R-REPL-3",
        season=seat.competition.season,
        seat=seat.chain_key,
    )
    request_recompute(seat.competition_id)
    return seat
