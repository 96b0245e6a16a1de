"""Round robins and seeded schedules (ubf.rules.schedule)."""

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubf.rules.schedule import (
    full_round_robin_rounds,
    round_robin,
    seeded_schedule,
)


def schedule_balance(schedule, seeds):
    """The test's measure of how evenly a schedule spreads the opponents' strength (R-TEAM-KVAL-4):
    seeds from 1 (the strongest; a list is best first); per entry the sum and the mean of its
    opponents' seeds (byes left out); ``spread`` (max − min of the means), ``sum_spread``
    (max − min of the sums) and ``stdev`` (population standard deviation of the means)."""
    seed = dict(seeds) if isinstance(seeds, dict) else {e: i + 1 for i, e in enumerate(seeds)}
    sums, matches = dict.fromkeys(seed, 0), dict.fromkeys(seed, 0)
    for round_ in schedule:
        for home, away in round_:
            if home is None or away is None:
                continue
            sums[home] += seed[away]
            sums[away] += seed[home]
            matches[home] += 1
            matches[away] += 1
    means = {e: Fraction(sums[e], matches[e]) for e in sums if matches[e]}
    values = list(means.values())
    average = sum(values, Fraction(0)) / len(values)
    played = [sums[e] for e in sums if matches[e]]
    return SimpleNamespace(
        sums=sums,
        matches=matches,
        means=means,
        spread=max(values) - min(values),
        sum_spread=max(played) - min(played),
        stdev=math.sqrt(float(sum((v - average) ** 2 for v in values) / len(values))),
    )


def _check_rounds(schedule, entries):
    """Every entry exactly once per round; nobody meets anyone twice. Returns the meetings."""
    met = Counter()
    for round_ in schedule:
        seen = [x for match in round_ for x in match if x is not None]
        assert sorted(seen) == sorted(entries)
        for home, away in round_:
            if away is not None:
                met[frozenset((home, away))] += 1
    assert all(count == 1 for count in met.values())
    return met


@given(st.integers(2, 24))
def test_r_team_kval_4_round_robin_everyone_meets_everyone_once(n):
    entries = [f"T{i}" for i in range(n)]
    schedule = round_robin(entries)
    assert len(schedule) == full_round_robin_rounds(n)
    met = _check_rounds(schedule, entries)
    assert set(met) == {frozenset(p) for p in combinations(entries, 2)}
    # Odd number: one bye per round, each entry sits out exactly once.
    byes = Counter(h for rnd in schedule for h, a in rnd if a is None)
    if n % 2:
        assert byes == Counter(entries)
    else:
        assert not byes


@given(st.integers(2, 24))
def test_r_team_kval_4_round_robin_home_and_away_balanced(n):
    home, away = Counter(), Counter()
    for rnd in round_robin(list(range(n))):
        for h, a in rnd:
            if a is not None:
                home[h] += 1
                away[a] += 1
    assert all(abs(home[t] - away[t]) <= 1 for t in range(n))


def test_r_team_final_1_eight_teams_seven_rounds_of_four_matches():
    schedule = round_robin("ABCDEFGH")
    assert len(schedule) == 7 and all(len(r) == 4 for r in schedule)
    assert round_robin(["solo"]) == []


def _naive(entries, rounds):
    return round_robin(entries)[:rounds]


@pytest.mark.parametrize("n, rounds", [(8, 3), (10, 4), (12, 5), (9, 4), (16, 7)])
def test_r_team_kval_4_seeded_schedule_beats_the_naive_choice(n, rounds):
    entries = [f"S{i}" for i in range(1, n + 1)]  # best first
    schedule = seeded_schedule(entries, rounds)
    assert len(schedule) == rounds
    _check_rounds(schedule, entries)
    seeded = schedule_balance(schedule, entries)
    naive = schedule_balance(_naive(entries, rounds), entries)
    assert seeded.spread < naive.spread
    assert seeded.stdev < naive.stdev


def test_r_team_kval_4_seeded_schedule_reaches_the_best_spread_for_8_teams_3_rounds():
    # Each team's ideal is 3 × 4.5 = 13.5; an exhaustive search shows 3 is the least spread of
    # sums that three rounds of 8 teams allow (the first three Berger rounds give 13).
    entries = list(range(8))
    balance = schedule_balance(seeded_schedule(entries, 3), entries)
    assert balance.sum_spread == 3
    assert schedule_balance(_naive(entries, 3), entries).sum_spread == 13


def test_r_team_kval_4_seeded_schedule_is_deterministic_and_full_when_possible():
    entries = list("ABCDEFGHIJ")
    assert seeded_schedule(entries, 4) == seeded_schedule(entries, 4)
    assert seeded_schedule(entries, 9) == round_robin(entries)
    assert seeded_schedule(entries, 0) == []


def test_r_team_kval_4_seeded_schedule_home_away_close():
    entries = list(range(12))
    home, away = Counter(), Counter()
    for rnd in seeded_schedule(entries, 5):
        for h, a in rnd:
            home[h] += 1
            away[a] += 1
    assert all(abs(home[t] - away[t]) <= 1 for t in entries)


def test_r_pair_df_2_seeded_movement_for_a_large_direct_final():
    entries = list(range(36))
    schedule = seeded_schedule(entries, 9)
    _check_rounds(schedule, entries)
    assert (
        schedule_balance(schedule, entries).spread
        < schedule_balance(_naive(entries, 9), entries).spread
    )


@settings(max_examples=15, deadline=None)
@given(n=st.integers(4, 14), data=st.data())
def test_r_team_kval_4_seeded_schedule_is_always_a_valid_partial_round_robin(n, data):
    rounds = data.draw(st.integers(1, full_round_robin_rounds(n) - 1))
    entries = list(range(n))
    schedule = seeded_schedule(entries, rounds)
    assert len(schedule) == rounds
    _check_rounds(schedule, entries)
    home, away = Counter(), Counter()
    for rnd in schedule:
        for h, a in rnd:
            if a is not None:
                home[h] += 1
                away[a] += 1
    assert all(abs(home[t] - away[t]) <= 1 for t in entries)


def test_schedule_balance_figures():
    # A–B, C–D with seeds 1..4: sums A 2, B 1, C 4, D 3.
    b = schedule_balance([[("A", "B"), ("C", "D")]], ["A", "B", "C", "D"])
    assert b.sums == {"A": 2, "B": 1, "C": 4, "D": 3}
    assert b.sum_spread == 3 and b.spread == 3
    with_bye = schedule_balance([[("A", "B"), ("C", None)]], {"A": 1, "B": 2, "C": 3})
    assert with_bye.matches["C"] == 0 and "C" not in with_bye.means
