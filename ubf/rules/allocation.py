"""Final places: final size and the proportional allocation of seats to venues.

Clauses applied here (see docs/rulebook.md): R-ALLOC-1 (pairs final size), R-TEAM-ADV-1 (teams
final size), R-ALLOC-2 (direct qualifiers take seats first), R-ALLOC-3 (proportional share,
largest fractional parts), R-ALLOC-4 (equal fractions: larger share first), R-ALLOC-5 (lot
between venues with equal entries, with five-season precedence) and R-ALLOC-6 (within a venue,
seats go in heat-ranking order, skipping struck entries and direct qualifiers).

Pairs and teams use the same functions (R-TEAM-ADV-1: "exactly as R-ALLOC-2..6"); a venue is a
qualifying venue (kvalplats) for pairs or a heat (kvalheat) for teams, an entry a pair or a team.

Every result carries a person-readable explanation: each line is a mapping with ``clause``,
``venue`` (or None), ``message`` (a :class:`~ubf.rules.i18n.Message`: one Swedish template
marked for the catalogue and its params, rendered in the reader's language by the layer above)
and ``data`` (the figures).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, NamedTuple

from .draw import Draw, fresh_seed, seeded_draw
from .i18n import Message, Number, gettext_noop
from .season import DEFAULT_RULES, SeasonRules
from .violations import Violation

__all__ = [
    "Allocation",
    "Lot",
    "SeatHolders",
    "VenueRow",
    "allocate_seats",
    "fmt_fraction",
    "final_size_pairs",
    "final_size_teams",
    "seat_holders",
]


# --------------------------------------------------------------------------------------------
# Final size
# --------------------------------------------------------------------------------------------


def _size_from_table(count: int, table: Iterable[tuple[int, int]]) -> int:
    """The size of the last row of an ascending (lowest count, size) table that ``count`` reaches."""
    rows = sorted(table)
    size = rows[0][1]
    for lowest, row_size in rows:
        if count >= lowest:
            size = row_size
    return size


def final_size_pairs(qualifying_pairs: int, *, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-ALLOC-1: the pairs final's size for ``qualifying_pairs`` pairs in the qualifiers.

    2016-2017: 28 pairs; 32 from 61 qualifying pairs; 36 from 81 (``rules.pair_final_sizes``).
    The "fewer pairs qualified than the size: all go on" cut is left to the caller, who knows
    how many pairs are still available (``allocate_seats`` never hands out more seats than
    there are entries anyway).
    """
    return _size_from_table(qualifying_pairs, rules.pair_final_sizes)


def final_size_teams(qualifying_teams: int, *, rules: SeasonRules = DEFAULT_RULES) -> int:
    """R-TEAM-ADV-1: the team final's size: 8 teams; 10 from 20 qualifying teams
    (``rules.team_final_sizes``)."""
    return _size_from_table(qualifying_teams, rules.team_final_sizes)


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lot:
    """R-ALLOC-5: one lot between venues with equal entries that cannot all get the extra seat.

    ``among`` are the tied venues (sorted by key), ``seats`` how many of them get a seat.
    ``winners`` = ``by_precedence`` (precedence holders in the tie, oldest precedence first)
    followed by ``drawn`` (winners of the draw among the tied venues without precedence).
    ``seed`` is the seed of the system's draw when the default draw was used, else None.
    The losers gain precedence for the next such lot within the configured number of seasons;
    the winners by precedence have used theirs up (recording that is the caller's job).
    """

    among: tuple[str, ...]
    seats: int
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    by_precedence: tuple[str, ...] = ()
    drawn: tuple[str, ...] = ()
    entries: int = 0
    share: Fraction = Fraction(0)
    seed: int | None = None
    clause: str = "R-ALLOC-5"


class VenueRow(NamedTuple):
    """One venue's figures in an allocation (R-ALLOC-3)."""

    venue: str
    entries: int
    share: Fraction
    whole: int
    fraction: Fraction
    extra: bool  # got one of the seats left after the whole parts
    seats: int
    decided_by: str  # clause that settled the extra seat (or its absence)


@dataclass(frozen=True)
class Allocation:
    """The result of :func:`allocate_seats`.

    ``seats`` and ``shares`` map every venue key given to its seats and its exact share;
    ``lots`` lists the R-ALLOC-5 lots; ``rows`` the figures per venue; ``explanation`` the
    person-readable lines (each a mapping with clause, venue, message, data); ``violations``
    what was wrong with the input (negative numbers are read as 0).
    """

    seats: dict[str, int]
    shares: dict[str, Fraction]
    lots: list[Lot]
    rows: tuple[VenueRow, ...]
    seats_to_allocate: int
    total_entries: int
    everyone_goes: bool
    violations: list[Violation] = field(default_factory=list)

    @cached_property
    def explanation(self) -> list[dict[str, Any]]:
        """The person-readable lines: the figures used (R-ALLOC-3), each venue's share, whole
        part, fractional part and seats with the clause that settled it, and each lot."""
        return _explain(self)

    @property
    def precedence_used(self) -> tuple[str, ...]:
        """R-ALLOC-5: venues whose precedence was used up in this allocation."""
        return tuple(v for lot in self.lots for v in lot.by_precedence)

    @property
    def precedence_gained(self) -> tuple[str, ...]:
        """R-ALLOC-5: venues that lost a lot (they hold precedence in the next such lot)."""
        return tuple(v for lot in self.lots for v in lot.losers)

    def explain(self, language: str = "sv") -> str:
        """The explanation as text, one line per step, in ``language`` (English from the
        catalogue, :func:`ubf.rules.i18n.english`)."""
        return "\n".join(line["message"].text(language) for line in self.explanation)


def fmt_fraction(value: Fraction, language: str = "sv", places: int = 2) -> str:
    """A share or a distance for a person: two decimals (Swedish decimal comma), and the exact
    fraction after it when two decimals do not show it exactly (``9,33 (28/3)``)."""
    if not isinstance(value, Fraction):
        value = Fraction(value)
    num, den = value.numerator, value.denominator
    sign = "-" if num < 0 else ""
    scale = 10**places
    scaled, rem = divmod(abs(num) * scale, den)
    if 2 * rem >= den:  # round half up, away from zero
        scaled += 1
    whole, part = divmod(scaled, scale)
    point = "," if language.startswith("sv") else "."
    text = f"{sign}{whole}{point}{part:0{places}d}" if places else f"{sign}{whole}"
    if rem:
        text += f" ({num}/{den})"
    return text


def _seats_word(n: int) -> Message:
    if n == 1:
        return Message(gettext_noop("%(n)s plats"), {"n": n})
    return Message(gettext_noop("%(n)s platser"), {"n": n})


def _line(
    clause: str, venue: str | None, template: str, params: dict[str, Any], **data: Any
) -> dict[str, Any]:
    return {"clause": clause, "venue": venue, "message": Message(template, params), "data": data}


# --------------------------------------------------------------------------------------------
# Allocation
# --------------------------------------------------------------------------------------------


def allocate_seats(
    seats: int,
    venues: Mapping[str, int],
    *,
    precedence: Sequence[str] = (),
    draw: Draw | None = None,
) -> Allocation:
    """R-ALLOC-2..5 (and R-TEAM-ADV-1 for teams): share ``seats`` out among the venues.

    ``seats`` are the seats left for the venues: the final size (R-ALLOC-1 / R-TEAM-ADV-1)
    minus the direct qualifiers registered for the final (R-ALLOC-2); subtracting them is the
    caller's job. ``venues`` maps each venue key to its number of qualifying entries (a direct
    qualifier that played a heat counts here, R-ALLOC-2; it is passed over later, by
    :func:`seat_holders`).

    R-ALLOC-3: share_v = seats × entries_v / all entries, kept as an exact Fraction. Each venue
    first gets the whole part of its share; the seats left go one each to the venues with the
    largest fractional parts. R-ALLOC-4: among equal fractional parts the larger share goes
    first (12.50 and 9.50 with one seat left: 13 and 9). R-ALLOC-5: venues with the same number
    of entries have equal shares; when they cannot all get the next seat, one lot decides:
    venues in ``precedence`` (oldest first) win first, and ``draw(candidates, k)`` picks the
    k winners among the rest (default: a fair draw whose seed is recorded on the lot). A
    ``draw`` that does not return k different candidates is a programming error (ValueError).

    Never more seats than entries: when there are more entries than seats, every share is
    below the venue's entries, so its whole part plus the one extra seat never exceeds them and
    nothing needs to be moved. When there are no more entries than seats, a share would exceed
    the venue's entries; then every entry goes on (each venue gets exactly its entries, in all
    min(seats, entries) seats) and the seats beyond that stay empty for the caller (R-ALLOC-1:
    "if fewer qualified than the size, all of them go on"). Venues with 0 entries get 0.
    """
    violations: list[Violation] = []
    if seats < 0:
        violations.append(
            Violation(
                "R-ALLOC-2",
                gettext_noop(
                    "Antalet platser att fördela kan inte vara negativt (%(seats)s); räknas som 0."
                ),
                data={"seats": seats},
                params={"seats": seats},
            )
        )
        seats = 0
    entries: dict[str, int] = {}
    for venue, count in venues.items():
        if count < 0:
            violations.append(
                Violation(
                    "R-ALLOC-3",
                    gettext_noop(
                        "Kvalplats %(venue)s: antalet kvalande kan inte vara negativt "
                        "(%(count)s); räknas som 0."
                    ),
                    data={"venue": venue, "entries": count},
                    params={"venue": venue, "count": count},
                )
            )
            count = 0
        entries[venue] = int(count)

    total = sum(entries.values())
    # Exact arithmetic on integers: share_v = seats·e_v / total = whole_v + rest_v / total.
    whole: dict[str, int] = {}
    rest: dict[str, int] = {}
    for v, e in entries.items():
        whole[v], rest[v] = divmod(seats * e, total) if total else (0, 0)
    # Venues with equal entries share one Fraction object (equal shares, R-ALLOC-5).
    share_of: dict[int, tuple[Fraction, Fraction]] = {}
    for v, e in entries.items():
        if e not in share_of:
            share_of[e] = (
                (Fraction(seats * e, total), Fraction(rest[v], total))
                if total
                else (Fraction(0), Fraction(0))
            )
    shares = {v: share_of[e][0] for v, e in entries.items()}

    everyone_goes = total <= seats
    extra: dict[str, bool] = dict.fromkeys(entries, False)
    decided_by: dict[str, str] = dict.fromkeys(entries, "R-ALLOC-3")
    lots: list[Lot] = []

    if everyone_goes:
        result = dict(entries)
    else:
        result = dict(whole)
        left = seats - sum(whole.values())
        # Venues with equal entries have equal shares and equal fractions: one group each.
        groups: dict[int, list[str]] = {}
        for v, e in entries.items():
            if rest[v]:
                groups.setdefault(e, []).append(v)
        # R-ALLOC-3: largest fractional part first; R-ALLOC-4: equal fractions, larger share.
        order = sorted(groups.items(), key=lambda item: (-rest[item[1][0]], -item[0]))
        groups_per_fraction: dict[int, int] = {}
        for _count, members in order:
            r = rest[members[0]]
            groups_per_fraction[r] = groups_per_fraction.get(r, 0) + 1
        for count, members in order:
            if len(members) > 1:
                members = sorted(members, key=str)
            # R-ALLOC-4 matters where venues with other shares have the same fractional part.
            equal_fraction = groups_per_fraction[rest[members[0]]] > 1
            if left <= 0:
                for v in members:
                    decided_by[v] = "R-ALLOC-4" if equal_fraction else "R-ALLOC-3"
                continue
            if len(members) <= left:
                for v in members:
                    result[v] += 1
                    extra[v] = True
                    decided_by[v] = "R-ALLOC-4" if equal_fraction else "R-ALLOC-3"
                left -= len(members)
                continue
            lot = _lot(members, left, count, shares[members[0]], precedence, draw)
            lots.append(lot)
            for v in lot.winners:
                result[v] += 1
                extra[v] = True
            for v in members:
                decided_by[v] = "R-ALLOC-5"
            left = 0

    rows = tuple(
        VenueRow(
            venue=v,
            entries=entries[v],
            share=shares[v],
            whole=whole[v],
            fraction=share_of[entries[v]][1],
            extra=extra[v],
            seats=result[v],
            decided_by="R-ALLOC-1" if everyone_goes else decided_by[v],
        )
        for v in entries
    )
    return Allocation(
        seats=result,
        shares=shares,
        lots=lots,
        rows=rows,
        seats_to_allocate=seats,
        total_entries=total,
        everyone_goes=everyone_goes,
        violations=violations,
    )


def _explain(a: Allocation) -> list[dict[str, Any]]:
    seats, total = a.seats_to_allocate, a.total_entries
    lines = [
        _line(
            "R-ALLOC-3",
            None,
            gettext_noop(
                "%(seats_word)s fördelas på %(venues)s kvalplatser med sammanlagt %(total)s "
                "kvalande. Fördelningstal = %(seats)s × kvalande på platsen / %(total)s."
            ),
            {
                "seats_word": _seats_word(seats),
                "venues": len(a.rows),
                "total": total,
                "seats": seats,
            },
            seats=seats,
            total_entries=total,
        )
    ]
    if a.everyone_goes:
        lines.append(
            _line(
                "R-ALLOC-1",
                None,
                gettext_noop(
                    "Inte fler kvalande (%(total)s) än platser (%(seats)s): alla går vidare; "
                    "%(left)s blir inte fördelade."
                ),
                {"total": total, "seats": seats, "left": _seats_word(seats - total)},
                seats=seats,
                total_entries=total,
            )
        )
    else:
        whole = sum(row.whole for row in a.rows)
        left = seats - whole
        lines.append(
            _line(
                "R-ALLOC-3",
                None,
                gettext_noop(
                    "Heltalsdelarna ger %(whole)s; %(left)s kvar går en var till de största "
                    "decimaldelarna."
                ),
                {"whole": _seats_word(whole), "left": _seats_word(left)},
                whole_seats=whole,
                left=left,
            )
        )
    lines.extend(_venue_line(row, a.everyone_goes) for row in a.rows)
    lines.extend(_lot_line(lot) for lot in a.lots)
    return lines


def _lot(
    members: list[str],
    k: int,
    entries: int,
    share: Fraction,
    precedence: Sequence[str],
    draw: Draw | None,
) -> Lot:
    """R-ALLOC-5: settle one tie of ``members`` for ``k`` seats (k < len(members))."""
    member_set = set(members)
    holders: list[str] = []
    for v in precedence:
        if v in member_set and v not in holders:
            holders.append(v)
    by_precedence = tuple(holders[:k])
    still = k - len(by_precedence)
    drawn: tuple[str, ...] = ()
    seed: int | None = None
    if still > 0:
        candidates = [v for v in members if v not in holders]
        if draw is None:
            seed = fresh_seed()
            picked = seeded_draw(seed)(candidates, still)
        else:
            picked = list(draw(list(candidates), still))
        if len(picked) != still or len(set(picked)) != still or not set(picked) <= set(candidates):
            raise ValueError(
                f"draw({candidates!r}, {still}) must return {still} different candidates, "
                f"got {picked!r}"
            )
        drawn = tuple(picked)
    winners = by_precedence + drawn
    losers = tuple(v for v in members if v not in winners)
    return Lot(
        among=tuple(members),
        seats=k,
        winners=winners,
        losers=losers,
        by_precedence=by_precedence,
        drawn=drawn,
        entries=entries,
        share=share,
        seed=seed,
    )


_WHY_EXTRA = {
    "R-ALLOC-3": gettext_noop("en extra plats för decimaldelen"),
    "R-ALLOC-4": gettext_noop("en extra plats (lika decimaler: högre fördelningstal först)"),
    "R-ALLOC-5": gettext_noop("en extra plats genom lottning"),
}
_WHY_NO_EXTRA = {
    "R-ALLOC-3": gettext_noop("ingen extra plats"),
    "R-ALLOC-4": gettext_noop("ingen extra plats (lika decimaler: högre fördelningstal först)"),
    "R-ALLOC-5": gettext_noop("förlorade lottningen om extra plats"),
}


def _venue_line(row: VenueRow, everyone_goes: bool) -> dict[str, Any]:
    if everyone_goes:
        why = gettext_noop("alla går vidare")
    elif row.extra:
        why = _WHY_EXTRA[row.decided_by]
    else:
        why = _WHY_NO_EXTRA[row.decided_by]
    return _line(
        row.decided_by,
        row.venue,
        gettext_noop(
            "%(venue)s: %(entries)s kvalande, fördelningstal %(share)s (heltal %(whole)s, "
            "decimaldel %(fraction)s): %(why)s → %(seats)s."
        ),
        {
            "venue": row.venue,
            "entries": row.entries,
            "share": Number(fmt_fraction(row.share)),
            "whole": row.whole,
            "fraction": Number(fmt_fraction(row.fraction)),
            "why": why,
            "seats": _seats_word(row.seats),
        },
        entries=row.entries,
        share=str(row.share),
        whole=row.whole,
        fraction=str(row.fraction),
        extra=row.extra,
        seats=row.seats,
    )


def _lot_line(lot: Lot) -> dict[str, Any]:
    parts = [
        Message(
            gettext_noop(
                "Lottning mellan %(among)s (%(entries)s kvalande var) om %(seats)s plats(er)"
            ),
            {"among": list(lot.among), "entries": lot.entries, "seats": lot.seats},
        )
    ]
    if lot.by_precedence:
        parts.append(
            Message(
                gettext_noop("företräde från tidigare förlorad lottning: %(venues)s"),
                {"venues": list(lot.by_precedence)},
            )
        )
    if lot.drawn:
        drawn = list(lot.drawn)
        if lot.seed is not None:
            parts.append(
                Message(
                    gettext_noop("lottade vinnare: %(drawn)s (frö %(seed)s)"),
                    {"drawn": drawn, "seed": lot.seed},
                )
            )
        else:
            parts.append(Message(gettext_noop("lottade vinnare: %(drawn)s"), {"drawn": drawn}))
    parts.append(
        Message(
            gettext_noop("förlorare (får företräde nästa gång): %(losers)s."),
            {"losers": list(lot.losers)},
        )
    )
    # The parts are whole phrases of their own (each one msgid); only the "; " joins them.
    joined = _joined(parts, "; ")
    return _line(
        "R-ALLOC-5",
        None,
        joined.template,
        dict(joined.params),
        among=list(lot.among),
        seats=lot.seats,
        winners=list(lot.winners),
        losers=list(lot.losers),
        by_precedence=list(lot.by_precedence),
        drawn=list(lot.drawn),
        seed=lot.seed,
    )


def _joined(parts: list[Message], separator: str) -> Message:
    """``parts`` joined by ``separator`` as one message: each part a parameter of its own."""
    keys = [f"p{i}" for i in range(len(parts))]
    return Message(separator.join(f"%({k})s" for k in keys), dict(zip(keys, parts, strict=True)))


# --------------------------------------------------------------------------------------------
# Seat holders within a venue (R-ALLOC-6)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatHolders:
    """The result of :func:`seat_holders`.

    ``holders``: venue → entries holding its seats, in ranking order. ``rankings``: venue →
    ranking without struck entries and direct qualifiers (seat holders first), the form
    :func:`ubf.rules.replacement.replacement_order` takes. ``unfilled``: venue → seats it could
    not fill (too few entries left; they are vacant seats for the replacement chain).
    ``passed_over``: venue → (entry, clause) for entries skipped.
    """

    holders: dict[str, list[str]]
    rankings: dict[str, list[str]]
    unfilled: dict[str, int]
    passed_over: dict[str, list[tuple[str, str]]]
    explanation: list[dict[str, Any]] = field(default_factory=list)


def seat_holders(
    rankings: Mapping[str, Sequence[str]],
    seats: Mapping[str, int],
    struck: Iterable[str] = frozenset(),
    direct: Iterable[str] = frozenset(),
) -> SeatHolders:
    """R-ALLOC-6: fill each venue's seats with its entries in heat-ranking order, skipping
    struck entries and direct qualifiers.

    ``rankings`` maps a venue to its entries in ranking order (ties already broken by
    R-PAIR-TIE-* / R-TEAM-TIE-1). A direct qualifier that played a heat counted in the venue's
    number of entries but is passed over here, and the next entry goes on (R-ALLOC-2); its final
    place is its direct seat. Venues in ``seats`` without enough entries keep unfilled seats.
    """
    struck_set = frozenset(struck)
    direct_set = frozenset(direct)
    holders: dict[str, list[str]] = {}
    cleaned: dict[str, list[str]] = {}
    unfilled: dict[str, int] = {}
    passed: dict[str, list[tuple[str, str]]] = {}
    lines: list[dict[str, Any]] = []
    for venue in dict.fromkeys([*rankings, *seats]):
        ranking = list(rankings.get(venue, ()))
        n = max(0, int(seats.get(venue, 0)))
        kept: list[str] = []
        skipped: list[tuple[str, str]] = []
        for entry in ranking:
            if entry in struck_set:
                skipped.append((entry, "R-ALLOC-6"))
            elif entry in direct_set:
                skipped.append((entry, "R-ALLOC-2"))
            else:
                kept.append(entry)
        cleaned[venue] = kept
        holders[venue] = kept[:n]
        unfilled[venue] = max(0, n - len(kept))
        passed[venue] = skipped
        for entry, clause in skipped:
            if clause == "R-ALLOC-2":
                template = gettext_noop(
                    "%(venue)s: %(entry)s är direktkvalificerad och hoppas över; nästa går vidare."
                )
            else:
                template = gettext_noop("%(venue)s: %(entry)s är struken och hoppas över.")
            lines.append(
                _line(clause, venue, template, {"venue": venue, "entry": entry}, entry=entry)
            )
        lines.append(
            _line(
                "R-ALLOC-6",
                venue,
                gettext_noop(
                    "%(venue)s: %(seats)s till %(holders)s; %(unfilled)s platser kunde inte fyllas."
                )
                if unfilled[venue]
                else gettext_noop("%(venue)s: %(seats)s till %(holders)s."),
                {
                    "venue": venue,
                    "seats": _seats_word(n),
                    "holders": list(holders[venue]) or gettext_noop("(ingen)"),
                    "unfilled": unfilled[venue],
                },
                seats=n,
                holders=list(holders[venue]),
                unfilled=unfilled[venue],
            )
        )
    return SeatHolders(
        holders=holders, rankings=cleaned, unfilled=unfilled, passed_over=passed, explanation=lines
    )
