"""Property: per-side adjusted codes read back to the results they stand for (issue 10).

Any valid pairs event our writers write, with any subset of its scores replaced by per-side
adjusted codes as Magic Contest writes them (``"A+"`` in Score_NS, ``"A-"`` in Score_EW ...,
in any of the spellings real files use), parses back to the same event: the same lines with
the same NS/EW percentages, the same matchpoints, the same pair percentages, and no errors.
"""

from __future__ import annotations

import dataclasses
import random
import re
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from results.importers.model import ParsedPairEvent, TravellerLine
from results.importers.pbn import parse_pbn_pairs
from results.importers.validate import compute_pair_totals, validate_pairs
from ubf.demo.writers import write_pbn_pairs
from ubf.rules.scoring import matchpoints, neuberg

from .test_importers_writers import pair_events, same_pairs_event

CENT = Decimal("0.01")

SPELLINGS = {
    60: ["A+", "AVE+", "AV+", "MEDEL+", "ave+"],
    50: ["A=", "AVE", "MEDEL"],
    40: ["A-", "AVE-", "AV-", "MEDEL-", "Medel-"],
}


def with_adjusted(event: ParsedPairEvent, chosen: set[tuple[int, int]], rng: random.Random):
    """The event with the chosen (board, line) scores replaced by per-side codes."""
    boards = []
    for b in event.boards:
        n = len(b.lines)
        top = 2 * (n - 1)
        real = [t for k, t in enumerate(b.lines) if (b.number, k) not in chosen]
        # The real results are matchpointed among themselves and scaled to the board's n
        # results with Neuberg, as a scoring program does once some scores are adjusted.
        raw = dict(zip(map(id, real), matchpoints([t.score_ns for t in real]))) if real else {}
        lines = []
        for k, t in enumerate(b.lines):
            if (b.number, k) in chosen:
                ns, ew = rng.choice(list(SPELLINGS)), rng.choice(list(SPELLINGS))
                t = TravellerLine(
                    t.ns, t.ew, None, None, None, None,
                    Decimal(ns * top) / 100, Decimal(ew * top) / 100, adjusted=f"A{ns}{ew}",
                )  # fmt: skip
            elif len(real) != n:
                mp = neuberg(raw[id(t)], len(real), n)
                mp_ns = (Decimal(mp.numerator) / Decimal(mp.denominator)).quantize(CENT)
                t = dataclasses.replace(t, mp_ns=mp_ns, mp_ew=Decimal(top) - mp_ns)
            lines.append(t)
        boards.append(dataclasses.replace(b, lines=lines))
    skeleton = dataclasses.replace(event, boards=boards, pairs=[])
    pct = compute_pair_totals(skeleton)
    order = sorted((p.number for p in event.pairs), key=lambda x: -pct.get(x, Decimal(0)))
    pairs = [
        dataclasses.replace(p, percentage=pct.get(p.number), rank=order.index(p.number) + 1)
        for p in event.pairs
    ]
    return dataclasses.replace(skeleton, pairs=pairs)


def per_side_text(event: ParsedPairEvent, rng: random.Random) -> str:
    """Our writer's file, with each ``^"A6040"  -`` written as Magic Contest's two codes."""

    def codes(m: re.Match) -> str:
        ns, ew = int(m.group(1)), int(m.group(2))
        return f'"{rng.choice(SPELLINGS[ns])}"{m.group(3)}"{rng.choice(SPELLINGS[ew])}"'

    return re.sub(r'\^"A(\d\d)(\d\d)"(\s+)-', codes, write_pbn_pairs(event))


@st.composite
def adjusted_events(draw):
    event = draw(pair_events())
    spots = [(b.number, k) for b in event.boards for k in range(len(b.lines))]
    chosen = draw(st.sets(st.sampled_from(spots), max_size=len(spots)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return with_adjusted(event, chosen, rng), rng, len(chosen)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(adjusted_events())
def test_any_subset_of_per_side_codes_parses_back_to_the_same_results(case):
    event, rng, replaced = case
    text = per_side_text(event, rng)
    assert text.count('^"A') == 0  # every artificial score is now written per side
    again = parse_pbn_pairs(text)
    same_pairs_event(event, again)
    assert sum(1 for b in again.boards for t in b.lines if t.adjusted) == replaced
    assert compute_pair_totals(again) == compute_pair_totals(event)
    assert [p for p in validate_pairs(again) if p.is_error] == []
