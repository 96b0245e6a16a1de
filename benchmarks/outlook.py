"""Benchmark: ubf.rules.outlook.final_outlook on a 10-team final of 20 boards a match
(R-TEAM-FINAL-1), before its last round (5 matches, 121⁵ outcomes) and before its last two
(10 matches, 121¹⁰ outcomes), for the places the pages ask: 1, 3 and the SM semifinal quota.

Random played rounds (seeded), close totals (margins of at most ±25 IMPs, so many teams are
still in the race) and far apart (±60). Prints the time per call, the best of ``--repeat``.

Run from the repository root:   .venv/bin/python benchmarks/outlook.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ubf.rules.outlook import final_outlook  # noqa: E402
from ubf.rules.vp import victory_points  # noqa: E402

BOARDS = 20
TEAMS = 10


def final(seed: int, rounds_left: int, spread: int):
    rnd = random.Random(seed)
    teams = [f"T{i}" for i in range(TEAMS)]
    ring = teams[1:]
    matches, remaining = [], []
    for r in range(TEAMS - 1):
        order = [teams[0], *ring[r:], *ring[:r]]
        for i in range(TEAMS // 2):
            home, away = order[i], order[TEAMS - 1 - i]
            if r >= TEAMS - 1 - rounds_left:
                remaining.append((home, away, BOARDS))
                continue
            margin = rnd.randint(-spread, spread)
            ih, ia = max(margin, 0), max(-margin, 0)
            vh, va = victory_points(ih, ia, BOARDS)
            matches.append(
                {
                    "home": home,
                    "away": away,
                    "imps_home": ih,
                    "imps_away": ia,
                    "vp_home": vh,
                    "vp_away": va,
                }
            )
    return teams, matches, remaining


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"final_outlook, {TEAMS} teams, {BOARDS} boards, places (1, 3, 4)")
    for rounds_left in (1, 2):
        for spread in (25, 60):
            times = []
            for seed in range(args.seeds):
                teams, matches, remaining = final(seed, rounds_left, spread)
                best = min(_timed(teams, matches, remaining) for _ in range(args.repeat))
                times.append(best)
            print(
                f"  {rounds_left} round(s) left, margins ±{spread:>2}: "
                f"median {sorted(times)[len(times) // 2] * 1000:7.1f} ms, "
                f"worst {max(times) * 1000:7.1f} ms over {args.seeds} finals"
            )


def _timed(teams, matches, remaining) -> float:
    start = time.perf_counter()
    final_outlook(teams, matches, remaining, places=(1, 3, 4))
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
