"""Bridge scoring for importers (Law 77, 78A, 78B); feeds R-TEAM-VP-1 and R-PAIR-TIE-1."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.scoring import (
    board_dealer,
    board_vulnerability,
    contract_score,
    imps,
    matchpoints,
    neuberg,
)


@pytest.mark.parametrize(
    ("diff", "expected"),
    [
        (0, 0),
        (10, 0),
        (20, 1),
        (40, 1),
        (50, 2),
        (360, 8),
        (370, 9),
        (420, 9),
        (430, 10),
        (470, 10),  # result-formats §5.2 worked example: net 470 -> 10 IMPs
        (490, 10),
        (500, 11),
        (740, 12),
        (750, 13),
        (1490, 16),
        (1500, 17),
        (2990, 21),
        (3990, 23),
        (4000, 24),
        (7600, 24),
        (-470, -10),
        (-4000, -24),
    ],
)
def test_imp_scale_law_78b(diff, expected):
    # R-TEAM-VP-1 takes its IMP margins from this scale.
    assert imps(diff) == expected


@given(st.integers(min_value=-8000, max_value=8000))
def test_imps_antisymmetric_and_monotone(diff):
    assert imps(-diff) == -imps(diff)
    assert imps(diff + 10) >= imps(diff)
    assert 0 <= abs(imps(diff)) <= 24


def test_imps_rejects_non_integers():
    with pytest.raises(ValueError):
        imps(10.0)


def test_matchpoints_law_78a_two_point_scale():
    # R-PAIR-KVAL-5, R-PAIR-MP-4: heats and (barometer) finals are scored across the field.
    # 6 results -> top 10; a tie shares (two pairs tied for 4 and 6 get 5 each).
    scores = [420, 450, -50, 420, 100, 980]
    assert matchpoints(scores) == [Fraction(5), Fraction(8), Fraction(0), Fraction(5), 2, 10]
    assert matchpoints([]) == []
    assert matchpoints([300]) == [0]


@given(st.lists(st.integers(min_value=-50, max_value=50).map(lambda x: x * 10), min_size=1))
def test_matchpoints_total_is_n_times_top_over_two(scores):
    n = len(scores)
    mps = matchpoints(scores)
    assert sum(mps) == n * (n - 1)
    assert all(0 <= mp <= 2 * (n - 1) for mp in mps)


def test_matchpoints_ties_by_hand():
    # R-PAIR-KVAL-5, R-PAIR-MP-4 (Law 78A, MP1): 2 for each lower score, 1 for each equal one.
    # 8 results, top 14. Scores sorted: -100, 50, 50, 50, 420, 420, 620, 620.
    #  -100: nothing lower, no tie            -> 0
    #    50: 1 lower (2), 2 equal (2)          -> 4   (three-way tie shares places 2-4: 2+4+6 / 3)
    #   420: 4 lower (8), 1 equal (1)          -> 9
    #   620: 6 lower (12), 1 equal (1)         -> 13
    scores = [420, 50, -100, 620, 50, 420, 620, 50]
    assert matchpoints(scores) == [9, 4, 0, 13, 4, 9, 13, 4]
    # Everyone equal: each gets half the top.
    assert matchpoints([-50] * 5) == [4] * 5
    # An averaged (fractional) score sits between its neighbours: 2 lower scores -> 4.
    assert matchpoints([100, Fraction(215, 2), 110, 90]) == [2, 4, 6, 0]
    # The scores as given, in order; the result is exact Fractions.
    assert all(isinstance(mp, Fraction) for mp in matchpoints([10, 10]))


@given(st.lists(st.integers(min_value=-8, max_value=8).map(lambda x: x * 10), max_size=40))
def test_matchpoints_equal_the_laws_definition_pair_by_pair(scores):
    # The definition of Law 78A read literally (every other result compared), the way the
    # function computed it before issue 25: sorting must give exactly the same Fractions.
    expected = [
        sum(
            2 if other < own else 1 if other == own else 0
            for j, other in enumerate(scores)
            if j != i
        )
        for i, own in enumerate(scores)
    ]
    assert matchpoints(scores) == expected


def test_neuberg():
    # 5 results where 6 is normal: (MP + 1) * 6 / 5 - 1
    assert neuberg(4, 5, 6) == Fraction(5)
    assert neuberg(8, 5, 6) == Fraction(49, 5)
    assert neuberg(0, 5, 6) == Fraction(1, 5)
    assert neuberg(Fraction(7, 2), 6, 6) == Fraction(7, 2)
    with pytest.raises(ValueError):
        neuberg(4, 0, 6)


@pytest.mark.parametrize(
    ("level", "strain", "doubled", "vul", "tricks", "score"),
    [
        (4, "S", 0, False, 10, 420),
        (3, "NT", 0, True, 10, 630),
        (1, "NT", 1, True, 5, -500),
        (7, "NT", 2, True, 13, 2980),
        (4, "S", 0, False, 9, -50),
        (2, "H", 0, False, 8, 110),
        (2, "C", 0, True, 9, 110),
        (3, "D", 0, False, 9, 110),
        (5, "D", 0, True, 11, 600),
        (1, "N", 0, False, 7, 90),
        (2, "S", 1, False, 8, 470),
        (2, "S", 1, True, 9, 870),
        (1, "C", 2, False, 7, 230),
        (6, "H", 0, False, 12, 980),
        (6, "NT", 0, True, 13, 1470),
        (7, "C", 0, False, 13, 1440),
        (3, "NT", 1, False, 6, -500),
        (3, "NT", 1, False, 5, -800),
        (3, "NT", 2, True, 6, -1600),
        (7, "NT", 1, True, 0, -3800),
        (4, "h", 0, True, 10, 620),
    ],
)
def test_contract_score_law_77(level, strain, doubled, vul, tricks, score):
    assert contract_score(level, strain, doubled, vul, tricks) == score


@pytest.mark.parametrize(
    "args",
    [(0, "S", 0, False, 7), (8, "S", 0, False, 7), (1, "X", 0, False, 7), (1, "S", 3, False, 7)]
    + [(1, "S", 0, False, 14), (1, "S", 0, False, -1)],
)
def test_contract_score_rejects_impossible_contracts(args):
    with pytest.raises(ValueError):
        contract_score(*args)


def test_board_vulnerability_and_dealer_cycle():
    # boards 1..16 of the standard cycle, then it repeats
    expected = [
        "None",
        "NS",
        "EW",
        "All",
        "NS",
        "EW",
        "All",
        "None",
        "EW",
        "All",
        "None",
        "NS",
        "All",
        "None",
        "NS",
        "EW",
    ]  # boards 1..16
    assert [board_vulnerability(b) for b in range(1, 17)] == expected
    assert [board_vulnerability(b) for b in range(17, 33)] == expected
    assert [board_dealer(b) for b in range(1, 9)] == list("NESWNESW")
    assert board_dealer(17) == "N" and board_dealer(20) == "W"
    with pytest.raises(ValueError):
        board_vulnerability(0)
