"""Benchmark of the seeded heat schedule (issue 22, R-TEAM-KVAL-4): how long a proposal takes
for each heat size and number of rounds short of a full round robin, and how even it is.

``ubf.rules.schedule.seeded_schedule`` tries every schedule up to 8 teams (the most even one is
found) and searches locally above that. The page proposes on every visit of a heat without a
saved schedule, so the slowest case is the one to watch.

Run from the repository root:  .venv/bin/python benchmarks/schedule.py [--repeat N]
Prints, per (teams, rounds): the median and the slowest time in ms, and the spread (max − min)
of the teams' average opponent seed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ubf.rules.schedule import full_round_robin_rounds, seeded_schedule  # noqa: E402


def spread(schedule, n: int) -> Fraction:
    sums, counts = [0] * (n + 1), [0] * (n + 1)
    for round_ in schedule:
        for home, away in round_:
            if away is None:
                continue
            sums[home] += away
            sums[away] += home
            counts[home] += 1
            counts[away] += 1
    means = [Fraction(sums[t], counts[t]) for t in range(1, n + 1) if counts[t]]
    return max(means) - min(means)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--max-teams", type=int, default=12)
    args = parser.parse_args()
    print(f"{'teams':>5} {'rounds':>6} {'median ms':>10} {'max ms':>8} {'spread':>8}")
    worst = (0.0, None)
    for n in range(4, args.max_teams + 1):
        for rounds in range(2, full_round_robin_rounds(n)):
            times = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                schedule = seeded_schedule(list(range(1, n + 1)), rounds)
                times.append((time.perf_counter() - start) * 1000)
            if max(times) > worst[0]:
                worst = (max(times), (n, rounds))
            print(
                f"{n:>5} {rounds:>6} {statistics.median(times):>10.1f} {max(times):>8.1f} "
                f"{float(spread(schedule, n)):>8.3f}"
            )
    print(f"slowest: {worst[0]:.0f} ms for {worst[1][0]} teams in {worst[1][1]} rounds")


if __name__ == "__main__":
    main()
