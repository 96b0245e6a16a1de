"""The replacement chain: who is asked when a final seat is given up.

Clauses applied here (see docs/rulebook.md): R-REPL-1 (own venue's nearest eliminated entry
first), R-REPL-2 (then the other venues' nearest eliminated entries, by closeness), R-REPL-3
(then back to the own venue's list, then the others by closeness; nobody left: TK decides),
R-REPL-4 (two seats given up in one venue: its next two are asked; a decline there moves that
seat on to the other venues), R-REPL-5 (every offer recorded; TK may override a step with a
reason), R-REPL-6 (recomputed from the recorded facts; accepted offers never move), R-REPL-7 (a
seat given up by a direct qualifier that played no heat has no own venue) and R-TEAM-REPL-1
(teams use the same chain).

Closeness of the k-th eliminated entry at venue v (rank r = seats_v + k, 1-based, in the
venue's ranking without struck entries and direct qualifiers) is r − share_v; the smallest
goes first; ties: larger share first, then venue key. R-REPL-2 says "then lot" for the last
tie; here the venue key decides, and the chain flags such a tie in its reason so that TK
can decide otherwise (R-REPL-5).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import chain, compress, repeat, zip_longest
from operator import is_not, ne
from typing import Any

from .allocation import fmt_fraction
from .i18n import Message, Number, gettext_noop
from .violations import Severity, Violation

__all__ = [
    "ACCEPTED",
    "ChainResult",
    "ChainStep",
    "DECLINED",
    "Offer",
    "Override",
    "PENDING",
    "SeatState",
    "Withdrawal",
    "clear_order_cache",
    "closeness",
    "replacement_order",
    "run_chain",
]

ACCEPTED = "accepted"
DECLINED = "declined"
PENDING = "pending"
ANSWERS = (ACCEPTED, DECLINED, PENDING)
_ANSWER_WORDS = {
    ACCEPTED: gettext_noop("tackade ja"),
    DECLINED: gettext_noop("tackade nej"),
    PENDING: gettext_noop("svar väntas"),
}


def closeness(rank: int, share: Fraction) -> Fraction:
    """R-REPL-2: how far an eliminated entry at ``rank`` was from a seat: rank − share."""
    return Fraction(rank) - Fraction(share)


# --------------------------------------------------------------------------------------------
# The order for one seat
# --------------------------------------------------------------------------------------------


_GAP = object()  # a hole in a venue's column (an unavailable entry, or before its first level)


class _Prepared:
    """Every venue's non-seat entries and the exact closeness order of all of them.

    Closeness of the k-th non-seat entry at v is (seats_v + k) − share_v. Scaled by the common
    denominator L of the shares it is the integer k·L + D_v with D_v = seats_v·L − share_v·L;
    writing D_v = q_v·L + rem_v (0 ≤ rem_v < L), the order by (closeness, larger share, venue
    key) is the order by (level k + q_v, position of v among the venues sorted by (rem_v,
    −share_v, key)). That is exact (no Fraction arithmetic per entry), and a level holds at
    most one entry per venue, so the whole order is the venues' columns zipped level by level.

    Built from a hashable key (:func:`_key`) and cached (:func:`_prepared`): a seat's order is
    asked for many times with the same allocation, by every venue and on every recompute.
    """

    __slots__ = (
        "cands",
        "seats",
        "shares",
        "level0",
        "pos",
        "venue_order",
        "firsts",
        "rest",
        "rest_pos",
        "_where",
    )

    def __init__(
        self,
        venues: tuple[str, ...],
        rankings: tuple[tuple[str, ...], ...],
        seats: tuple[Any, ...],
        ratios: tuple[tuple[int, int], ...],
    ) -> None:
        self.shares = {v: Fraction(n, d) for v, (n, d) in zip(venues, ratios)}
        self.seats = {v: max(0, int(n)) for v, n in zip(venues, seats)}
        scale = math.lcm(*(d for _n, d in ratios)) if ratios else 1
        self.level0: dict[str, int] = {}
        sort_key: dict[str, tuple[int, int, str]] = {}
        self.cands: dict[str, list[str]] = {}
        for v, ranking, (n, d) in zip(venues, rankings, ratios):
            scaled = n * (scale // d)
            self.level0[v], rem = divmod(self.seats[v] * scale - scaled, scale)
            sort_key[v] = (rem, -scaled, str(v))
            self.cands[v] = list(ranking[self.seats[v] :])
        self.venue_order = sorted(venues, key=sort_key.__getitem__)
        self.pos = {v: i for i, v in enumerate(self.venue_order)}
        # With nobody unavailable: each venue's first entry, by closeness, as (level, position,
        # venue, k, entry), and all later entries by closeness with their venues' positions.
        with_cands = [v for v in self.venue_order if self.cands[v]]
        self.firsts = sorted(
            (self.level0[v] + 1, self.pos[v], v, 1, self.cands[v][0]) for v in with_cands
        )
        base = min((self.level0[v] for v in with_cands), default=0)
        flat = list(
            chain.from_iterable(
                zip_longest(
                    *[[_GAP] * (self.level0[v] - base) + self.cands[v][1:] for v in with_cands],
                    fillvalue=_GAP,
                )
            )
        )
        flat_pos = list(
            chain.from_iterable(
                zip_longest(
                    *[
                        [_GAP] * (self.level0[v] - base) + [self.pos[v]] * (len(self.cands[v]) - 1)
                        for v in with_cands
                    ],
                    fillvalue=_GAP,
                )
            )
        )
        mask = list(map(is_not, flat, repeat(_GAP)))
        self.rest = list(compress(flat, mask))
        self.rest_pos = list(compress(flat_pos, mask))
        self._where: dict[str, tuple[str, int]] | None = None

    def key(self, venue: str, k: int) -> tuple[int, int]:
        """Sort key of the k-th non-seat entry at ``venue``: closeness, larger share, key."""
        return (k + self.level0[venue], self.pos[venue])

    def where(self, entry: str) -> tuple[str, int] | None:
        """(venue, k) of a non-seat entry, or None."""
        if self._where is None:
            where: dict[str, tuple[str, int]] = {}
            for v, cands in self.cands.items():
                for k, e in enumerate(cands, 1):
                    where.setdefault(e, (v, k))
            self._where = where
        return self._where.get(entry)

    def figures(self, venue: str, k: int) -> dict[str, Any]:
        rank = self.seats[venue] + k
        share = self.shares[venue]
        return {
            "venue": venue,
            "rank": rank,
            "seats": self.seats[venue],
            "share": share,
            "closeness": closeness(rank, share),
        }

    def parts(
        self, origin: str | None, unavailable: Set[str]
    ) -> tuple[list[str], list[tuple[str, int, str]], list[str]]:
        """(own, firsts, rest): the origin's available entries in rank order; each other
        venue's first available entry, by closeness, as (venue, k, entry); every other
        available entry by closeness. The lists are new (the prepared data is shared)."""
        cands_of = self.cands
        own = list(cands_of.get(origin, ())) if origin is not None else []
        if not unavailable:
            if own:
                p = self.pos[origin]
                firsts = [(v, k, e) for _l, _p, v, k, e in self.firsts if v != origin]
                rest = list(compress(self.rest, map(ne, self.rest_pos, repeat(p))))
            else:
                firsts = [(v, k, e) for _l, _p, v, k, e in self.firsts]
                rest = list(self.rest)
            return own, firsts, rest
        own = [e for e in own if e not in unavailable]
        level0, pos = self.level0, self.pos
        chosen: list[tuple[int, int, str, int, str]] = []
        columns: list[tuple[int, list[Any]]] = []  # (level of the first item, items)
        for v in self.venue_order:
            if v == origin:
                continue
            cands = cands_of[v]
            first = next((i for i, e in enumerate(cands) if e not in unavailable), None)
            if first is None:
                continue
            chosen.append((level0[v] + first + 1, pos[v], v, first + 1, cands[first]))
            column = [_GAP if e in unavailable else e for e in cands[first + 1 :]]
            columns.append((level0[v] + first + 2, column))
        chosen.sort()
        return own, [(v, k, e) for _l, _p, v, k, e in chosen], _merge(columns)


def _merge(columns: list[tuple[int, list[Any]]]) -> list[Any]:
    """Interleave the venues' columns level by level (each column starts at its level; the
    columns are in the tie order within a level) and drop the gaps."""
    if not columns:
        return []
    base = min(level for level, _items in columns)
    padded = [
        [_GAP] * (level - base) + items if level > base else items for level, items in columns
    ]
    flat = list(chain.from_iterable(zip_longest(*padded, fillvalue=_GAP)))
    return list(compress(flat, map(is_not, flat, repeat(_GAP))))


def _key(
    shares: Mapping[str, Any], seats: Mapping[str, int], rankings: Mapping[str, Sequence[str]]
) -> tuple[Any, ...]:
    """The data a :class:`_Prepared` is built from, as a hashable tuple."""
    venues = tuple(rankings)
    ratios = []
    for v in venues:
        x = shares.get(v, 0)
        ratios.append((x if type(x) is Fraction else Fraction(x)).as_integer_ratio())
    return (
        venues,
        tuple(map(tuple, rankings.values())),
        tuple([seats.get(v, 0) for v in venues]),
        tuple(ratios),
    )


@lru_cache(maxsize=32)
def _prepared_from_key(key: tuple[Any, ...]) -> _Prepared:
    return _Prepared(*key)


def clear_order_cache() -> None:
    """Forget the cached closeness orders (benchmarks measuring a cold start use this)."""
    _prepared_from_key.cache_clear()


def _prepared(
    shares: Mapping[str, Any], seats: Mapping[str, int], rankings: Mapping[str, Sequence[str]]
) -> _Prepared:
    key = _key(shares, seats, rankings)
    try:
        return _prepared_from_key(key)
    except TypeError:  # unhashable entry keys: no cache
        return _Prepared(*key)


def replacement_order(
    origin: str | None,
    shares: Mapping[str, Fraction],
    seats: Mapping[str, int],
    rankings: Mapping[str, Sequence[str]],
    unavailable: Iterable[str] = frozenset(),
) -> list[str]:
    """R-REPL-1..4, R-REPL-7: the ordered entries to ask for one seat vacated at ``origin``.

    ``shares`` and ``seats`` come from the allocation (R-ALLOC-3); ``rankings`` maps each venue
    to its entry keys in ranking order, struck entries and direct qualifiers removed, seat
    holders first (the first seats_v entries hold seats and are never candidates); entries in
    ``unavailable`` are left out (declined before, already holding a seat, being asked for
    another seat). Closeness of the k-th eliminated entry at v is (seats_v + k) − share_v.

    Order: the origin's first available entry (R-REPL-1); each other venue's first available
    entry by closeness, smallest first, ties: larger share, then venue key (R-REPL-2); the
    origin's remaining entries in rank order, then every other remaining entry by closeness
    (R-REPL-3). ``origin=None`` (R-REPL-7: a direct qualifier that played no heat): every
    venue's first available entry by closeness, then all remaining entries by closeness.
    Every available non-seat entry appears exactly once (entry keys are unique across venues;
    :func:`run_chain` reports an entry listed twice).
    """
    prepared = _prepared(shares, seats, rankings)
    if not isinstance(unavailable, Set):
        unavailable = frozenset(unavailable)
    own, firsts, rest = prepared.parts(origin, unavailable)
    order = own[:1]
    order.extend([e for _v, _k, e in firsts])
    order.extend(own[1:])
    order.extend(rest)
    return order


# --------------------------------------------------------------------------------------------
# The chain runner
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Offer:
    """R-REPL-5: one recorded offer of a vacated seat.

    ``seat`` names the seat by the entry that first held it (a seat holder, a direct
    qualifier, or ``"<venue>#<n>"`` for the n-th seat a venue could not fill, see
    :attr:`SeatState.seat`). ``answer`` is "accepted", "declined" or "pending". Offers are
    given in the order they were made.
    """

    entry: str
    seat: str
    answer: str = PENDING
    asked_at: Any = None
    answered_at: Any = None
    recorded_by: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Withdrawal:
    """A seat holder (or an accepted replacement) gives up its seat; an entry that holds no
    seat withdrawing only means it is not asked."""

    entry: str
    at: Any = None
    recorded_by: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Override:
    """R-REPL-5 / R-REPL-7: TK names the entry to ask next for ``seat`` (or ``entry=None``:
    TK leaves the seat empty), with the recorded reason."""

    seat: str
    entry: str | None
    reason: str
    decided_by: str | None = None
    at: Any = None


@dataclass(frozen=True)
class ChainStep:
    """One step in a seat's history or the next step, with its clause and reason."""

    kind: str  # held, vacant, withdrawn, offer, override, ask, tk_decides, closed
    entry: str | None
    clause: str
    message: Message  # one Swedish template and its params (docs/translation.md)
    answer: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def sv(self) -> str:
        return self.message.message_sv

    @property
    def en(self) -> str:
        """The English text, read from the catalogue (:func:`ubf.rules.i18n.english`)."""
        return self.message.message_en

    def text(self, language: str = "sv") -> str:
        return self.message.text(language)


HELD = "held"  # the original holder still holds it
FILLED = "filled"  # a replacement accepted it (R-REPL-6: it never moves)
WAITING = "pending"  # an offer is out, waiting for the answer
ASK = "ask"  # ask ``ask`` next
TK_DECIDES = "tk_decides"  # nobody left to ask (R-REPL-3)
CLOSED = "closed"  # TK decided to leave it empty (R-REPL-5)


@dataclass(frozen=True)
class SeatState:
    """One final seat now: who holds it, or whom it waits for, or whom to ask next."""

    seat: str
    origin: str | None
    original_holder: str | None
    holder: str | None
    status: str
    pending: str | None
    ask: str | None
    steps: tuple[ChainStep, ...]

    @property
    def next_step(self) -> ChainStep | None:
        return self.steps[-1] if self.status in (ASK, TK_DECIDES) else None


@dataclass(frozen=True)
class ChainResult:
    """The result of :func:`run_chain`: every seat in the final and the chain's next steps."""

    seat_states: tuple[SeatState, ...]
    other_steps: tuple[ChainStep, ...] = ()
    violations: tuple[Violation, ...] = ()

    @property
    def holders(self) -> dict[str, str | None]:
        """Seat → the entry holding it now (None while it is being offered)."""
        return {s.seat: s.holder for s in self.seat_states}

    @property
    def to_ask(self) -> dict[str, str]:
        """Vacated seat → the entry to ask next."""
        return {s.seat: s.ask for s in self.seat_states if s.ask is not None}

    @property
    def pending(self) -> dict[str, str]:
        """Vacated seat → the entry whose answer is awaited."""
        return {s.seat: s.pending for s in self.seat_states if s.pending is not None}

    @property
    def tk_decides(self) -> tuple[str, ...]:
        """R-REPL-3: vacated seats with nobody left to ask."""
        return tuple(s.seat for s in self.seat_states if s.status == TK_DECIDES)

    def state(self, seat: str) -> SeatState:
        for s in self.seat_states:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def explain(self, language: str = "sv") -> str:
        lines = []
        for s in self.seat_states:
            if s.status == HELD:
                continue
            lines.append(f"[{s.seat}]")
            lines.extend(f"  {step.clause}: {step.text(language)}" for step in s.steps)
        lines.extend(f"{step.clause}: {step.text(language)}" for step in self.other_steps)
        lines.extend(str(v) for v in self.violations)  # Swedish; pages use clubs.i18n.render
        return "\n".join(lines)


@dataclass
class _Seat:
    seat: str
    origin: str | None
    original: str | None
    order: int
    holder: str | None = None
    pending: str | None = None
    phase: str = "A"  # A: own first; B: other venues' firsts; C: own rest, then others
    asked_venues: set[str] = field(default_factory=set)
    vacated_at: int = -1  # index of the withdrawal that vacated it last (-1: vacant from start)
    steps: list[ChainStep] = field(default_factory=list)
    closed: bool = False
    last_out: str | None = None  # the last entry the chain offered it to that is out


def _why_moved(s: _Seat) -> Message:
    if s.last_out is None:
        return Message(
            gettext_noop("Ingen utslagen kvar att fråga i %(venue)s"), {"venue": s.origin}
        )
    return Message(
        gettext_noop("%(entry)s tackade nej eller lämnade återbud"), {"entry": s.last_out}
    )


@dataclass
class _Replay:
    """What :func:`run_chain` knows while it replays the record: the seats, who holds them,
    who was asked, who declined or withdrew, and the notes and violations found on the way."""

    prepared: _Prepared
    withdrawals: Sequence[Withdrawal]
    direct_map: dict[str, str | None]
    team: bool
    violations: list[Violation] = field(default_factory=list)
    other_steps: list[ChainStep] = field(default_factory=list)
    seat_list: list[_Seat] = field(default_factory=list)
    by_id: dict[str, _Seat] = field(default_factory=dict)
    withdrawn_at: dict[str, int] = field(default_factory=dict)
    declined: set[str] = field(default_factory=set)
    asked: dict[str, str] = field(default_factory=dict)  # entry -> the seat it was asked for
    holder_of: dict[str, _Seat] = field(default_factory=dict)

    def figures(self, entry: str) -> dict[str, Any]:
        where = self.prepared.where(entry)
        return self.prepared.figures(*where) if where else {"venue": None}

    def venue_of(self, entry: str) -> str | None:
        where = self.prepared.where(entry)
        return where[0] if where else None

    def withdraw(self, s: _Seat, entry: str) -> None:
        w = self.withdrawals[self.withdrawn_at[entry]]
        s.holder = None
        s.vacated_at = self.withdrawn_at[entry]
        clause = "R-REPL-7" if s.origin is None else "R-REPL-1"
        s.steps.append(
            ChainStep(
                "withdrawn",
                entry,
                clause,
                Message(
                    gettext_noop("%(entry)s lämnar sin finalplats (%(reason)s).")
                    if w.reason
                    else gettext_noop("%(entry)s lämnar sin finalplats."),
                    {"entry": entry, "reason": w.reason},
                ),
                data={"at": w.at, "recorded_by": w.recorded_by, "reason": w.reason},
            )
        )


def run_chain(
    seats: Mapping[str, int],
    shares: Mapping[str, Fraction],
    rankings: Mapping[str, Sequence[str]],
    holders: Mapping[str, Sequence[str]] | None = None,
    *,
    direct: Mapping[str, str | None] | Iterable[str] = (),
    offers: Sequence[Offer] = (),
    withdrawals: Sequence[Withdrawal] = (),
    overrides: Sequence[Override] = (),
    team: bool = False,
) -> ChainResult:
    """R-REPL-1..7, R-TEAM-REPL-1: replay the recorded offers and say, for every final seat,
    who holds it now and, for every vacated seat, whom to ask next and why.

    ``seats``, ``shares`` come from the allocation, ``rankings`` as for
    :func:`replacement_order`. ``holders`` maps a venue to its seat holders (default: the first
    seats_v of its ranking); a venue with fewer holders than seats has vacant seats named
    ``"<venue>#1"``, ``"<venue>#2"``... ``direct`` maps each direct qualifier to the venue where
    it played a heat, or None if it played none (a plain list means none played); its seat's
    origin is that venue, or none at all (R-REPL-7). ``team=True`` words the reasons for teams
    (R-TEAM-REPL-1: the chain itself is the same).

    Each seat keeps its own place in the chain: first its own venue's nearest available entry
    (R-REPL-1; with several seats vacated in one venue, its next ones, R-REPL-4), then each
    other venue's nearest available entry once, by closeness (R-REPL-2), then the own venue's
    remaining entries and then everyone else by closeness (R-REPL-3); nobody left: TK decides.
    Accepted offers never move (R-REPL-6); a decliner or a withdrawn entry is never asked again;
    an entry is asked for one seat at a time. Seats vacated earlier choose first. A TK
    ``Override`` names the next entry to ask (or closes the seat), shown with its reason
    (R-REPL-5); an offer made on an override does not move the seat's place in the chain.
    """
    r = _Replay(
        prepared=_prepared(shares, seats, rankings),
        withdrawals=withdrawals,
        direct_map=dict(direct) if isinstance(direct, Mapping) else dict.fromkeys(direct),
        team=team,
    )
    _check_rankings(r, rankings)
    _seat_the_final(r, seats, rankings, holders)
    _replay_holders(r)
    _replay_offers(r, offers, overrides)
    _note_other_withdrawals(r)
    return _next_steps(r, overrides)


def _check_rankings(r: _Replay, rankings: Mapping[str, Sequence[str]]) -> None:
    """R-ALLOC-6: an entry listed at two venues counts at the first only."""
    violations = r.violations
    seen_in: dict[str, str] = {}
    for venue, venue_ranking in rankings.items():
        for entry in venue_ranking:
            if entry in seen_in:
                violations.append(
                    _violation(
                        "R-ALLOC-6",
                        gettext_noop(
                            "%(entry)s står två gånger i rankningarna (%(seen_in)s och "
                            "%(venue)s); bara den första räknas."
                        ),
                        entry=entry,
                        params={"entry": entry, "seen_in": seen_in[entry], "venue": venue},
                    )
                )
            else:
                seen_in[entry] = venue


def _seat_the_final(r: _Replay, seats, rankings, holders) -> None:
    """The seats of the final: each venue's holders, a vacant seat for each one its venue
    cannot fill (R-ALLOC-6), a seat for each direct qualifier (R-ALLOC-2)."""
    violations, direct_map = r.violations, r.direct_map
    seat_list: list[_Seat] = []
    for venue in dict.fromkeys([*seats, *rankings]):
        n = max(0, int(seats.get(venue, 0)))
        if holders is not None and venue in holders:
            venue_holders = list(holders[venue])[:n]
        else:
            venue_holders = list(rankings.get(venue, ()))[:n]
        for h in venue_holders:
            seat_list.append(_Seat(h, venue, h, len(seat_list), holder=h))
        for i in range(1, n - len(venue_holders) + 1):
            vacant = _Seat(f"{venue}#{i}", venue, None, len(seat_list))
            vacant.steps.append(
                ChainStep(
                    "vacant",
                    None,
                    "R-ALLOC-6",
                    Message(
                        gettext_noop(
                            "Kvalplatsen %(venue)s har för få kvalificerade för sina %(seats)s "
                            "platser: platsen är ledig."
                        ),
                        {"venue": venue, "seats": n},
                    ),
                    data={"venue": venue, "seats": n},
                )
            )
            seat_list.append(vacant)
    for d, venue in direct_map.items():
        seat_list.append(_Seat(d, venue, d, len(seat_list), holder=d))
    by_id: dict[str, _Seat] = {}
    for s in seat_list:
        if s.seat in by_id:
            violations.append(
                _violation(
                    "R-REPL-6",
                    gettext_noop("%(seat)s har två finalplatser; bara den första räknas."),
                    entry=s.seat,
                    params={"seat": s.seat},
                )
            )
            continue
        by_id[s.seat] = s
    seat_list = list(by_id.values())
    r.seat_list, r.by_id = seat_list, by_id
    for i, w in enumerate(r.withdrawals):
        r.withdrawn_at.setdefault(w.entry, i)


def _replay_holders(r: _Replay) -> None:
    """Replay the original holders: each holds its seat unless it withdrew."""
    seat_list, direct_map, withdrawn_at, withdraw = (
        r.seat_list,
        r.direct_map,
        r.withdrawn_at,
        r.withdraw,
    )
    for s in seat_list:
        if s.original is not None:
            s.steps.append(
                ChainStep(
                    HELD,
                    s.original,
                    "R-ALLOC-2" if s.original in direct_map else "R-ALLOC-6",
                    Message(
                        gettext_noop("%(entry)s har platsen som direktkvalificerad.")
                        if s.original in direct_map
                        else gettext_noop("%(entry)s har platsen."),
                        {"entry": s.original},
                    ),
                    data={"origin": s.origin},
                )
            )
            if s.original in withdrawn_at:
                withdraw(s, s.original)
    r.holder_of = {s.original: s for s in seat_list if s.original is not None}


def _replay_offers(r: _Replay, offers: Sequence[Offer], overrides: Sequence[Override]) -> None:
    """Replay the offers in the order made (R-REPL-5): accepted offers hold (R-REPL-6), a
    declined or withdrawn entry is out, and a seat moves on in the chain after each answer."""
    violations = r.violations
    by_id = r.by_id
    withdrawn_at = r.withdrawn_at
    declined = r.declined
    asked = r.asked
    holder_of = r.holder_of
    figures = r.figures
    venue_of = r.venue_of
    withdraw = r.withdraw
    override_pairs = {(o.seat, o.entry) for o in overrides}
    for offer in offers:
        s = by_id.get(offer.seat)
        if s is None or offer.answer not in ANSWERS:
            violations.append(
                _violation(
                    "R-REPL-5",
                    gettext_noop(
                        "Erbjudandet till %(entry)s gäller en okänd plats (%(seat)s) eller har "
                        "ett okänt svar (%(answer)s); det räknas inte."
                    ),
                    entry=offer.entry,
                    seat=offer.seat,
                    params={"entry": offer.entry, "seat": offer.seat, "answer": offer.answer},
                )
            )
            continue
        if s.holder is not None:
            violations.append(
                _violation(
                    "R-REPL-6",
                    gettext_noop(
                        "Erbjudandet till %(entry)s gäller platsen %(seat)s, som %(holder)s "
                        "redan har; det räknas inte."
                    ),
                    entry=offer.entry,
                    seat=s.seat,
                    params={"entry": offer.entry, "seat": s.seat, "holder": s.holder},
                )
            )
            continue
        other = holder_of.get(offer.entry)
        if other is not None and other is not s and other.holder == offer.entry:
            violations.append(
                _violation(
                    "R-REPL-6",
                    gettext_noop(
                        "%(entry)s har redan en finalplats (%(seat)s); erbjudandet om platsen "
                        "%(seat2)s räknas inte."
                    ),
                    entry=offer.entry,
                    seat=s.seat,
                    params={"entry": offer.entry, "seat": other.seat, "seat2": s.seat},
                )
            )
            continue
        if offer.entry in declined:
            violations.append(
                _violation(
                    "R-REPL-3",
                    gettext_noop("%(entry)s har redan tackat nej och ska inte tillfrågas igen."),
                    severity=Severity.WARNING,
                    entry=offer.entry,
                    seat=s.seat,
                    params={"entry": offer.entry},
                )
            )
        if s.pending is not None:
            violations.append(
                _violation(
                    "R-REPL-5",
                    gettext_noop(
                        "Platsen %(seat)s: nytt erbjudande till %(entry)s medan svaret från "
                        "%(pending)s saknas; det senare gäller."
                    ),
                    severity=Severity.WARNING,
                    entry=offer.entry,
                    seat=s.seat,
                    params={"seat": s.seat, "entry": offer.entry, "pending": s.pending},
                )
            )
            s.pending = None
        by_override = (s.seat, offer.entry) in override_pairs
        asked[offer.entry] = s.seat
        answer = offer.answer
        if answer != DECLINED and offer.entry in withdrawn_at and answer == PENDING:
            answer = DECLINED  # it withdrew while the offer was out
        data = {
            **figures(offer.entry),
            "asked_at": offer.asked_at,
            "answered_at": offer.answered_at,
            "recorded_by": offer.recorded_by,
            "by_override": by_override,
        }
        s.steps.append(
            ChainStep(
                "offer",
                offer.entry,
                "R-REPL-5",
                Message(
                    gettext_noop("Erbjudande till %(entry)s (på TK:s beslut): %(answer)s.")
                    if by_override
                    else gettext_noop("Erbjudande till %(entry)s: %(answer)s."),
                    {"entry": offer.entry, "answer": _ANSWER_WORDS[answer]},
                ),
                answer=answer,
                data=data,
            )
        )
        if answer == PENDING:
            s.pending = offer.entry
            continue
        if answer == ACCEPTED:
            s.holder = offer.entry
            holder_of[offer.entry] = s
            if offer.entry not in withdrawn_at:
                continue
            withdraw(s, offer.entry)
        else:
            declined.add(offer.entry)
        if not by_override:
            _advance(s, venue_of(offer.entry))
            s.last_out = offer.entry


def _note_other_withdrawals(r: _Replay) -> None:
    """Withdrawals of entries that hold no seat: they are only left out (R-REPL-5)."""
    prepared = r.prepared
    withdrawals = r.withdrawals
    violations = r.violations
    other_steps = r.other_steps
    asked = r.asked
    holder_of = r.holder_of
    for w in withdrawals:
        if w.entry in holder_of or w.entry in asked:
            continue
        where = prepared.where(w.entry)
        if where is None:
            violations.append(
                _violation(
                    "R-REPL-5",
                    gettext_noop(
                        "Återbud från %(entry)s, som varken har en finalplats eller är utslagen "
                        "i någon kvalplats."
                    ),
                    severity=Severity.WARNING,
                    entry=w.entry,
                    params={"entry": w.entry},
                )
            )
        other_steps.append(
            ChainStep(
                "withdrawn",
                w.entry,
                "R-REPL-5",
                Message(
                    gettext_noop(
                        "%(entry)s har meddelat att laget inte kan spela finalen och tillfrågas "
                        "inte."
                    )
                    if r.team
                    else gettext_noop(
                        "%(entry)s har meddelat att paret inte kan spela finalen och tillfrågas "
                        "inte."
                    ),
                    {"entry": w.entry},
                ),
                data={"at": w.at, "recorded_by": w.recorded_by, "reason": w.reason},
            )
        )


def _next_steps(r: _Replay, overrides: Sequence[Override]) -> ChainResult:
    """Whom to ask next for every open seat, the seats vacated first choosing first, and every
    seat's state now."""
    prepared = r.prepared
    direct_map = r.direct_map
    violations = r.violations
    other_steps = r.other_steps
    seat_list = r.seat_list
    by_id = r.by_id
    withdrawn_at = r.withdrawn_at
    declined = r.declined
    asked = r.asked
    unavailable: set[str] = set(declined) | set(withdrawn_at) | set(direct_map)
    for s in seat_list:
        if s.holder is not None:
            unavailable.add(s.holder)
        if s.pending is not None:
            unavailable.add(s.pending)
    open_seats = sorted(
        (s for s in seat_list if s.holder is None and s.pending is None),
        key=lambda s: (s.vacated_at, s.order),
    )
    vacated_per_origin: dict[str | None, int] = {}
    for s in seat_list:
        if s.original is None or s.original in withdrawn_at:
            vacated_per_origin[s.origin] = vacated_per_origin.get(s.origin, 0) + 1

    latest_override: dict[str, Override] = {}
    for o in overrides:
        latest_override[o.seat] = o
    for o in overrides:
        if o.seat not in by_id:
            violations.append(
                _violation(
                    "R-REPL-5",
                    gettext_noop("TK:s beslut gäller en okänd plats (%(seat)s)."),
                    seat=o.seat,
                    params={"seat": o.seat},
                )
            )

    for s in open_seats:
        o = latest_override.get(s.seat)
        if o is not None and (o.entry is None or asked.get(o.entry) != s.seat):
            step = _override_step(s, o, unavailable, declined, violations)
            if step is not None:
                s.steps.append(step)
                if o.entry is None:
                    s.closed = True
                else:
                    unavailable.add(o.entry)
                continue
        step = _next_step(s, prepared, unavailable, vacated_per_origin, r.team)
        s.steps.append(step)
        if step.entry is not None:
            unavailable.add(step.entry)

    states = []
    for s in seat_list:
        ask = None
        if s.holder is not None:
            status = HELD if s.holder == s.original else FILLED
        elif s.pending is not None:
            status = WAITING
        elif s.closed:
            status = CLOSED
        elif s.steps and s.steps[-1].kind in (ASK, "override"):
            status, ask = ASK, s.steps[-1].entry
        else:
            status = TK_DECIDES
        states.append(
            SeatState(
                seat=s.seat,
                origin=s.origin,
                original_holder=s.original,
                holder=s.holder,
                status=status,
                pending=s.pending,
                ask=ask,
                steps=tuple(s.steps),
            )
        )
    return ChainResult(tuple(states), tuple(other_steps), tuple(violations))


def _advance(s: _Seat, venue: str | None) -> None:
    """Move a seat on in the chain after an offer made by the chain ended (declined, or
    accepted and later withdrawn)."""
    if s.phase == "A":
        s.phase = "B"
        if venue is not None and venue != s.origin:
            s.asked_venues.add(venue)
    elif s.phase == "B":
        if venue is None or venue == s.origin or venue in s.asked_venues:
            s.phase = "C"
        else:
            s.asked_venues.add(venue)


def _next_step(
    s: _Seat,
    prepared: _Prepared,
    unavailable: set[str],
    vacated_per_origin: dict[str | None, int],
    team: bool,
) -> ChainStep:
    own_entries, firsts, rest = prepared.parts(s.origin, unavailable)
    own = [(*prepared.where(e), e) for e in own_entries[:1]]
    if s.origin is None and s.phase == "A":
        s.phase = "B"
    if s.phase == "A" and own:
        v, k, e = own[0]
        f = prepared.figures(v, k)
        several = vacated_per_origin.get(s.origin, 0) > 1
        clause = "R-REPL-4" if several else "R-REPL-1"
        if several:
            lead = gettext_noop(
                "Flera platser från %(venue)s är lediga: de närmast utslagna i %(venue)s "
                "tillfrågas i tur och ordning; för den här platsen"
            )
        elif team:
            lead = gettext_noop("Närmast utslagna laget i den egna kvalgruppen %(venue)s")
        else:
            lead = gettext_noop("Närmast utslagna paret i den egna kvalgruppen %(venue)s")
        return ChainStep(
            ASK,
            e,
            clause,
            Message(
                gettext_noop(
                    "%(lead)s: %(entry)s, plats %(rank)s (%(venue)s fick %(seats)s platser)."
                ),
                {
                    "lead": Message(lead, {"venue": v}),
                    "entry": e,
                    "rank": f["rank"],
                    "venue": v,
                    "seats": f["seats"],
                },
            ),
            data={**f, "phase": "own venue"},
        )
    if s.phase in ("A", "B"):
        candidates = [(v, k, e) for v, k, e in firsts if v not in s.asked_venues]
        if candidates:
            clause = "R-REPL-7" if s.origin is None else "R-REPL-2"
            if s.origin is None:
                lead = Message(
                    gettext_noop(
                        "Direktkvalificerad plats utan egen kvalplats: närmast utslagna på "
                        "kvalplatserna efter avstånd till direkt finalplats"
                    )
                )
            else:
                lead = Message(
                    gettext_noop(
                        "%(why)s: platsen går vidare till närmast utslagna på övriga "
                        "kvalplatser, efter avstånd till direkt finalplats"
                    ),
                    {"why": _why_moved(s)},
                )
            return _closeness_step(candidates, prepared, clause, lead)
        s.phase = "C"
    # Phase C: back to the origin's list in rank order, then everyone else by closeness.
    if own:
        v, k, e = own[0]
        f = prepared.figures(v, k)
        return ChainStep(
            ASK,
            e,
            "R-REPL-3",
            Message(
                gettext_noop(
                    "De närmast utslagna på övriga kvalplatser har tackat nej eller saknas: "
                    "platsen går tillbaka till kvalplatsen %(venue)s; nästa i rang är %(entry)s, "
                    "plats %(rank)s."
                ),
                {"venue": v, "entry": e, "rank": f["rank"]},
            ),
            data={**f, "phase": "own venue again"},
        )
    others = [(v, k, e) for v, k, e in firsts]
    if rest:
        others.append((*prepared.where(rest[0]), rest[0]))
    others.sort(key=lambda c: prepared.key(c[0], c[1]))
    if others:
        clause = "R-REPL-7" if s.origin is None else "R-REPL-3"
        lead = (
            Message(
                gettext_noop(
                    "Listan i %(venue)s är slut: nästa på övriga kvalplatser efter avstånd"
                ),
                {"venue": s.origin},
            )
            if s.origin is not None
            else Message(gettext_noop("Nästa på kvalplatserna efter avstånd"))
        )
        return _closeness_step(others, prepared, clause, lead)
    return ChainStep(
        TK_DECIDES,
        None,
        "R-REPL-3",
        Message(
            gettext_noop("Inget lag kvar att fråga: UBF:s tävlingskommitté (TK) avgör.")
            if team
            else gettext_noop("Inget par kvar att fråga: UBF:s tävlingskommitté (TK) avgör.")
        ),
        data={"origin": s.origin},
    )


def _closeness_step(
    candidates: list[tuple[str, int, str]],
    prepared: _Prepared,
    clause: str,
    lead: Message,
) -> ChainStep:
    """The first of ``candidates`` (sorted by closeness), with the figures that put it first."""
    v, k, e = candidates[0]
    f = prepared.figures(v, k)
    tied = [
        cv
        for cv, ck, _ce in candidates[1:]
        if prepared.figures(cv, ck)["closeness"] == f["closeness"]
        and prepared.shares[cv] == prepared.shares[v]
    ]
    runners = [
        {
            "venue": cv,
            "entry": ce,
            "closeness": str(prepared.figures(cv, ck)["closeness"]),
        }
        for cv, ck, ce in candidates[1:4]
    ]
    params = {
        "lead": lead,
        "entry": e,
        "venue": v,
        "rank": f["rank"],
        "share": Number(fmt_fraction(f["share"])),
        "closeness": Number(fmt_fraction(f["closeness"])),
    }
    if tied:
        message = Message(
            gettext_noop(
                "%(lead)s: %(entry)s (%(venue)s, plats %(rank)s), avstånd %(rank)s − %(share)s "
                "= %(closeness)s. Lika avstånd och fördelningstal som %(tied)s: kvalplatsens "
                "namn fick avgöra; TK kan besluta annat (lottning)."
            ),
            {**params, "tied": list(tied)},
        )
    else:
        message = Message(
            gettext_noop(
                "%(lead)s: %(entry)s (%(venue)s, plats %(rank)s), avstånd %(rank)s − %(share)s "
                "= %(closeness)s."
            ),
            params,
        )
    return ChainStep(
        ASK,
        e,
        clause,
        message,
        data={**f, "next_in_line": runners, "tied_with": tied},
    )


def _override_step(
    s: _Seat,
    o: Override,
    unavailable: set[str],
    declined: set[str],
    violations: list[Violation],
) -> ChainStep | None:
    """R-REPL-5: TK's override for an open seat, or None when it cannot apply."""
    meta = {"reason": o.reason, "decided_by": o.decided_by, "at": o.at}
    if o.entry is None:
        return ChainStep(
            "closed",
            None,
            "R-REPL-5",
            Message(
                gettext_noop("TK har beslutat att platsen inte tillsätts: %(reason)s"),
                {"reason": o.reason},
            ),
            data=meta,
        )
    if o.entry in unavailable and o.entry not in declined:
        violations.append(
            _violation(
                "R-REPL-5",
                gettext_noop(
                    "TK:s beslut att fråga %(entry)s om platsen %(seat)s går inte att följa: "
                    "%(entry)s har redan en plats, har lämnat återbud eller tillfrågas redan."
                ),
                entry=o.entry,
                seat=s.seat,
                params={"entry": o.entry, "seat": s.seat},
            )
        )
        return None
    return ChainStep(
        "override",
        o.entry,
        "R-REPL-5",
        Message(
            gettext_noop(
                "TK har beslutat att %(entry)s (har tackat nej tidigare) ska tillfrågas: %(reason)s"
            )
            if o.entry in declined
            else gettext_noop("TK har beslutat att %(entry)s ska tillfrågas: %(reason)s"),
            {"entry": o.entry, "reason": o.reason},
        ),
        data=meta,
    )


def _violation(
    clause: str,
    template: str,
    severity: Severity = Severity.ERROR,
    *,
    params: dict | None = None,
    **data: Any,
) -> Violation:
    return Violation(clause, template, severity, data, params or {})
