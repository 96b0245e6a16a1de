"""The WBF 20-0 decimal VP scale (R-VP-1..4, R-TEAM-VP-1)."""

import math
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.vp import apply_penalty, blitz_margin, victory_points, vp_for_margin, vp_table

D = Decimal
boards_st = st.integers(min_value=1, max_value=64)

# SPEC R-VP-2: (boards, margin) -> (winner, loser), from the official WBF tables.
KNOWN = [
    (16, 1, "10.31", "9.69"),
    (16, 14, "13.75", "6.25"),
    (16, 20, "15.00", "5.00"),
    (16, 59, "19.93", "0.07"),
    (16, 60, "20.00", "0.00"),
    (20, 1, "10.28", "9.72"),
    (20, 2, "10.55", "9.45"),
    (20, 13, "13.20", "6.80"),
    (8, 40, "19.74", "0.26"),
    (12, 42, "19.02", "0.98"),
    (12, 52, "20.00", "0.00"),
]


def raw_formula_hundredths(boards: int) -> list[int]:
    """The R-VP-1 formula without the correction, computed independently with floats."""
    x = 15 * math.sqrt(boards)
    tau3 = ((math.sqrt(5) - 1) / 2) ** 3
    top = math.ceil(x)
    values = [
        min(2000, round((10 + 10 * (1 - tau3 ** (i / x)) / (1 - tau3)) * 100)) for i in range(top)
    ]
    return values + [2000]


def concave_from_the_top(values: list[int]) -> list[int]:
    """R-VP-2 read another way: fix the highest growing step first, one at a time."""
    v = list(values)
    while True:
        bad = [k for k in range(1, len(v) - 1) if v[k + 1] - v[k] > v[k] - v[k - 1]]
        if not bad:
            return v
        v[bad[-1]] += 1


def hundredths(boards: int) -> list[int]:
    return [int(x * 100) for x in vp_table(boards)]


@pytest.mark.parametrize(("boards", "margin", "winner", "loser"), KNOWN)
def test_r_vp_2_known_values_from_the_official_tables(boards, margin, winner, loser):
    # R-VP-1, R-VP-2, R-TEAM-VP-1
    assert victory_points(margin, 0, boards) == (D(winner), D(loser))
    assert victory_points(0, margin, boards) == (D(loser), D(winner))
    assert victory_points(100 + margin, 100, boards) == (D(winner), D(loser))


def test_r_vp_2_correction_changes_the_raw_formula_where_the_spec_says():
    # R-VP-2: the raw formula gives 13.74 for 16 boards / 14 IMPs; the official table 13.75.
    assert raw_formula_hundredths(16)[14] == 1374
    assert vp_table(16)[14] == D("13.75")
    # and leaves 16 boards / 20 IMPs alone (15.00 both ways).
    assert raw_formula_hundredths(16)[20] == 1500 == hundredths(16)[20]


def test_r_vp_1_value_from_the_reference_table():
    # R-VP-1: result-formats §5.2 (16 boards, 10 IMPs -> 12.80-7.20; 12 boards, 5 -> 11.70).
    assert victory_points(10, 0, 16) == (D("12.80"), D("7.20"))
    assert victory_points(5, 0, 12) == (D("11.70"), D("8.30"))


def test_r_vp_1_equal_imps_draw_and_blitz():
    assert victory_points(0, 0, 16) == (D("10.00"), D("10.00"))
    assert victory_points(37, 37, 20) == (D("10.00"), D("10.00"))
    assert victory_points(D("12.5"), D("12.5"), 20) == (D("10.00"), D("10.00"))
    # blitz: ceil(15 * sqrt(20)) = ceil(67.08) = 68
    assert blitz_margin(20) == 68
    assert victory_points(68, 0, 20) == (D("20.00"), D("0.00"))
    assert victory_points(67, 0, 20)[0] < D("20.00")
    assert victory_points(500, 0, 20) == (D("20.00"), D("0.00"))


def test_r_team_vp_1_results_have_two_decimals():
    a, b = victory_points(23, 9, 24)
    assert a.as_tuple().exponent == -2 and b.as_tuple().exponent == -2
    assert isinstance(a, Decimal)


def test_r_vp_1_table_shape():
    for boards in (1, 4, 16, 24, 64):
        table = vp_table(boards)
        assert len(table) == math.ceil(15 * math.sqrt(boards)) + 1
        assert table[0] == D("10.00")
        assert table[-1] == D("20.00")
        assert table[-2] < D("20.00")


@pytest.mark.parametrize("boards", range(1, 65))
def test_r_vp_2_table_is_the_least_concave_table_above_the_formula(boards):
    # R-VP-2: whatever order the fixes are made in, the same table results; every value is at
    # or above the rounded formula, and none could be a hundredth lower without a step growing.
    raw = raw_formula_hundredths(boards)
    table = hundredths(boards)
    assert table == concave_from_the_top(raw)
    assert len(table) == len(raw)
    for k, (corrected, formula) in enumerate(zip(table, raw)):
        assert corrected >= formula
        if corrected > formula:
            lowered = table[:k] + [corrected - 1] + table[k + 1 :]
            assert any(
                lowered[j + 1] - lowered[j] > lowered[j] - lowered[j - 1]
                for j in range(max(1, k - 1), min(len(table) - 1, k + 2))
            )


@given(boards_st, st.integers(min_value=0, max_value=150), st.integers(min_value=0, max_value=150))
def test_r_vp_1_sides_sum_to_twenty(boards, a, b):
    vp_a, vp_b = victory_points(a, b, boards)
    assert vp_a + vp_b == D("20.00")
    assert D("0.00") <= vp_a <= D("20.00")
    assert (vp_a > vp_b) == (a > b)
    assert victory_points(b, a, boards) == (vp_b, vp_a)


@given(boards_st)
def test_r_vp_2_never_decreases_and_steps_never_grow(boards):
    table = hundredths(boards)
    steps = [table[k + 1] - table[k] for k in range(len(table) - 1)]
    assert all(step >= 0 for step in steps)
    assert all(steps[k + 1] <= steps[k] for k in range(len(steps) - 1))


@given(boards_st, st.integers(min_value=0, max_value=140))
def test_r_vp_1_monotone_in_margin(boards, margin):
    assert vp_for_margin(margin + 1, boards) >= vp_for_margin(margin, boards)


@given(
    boards_st,
    st.fractions(min_value=0, max_value=130, max_denominator=100),
)
def test_r_vp_3_fractional_margin_interpolates_between_neighbours(boards, margin):
    table = vp_table(boards)
    whole = math.floor(margin)
    value = vp_for_margin(margin, boards)
    vp_a, vp_b = victory_points(margin, 0, boards)
    assert vp_a == value and vp_a + vp_b == D("20.00")
    if whole >= len(table) - 1:
        assert value == D("20.00")
        return
    low, high = table[whole], table[whole + 1]
    assert low <= value <= high
    exact = Fraction(low) + (margin - whole) * (Fraction(high) - Fraction(low))
    assert abs(Fraction(value) - exact) <= Fraction(1, 200)


def test_r_vp_3_worked_example():
    # R-VP-3: 16 boards, 10.5 IMPs: halfway between 12.80 and 13.04 = 12.92.
    assert vp_table(16)[10] == D("12.80") and vp_table(16)[11] == D("13.04")
    assert victory_points(D("10.5"), 0, 16) == (D("12.92"), D("7.08"))
    # 0.5 IMPs: halfway between 10.00 and 10.31 = 10.155, rounded half up: 10.16 / 9.84.
    assert victory_points(0, 0.5, 16) == (D("9.84"), D("10.16"))
    assert victory_points(Fraction(1, 4), 0, 16) == (D("10.08"), D("9.92"))
    # between the last whole margin and the blitz
    assert victory_points(D("59.5"), 0, 16) == (D("19.97"), D("0.03"))


@pytest.mark.parametrize(
    ("a", "b", "boards"),
    [(1, 0, 0), (1, 0, 65), (-1, 0, 16), (0, -3, 16), (1, 0, 16.0), (1, 0, True), ("x", 0, 16)],
)
def test_r_vp_1_programming_errors_raise(a, b, boards):
    with pytest.raises(ValueError):
        victory_points(a, b, boards)


def test_r_vp_1_bad_boards_for_table():
    with pytest.raises(ValueError):
        vp_table(0)
    with pytest.raises(ValueError):
        vp_table(65)


def test_r_vp_4_penalty_after_conversion_can_go_below_zero():
    winner, loser = victory_points(59, 0, 16)  # 19.93 - 0.07
    assert apply_penalty(winner, D("5")) == D("14.93")
    assert apply_penalty(loser, 5) == D("-4.93")
    assert apply_penalty(D("10.00"), D("0")) == D("10.00")
    with pytest.raises(ValueError):
        apply_penalty(D("10.00"), D("-1"))
