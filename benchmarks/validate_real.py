"""Benchmark of the result-file checks on the real files (issue 24): prints its figures.

For each real pairs file in tests/fixtures/results/real/ that is a result (the FFB Magic
Contest final, sessions 1 and 5; the Compscore3 USEBIO files): parse, validate_pairs (which
now includes the per-pair rounding bounds, results.importers.validate.pair_bounds) and
pair_bounds alone, best and median of REPEATS runs, in milliseconds.

Run from the repository root:  .venv/bin/python benchmarks/validate_real.py
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from results.importers import parse_upload  # noqa: E402
from results.importers.validate import (  # noqa: E402
    compute_pair_scores,
    pair_bounds,
    validate_pairs,
)

REPEATS = 7
REAL = ROOT / "tests" / "fixtures" / "results" / "real"
FILES = [
    "magiccontest_ffb_open2_dn1_final_s1.pbn",
    "magiccontest_ffb_open2_dn1_final_s5.pbn",
    "compscore3_mp_pairs_howell.xml",
    "compscore3_mp_pairs_mitchell_03.xml",
]


def timed(fn, *args, **kwargs) -> tuple[float, float]:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn(*args, **kwargs)
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    print(f"{'file':45} {'pairs':>5} {'boards':>6}  {'parse':>13}  {'validate_pairs':>15}  "
          f"{'pair_bounds':>13}  problems")  # fmt: skip
    for name in FILES:
        data = (REAL / name).read_bytes()
        event = parse_upload(data, name, "pairs")
        parse = timed(parse_upload, data, name, "pairs")
        validate = timed(validate_pairs, event)
        scores = compute_pair_scores(event)
        bounds = timed(pair_bounds, event, scores=scores)
        problems = validate_pairs(event)
        print(
            f"{name:45} {len(event.pairs):>5} {len(event.boards):>6}  "
            f"{parse[0]:6.1f}/{parse[1]:6.1f}  {validate[0]:7.1f}/{validate[1]:7.1f}  "
            f"{bounds[0]:6.1f}/{bounds[1]:6.1f}  {len(problems)}"
        )
    print("(best/median ms of", REPEATS, "runs)")


if __name__ == "__main__":
    main()
