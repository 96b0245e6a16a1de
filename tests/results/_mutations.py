"""Mutated result files for the fuzz tests (tests/results/test_fuzz_uploads.py) and the fuzz
benchmark (benchmarks/fuzz_uploads.py): what an attacker or a broken export sends.

A mutation is a small tuple ``(kind, a, b)`` applied by :func:`apply`; positions are taken
modulo the file's length, so any tuple fits any file (hypothesis draws them, the benchmark
draws them with ``random``). Kinds: a byte flip, a number inflated (``1e999999``, twenty
nines, 5,000 digits, ``inf``, ...), a number negated or zeroed, the file truncated, a line
duplicated.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "results"

#: (file, kind) of every real and made-up file under tests/fixtures/results, by what it is.
FILES: list[tuple[str, str]] = sorted(
    (
        str(p.relative_to(FIXTURES)),
        "teams" if ("team" in p.name or p.suffix == ".csv") else "pairs",
    )
    for p in FIXTURES.rglob("*")
    if p.is_file() and p.suffix in (".pbn", ".xml", ".csv")
)

INFLATED: tuple[bytes, ...] = (
    b"1e999999",
    b"1E5",
    b"99999999999999999999",
    b"9" * 5000,
    b"-99999",
    b"inf",
    b"NaN",
    b"1" + b"0" * 30,
    b"0.0000001",
    b"0",
    b"-1",
    b"1000",
    b"14",
)
KINDS = ("flip", "inflate", "negate", "truncate", "duplicate")
_NUMBER = re.compile(rb"-?\d+(?:[.,]\d+)?")


def apply(data: bytes, mutation: tuple[str, int, int]) -> bytes:
    kind, a, b = mutation
    if not data:
        return data
    if kind == "flip":
        pos = a % len(data)
        return data[:pos] + bytes([b % 256]) + data[pos + 1 :]
    if kind in ("inflate", "negate"):
        numbers = list(_NUMBER.finditer(data))
        if not numbers:
            return data
        m = numbers[a % len(numbers)]
        new = INFLATED[b % len(INFLATED)] if kind == "inflate" else b"-" + m.group().lstrip(b"-")
        return data[: m.start()] + new + data[m.end() :]
    if kind == "truncate":
        return data[: a % len(data)]
    if kind == "duplicate":
        lines = data.split(b"\n")
        k = a % len(lines)
        return b"\n".join(lines[: k + 1] + [lines[k]] * (1 + b % 3) + lines[k + 1 :])
    raise ValueError(kind)


def mutate(data: bytes, mutations) -> bytes:
    for mutation in mutations:
        data = apply(data, mutation)
    return data


def random_mutations(rng: random.Random, most: int = 3) -> list[tuple[str, int, int]]:
    return [
        (rng.choice(KINDS), rng.randrange(1 << 30), rng.randrange(1 << 16))
        for _ in range(rng.randint(1, most))
    ]


CSV_TOKENS = ("1", "2", "3", "0", "-5", "45", "13,78", "1e999999", "9" * 40, "", "x", "24", "-")


def generated_csv(rows: list[list[str]]) -> bytes:
    """A "CSV för lag" file of the header and ``rows`` (cells as given), for generated input."""
    lines = ["round;home;away;imps_home;imps_away;vp_home;vp_away;boards"]
    lines += [";".join(r) for r in rows]
    return ("\n".join(lines) + "\n").encode()


def random_csv(rng: random.Random) -> bytes:
    rows = []
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.3:
            cells = ["board"] + [rng.choice(CSV_TOKENS) for _ in range(rng.randint(5, 8))]
        else:
            cells = [rng.choice(CSV_TOKENS) for _ in range(rng.randint(5, 8))]
        rows.append(cells)
    return generated_csv(rows)
