"""The allocation of final places over the venues (R-ALLOC-1..6, R-TEAM-ADV-1), the seat
holders, and the replacement chain (R-REPL-*), computed from the heat rankings and stored as
an explained :class:`results.models.AllocationRun`.

Lots (R-ALLOC-5): while results are still coming in the allocation is provisional and a tie is
settled by a deterministic seeded draw that is shown but not recorded. Once every heat is
complete the lot is recorded as a :class:`results.models.Lot` with its seed, and every later
recompute reuses the recorded result, whether the system drew it or TK entered it by hand.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from clubs import clock
from results.models import AllocationRun, Lot
from results.services.lots import lot_precedence, use_precedence
from ubf.rules import allocation as alloc_rules
from ubf.rules import replacement
from ubf.rules.draw import fresh_seed, seeded_draw
from ubf.rules.i18n import as_data


@dataclass
class Venue:
    """One qualifying venue (a heat, keyed by its arranging clubs)."""

    key: str
    label: str
    entries: int  # qualifying entries (R-ALLOC-1 / R-TEAM-ADV-1 counting)
    ranking: list[str]  # entry keys in heat-ranking order
    struck: set[str] = field(default_factory=set)
    complete: bool = False


def venue_key(club_ids) -> str:
    """A venue is recognised across seasons by its arranging clubs (R-ALLOC-5 precedence)."""
    return "+".join(str(i) for i in sorted(club_ids))


def _seed(*parts: Any) -> int:
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()
    return int(digest[:12], 16)


#: Parameters of the rulebook's allocation lines and chain steps that name a venue (by its key);
#: the others that hold a key name an entry (docs/translation.md).
_VENUE_PARAMS = frozenset({"venue", "venues", "among", "losers", "drawn", "tied", "seen_in"})
_ENTRY_PARAMS = frozenset({"entry", "holders", "holder", "pending"})


def _labelled(data: dict, venues: dict[str, str], entries: dict[str, str]) -> dict:
    """A message kept as data (``as_data``) with the venue and entry keys in its parameters
    replaced by the names a person reads (the heat's label, the pair's or team's name)."""

    def name(param: str, value: Any) -> Any:
        table = venues if param in _VENUE_PARAMS else entries if param in _ENTRY_PARAMS else {}
        if isinstance(value, str):
            return table.get(value, value)
        if isinstance(value, list):
            return [table.get(v, v) if isinstance(v, str) else v for v in value]
        if isinstance(value, dict) and "template" in value:
            return _labelled(value, venues, entries)
        return value

    return {
        "template": data["template"],
        "params": {k: name(k, v) for k, v in (data.get("params") or {}).items()},
    }


def _decided_by(recorded, among) -> Lot | None:
    """The recorded lot that settles a tie among ``among`` (R-ALLOC-5), if any."""
    return next((lot for lot in recorded if set(lot.among) >= set(among)), None)


def allocate_final(
    *,
    kind: str,
    season,
    competition,
    final_size: int,
    direct: dict[str, str | None],
    venues: list[Venue],
    names: dict[str, str],
    offers: tuple = (),
    withdrawals: tuple = (),
    overrides: tuple = (),
) -> tuple[AllocationRun, alloc_rules.Allocation, alloc_rules.SeatHolders, replacement.ChainResult]:
    """Allocate, fill the seats and run the chain; store the explained result."""
    complete = all(v.complete for v in venues) and bool(venues)
    seats = max(0, final_size - len(direct))
    counts = {v.key: v.entries for v in venues}
    recorded = list(
        Lot.objects.filter(kind=kind, season=season, competition=competition, standing="")
    )
    # R-ALLOC-5: once this competition has drawn a lot, the precedence that applies is what
    # held when it was drawn (the first recorded: ids, not times, which follow the demo clock).
    first_drawn = min((lot.pk for lot in recorded), default=None)
    precedence = lot_precedence(
        kind, season, counts, exclude_competition=competition, drawn_before=first_drawn
    )
    lots_recorded: list[Lot] = []

    drawn_with: dict[tuple, int] = {}

    def draw(candidates: list[str], k: int) -> list[str]:
        for lot in recorded:
            if set(lot.among) >= set(candidates) and lot.seats >= k:
                winners = [w for w in lot.winners if w in candidates][:k]
                if len(winners) == k:
                    return winners
        if complete:
            # R-ALLOC-5: the real lot: a seed nobody can know in advance, drawn now and
            # recorded with the lot, so that anyone can replay the draw from the record.
            seed = fresh_seed()
            drawn_with[(tuple(sorted(candidates)), k)] = seed
        else:
            # A provisional allocation shows a lot without drawing it: a fixed seed keeps the
            # page steady until the heats are played; nothing is recorded.
            seed = _seed(kind, season.name, competition.pk, *sorted(candidates), k)
        return seeded_draw(seed)(candidates, k)

    allocation = alloc_rules.allocate_seats(seats, counts, precedence=precedence, draw=draw)

    if complete:
        for lot in allocation.lots:
            if any(set(r.among) == set(lot.among) for r in recorded):
                continue
            drawn_among = [v for v in lot.among if v not in lot.by_precedence]
            seed = drawn_with.get((tuple(sorted(drawn_among)), len(lot.drawn)))
            row = Lot.objects.create(
                kind=kind,
                season=season,
                competition=competition,
                among=list(lot.among),
                winners=list(lot.winners),
                losers=list(lot.losers),
                labels={v.key: v.label for v in venues if v.key in lot.among},
                seats=lot.seats,
                seed="" if seed is None else str(seed),
                explanation=(
                    f"Lottning mellan {', '.join(lot.among)} om {lot.seats} plats(er) "
                    f"(R-ALLOC-5); vinnare: {', '.join(lot.winners)}"
                ),
            )
            lots_recorded.append(row)
            for used in lot.by_precedence:
                use_precedence(row, used)

    rankings = {v.key: v.ranking for v in venues}
    struck = set().union(*(v.struck for v in venues)) if venues else set()
    holders = alloc_rules.seat_holders(rankings, allocation.seats, struck=struck, direct=direct)
    chain = replacement.run_chain(
        allocation.seats,
        allocation.shares,
        holders.rankings,
        holders.holders,
        direct=direct,
        offers=offers,
        withdrawals=withdrawals,
        overrides=overrides,
        team=(kind == Lot.Kind.TEAMS),
    )
    labels = {v.key: v.label for v in venues}
    explanation = {
        "complete": complete,
        # Issue 21: the heats not yet played and in (results.seat_states.heats_left reads it).
        "heats_left": sum(1 for v in venues if not v.complete),
        "final_size": final_size,
        "direct": [{"entry": e, "name": names.get(e, e), "venue": v} for e, v in direct.items()],
        "venues": [
            {
                "key": row.venue,
                "label": labels.get(row.venue, row.venue),
                "entries": row.entries,
                "share": alloc_rules.fmt_fraction(row.share),
                "whole": row.whole,
                "fraction": alloc_rules.fmt_fraction(row.fraction),
                "seats": row.seats,
                "decided_by": row.decided_by,
                "holders": [
                    {"entry": e, "name": names.get(e, e)}
                    for e in holders.holders.get(row.venue, [])
                ],
                "next": [
                    {"entry": e, "name": names.get(e, e)}
                    for e in holders.rankings.get(row.venue, [])[row.seats : row.seats + 3]
                ],
            }
            for row in allocation.rows
        ],
        "lots": [
            {
                "among": [labels.get(k, k) for k in lot.among],
                "winners": [labels.get(k, k) for k in lot.winners],
                "losers": [labels.get(k, k) for k in lot.losers],
                "by_precedence": [labels.get(k, k) for k in lot.by_precedence],
                # The venue keys, for TK's "Dra lott" (results.services.lots.draw_lot).
                "keys": list(lot.among),
                "precedence_keys": list(lot.by_precedence),
                "seats": lot.seats,
                "recorded": complete or _decided_by(recorded, lot.among) is not None,
            }
            for lot in allocation.lots
        ],
        # Each line and step is kept as data ({"template", "params"}, ubf.rules.i18n.as_data)
        # that the page renders in the reader's language (|rendered).
        "lines": [
            {"clause": x["clause"], "message": _labelled(as_data(x["message"]), labels, names)}
            for x in allocation.explanation
        ],
        "chain": [
            {
                "seat": s.seat,
                "status": s.status,
                "holder": names.get(s.holder, s.holder) if s.holder else None,
                "ask": names.get(s.ask, s.ask) if s.ask else None,
                "ask_key": s.ask,
                "pending": names.get(s.pending, s.pending) if s.pending else None,
                # The entries the chain has asked for the seat or asks next (their keys): a
                # tie among a heat's reserves matters once the chain reaches it (R-PAIR-TIE-1,
                # results.services.lots.ties_of).
                "asked_keys": [
                    st.entry
                    for st in s.steps
                    if st.kind in ("offer", "override", "ask") and st.entry
                ],
                "steps": [
                    {"clause": st.clause, "message": _labelled(as_data(st.message), labels, names)}
                    for st in s.steps
                ],
            }
            for s in chain.seat_states
            if s.status != replacement.HELD
        ],
    }
    run, _ = AllocationRun.objects.update_or_create(
        competition=competition,
        defaults={
            "provisional": not complete,
            "final_size": final_size,
            "seats": seats,
            "qualifying_entries": sum(counts.values()),
            "explanation": explanation,
            "computed_at": clock.now(),
        },
    )
    return run, allocation, holders, chain


def step_reasons(run: AllocationRun) -> dict[str, dict]:
    """Seat key → the chain's last step for it as stored in ``run`` (labelled,
    ``{"clause", "message"}``): why the seat's next offer goes where it goes (R-REPL-1..7, with
    the figures); the seat's offer keeps it as its reason."""
    return {c["seat"]: c["steps"][-1] for c in run.explanation.get("chain", []) if c["steps"]}
