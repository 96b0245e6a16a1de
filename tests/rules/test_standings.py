"""Rankings and tie-breaks: teams (R-TEAM-TIE-1, R-TEAM-FINAL-2) and pairs (R-PAIR-TIE-1..3)."""

import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubf.rules.i18n import from_data
from ubf.rules.standings import plaque_places, rank_pairs, rank_teams
from ubf.rules.vp import victory_points


def _text(note: dict, language: str) -> str:
    """A tie-break note's text: its stored message (as_data) in ``language``."""
    return from_data(note["message"]).text(language)


D = Decimal


def match(home, away, imps_home, imps_away, vp_home=None, vp_away=None, boards=None, n=16):
    if vp_home is None:
        vp_home, vp_away = victory_points(imps_home, imps_away, n)
    result = {
        "home": home,
        "away": away,
        "imps_home": imps_home,
        "imps_away": imps_away,
        "vp_home": D(str(vp_home)),
        "vp_away": D(str(vp_away)),
    }
    if boards is not None:
        result["boards"] = boards
    return result


def board(imps_home, imps_away, points_home=0, points_away=0):
    return {
        "imps_home": imps_home,
        "imps_away": imps_away,
        "points_home": points_home,
        "points_away": points_away,
    }


def first_in_sorted(candidates, k):
    return list(candidates[:k])


def order(standings):
    return [s.team for s in standings]


def decided(standings):
    return [s.decided_by for s in standings]


def round_robin(teams):
    """A single round robin by the circle method: rounds of (home, away) pairs."""
    teams = list(teams)
    if len(teams) % 2:
        teams.append(None)
    n = len(teams)
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = teams[i], teams[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        teams = [teams[0], teams[-1], *teams[1:-1]]
    return rounds


def test_round_robin_fixture_generator_meets_everyone_once():
    teams = [f"T{i:02d}" for i in range(10)]
    rounds = round_robin(teams)
    assert len(rounds) == 9 and all(len(r) == 5 for r in rounds)
    met = [frozenset(p) for r in rounds for p in r]
    assert len(met) == len(set(met)) == 45


# ---------------------------------------------------------------------------------------------
# Teams
# ---------------------------------------------------------------------------------------------


def test_r_team_tie_1_most_vp_first():
    matches = [match("A", "B", 40, 10), match("B", "C", 30, 20), match("C", "A", 25, 24)]
    standings = rank_teams(["C", "B", "A"], matches, draw=first_in_sorted)
    vp = {s.team: s.vp for s in standings}
    # WBF 16-board table (R-VP-1): margin 30 → 16.73–3.27, 10 → 12.80–7.20, 1 → 10.31–9.69.
    # A: 16.73 + 9.69 = 26.42; C: 7.20 + 10.31 = 17.51; B: 3.27 + 12.80 = 16.07.
    assert vp == {"A": D("26.42"), "C": D("17.51"), "B": D("16.07")}
    assert order(standings) == ["A", "C", "B"]
    assert [s.rank for s in standings] == [1, 2, 3]
    assert decided(standings) == [None, "vp", "vp"]
    a = standings[0]
    assert (a.imps_won, a.imps_lost, a.matches_played) == (D(64), D(35), 2)
    assert a.explanation[0]["criterion"] == "vp"
    assert a.explanation[0]["clause"] == "R-TEAM-TIE-1"


def test_r_team_tie_1_imp_quotient_after_vp():
    # A and B both 20.00 VP; A's quotient 60/50 = 1.2 beats B's 55/50 = 1.1.
    matches = [
        match("A", "X", 50, 10, "15.00", "5.00"),
        match("A", "Y", 10, 40, "5.00", "15.00"),
        match("B", "X", 45, 10, "15.00", "5.00"),
        match("B", "Y", 10, 40, "5.00", "15.00"),
    ]
    standings = rank_teams(["A", "B", "X", "Y"], matches, draw=first_in_sorted)
    by_team = {s.team: s for s in standings}
    assert by_team["A"].vp == by_team["B"].vp == D("20.00")
    assert by_team["A"].imp_quotient == D("1.2")
    assert by_team["B"].imp_quotient_exact == Fraction(11, 10)
    assert order(standings).index("A") < order(standings).index("B")
    assert by_team["B"].decided_by == "imp_quotient"
    texts = [_text(e, "sv") for e in by_team["B"].explanation]
    assert any("IMP-kvot: 55/50" in t for t in texts)


def test_r_team_tie_1_no_imps_lost_ranks_highest_on_quotient():
    matches = [
        match("A", "X", 30, 0, "10.00", "10.00"),
        match("B", "Y", 90, 1, "10.00", "10.00"),
    ]
    standings = rank_teams(["A", "B", "X", "Y"], matches, draw=first_in_sorted)
    by_team = {s.team: s for s in standings}
    assert by_team["A"].imp_quotient == D("Infinity")
    assert by_team["A"].imp_quotient_exact is None
    assert by_team["B"].imp_quotient == D(90)
    assert order(standings) == ["A", "B", "Y", "X"]
    assert decided(standings) == [None, "imp_quotient", "imp_quotient", "imp_quotient"]


def three_way_tie():
    """A, B, C level on VP (30.00) and IMP quotient (100/100); D clear ahead, E last.

    Among A, B, C: A-B 30-20, B-C 40-10, C-A 25-5, so IMPs won among them are A 35, B 60,
    C 35. B goes first; A and C are resolved again among themselves: C won their match 25-5.
    In that match A won more boards (3 to 1), so a ranking that moved on to boards instead of
    restarting from IMPs among A and C would put A above C.
    """
    c_a_boards = [board(0, 2), board(0, 2), board(0, 1), board(25, 0), board(0, 0)]
    return [
        match("A", "B", 30, 20, "12.80", "7.20"),
        match("B", "C", 40, 10, "16.73", "3.27"),
        match("C", "A", 25, 5, "15.00", "5.00", boards=c_a_boards),
        match("A", "D", 65, 55, "12.20", "7.80"),
        match("B", "D", 40, 60, "6.07", "13.93"),
        match("C", "D", 65, 55, "11.73", "8.27"),
        match("D", "E", 50, 0, "20.00", "0.00"),
    ]


def test_r_team_tie_1_subgroup_restarts_from_head_to_head_imps():
    standings = rank_teams(list("ABCDE"), three_way_tie(), draw=first_in_sorted)
    by_team = {s.team: s for s in standings}
    for team in "ABC":
        assert by_team[team].vp == D("30.00")
        assert (by_team[team].imps_won, by_team[team].imps_lost) == (D(100), D(100))
    assert order(standings) == ["D", "B", "C", "A", "E"]
    assert decided(standings) == [None, "vp", "h2h_imps", "h2h_imps", "vp"]
    a_h2h = [e for e in by_team["A"].explanation if e["criterion"] == "h2h_imps"]
    assert [(e["among"], e["value"]) for e in a_h2h] == [(["A", "B", "C"], "35"), (["A", "C"], "5")]
    assert not any(e["criterion"] == "h2h_boards" for e in by_team["A"].explanation)


def test_r_team_final_2_final_ranks_the_same_way():
    # R-TEAM-FINAL-2: same chain in the final; order of matches and teams does not matter.
    matches = three_way_tie()
    random.Random(7).shuffle(matches)
    standings = rank_teams(list("EDCBA"), matches, draw=first_in_sorted)
    assert order(standings) == ["D", "B", "C", "A", "E"]


def two_level_teams(ab_boards):
    """A and B identical against C, and 20-20 in their own match."""
    return [
        match("A", "B", 20, 20, boards=ab_boards),
        match("A", "C", 30, 10),
        match("C", "B", 10, 30),
    ]


def test_r_team_tie_1_head_to_head_boards():
    ab = [board(10, 0), board(5, 0), board(5, 0), board(0, 20)]
    standings = rank_teams(["B", "A", "C"], two_level_teams(ab), draw=first_in_sorted)
    assert order(standings) == ["A", "B", "C"]
    assert decided(standings)[:2] == [None, "h2h_boards"]
    b = next(s for s in standings if s.team == "B")
    values = {e["criterion"]: e["value"] for e in b.explanation}
    assert values["h2h_imps"] == "20" and values["h2h_boards"] == "1"


def test_r_team_tie_1_head_to_head_total_points():
    ab = [
        board(10, 0, 1000, 600),
        board(10, 0, 500, 200),
        board(0, 10, 100, 600),
        board(0, 10, 400, 800),
    ]
    # boards 2-2; total points A 2000, B 2200
    standings = rank_teams(["A", "B", "C"], two_level_teams(ab), draw=first_in_sorted)
    assert order(standings) == ["B", "A", "C"]
    assert decided(standings)[:2] == [None, "h2h_points"]


def test_r_team_tie_1_lot_with_deterministic_draw():
    calls = []

    def last_in_sorted(candidates, k):
        calls.append((list(candidates), k))
        return list(candidates[-k:])

    ab = [board(20, 0, 500, 0), board(0, 20, 0, 500)]
    standings = rank_teams(["A", "B", "C"], two_level_teams(ab), draw=last_in_sorted)
    assert order(standings) == ["B", "A", "C"]
    assert decided(standings)[:2] == [None, "lot"]
    assert calls == [(["A", "B"], 1)]
    lot = [e for e in standings[0].explanation if e["criterion"] == "lot"]
    assert lot and "Lottning" in _text(lot[0], "sv")


def test_r_team_tie_1_three_team_lot_asks_one_at_a_time():
    calls = []

    def draw(candidates, k):
        calls.append(list(candidates))
        return [candidates[-1]]

    matches = [match("A", "B", 0, 0), match("B", "C", 0, 0), match("C", "A", 0, 0)]
    for m in matches:
        m["boards"] = [board(0, 0, 100, 100)]
    standings = rank_teams(["A", "B", "C"], matches, draw=draw)
    assert order(standings) == ["C", "B", "A"]
    assert decided(standings) == [None, "lot", "lot"]
    assert calls == [["A", "B", "C"], ["A", "B"]]


def test_r_team_tie_1_skips_board_criteria_without_uploaded_boards():
    standings = rank_teams(["A", "B", "C"], two_level_teams(None), draw=first_in_sorted)
    assert order(standings) == ["A", "B", "C"]
    assert decided(standings)[:2] == [None, "lot"]
    skipped = [e for e in standings[1].explanation if e["skipped"]]
    assert [e["criterion"] for e in skipped] == ["h2h_boards", "h2h_points"]
    assert "brickresultat saknas för A–B" in _text(skipped[0], "sv")
    assert "no board results uploaded" in _text(skipped[0], "en")


def test_r_team_tie_1_skipped_only_when_a_relevant_match_lacks_boards():
    # The A-B match has boards; a C match without boards is not relevant to the A-B tie.
    ab = [board(10, 0), board(5, 0), board(5, 0), board(0, 20)]
    standings = rank_teams(["A", "B", "C"], two_level_teams(ab), draw=first_in_sorted)
    assert not any(e["skipped"] for s in standings for e in s.explanation)


def test_r_team_tie_1_penalties_subtract_vp():
    # R-VP-4 / R-TEAM-RES-1: A wins its match 12.80-7.20 but loses 6 VP: 6.80 < 7.20.
    matches = [match("A", "B", 30, 20)]
    plain = rank_teams(["A", "B"], matches, draw=first_in_sorted)
    assert order(plain) == ["A", "B"]
    standings = rank_teams(["A", "B"], matches, penalties={"A": D("6")}, draw=first_in_sorted)
    assert order(standings) == ["B", "A"]
    a = standings[1]
    assert a.vp == D("6.80") and a.penalty == D("6.00")
    assert "efter avdrag med 6 VP" in _text(a.explanation[0], "sv")


def test_r_team_tie_1_programming_errors():
    with pytest.raises(ValueError):
        rank_teams(["A"], [match("A", "Z", 1, 0)])
    with pytest.raises(ValueError):
        rank_teams(["A", "B"], [match("A", "A", 1, 0)])
    with pytest.raises(ValueError):
        rank_teams(["A"], [], penalties={"Z": 5})
    with pytest.raises(ValueError):
        rank_teams(["A", "B", "C"], two_level_teams(None), draw=lambda c, k: ["Z"])


def test_r_team_tie_1_default_draw_is_seedable():
    ranks = {
        tuple(order(rank_teams(["A", "B", "C"], two_level_teams(None), seed=s))) for s in range(40)
    }
    assert ranks == {("A", "B", "C"), ("B", "A", "C")}
    same = order(rank_teams(["A", "B", "C"], two_level_teams(None), seed=3))
    assert same == order(rank_teams(["A", "B", "C"], two_level_teams(None), seed=3))


TEN = [f"T{i:02d}" for i in range(10)]


@st.composite
def ten_team_round_robin(draw):
    """A 10-team single round robin of 20 boards (R-TEAM-FINAL-1 shape), with board results."""
    matches = []
    for rnd in round_robin(TEN):
        for home, away in rnd:
            boards = []
            for _ in range(draw(st.integers(min_value=1, max_value=4))):
                imps = draw(st.integers(min_value=-6, max_value=6))
                points = draw(st.integers(min_value=0, max_value=3)) * 100
                boards.append(board(max(imps, 0), max(-imps, 0), points, 300 - points))
            ih = sum(b["imps_home"] for b in boards)
            ia = sum(b["imps_away"] for b in boards)
            matches.append(match(home, away, ih, ia, boards=boards, n=20))
    return matches


def swapped(m):
    boards = [
        board(b["imps_away"], b["imps_home"], b["points_away"], b["points_home"])
        for b in m.get("boards", [])
    ]
    result = match(m["away"], m["home"], m["imps_away"], m["imps_home"], m["vp_away"], m["vp_home"])
    result["boards"] = boards
    return result


@settings(max_examples=60, deadline=None)
@given(ten_team_round_robin(), st.randoms(use_true_random=False))
def test_r_team_final_2_ranking_is_a_permutation_independent_of_input_order(matches, rnd):
    # R-TEAM-FINAL-2 / R-TEAM-TIE-1
    standings = rank_teams(TEN, matches, draw=first_in_sorted)
    assert sorted(order(standings)) == TEN
    assert [s.rank for s in standings] == list(range(1, 11))
    assert all(s.matches_played == 9 for s in standings)
    assert standings[0].decided_by is None
    for before, after in zip(standings, standings[1:]):
        assert before.vp >= after.vp
        if before.vp == after.vp:
            assert before.imp_quotient >= after.imp_quotient
        assert (after.decided_by == "vp") == (before.vp != after.vp)

    shuffled = [swapped(m) if rnd.random() < 0.5 else m for m in matches]
    rnd.shuffle(shuffled)
    teams = list(TEN)
    rnd.shuffle(teams)
    again = rank_teams(teams, shuffled, draw=first_in_sorted)
    assert order(again) == order(standings)
    assert decided(again) == decided(standings)


# ---------------------------------------------------------------------------------------------
# Pairs
# ---------------------------------------------------------------------------------------------


def line(b, ns, ew, mp_ns, top=4):
    return {"board": b, "ns": ns, "ew": ew, "mp_ns": mp_ns, "mp_ew": top - mp_ns}


def three_pair_lines():
    """X, Y, Z tied. Boards won among the three: X 2 (b1, b2 over Y), Y 2 (b3 over X at their
    meeting, b6 over Z), Z 3 (b4, b5 over X, b7 over Y). Z goes first; X and Y again among
    themselves: X 2, Y 1. At their meeting (b3) Y scored 3 to X's 1, so moving on to the
    head-to-head instead of restarting would put Y above X.
    """
    return [
        line(1, "X", "O1", 4),
        line(1, "Y", "O2", 2),
        line(2, "X", "O1", 4),
        line(2, "Y", "O2", 0),
        line(3, "X", "Y", 1),
        line(4, "X", "O1", 0),
        line(4, "Z", "O2", 4),
        line(5, "X", "O1", 1),
        line(5, "Z", "O2", 3),
        line(6, "O1", "Y", 1),
        line(6, "O2", "Z", 3),
        line(7, "O1", "Y", 3),
        line(7, "O2", "Z", 1),
    ]


SCORES = {"P": 60, "X": 50, "Y": 50, "Z": 50, "W": Fraction(81, 2), "O1": 30, "O2": 20}


def test_r_pair_tie_1_boards_won_and_r_pair_tie_3_restart():
    standings = rank_pairs(list(SCORES), SCORES, three_pair_lines(), draw=first_in_sorted)
    names = [s.pair for s in standings]
    assert names == ["P", "Z", "X", "Y", "W", "O1", "O2"]
    assert [s.decided_by for s in standings][:5] == [
        None,
        "score",
        "boards_won",
        "boards_won",
        "score",
    ]
    x = next(s for s in standings if s.pair == "X")
    won = [(e["among"], e["value"]) for e in x.explanation if e["criterion"] == "boards_won"]
    assert won == [(["X", "Y", "Z"], "2"), (["X", "Y"], "2")]
    assert x.score == Fraction(50)
    assert x.explanation[-1]["clause"] == "R-PAIR-TIE-1"


def test_r_pair_tie_1_head_to_head_after_equal_boards_won():
    lines = [line(1, "X", "O1", 4), line(1, "Y", "O2", 2), line(3, "X", "Y", 1)]
    scores = {"X": 50, "Y": 50, "O1": 10, "O2": 10}
    standings = rank_pairs(list(scores), scores, lines, draw=first_in_sorted)
    assert [s.pair for s in standings][:2] == ["Y", "X"]
    assert standings[1].decided_by == "h2h_mp"
    h2h = [e for e in standings[0].explanation if e["criterion"] == "h2h_mp"]
    assert h2h[0]["value"] == "3" and "(brickor: 1)" in _text(h2h[0], "sv")


def test_r_pair_tie_1_lot_when_everything_is_equal():
    lines = [line(1, "X", "O1", 2), line(1, "Y", "O2", 2)]
    scores = {"X": D("50.5"), "Y": D("50.50"), "O1": 1, "O2": 0}
    standings = rank_pairs(list(scores), scores, lines, draw=lambda c, k: [c[-1]])
    assert [s.pair for s in standings][:2] == ["Y", "X"]
    assert standings[1].decided_by == "lot"


def test_r_pair_tie_2_plaques_use_boards_won_only_and_share_the_higher_place():
    lines = [line(1, "X", "O1", 4), line(1, "Y", "O2", 2), line(3, "X", "Y", 1)]
    scores = {"P": 60, "X": 50, "Y": 50, "W": 40}
    assert plaque_places(list(scores), scores, lines) == {"P": 1, "X": 2, "Y": 2, "W": 4}
    # R-PAIR-TIE-2 with the R-PAIR-TIE-3 restart: a three-way tie splits completely.
    places = plaque_places(list(SCORES), SCORES, three_pair_lines())
    assert places == {"P": 1, "Z": 2, "X": 3, "Y": 4, "W": 5, "O1": 6, "O2": 7}


def test_r_pair_tie_1_programming_errors():
    with pytest.raises(ValueError):
        rank_pairs(["X"], {}, [])
    with pytest.raises(ValueError):
        rank_pairs(["X", "O1"], {"X": 1, "O1": 1}, [line(1, "X", "O1", 2), line(1, "X", "O2", 2)])


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_r_pair_tie_1_ranking_does_not_depend_on_line_order(rnd):
    lines = three_pair_lines()
    expected = [s.pair for s in rank_pairs(list(SCORES), SCORES, lines, draw=first_in_sorted)]
    rnd.shuffle(lines)
    pairs = list(SCORES)
    rnd.shuffle(pairs)
    got = [s.pair for s in rank_pairs(pairs, SCORES, lines, draw=first_in_sorted)]
    assert got == expected


#: Three pairs on equal score, matchpoints (A, B, U) per board on a top of 8: boards 1-3
#: 4/2/6, boards 4-5 6/3/3, boards 6-9 3/6/3. Between A and B: A wins boards 1-5 (5), B boards
#: 6-9 (4). Between A and U: U wins 1-3 (3), A 4-5 (2), 6-9 equal. Between B and U: U wins 1-3
#: (3), B 6-9 (4), 4-5 equal. Boards won among all three: A 5 + 2 = 7, B 4 + 4 = 8,
#: U 3 + 3 = 6.
BRONZE_TIE = {**dict.fromkeys((1, 2, 3), (4, 2, 6)), 4: (6, 3, 3), 5: (6, 3, 3)}
BRONZE_TIE.update(dict.fromkeys((6, 7, 8, 9), (3, 6, 3)))


def bronze_tie_lines():
    return [
        line(board, pair, f"O{pair}", mp, top=8)
        for board, values in BRONZE_TIE.items()
        for pair, mp in zip(("A", "B", "U"), values, strict=True)
    ]


def test_r_pair_tie_1_only_pairs_whose_order_matters_are_separated():
    """R-PAIR-TIE-1 "when their order matters for final places", R-PAIR-KVAL-5: in a bronze
    heat A and B declared for the qualifier, U did not; all three on 50. Counting U, B would
    lead (8 boards won to A's 7 and U's 6); among the declared pairs A beats B 5 to 4. With
    ``qualifying`` the published order is A, B (their own tie-break, the one their seats
    follow), then U, whose order against them matters for no final place."""
    scores = {"P": 60, "A": 50, "B": 50, "U": 50, "OA": 40, "OB": 40, "OU": 40}
    everyone = rank_pairs(list(scores), scores, bronze_tie_lines(), draw=first_in_sorted)
    assert [s.pair for s in everyone][:4] == ["P", "B", "A", "U"]
    declared = {"P", "A", "B"}
    ranked = rank_pairs(
        list(scores), scores, bronze_tie_lines(), draw=first_in_sorted, qualifying=declared
    )
    assert [s.pair for s in ranked][:4] == ["P", "A", "B", "U"]
    assert [s.decided_by for s in ranked][1:4] == ["score", "boards_won", "qualifier"]
    by = {s.pair: s for s in ranked}
    won = [(e["among"], e["value"]) for e in by["A"].explanation if e["criterion"] == "boards_won"]
    assert won == [(["A", "B"], "5")]  # U never counts in the qualifier pairs' boards won
    assert not [e for e in by["U"].explanation if e["criterion"] == "boards_won"]
    note = next(e for e in by["U"].explanation if e["criterion"] == "qualifier")
    assert "Deltar inte i kvalet: står efter A, B" in _text(note, "sv")
    assert "påverkar inga finalplatser" in _text(note, "sv")
    # The three opponents (not declared, all on 40) are separated among themselves as usual,
    # and nobody gets a "qualifier" note where a group is all on one side.
    assert not [e for e in by["P"].explanation if e["criterion"] == "qualifier"]
    assert not [e for e in by["OA"].explanation if e["criterion"] == "qualifier"]


def test_r_pair_tie_1_two_outsiders_tied_with_qualifiers_are_separated_among_themselves():
    """Two pairs outside the qualifier (U and V) level with two qualifier pairs (A, B): A and B
    first, separated among themselves; then U and V, separated among themselves (boards won
    between U and V on board 1: V 5 to U 3)."""
    lines = [
        line(1, "A", "O1", 8, top=8),
        line(1, "B", "O2", 6, top=8),
        line(1, "U", "O3", 3, top=8),
        line(1, "V", "O4", 5, top=8),
    ]
    scores = {"A": 50, "B": 50, "U": 50, "V": 50, "O1": 1, "O2": 2, "O3": 3, "O4": 4}
    ranked = rank_pairs(list(scores), scores, lines, draw=first_in_sorted, qualifying={"A", "B"})
    assert [s.pair for s in ranked][:4] == ["A", "B", "V", "U"]
    assert [s.decided_by for s in ranked][:4] == [None, "boards_won", "qualifier", "boards_won"]
