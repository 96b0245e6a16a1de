"""Lots (R-ALLOC-5, R-TEAM-TIE-1, R-PAIR-TIE-1): the one fair draw of the rulebook.

A :data:`Draw` is called as ``draw(candidates, k)`` and returns the k candidates that win.
The candidates are sorted first (by ``str``), so the winners depend only on the seed and on
who takes part, never on the order the candidates were listed in; a recorded seed therefore
replays a lot exactly.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Draw", "fresh_seed", "random_draw", "seeded_draw"]

Draw = Callable[[list, int], Sequence]


def fresh_seed() -> int:
    """A seed from the operating system, to be recorded with the lot it decides."""
    return secrets.randbits(64)


def seeded_draw(seed: Any) -> Draw:
    """A reproducible fair draw: the same seed and candidates give the same winners."""

    def draw(candidates: list, k: int) -> list:
        # Seeded on purpose: a lot must be redrawn identically from its recorded seed (the
        # seed itself comes from `secrets` where it is chosen); nothing here is a secret.
        return random.Random(seed).sample(sorted(candidates, key=str), k)  # noqa: S311

    return draw


def random_draw(seed: Any = None) -> Draw:
    """:func:`seeded_draw` with ``seed``, or, without one, a draw with a fresh seed each call."""
    if seed is not None:
        return seeded_draw(seed)

    def draw(candidates: list, k: int) -> list:
        return seeded_draw(fresh_seed())(candidates, k)

    return draw
