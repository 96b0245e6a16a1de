"""What each team needs before the last round(s) of a team final (R-TEAM-FINAL-2,
R-TEAM-TIE-1, R-VP-1, R-VP-2, R-TEAM-VP-1, R-TEAM-4, R-TEAM-SEMI-1).

The expected figures come from a brute force written here, independently of
``ubf.rules.outlook``: it enumerates every whole IMP margin of every remaining match (from
−blitz to +blitz, beyond which the VP no longer change, R-VP-1), converts each with
``victory_points`` and ranks the teams by VP, a tie in VP counting as possible but never as
certain (the IMP tie-breaks of R-TEAM-TIE-1 are not known before the matches are played).
"""

import itertools
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ubf.rules.outlook import final_outlook
from ubf.rules.vp import blitz_margin, victory_points

D = Decimal


def played(home, away, imps_home, imps_away, boards):
    vp_home, vp_away = victory_points(imps_home, imps_away, boards)
    return {
        "home": home,
        "away": away,
        "imps_home": imps_home,
        "imps_away": imps_away,
        "vp_home": vp_home,
        "vp_away": vp_away,
    }


def brute_force(teams, matches, remaining, places, ranked=None):
    """(possible, certain, needs, secures) per team and place, from every outcome: for each
    team and each total it can win from its remaining matches, the fewest rivals above it and
    the most rivals level with or above it over all outcomes giving it that total."""
    ranked = list(teams) if ranked is None else list(ranked)
    index = {t: i for i, t in enumerate(teams)}
    base = [0] * len(teams)
    for m in matches:
        base[index[m["home"]]] += int(D(m["vp_home"]) * 100)
        base[index[m["away"]]] += int(D(m["vp_away"]) * 100)
    outcomes = []
    for _home, _away, boards in remaining:
        top = blitz_margin(boards)
        pairs = set()
        for margin in range(-top, top + 1):  # every whole IMP margin (R-VP-1)
            vh, va = victory_points(max(margin, 0), max(-margin, 0), boards)
            pairs.add((int(vh * 100), int(va * 100)))
        outcomes.append(sorted(pairs))
    sides = [(index[h], index[a]) for h, a, _b in remaining]
    rank_ix = [index[t] for t in ranked]
    seen = [{} for _ in teams]  # own total -> [fewest above, most level or above]
    for combo in itertools.product(*outcomes):
        total = list(base)
        own = [0] * len(teams)
        for (h, a), (vh, va) in zip(sides, combo, strict=True):
            total[h] += vh
            total[a] += va
            own[h] += vh
            own[a] += va
        for t in rank_ix:
            mine = total[t]
            above = level = 0
            for o in rank_ix:
                if o != t:
                    if total[o] > mine:
                        above += 1
                        level += 1
                    elif total[o] == mine:
                        level += 1
            entry = seen[t].get(own[t])
            if entry is None:
                seen[t][own[t]] = [above, level]
            else:
                entry[0] = min(entry[0], above)
                entry[1] = max(entry[1], level)
    result = {}
    for t in ranked:
        by_own = seen[index[t]]
        for p in places:
            ok = [x for x, (above, _level) in by_own.items() if above <= p - 1]
            bad = [x for x, (_above, level) in by_own.items() if level > p - 1]
            needs = min(ok) if ok else None
            if bad:
                later = [x for x in by_own if x > max(bad)]
                secures = min(later) if later else None
            else:
                secures = min(by_own)
            result[(t, p)] = (
                bool(ok),
                not bad,
                None if needs is None else D(needs) / 100,
                None if secures is None else D(secures) / 100,
            )
    return result


def figures(outlook, places):
    return {
        (t, p): (o.possible[p], o.certain[p], o.needs[p], o.secures[p])
        for t, o in outlook.items()
        for p in places
    }


def random_final(rnd, n, rounds_left, boards):
    """A round robin of n teams (n even) with all but ``rounds_left`` rounds played at random
    margins; returns (teams, played matches, remaining matches)."""
    teams = [f"T{i}" for i in range(n)]
    # The circle method: n − 1 rounds, everyone meets everyone once.
    ring = teams[1:]
    rounds = []
    for r in range(n - 1):
        order = [teams[0], *ring[r:], *ring[:r]]
        rounds.append([(order[i], order[n - 1 - i]) for i in range(n // 2)])
    matches, remaining = [], []
    for r, pairs in enumerate(rounds):
        for home, away in pairs:
            if r >= n - 1 - rounds_left:
                remaining.append((home, away, boards))
            else:
                margin = rnd.randint(-20, 20)
                matches.append(played(home, away, max(margin, 0), max(-margin, 0), boards))
    return teams, matches, remaining


# --------------------------------------------------------------------------------------------
# Against the brute force
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_six_teams_last_round_matches_brute_force(seed):
    """R-TEAM-FINAL-2, R-VP-1: six teams, one round left of one board (31 margins a match)."""
    rnd = random.Random(seed)
    teams, matches, remaining = random_final(rnd, 6, 1, 1)
    places = (1, 2, 3, 4, 5)
    expected = brute_force(teams, matches, remaining, places)
    assert figures(final_outlook(teams, matches, remaining, places=places), places) == expected


@pytest.mark.parametrize("seed", range(2))
def test_four_teams_last_two_rounds_matches_brute_force(seed):
    """Two rounds left (each team two matches, a 4-cycle of matches): needs and secures are
    the total from both matches (R-TEAM-FINAL-2, R-VP-1)."""
    rnd = random.Random(100 + seed)
    teams, matches, remaining = random_final(rnd, 4, 2, 1)
    places = (1, 2, 3)
    expected = brute_force(teams, matches, remaining, places)
    assert figures(final_outlook(teams, matches, remaining, places=places), places) == expected


def test_five_teams_two_rounds_with_byes_matches_brute_force():
    """Five teams: a team sits out one of the two rounds (its remaining matches form paths,
    not a cycle); brute force over both rounds (R-TEAM-FINAL-2, R-VP-1)."""
    teams = ["A", "B", "C", "D", "E"]
    matches = [
        played("A", "B", 3, 0, 1),
        played("C", "D", 0, 2, 1),
        played("E", "A", 1, 1, 1),
        played("B", "C", 7, 0, 1),
        played("D", "E", 0, 4, 1),
    ]
    remaining = [("A", "C", 1), ("B", "E", 1), ("A", "D", 1), ("C", "E", 1)]
    places = (1, 2, 3)
    expected = brute_force(teams, matches, remaining, places)
    assert figures(final_outlook(teams, matches, remaining, places=places), places) == expected


@pytest.mark.parametrize("seed", range(2))
def test_teams_meeting_twice_make_cycles_of_their_own(seed):
    """Two rounds left in which A–B and C–D meet twice: for A, the matches of C and D are a
    cycle that A's results do not touch (every pair of values on both matches); brute force
    over both rounds (R-TEAM-FINAL-2, R-VP-1)."""
    rnd = random.Random(200 + seed)
    teams = ["A", "B", "C", "D"]
    matches = []
    for i, home in enumerate(teams):
        for away in teams[i + 1 :]:
            margin = rnd.randint(-12, 12)
            matches.append(played(home, away, max(margin, 0), max(-margin, 0), 1))
    remaining = [("A", "B", 1), ("C", "D", 1), ("B", "A", 1), ("D", "C", 1)]
    places = (1, 2, 3)
    expected = brute_force(teams, matches, remaining, places)
    assert figures(final_outlook(teams, matches, remaining, places=places), places) == expected


def test_ranked_leaves_out_teams_that_play_for_sm_only():
    """R-TEAM-4: the DM order ranks only the teams still competing for DM; a team outside it
    still plays (its results move the others' totals) but takes no place."""
    rnd = random.Random(7)
    teams, matches, remaining = random_final(rnd, 6, 1, 1)
    ranked = ["T0", "T2", "T3", "T5"]
    places = (1, 3)
    expected = brute_force(teams, matches, remaining, places, ranked=ranked)
    got = final_outlook(teams, matches, remaining, places=places, ranked=ranked)
    assert set(got) == set(ranked)
    assert figures(got, places) == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([2, 4, 6]),
    seed=st.integers(min_value=0, max_value=10**6),
    spread=st.integers(min_value=0, max_value=40),
)
def test_random_small_finals_match_brute_force(n, seed, spread):
    """Hypothesis: random small finals before their last round, with VP totals close together
    or far apart (``spread`` scales the margins played), agree with the brute force
    (R-TEAM-FINAL-2, R-TEAM-TIE-1, R-VP-1, R-VP-2)."""
    rnd = random.Random(seed)
    teams = [f"T{i}" for i in range(n)]
    matches = []
    for i, home in enumerate(teams):
        for away in teams[i + 1 :]:
            if rnd.random() < 0.7:
                margin = rnd.randint(-spread, spread)
                matches.append(played(home, away, max(margin, 0), max(-margin, 0), 1))
    order = teams[:]
    rnd.shuffle(order)
    remaining = [(order[i], order[i + 1], 1) for i in range(0, n, 2)]
    places = tuple(range(1, n + 1))
    expected = brute_force(teams, matches, remaining, places)
    assert figures(final_outlook(teams, matches, remaining, places=places), places) == expected


# --------------------------------------------------------------------------------------------
# By hand, from the VP scale
# --------------------------------------------------------------------------------------------


def test_last_round_by_hand_on_the_20_board_scale():
    """A 20-board last round (R-TEAM-FINAL-1: a 10-team final plays 20 boards). The 20-board
    scale (R-VP-1, R-VP-2; SPEC's known values 1 → 10.28, 2 → 10.55, 13 → 13.20), the lines
    used: margin 4 → 11.08, 16 → 13.81, 17 → 14.01, 22 → 14.94, 23 → 15.11, 28 → 15.93,
    29 → 16.08, 35 → 16.93, 36 → 17.06; a loser gets 20 minus that.

    Before the round: A 100.00, B 97.00, C 95.00, D 90.00 VP; A meets D, B meets C."""
    totals = {"A": D("100.00"), "B": D("97.00"), "C": D("95.00"), "D": D("90.00")}
    outlook = final_outlook(
        list(totals),
        [],
        [("A", "D", 20), ("B", "C", 20)],
        places=(1, 3),
        penalties={t: -v for t, v in totals.items()},  # R-VP-4: sets the totals so far
    )
    a, d = outlook["A"], outlook["D"]
    # A first, possible: with A's x and B's y, 97 + y ≤ 100 + x, 95 + 20 − y ≤ 100 + x and
    # 110 − x ≤ 100 + x, so x ≥ 5 and 15 − x ≤ y ≤ 3 + x, which needs x ≥ 6. The least value
    # ≥ 6.00 is 6.19 (a 16-IMP loss, 20 − 13.81); then y = 8.92 (a 4-IMP loss) lies in
    # [8.81, 9.19]. A 5.99 (a 17-IMP loss) is below 6.
    assert a.possible[1] and a.needs[1] == D("6.19")
    # A first, certain: B's most is 117.00, so A needs 100 + x > 117: x > 17.00, the least
    # such value being 17.06 (36 IMPs). C's most (115.00) and D's (110 − x) are lower then.
    assert not a.certain[1] and a.secures[1] == D("17.06")
    # A third or better: it fails only when all three are level or above, D among them:
    # 110 − x ≥ 100 + x ⇔ x ≤ 5.00 (and then B and C fit: 3 + x ≤ y ≤ 15 − x). The least
    # value above 5.00 is 5.06 (a 22-IMP loss, 20 − 14.94); 4.89 (23 IMPs) is not enough.
    assert not a.certain[3] and a.secures[3] == D("5.06")
    assert a.possible[3] and a.needs[3] == D("0.00")
    # D first: D's z = 20 − x with 90 + z ≥ 120 − z (z ≥ 15), B 97 + y ≤ 90 + z and
    # C 115 − y ≤ 90 + z, so 25 − z ≤ y ≤ z − 7, which needs z ≥ 16: 16.08 (29 IMPs), with
    # y = 8.92 in [8.92, 9.08]; 15.93 (28 IMPs) is below 16.
    assert d.possible[1] and d.needs[1] == D("16.08")
    assert d.secures[1] is None  # B can always reach 117.00 > 110.00
    assert d.vp == D("90.00") and d.remaining == 1 and d.most == D("20.00")


def test_a_vp_tie_is_possible_never_certain():
    """Two teams level before their last match against each other: a 10.00–10.00 draw leaves
    them level in VP, so neither is certain of the title with it; either is first with it as
    a possibility (R-TEAM-TIE-1: the IMP quotient decides, not known in advance; R-VP-1: equal
    IMPs give 10.00–10.00)."""
    outlook = final_outlook(["A", "B"], [], [("A", "B", 16)], places=(1,))
    a = outlook["A"]
    assert a.possible[1] and a.needs[1] == D("10.00")
    # The least VP above 10.00 on the 16-board scale is a 1-IMP win: 10.31 (R-VP-2 known value).
    assert a.secures[1] == D("10.31")
    assert not a.certain[1]


def test_certain_and_out_of_reach():
    """A leader 45 VP clear with one 20-VP match left is champion whatever happens; the last
    team 45 VP behind cannot be first (R-TEAM-FINAL-2)."""
    outlook = final_outlook(
        ["A", "B", "C", "D"],
        [],
        [("A", "B", 20), ("C", "D", 20)],
        places=(1, 3),
        penalties={"A": D("-100"), "B": D("-55"), "C": D("-60"), "D": D("-55")},
    )
    assert outlook["A"].certain[1] and outlook["A"].secures[1] == D("0.00")
    assert outlook["A"].needs[1] == D("0.00")
    assert not outlook["B"].possible[1] and outlook["B"].needs[1] is None
    assert outlook["B"].secures[1] is None


def test_bad_input():
    with pytest.raises(ValueError):
        final_outlook(["A", "B"], [], [("A", "Z", 20)])
    with pytest.raises(ValueError):
        final_outlook(["A", "B"], [], [("A", "A", 20)])
    with pytest.raises(ValueError):
        final_outlook(["A", "B"], [], [("A", "B", 20)] * 3)
