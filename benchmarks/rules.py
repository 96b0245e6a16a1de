"""Benchmark of the rulebook (issue "the rulebook as code"): prints its figures.

1. Building the WBF 20-0 VP tables for 1..64 boards (cold, then a cached look-up).
2. Ranking a 10-team final: 45 matches of 20 boards with board-level data (R-TEAM-TIE-1).
3. An allocation plus the full replacement orders over 30 venues of 40 entries (see
   benchmarks/rules_allocation.py for the detailed version with the chain runner).

Run from the repository root:  .venv/bin/python benchmarks/rules.py
Targets on the project's 2-core machine: each under 5 ms once the VP tables are built.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ubf.rules import vp  # noqa: E402
from ubf.rules.allocation import allocate_seats, final_size_pairs  # noqa: E402
from ubf.rules.draw import seeded_draw  # noqa: E402
from ubf.rules.replacement import clear_order_cache, replacement_order  # noqa: E402
from ubf.rules.schedule import round_robin  # noqa: E402
from ubf.rules.scoring import imps  # noqa: E402
from ubf.rules.standings import rank_teams  # noqa: E402

REPEATS = 30


def timed(fn, repeats=REPEATS, before=None):
    times = []
    for _ in range(repeats):
        if before:
            before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def final_matches(seed=2017, teams=10, boards=20):
    rng = random.Random(seed)
    names = [f"Lag {i}" for i in range(1, teams + 1)]
    matches = []
    for rnd in round_robin(names):
        for home, away in rnd:
            if home is None or away is None:
                continue
            board_rows, ih, ia = [], 0, 0
            for _ in range(boards):
                diff = rng.choice([0, 10, 30, 50, 100, 420, 500, 620, 800, 1100]) * rng.choice(
                    [-1, 1]
                )
                i = imps(diff)
                board_rows.append(
                    {
                        "imps_home": max(i, 0),
                        "imps_away": max(-i, 0),
                        "points_home": max(diff, 0),
                        "points_away": max(-diff, 0),
                    }
                )
                ih += max(i, 0)
                ia += max(-i, 0)
            vh, va = vp.victory_points(ih, ia, boards)
            matches.append(
                {
                    "home": home,
                    "away": away,
                    "imps_home": ih,
                    "imps_away": ia,
                    "vp_home": vh,
                    "vp_away": va,
                    "boards": board_rows,
                }
            )
    return names, matches


def main() -> None:
    print("UBF rulebook benchmark (median / best / worst of", REPEATS, "runs, ms)")

    start = time.perf_counter()
    vp._table_hundredths.cache_clear()
    vp.blitz_margin.cache_clear()
    for n in range(1, 65):
        vp.vp_table(n)
    cold = (time.perf_counter() - start) * 1000
    print(f"VP tables 1..64 boards, cold build:           {cold:8.2f}")
    med, best, worst = timed(lambda: [vp.victory_points(37, 12, n) for n in range(1, 65)])
    print(f"64 VP look-ups after the build:               {med:8.3f} {best:8.3f} {worst:8.3f}")

    names, matches = final_matches()
    med, best, worst = timed(lambda: rank_teams(names, matches, seed=1))
    print(f"rank 10-team final, 45 matches x 20 boards:   {med:8.3f} {best:8.3f} {worst:8.3f}")

    venues = {f"kval-{i:02d}": 40 for i in range(1, 31)}
    rankings = {v: [f"{v}/{r}" for r in range(1, 41)] for v in venues}
    seats = final_size_pairs(sum(venues.values())) - 1

    def allocation_and_orders():
        alloc = allocate_seats(seats, venues, draw=seeded_draw(2017))
        for v in venues:
            replacement_order(v, alloc.shares, alloc.seats, rankings)
        replacement_order(None, alloc.shares, alloc.seats, rankings)

    med, best, worst = timed(allocation_and_orders, before=clear_order_cache)
    print(f"allocation + 31 replacement orders (30x40):   {med:8.3f} {best:8.3f} {worst:8.3f}")


if __name__ == "__main__":
    main()
