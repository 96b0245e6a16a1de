"""How far a result file's own figures may lie from its board results (issue 24).

Pure arithmetic, no Django. The standings are computed from the board results
(:func:`.validate.compute_pair_scores`); a pair's total and percentage in the file's ranking
list are only a check that the file is whole. Scoring programs round on the way (per board
and at the end), so their figures differ a little from the exact ones. This module says how
much, from the file's own figures; docs/result-formats.md ("Avrundning i resultatprogrammen")
gives the derivation and which program rounds how.

The derivation, per pair with k boards played, session top T = 2(N − 1) on the MP1 scale and
exact matchpoints v_b on each board b (after Neuberg to N):

* the program's matchpoints on a board are v_b rounded to the unit its file writes them in
  (Magic Contest: one decimal, ``28.3`` for 28.333…); rounding x to a unit u moves it by
  d(x, u) = the distance from x to the nearest multiple of u, at most u/2 and 0 when x is
  already a multiple (whole matchpoints on a full board). A value rounded on the board's own
  top 2(n − 1) is then Neuberg-scaled to N, which multiplies its error by N/n; a value
  Neuberg-scaled and then rounded (one decimal assumed) adds d(v_b, 0.1);
* a program that averages per-board percentages rounds each to two decimals:
  d(100·v_b/T, 0.01), at most 0.005 per board;
* the pair's percentage is a mean over its k boards, so the per-board errors are averaged:
  (1/k)·Σ_b (100/T·mp_error_b + pct_error_b); the final rounding to the file's decimals adds
  half a unit of its last decimal (0.005 for two decimals).

So a full board with whole matchpoints contributes 0.005 at most and a normal pair is
checked within 0.005 + 0.005 = 0.01 (the tolerance before issue 24); a board with a Neuberg
value rounded to one decimal on a top of 42 contributes up to 0.05·100/42 ≈ 0.12 points,
spread over the pair's boards. A total in matchpoints is a sum, not a mean: its bound is
Σ_b mp_error_b plus half a unit of its last decimal (× boards in session / boards played
when the total is factored).

Beyond rounding, a difference may still *fit the boards*: programs differ in how they score
some boards (Neuberg or plain proportional scaling on a board with fewer results, the
file's own matchpoints, 10 % of a top either way on the pair's own adjusted scores) and may
round more coarsely than any program seen (each board's percentage and the final one to
tenths: :data:`COARSE_PERCENT_UNIT`). The lowest and highest percentage those give on the
pair's boards bound what "fits". A difference outside even that range cannot come from the
pair's boards in the file: the ranking list was computed from other board results (boards
missing or belonging to another event), and the file is refused.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

__all__ = [
    "ASSUMED_MP_UNIT",
    "COARSE_PERCENT_UNIT",
    "PERCENT_UNIT",
    "decimals",
    "half_unit",
    "percent_rounding",
    "rounding_distance",
    "unit_of",
]

#: A per-board percentage is rounded to two decimals by programs that average them.
PERCENT_UNIT = Fraction(1, 100)
#: The unit a Neuberg-scaled value is assumed rounded to per board when the file does not say
#: (Magic Contest writes one decimal: known from a real file, see docs/result-formats.md).
ASSUMED_MP_UNIT = Fraction(1, 10)
#: The coarsest rounding a difference may still come from (with a warning): each board's
#: percentage and the final one to tenths. Assumed (no program seen rounds this coarsely).
COARSE_PERCENT_UNIT = Fraction(1, 10)


def decimals(value: Decimal) -> int:
    """How many decimals a value is written with (``42.0`` → 1, ``61.21`` → 2, ``5`` → 0)."""
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def unit_of(value: Decimal) -> Fraction:
    """The unit of the value's last decimal (``42.0`` → 1/10)."""
    return Fraction(1, 10 ** decimals(value))


def half_unit(value: Decimal) -> Fraction:
    """Half a unit of the last decimal: how far a value rounded to its decimals may be from
    the exact one (``61.21`` → 0.005, ``45.8`` → 0.05, ``97`` → 0.5)."""
    return unit_of(value) / 2


def rounding_distance(exact: Fraction, unit: Fraction) -> Fraction:
    """How far rounding ``exact`` to a multiple of ``unit`` moves it (exactly: the distance to
    the nearest multiple, 0 for a multiple, at most ``unit`` / 2)."""
    if unit <= 0:
        return Fraction(0)
    exact = Fraction(exact)
    if exact.denominator == 1 and unit.numerator == 1:
        return Fraction(0)  # a whole number is a multiple of 1/10, 1/100 ...
    rest = exact % unit
    return min(rest, unit - rest)


def percent_rounding(value: Fraction, top: int, unit: Fraction = PERCENT_UNIT) -> Fraction:
    """How far rounding the board's percentage 100·value/top to ``unit`` moves it:
    ``rounding_distance(value * 100 / top, unit)``, in integers (it runs for every line of a
    file)."""
    value = Fraction(value)
    x = value.numerator * 100 * unit.denominator  # the percentage in units of ``unit``: x / y
    y = value.denominator * top * unit.numerator
    rest = x % y
    return Fraction(min(rest, y - rest), y) * unit
