"""Benchmark: a final-seat allocation plus every replacement order (R-ALLOC-3..5, R-REPL-1..7).

30 venues of 40 qualifying entries each (1 200 entries), a 36-pair final with one direct
qualifier (35 seats for the venues, so a lot among equal venues is drawn), then the full
replacement order for a seat from every venue plus one for a direct qualifier's seat
(origin=None): 31 orders of about 1 150 entries each.

Run from the repository root:  .venv/bin/python benchmarks/rules_allocation.py
Prints milliseconds (median and best of the repetitions); the target is under 5 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ubf.rules.allocation import allocate_seats, final_size_pairs  # noqa: E402
from ubf.rules.draw import seeded_draw  # noqa: E402
from ubf.rules.replacement import (  # noqa: E402
    Offer,
    Withdrawal,
    clear_order_cache,
    replacement_order,
    run_chain,
)

VENUES = 30
ENTRIES = 40
REPEATS = 50
TARGET_MS = 5.0


def build():
    venues = {f"kval-{i:02d}": ENTRIES for i in range(1, VENUES + 1)}
    rankings = {v: [f"{v}/par-{r:02d}" for r in range(1, ENTRIES + 1)] for v in venues}
    seats = final_size_pairs(sum(venues.values())) - 1  # one direct qualifier (R-ALLOC-2)
    return venues, rankings, seats


def allocation_and_orders(venues, rankings, seats):
    alloc = allocate_seats(seats, venues, draw=seeded_draw(2017))
    orders = [replacement_order(v, alloc.shares, alloc.seats, rankings) for v in venues]
    orders.append(replacement_order(None, alloc.shares, alloc.seats, rankings))
    return alloc, orders


def timed(fn, repeats=REPEATS, before=None):
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def main() -> int:
    venues, rankings, seats = build()
    alloc, orders = allocation_and_orders(venues, rankings, seats)
    entries = sum(venues.values())
    print(
        f"{VENUES} venues x {ENTRIES} entries = {entries}; {seats} seats; "
        f"{len(orders)} orders of {len(orders[0])}-{max(map(len, orders))} entries; "
        f"{len(alloc.lots)} lot(s); median/best/worst of {REPEATS} runs"
    )

    rows = []
    rows.append(
        ("allocation only", timed(lambda: allocate_seats(seats, venues, draw=seeded_draw(1))))
    )
    rows.append(
        (
            "allocation + 31 orders, cold (order cache cleared each run)",
            timed(lambda: allocation_and_orders(venues, rankings, seats), before=clear_order_cache),
        )
    )
    rows.append(
        (
            "allocation + 31 orders, warm (same allocation recomputed)",
            timed(lambda: allocation_and_orders(venues, rankings, seats)),
        )
    )

    # A chain recompute with 6 vacated seats and some answers recorded.
    holders = [r[0] for r in list(rankings.values())[:6]]
    withdrawals = [Withdrawal(h) for h in holders]
    first = run_chain(alloc.seats, alloc.shares, rankings, withdrawals=withdrawals)
    offers = [Offer(e, s, "declined") for s, e in first.to_ask.items()]
    rows.append(
        (
            "run_chain: 6 vacated seats, 6 declines, cold",
            timed(
                lambda: run_chain(
                    alloc.seats, alloc.shares, rankings, withdrawals=withdrawals, offers=offers
                ),
                before=clear_order_cache,
            ),
        )
    )

    width = max(len(name) for name, _ in rows)
    for name, (median, best, worst) in rows:
        print(f"{name:<{width}}  {median:7.3f} ms  (best {best:.3f}, worst {worst:.3f})")
    cold = rows[1][1][0]
    verdict = "OK" if cold < TARGET_MS else "OVER TARGET"
    print(f"target: allocation + all orders under {TARGET_MS:.0f} ms (cold median): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
