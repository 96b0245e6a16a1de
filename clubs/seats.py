"""One seat lifecycle for the pairs and the teams final (issue 9, issue 20): the seat rows
(:class:`clubs.models.FinalSeat`) and their offers (:class:`clubs.models.SeatOffer`), one
concrete model each for both finals, kept in step with the allocation and the replacement chain
(``ubf.rules.replacement.run_chain``); and who holds a seat, read from those rows alone.

- :func:`chain_inputs`: what the stored seats tell the chain (offers, TK's overrides,
  withdrawals);
- :func:`sync_seats`: after the allocation, create the seats the holders need, leave the decided
  ones alone (R-REPL-6), vacate the seats of holders that withdrew, offer each open seat to the
  entry the chain names (R-REPL-5), every row saying why;
- :func:`take_seat`: an accepted offer gives the entry a seat of its own (``replaces`` the
  vacated seat);
- :func:`last_holding`: which seat row a replacement takes over (the vacated seat, or the seat
  of the replacement that held it last);
- :func:`held`, :func:`with_seats`, :func:`holding`, :func:`holds_seat`: who holds a seat (a
  seat row of the entry, not vacated), the one reading for every page, fee list, upload, API
  field, reminder, recompute, the demo and the benchmarks.

A seat's holder and an offer's entry are a :class:`clubs.models.Entry` (the parent of the pair
entry and of the team), whose id is the chain's key for it; nothing here knows pairs or teams
beyond the names of the child rows a page selects for the holder's name (:data:`HOLDER_NAMES`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import translation

from clubs import clock
from clubs.models import FinalSeat, SeatOffer
from ubf.rules import replacement
from ubf.rules.i18n import Message, gettext_noop

Source = FinalSeat.Source
Status = FinalSeat.Status

#: What a seat row selects to name its holder (``FinalSeat.holder_name``): the team's name or
#: the pair's two players, whichever the holder is (``clubs.models.Entry.specific``).
HOLDER_NAMES = ("holder__team", "holder__pairentry__player1", "holder__pairentry__player2")
#: The same for an offer's entry.
ENTRY_NAMES = ("entry__team", "entry__pairentry__player1", "entry__pairentry__player2")

#: Seats the recompute never creates or deletes: a replacement's own seat (made when it
#: accepted) and a direct final's entry.
_NOT_ALLOCATED = [Source.REPLACEMENT, Source.DIRECT_FINAL]


def chain_inputs(seats: Iterable[FinalSeat], *, withdrawals: Iterable = ()) -> dict:
    """The recorded offers (in the order they were made), TK's offers out of the chain's
    order (R-REPL-5) and its seats left empty (R-REPL-3) and the withdrawals (a vacated seat's holder, R-REPL-1, R-TEAM-REPL-1) as
    :func:`ubf.rules.replacement.run_chain` takes them. ``seats`` have their ``offers``
    prefetched; ``withdrawals`` adds the ones the competition knows otherwise (a team that
    withdrew holding no seat row yet)."""
    offers, overrides = [], []
    gone: dict[str, replacement.Withdrawal] = {w.entry: w for w in withdrawals}
    for seat in seats:
        key = seat.chain_key
        for offer in sorted(seat.offers.all(), key=lambda o: (o.offered_at, o.id)):
            offers.append(replacement.Offer(entry=offer.entry_key, seat=key, answer=offer.answer))
            if offer.override_reason:
                overrides.append(
                    replacement.Override(
                        seat=key, entry=offer.entry_key, reason=offer.override_reason
                    )
                )
        if seat.status == Status.VACATED and seat.holder_key:
            gone.setdefault(
                seat.holder_key, replacement.Withdrawal(entry=seat.holder_key, reason=seat.reason)
            )
        if seat.closed_reason:  # R-REPL-3: TK left it empty
            overrides.append(replacement.Override(seat=key, entry=None, reason=seat.closed_reason))
    return {
        "offers": tuple(offers),
        "withdrawals": tuple(gone.values()),
        "overrides": tuple(overrides),
    }


def seat_reason(source: str, *, heat: str = "", n: int = 0, seats: int = 0) -> Message:
    """Why a seat the recompute creates is there, with its figures: the n-th of a heat's
    seats (R-ALLOC-3/R-ALLOC-6, R-TEAM-ADV-1), a direct qualifier's seat (R-DIRECT-1,
    R-TEAM-DIRECT-1), or a seat its heat has too few entries for (R-ALLOC-6)."""
    if source == "vacant":
        return Message(
            gettext_noop(
                "Kvalplats %(n)s av %(seats)s från %(heat)s: heatet har för få kvalificerade "
                "för platsen; den erbjuds vidare"
            ),
            {"n": n, "seats": seats, "heat": heat},
        )
    if source == Source.DIRECT:
        if heat:
            return Message(
                gettext_noop(
                    "Direktkvalificerad som förra säsongens mästare; spelade %(heat)s men har "
                    "sin direkta plats"
                ),
                {"heat": heat},
            )
        return Message(gettext_noop("Direktkvalificerad som förra säsongens mästare"))
    return Message(
        gettext_noop("Kvalplats %(n)s av %(seats)s från %(heat)s"),
        {"n": n, "seats": seats, "heat": heat},
    )


def sync_seats(
    *,
    competition,
    venue_heats: Mapping[str, object],
    heat_labels: Mapping[str, str],
    allocation,
    holders,
    chain: replacement.ChainResult,
    step_reasons: Mapping[str, dict],
    provisional: bool,
    direct: Mapping[str, str | None],
    clauses: Mapping[str, str],
    withdrawn: Mapping[str, tuple[str, Message]] | None = None,
) -> None:
    """Keep the seat rows of ``competition`` in step with the seat holders and the chain.

    Seats whose holder changed while nothing was decided on them follow the ranking; a decided
    seat never moves (R-REPL-6); a direct qualifier has its seat, also one that played a heat
    (R-ALLOC-2); a seat its venue cannot fill is a vacant seat (R-ALLOC-6); a seat whose holder
    withdrew (``withdrawn``: holder key → clause and why) is vacated (R-TEAM-REPL-1); once the allocation
    is final, each seat to be offered gets its pending offer (R-REPL-5) to the entry the chain
    names, with the chain's step as its reason (``step_reasons``: seat key → the labelled last
    step, ``{"clause", "message"}``). A replacement's seat is its own and is left alone.

    A chain key that is an entry's id names the seat's holder (and an offer's entry); a seat its
    venue cannot fill ("<venue>#<n>") has none. ``clauses``: the clause of each source
    ("allocation", "direct")."""
    withdrawn = withdrawn or {}
    heat_of_venue = dict(venue_heats)
    existing = {
        s.chain_key: s
        for s in FinalSeat.objects.filter(competition=competition)
        .exclude(source__in=_NOT_ALLOCATED)
        .prefetch_related("offers")
    }
    wanted: dict[str, tuple[str | None, str, object]] = {}
    for venue, keys in holders.holders.items():
        seats = int(allocation.seats.get(venue, 0))
        for n, key in enumerate(keys, start=1):
            why = seat_reason(
                Source.ALLOCATION,
                heat=heat_labels.get(venue, venue),
                n=n,
                seats=seats,
            )
            wanted[key] = (venue, Source.ALLOCATION, (clauses["allocation"], why))
    for key, venue in direct.items():
        why = seat_reason(Source.DIRECT, heat=heat_labels.get(venue, ""))
        wanted[key] = (venue, Source.DIRECT, (clauses["direct"], why))
    for state in chain.seat_states:
        if state.original_holder is None:  # "<venue>#<i>": its venue has too few entries
            venue = state.origin
            seats = int(allocation.seats.get(venue, 0))
            i = int(state.seat.rsplit("#", 1)[1]) if "#" in state.seat else 1
            why = seat_reason(
                "vacant",
                heat=heat_labels.get(venue, venue or ""),
                n=len(holders.holders.get(venue, [])) + i,
                seats=seats,
            )
            wanted[state.seat] = (venue, Source.ALLOCATION, ("R-ALLOC-6", why))
    for key, seat in existing.items():
        untouched = not seat.is_decided and not seat.offers.all()
        if key not in wanted and untouched:
            seat.delete()
        elif key not in wanted and seat.origin_heat_id:
            # R-REPL-6: a decided seat stays with its holder even if a correction moved it
            # below the cut; its venue then fills one seat fewer, so the final keeps its size.
            venue = next((v for v, h in heat_of_venue.items() if h.id == seat.origin_heat_id), None)
            newcomers = [k for k in holders.holders.get(venue, []) if k not in existing]
            if newcomers:
                wanted.pop(newcomers[-1], None)
    replacements = set(
        FinalSeat.objects.filter(competition=competition, source=Source.REPLACEMENT)
        .exclude(status=Status.VACATED)
        .values_list("key", flat=True)
    )
    for key, (venue, source, (clause, why)) in wanted.items():
        if key in existing and existing[key].pk is not None:  # delete() above clears the pk
            seat = existing[key]
            if seat.status != Status.VACATED and seat.source == source:
                before = seat.reason_data
                seat.explain(clause, why)  # the figures may have moved (a corrected result)
                if seat.reason_data != before:
                    seat.save(update_fields=["reason", "reason_data"])
            continue
        if key in replacements:  # already in the final on an accepted offer
            continue
        holder = int(key) if key.isdigit() else None
        seat = FinalSeat(
            competition=competition,
            key=key,
            origin_heat=heat_of_venue.get(venue),
            source=source,
            status=Status.PROVISIONAL if holder else Status.VACATED,
            holder_id=holder,
        )
        seat.explain(clause, why)
        seat.save()
    # R-TEAM-REPL-1: a holder that withdrew gives its seat up (its own replacement seat too).
    if withdrawn:
        for seat in FinalSeat.objects.filter(competition=competition).exclude(
            status=Status.VACATED
        ):
            if seat.holder_key in withdrawn:
                seat.vacate(*withdrawn[seat.holder_key])
                seat.save(update_fields=["status", "reason", "reason_data"])
    if provisional:
        return
    seats_by_key = {
        s.chain_key: s
        for s in FinalSeat.objects.filter(competition=competition)
        .exclude(source__in=_NOT_ALLOCATED)
        .prefetch_related("offers")
    }
    offered: set[int] = set()
    for state in chain.seat_states:
        if not (state.ask and state.seat in seats_by_key and state.ask.isdigit()):
            continue
        seat = seats_by_key[state.seat]
        pending = seat.pk in offered or any(
            o.answer == SeatOffer.Answer.PENDING for o in seat.offers.all()
        )
        if pending:
            continue
        offered.add(seat.pk)
        offer = SeatOffer(seat=seat, offered_at=clock.now(), entry_id=int(state.ask))
        step = step_reasons.get(state.seat)
        if step:
            offer.explain(f"{step['clause']}, R-REPL-5", step["message"])
        offer.save()


def last_holding(seat: FinalSeat) -> FinalSeat:
    """The seat row whose holder a replacement for ``seat`` (a vacated seat of the chain) takes
    over: the latest replacement's seat that stood in for it, else the seat itself."""
    latest = seat.replaced_by.order_by("-id").first()
    return latest or seat


def take_seat(offer: SeatOffer, *, when) -> FinalSeat:
    """R-REPL-5, R-REPL-6: the entry that accepted ``offer`` holds a seat of its own from now
    on, confirmed, with the number of the seat it replaces (the team final's); the vacated seat
    and its offers stay as the chain's record."""
    vacated = offer.seat
    previous = last_holding(vacated)
    seat = FinalSeat(
        competition_id=vacated.competition_id,
        key=offer.entry_key,
        origin_heat_id=vacated.origin_heat_id,
        replaces=vacated,
        source=Source.REPLACEMENT,
        status=Status.CONFIRMED,
        holder_id=offer.entry_id,
        number=previous.number,
    )
    seat.explain(
        "R-REPL-5, R-REPL-6",
        Message(
            gettext_noop("Ersättare: tackade ja %(date)s till platsen efter %(seat)s"),
            {"date": when.date().isoformat(), "seat": str(previous.holder_name)},
        ),
    )
    seat.save()
    return seat


def tk_override_reason(reason: str) -> Message:
    """Why an offer TK made out of the chain's order was made (R-REPL-5): TK's reason."""
    return Message(gettext_noop("Erbjuden på TK:s beslut: %(reason)s"), {"reason": reason.strip()})


#: A held seat: not vacated, with a holder (who holds a seat, for every reader).
HELD = Q(holder__isnull=False) & ~Q(status=Status.VACATED)


def held(competition) -> QuerySet:
    """Who holds a seat: the competition's seat rows that are not vacated and have a holder
    (``pairs.selectors.final_seat_holders`` reads the pairs final through it)."""
    return FinalSeat.objects.filter(HELD, competition=competition)


def held_by(holder) -> QuerySet:
    """The seats ``holder`` (an entry, a pair entry or a team) holds: not vacated."""
    return FinalSeat.objects.filter(HELD, holder=holder)


def with_seats(holders: QuerySet) -> QuerySet:
    """``holders`` (pair entries or teams) each with ``holds_final_seat`` (it holds a seat: a
    seat row of it not vacated) and the held seat's ``final_seat_number`` (the team final's
    number; empty for a pair): the one reading of who is in the final, in the same query as the
    holders themselves (pages, fees, reminders, uploads, the API, the recompute)."""
    seat = held_by(OuterRef("pk")).order_by("-id")
    return holders.annotate(
        holds_final_seat=Exists(seat), final_seat_number=Subquery(seat.values("number")[:1])
    )


def holding(holders: QuerySet) -> QuerySet:
    """Those of ``holders`` that hold a seat (see :func:`with_seats`)."""
    return with_seats(holders).filter(holds_final_seat=True)


def holds_seat(holder) -> bool:
    """Whether one entry (pair entry or team) holds a seat (the annotation if the row carries
    it)."""
    if "holds_final_seat" in holder.__dict__:
        return holder.holds_final_seat
    return held_by(holder).exists()


def number_seats(competition, order=None) -> None:
    """The final's numbers on its held seats (the team final: a team's number in the final's
    schedule and files is its seat's). ``order`` (holder ids, number 1 first): the numbers a
    schedule drawn for the final gives, the other held seats the next free ones. Without it,
    held seats keep their numbers and a seat without one takes the next free number. A vacated
    seat keeps its number as the record; the replacement's seat takes it over (R-REPL-5)."""
    rows = list(FinalSeat.objects.filter(competition=competition).order_by("id"))
    before = {s.pk: s.number for s in rows}
    if order is not None:
        position = {holder: i for i, holder in enumerate(order, start=1)}
        for seat in rows:
            seat.number = position.get(seat.holder_id) if seat.is_held else None
    taken = {s.number for s in rows if s.number}
    number = 0
    for seat in rows:
        if seat.number is None and seat.is_held:
            number += 1
            while number in taken:
                number += 1
            seat.number = number
            taken.add(number)
    changed = [s for s in rows if s.number != before[s.pk]]
    if changed:
        FinalSeat.objects.bulk_update(changed, ["number"])


def seat_rows_data(seat_rows: Iterable[FinalSeat]) -> list[dict]:
    """Every seat and its offers as data for a page (stored with the allocation run): the
    holder, where the seat comes from, where it stands and why (``reason_data``, rendered in
    the reader's language), and each offer with its answer and why it was made. Select
    :data:`HOLDER_NAMES` with the seats and :data:`ENTRY_NAMES` with their offers."""
    out = []
    for seat in seat_rows:
        out.append(
            {
                "key": seat.chain_key,
                "holder": seat.holder_name if seat.holder_key else "",
                "source": _msgid(Source(seat.source).label),
                "status": _msgid(Status(seat.status).label),
                "reason": seat.reason_data or {"template": seat.reason, "params": {}},
                "offers": [
                    {
                        "entry": str(offer.entry),
                        "answer": _msgid(offer.Answer(offer.answer).label),
                        "reason": offer.reason_data or {"template": offer.reason, "params": {}},
                    }
                    for offer in sorted(seat.offers.all(), key=lambda o: (o.offered_at, o.id))
                ],
            }
        )
    return out


def _msgid(label) -> str:
    """A choice's label as its msgid (Swedish), for data a page renders later (|rendered)."""
    with translation.override("sv"):
        return str(label)
