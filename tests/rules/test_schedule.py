"""Round robins and seeded schedules (ubf.rules.schedule)."""

import math
from collections import Counter
from datetime import date
from fractions import Fraction
from itertools import combinations
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubf.rules.schedule import (
    final_board_violations,
    final_boards,
    full_round_robin_rounds,
    match_halves,
    parse_pairings,
    round_days,
    round_robin,
    schedule_violations,
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


# --- Hand-worked seeded schedules (R-TEAM-KVAL-4: too few days for everyone to meet) --------


def test_r_team_kval_4_four_teams_in_two_rounds_the_one_even_choice():
    # Seeds 1..4, two of the three possible rounds. Worked by hand, each team's opponents:
    #   {1-2, 3-4} + {1-3, 2-4}: 1 → 2+3, 2 → 1+4, 3 → 4+1, 4 → 3+2: every sum 5 (spread 0)
    #   {1-2, 3-4} + {1-4, 2-3}: 1 → 6, 2 → 4, 3 → 6, 4 → 4 (spread 2)
    #   {1-3, 2-4} + {1-4, 2-3}: 1 → 7, 2 → 7, 3 → 3, 4 → 3 (spread 4)
    # so the strongest (1) and the weakest (4) never meet, nor 2 and 3.
    schedule = seeded_schedule([1, 2, 3, 4], 2)
    met = {frozenset(m) for r in schedule for m in r}
    assert met == {frozenset(p) for p in ((1, 2), (3, 4), (1, 3), (2, 4))}
    assert schedule_balance(schedule, [1, 2, 3, 4]).sums == {1: 5, 2: 5, 3: 5, 4: 5}


def test_r_team_kval_4_seven_teams_with_days_for_four_rounds_of_seven():
    # A 7-team heat needs 7 rounds for everyone to meet (one team sits out each round); its
    # days hold 4. Worked by hand: 4 rounds of 3 matches = 12 matches; 4 teams sit out once
    # (3 matches each), 3 play all 4. If every team's opponents average the same m, the seeds
    # of all opponents add up to m · 24 (the 24 team-matches) and also to 4 · (1+…+7) − B =
    # 112 − B, B the seeds of the four that sit out: m = 4 needs B = 16, e.g. 1, 3, 5, 7. It
    # can be done: the odd seeds sit out one round each and meet the even seeds, the even
    # seeds meet the four odd ones: 2 → 1+3+5+7 = 16 over 4, 1 → 2+4+6 = 12 over 3, and so on:
    # every team's opponents average exactly 4, none favoured or harmed.
    teams = [1, 2, 3, 4, 5, 6, 7]
    schedule = seeded_schedule(teams, 4)
    assert len(schedule) == 4
    _check_rounds(schedule, teams)
    byes = [h for r in schedule for h, a in r if a is None]
    assert len(byes) == 4 and len(set(byes)) == 4  # nobody sits out twice
    balance = schedule_balance(schedule, teams)
    assert set(balance.means.values()) == {4}
    assert sum(balance.matches.values()) == 24  # 12 matches


def test_r_team_kval_4_six_teams_in_three_rounds_as_even_as_it_goes():
    # Everyone plays 3 matches; the opponents' seeds add up to 3 · (1+…+6) = 63 over the six
    # teams, 10.5 on average: no schedule gives everyone the same, the best gives 10 or 11,
    # averages 10/3 and 11/3 apart by 1/3.
    teams = [1, 2, 3, 4, 5, 6]
    balance = schedule_balance(seeded_schedule(teams, 3), teams)
    assert set(balance.sums.values()) == {10, 11}
    assert balance.spread == Fraction(1, 3)


def test_r_team_kval_4_rounds_spread_over_the_days():
    d1, d2, d3 = date(2016, 11, 5), date(2016, 11, 6), date(2016, 11, 7)
    # R-TEAM-FINAL-1: 7 rounds of an 8-team final over two central days: 4 + 3; 9 rounds: 5 + 4.
    assert round_days(7, [d1, d2]) == [d1] * 4 + [d2] * 3
    assert round_days(9, [d1, d2]) == [d1] * 5 + [d2] * 4
    assert round_days(4, [d1, d2, d3]) == [d1, d1, d2, d3]
    assert round_days(3, [d1]) == [d1] * 3
    assert round_days(0, [d1]) == [] and round_days(3, []) == []


def test_r_team_kval_5_halves_by_boards():
    # 8–15 boards one segment, 16–24 two halves.
    assert [match_halves(b) for b in (8, 15, 16, 24)] == [1, 1, 2, 2]


def test_r_team_final_1_boards_by_the_number_of_teams():
    assert final_boards(8) == 24 and final_boards(10) == 20 and final_boards(9) is None
    assert final_board_violations(8, 24) == []
    assert final_board_violations(10, 20) == []
    wrong = final_board_violations(8, 20)
    assert [v.clause for v in wrong] == ["R-TEAM-FINAL-1"] and wrong[0].data["wanted"] == 24
    assert final_board_violations(9, 20)[0].clause == "R-TEAM-FINAL-1"
    # R-TEAM-DF-1: a direct final sets its boards to fit, within 8–24.
    assert final_board_violations(6, 16, direct_final=True) == []
    assert final_board_violations(6, 26, direct_final=True)[0].clause == "R-TEAM-DF-1"


def test_parse_pairings_as_typed():
    assert parse_pairings("1-7, 2–6; 3 : 5\n4 mot 8") == ([(1, 7), (2, 6), (3, 5), (4, 8)], [])
    pairs, bad = parse_pairings("1-2, tre-fyra, 5")
    assert pairs == [(1, 2)] and bad == ["tre-fyra", "5"]
    assert parse_pairings("") == ([], [])


def test_r_team_kval_4_schedule_violations_by_hand():
    teams = [1, 2, 3, 4]
    assert schedule_violations(round_robin(teams), teams) == []
    # Team 1 twice in round 1, 1 and 2 meet twice, 5 is not in the heat, round 3 is empty.
    bad = schedule_violations([[(1, 2), (1, 3)], [(2, 1), (4, 5)], []], teams)
    texts = [v.message_sv for v in bad if v.is_error]
    assert "Rond 1: lag 1 spelar 2 matcher." in texts
    assert "Lag 1 och 2 möts 2 gånger." in texts
    assert "Rond 2: lag 5 finns inte i schemat." in texts
    assert "Rond 3 har ingen match." in texts
    # Three rounds is what everyone-meets-everyone needs for 4 teams: 1–4 missing is an error.
    missing = schedule_violations([[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(2, 3)]], teams)
    assert [v.is_error for v in missing if "Alla ska mötas" in v.message_sv] == [True]
    # Two rounds: a part of the round robin is allowed, with a warning.
    partial = schedule_violations([[(1, 2), (3, 4)], [(1, 3), (2, 4)]], teams)
    assert [v.is_error for v in partial] == [False]
    assert "2 ronder (alla möter alla kräver 3)" in partial[0].message_sv
    # The final (R-TEAM-FINAL-1) must be the whole round robin, whatever its rounds.
    final = schedule_violations([[(1, 2), (3, 4)]], teams, full_required=True)
    assert any(v.clause == "R-TEAM-FINAL-1" and v.is_error for v in final)


def test_r_team_kval_4_a_team_with_no_match_and_teams_sitting_out_more():
    three = [1, 2, 3]
    idle = schedule_violations([[(1, 2)]], three)
    assert any(v.is_error and "Lag 3 har ingen match" in v.message_sv for v in idle)
    # 5 teams, 2 rounds (a round robin needs 5): 1 and 2 sit out once, the others play twice.
    uneven = schedule_violations([[(3, 4), (5, 2)], [(3, 5), (4, 1)]], [1, 2, 3, 4, 5])
    assert not any(v.is_error for v in uneven)
    assert any("Lag 1, 2 spelar färre matcher" in v.message_sv for v in uneven)
