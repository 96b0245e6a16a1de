"""Benchmark: many mutated result files through parse → validate → compute (issue 14).

Issue 14 found that 3.5 % of 4,500 mutated demo files crashed the importers and that one
traveller with tricks ``1e999999`` cost 38 s of CPU. This runs the same kind of attack on every
real and made-up file under tests/fixtures/results (the mutations of
tests/results/_mutations.py: byte flips, inflated numbers, negated numbers, truncation,
duplicated lines; plus generated "CSV för lag" files) and prints how many were refused, how
many read, how many crashed (any exception but ImportFailed), and the CPU time per file.

Run from the repository root:   .venv/bin/python benchmarks/fuzz_uploads.py [--files 4500]
It needs no database (the importers are pure Python). Exits 1 if any file crashed or took
longer than --limit seconds of CPU.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from results.importers import (  # noqa: E402
    ImportFailed,
    ParsedPairEvent,
    compute_pair_scores,
    parse_upload,
    team_match_summary,
    validate_pairs,
    validate_teams,
)
from tests.results._mutations import (  # noqa: E402
    FILES,
    FIXTURES,
    mutate,
    random_csv,
    random_mutations,
)


def read(data: bytes, name: str, kind: str) -> str:
    """ "refused", "read" (no error), "read with errors"; raises what the importers raise."""
    try:
        event = parse_upload(data, name, kind)
        if isinstance(event, ParsedPairEvent):
            problems = validate_pairs(event)
            compute_pair_scores(event)
        else:
            problems = validate_teams(event, expected_boards=None)
            team_match_summary(event, boards_per_match=None)
    except ImportFailed:
        return "refused"
    return "read with errors" if any(p.is_error for p in problems) else "read"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=4500, help="mutated files to try")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--limit", type=float, default=1.0, help="CPU seconds a file may take")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    originals = {name: (FIXTURES / name).read_bytes() for name, _ in FILES}
    outcomes: Counter[str] = Counter()
    crashes: Counter[str] = Counter()
    examples: dict[str, str] = {}
    times: list[float] = []
    slowest = (0.0, "")
    started = time.perf_counter()
    for n in range(args.files):
        if n % 10 == 9:
            name, kind, data = "generated.csv", "teams", random_csv(rng)
        else:
            name, kind = rng.choice(FILES)
            data = mutate(originals[name], random_mutations(rng))
        t0 = time.process_time()
        try:
            outcomes[read(data, name, kind)] += 1
        except Exception as exc:  # what the property test forbids: count it and go on
            where = traceback.extract_tb(exc.__traceback__)[-1]
            key = f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"
            crashes[key] += 1
            examples.setdefault(key, f"{name}: {exc!s:.80}")
        spent = time.process_time() - t0
        times.append(spent)
        slowest = max(slowest, (spent, name))
    wall = time.perf_counter() - started

    # The issue's own case: a PBN traveller with tricks 1e999999.
    mitchell = originals["pairs_ruter_mitchell.pbn"]
    attack = mitchell.replace(b" 1  1  1  1 5C    N 12 SK", b" 1  1  1  1 5C    N 1e999999 SK", 1)
    t0 = time.process_time()
    attack_outcome = read(attack, "heat.pbn", "pairs")
    attack_cpu = time.process_time() - t0

    tried = args.files
    crashed = sum(crashes.values())
    times.sort()
    print(f"fuzz_uploads: {tried} files (seed {args.seed}), {len(FILES)} originals + generated CSV")
    for outcome in ("refused", "read with errors", "read"):
        print(f"  {outcome:<17} {outcomes[outcome]:>6}  ({100 * outcomes[outcome] / tried:.1f} %)")
    print(f"  {'crashed':<17} {crashed:>6}  ({100 * crashed / tried:.2f} %)")
    for key, count in crashes.most_common():
        print(f"    {count:>5} × {key}  e.g. {examples[key]}")
    print(
        f"  CPU per file: median {1000 * statistics.median(times):.1f} ms, p99 {1000 * times[int(0.99 * (len(times) - 1))]:.1f} ms, max {1000 * slowest[0]:.1f} ms ({slowest[1]})"
    )
    print(f"  wall time {wall:.1f} s")
    print(f"  tricks 1e999999: {attack_outcome} in {1000 * attack_cpu:.1f} ms of CPU")
    return 1 if crashed or slowest[0] > args.limit or attack_cpu > args.limit else 0


if __name__ == "__main__":
    raise SystemExit(main())
