"""Validation of parsed results and the figures computed for the DB layer."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from results.importers.model import (
    ParsedBoard,
    ParsedMatch,
    ParsedPair,
    ParsedPairEvent,
    ParsedTeam,
    ParsedTeamBoard,
    ParsedTeamEvent,
    TravellerLine,
)
from results.importers.pbn import parse_pbn_pairs, parse_pbn_teams
from results.importers.usebio import parse_usebio_pairs, parse_usebio_teams
from results.importers.validate import (
    compute_pair_scores,
    compute_pair_totals,
    team_match_summary,
    validate_pairs,
    validate_teams,
)

from ._fixtures import codes, errors, fixture

D = Decimal


def tl(ns, ew, score, mp_ns=None, mp_ew=None, adjusted=None, **kw) -> TravellerLine:
    return TravellerLine(
        ns=ns,
        ew=ew,
        contract=kw.get("contract"),
        declarer=kw.get("declarer"),
        tricks=kw.get("tricks"),
        score_ns=score,
        mp_ns=None if mp_ns is None else D(str(mp_ns)),
        mp_ew=None if mp_ew is None else D(str(mp_ew)),
        adjusted=adjusted,
    )


def small_event(pct=None, board3=None, scale="MP1") -> ParsedPairEvent:
    """Three boards, N = 3; E and F did not play board 3 (Neuberg + factoring).

    Worked by hand (MP1, top 4 on a full board):
      board 1: A-B 420 → 4/0, C-D 400 → 2/2, E-F -50 → 0/4
      board 2: A-C 100 → 1/3, B-E 100 → 1/3, D-F 200 → 4/0
      board 3 (2 results, top 2): A-D 110 → 0/2, B-C 140 → 2/0; Neuberg to 3 results:
              (0+1)·3/2 − 1 = 0.5 and (2+1)·3/2 − 1 = 3.5
      A: 4 + 1 + 0.5 = 5.5 over 3 boards → 5.5 / 12 = 45.83 %
      E: 0 + 3 = 3 over 2 boards → 3 / 8 = 37.50 %, factored total 3 · 3/2 = 4.5
      F: 4 + 0 = 4 over 2 boards → 50.00 %, factored total 6
    """
    k = Decimal(1) if scale == "MP1" else Decimal("0.5")
    boards = [
        ParsedBoard(1, [tl("A", "B", 420, 4 * k, 0), tl("C", "D", 400, 2 * k, 2 * k),
                        tl("E", "F", -50, 0, 4 * k)]),
        ParsedBoard(2, [tl("A", "C", 100, 1 * k, 3 * k), tl("B", "E", 100, 1 * k, 3 * k),
                        tl("D", "F", 200, 4 * k, 0)]),
        ParsedBoard(3, board3 or [tl("A", "D", 110, 0, 2 * k), tl("B", "C", 140, 2 * k, 0)]),
    ]  # fmt: skip
    pct = pct or {}
    pairs = [ParsedPair(number=x, percentage=pct.get(x)) for x in "ABCDEF"]
    return ParsedPairEvent("t", None, 3, pairs, boards, scoring_scale=scale)


def test_neuberg_and_factoring_by_hand():
    scores = compute_pair_scores(small_event())
    assert scores["A"].percentage == Fraction(55, 120) * 100
    assert scores["A"].boards_played == 3
    assert scores["E"].percentage == Fraction(75, 2)
    assert scores["E"].boards_played == 2 and scores["E"].total == Fraction(9, 2)
    assert scores["E"].raw_total == 3
    assert scores["F"].percentage == 50 and scores["F"].total == 6
    # Board 3 after Neuberg: D (EW v A) 3.5, C (EW v B) 0.5.
    assert scores["D"].raw_total == 2 + 4 + Fraction(7, 2)
    totals = compute_pair_totals(small_event())
    assert totals["A"] == D("45.83") and totals["E"] == D("37.50") and totals["F"] == D("50.00")


def test_percentages_within_tolerance_pass_and_mismatch_is_an_error():
    good = small_event(pct={"A": D("45.83"), "E": D("37.50"), "F": D("50.00")})
    assert validate_pairs(good) == []
    # One decimal (as Ruter's HTML shows): half a unit of the last decimal is allowed.
    assert validate_pairs(small_event(pct={"A": D("45.8")})) == []
    bad = validate_pairs(small_event(pct={"A": D("45.90")}))
    (p,) = bad
    assert p.is_error and p.code == "percentage" and "45,90" in p.message_sv
    assert "45,83" in p.message_sv


def test_percentage_mismatch_with_adjusted_scores_is_a_warning_only_for_own_lines_and_small():
    # A's own line on board 3 is A6040: A recomputes to 4 + 1 + 2.4 = 7.4 / 12 = 61.67 %
    # (test_artificial_line_scaling). One adjusted line of three boards allows 10 / 3 = 3.33
    # percentage points.
    board3 = [tl("A", "D", None, D("1.2"), D("0.8"), adjusted="A6040"), tl("B", "C", 140, 1, 1)]
    event = small_event(pct={"A": D("60.00"), "E": D("30.00")}, board3=board3)
    problems = validate_pairs(event)
    a = next(p for p in problems if p.element == "par A")
    assert not a.is_error and a.code == "percentage-adjusted"
    assert "1 justerat resultat" in a.message_sv and "3,33" in a.message_sv
    # E did not play the adjusted board: its mismatch stays an error.
    e = next(p for p in problems if p.element == "par E")
    assert e.is_error and e.code == "percentage"
    # A 13.67-point difference is far beyond the bound: an error even with the adjusted line.
    far = validate_pairs(small_event(pct={"A": D("48.00")}, board3=board3))
    assert next(p for p in far if p.element == "par A").code == "percentage"
    # B sat at the same board but its own line is real: B recomputes to 0 + 1 + 2 = 3 / 12
    # = 25 % (board 3: its 140 alone is 0 of 0, Neuberg to 2 results 1, to 3 results 2), and
    # a 2-point difference is an error, not excused by A's adjustment.
    other = validate_pairs(small_event(pct={"B": D("27.00")}, board3=board3))
    b = next(p for p in other if p.element == "par B")
    assert b.is_error and b.code == "percentage" and "25,00" in b.message_sv


def test_artificial_line_scaling():
    # One real result and an A6040 on a 2-result board: the real result scales to top 2.
    board3 = [tl("A", "D", None, D("1.2"), D("0.8"), adjusted="A6040"), tl("B", "C", 140, 1, 1)]
    scores = compute_pair_scores(small_event(board3=board3))
    # A: 4 + 1 + 60 % of the normal top 4 (2.4) = 7.4 over 3 boards of top 4
    assert scores["A"].percentage == Fraction(74, 120) * 100
    assert not errors(validate_pairs(small_event(board3=board3)))


def test_mp_sum_and_recomputed_mp_errors_name_board_and_pairs():
    board3 = [tl("A", "D", 110, 1, 2), tl("B", "C", 140, 2, 0)]
    (p,) = validate_pairs(small_event(board3=board3))
    assert p.code == "mp-sum" and p.element == "bricka 3"
    assert "par A (NS) mot D (ÖV)" in p.message_sv and "toppen är 2" in p.message_sv
    board3 = [tl("A", "D", 110, 2, 0), tl("B", "C", 140, 0, 2)]  # sums right, order wrong
    problems = validate_pairs(small_event(board3=board3))
    assert codes(problems) == ["mp-recomputed", "mp-recomputed"]
    assert "poängen 110 ger 0,00 MP" in problems[0].message_sv


def test_mp2_scale():
    assert validate_pairs(small_event(scale="MP2")) == []
    # MP1 figures in a file labelled MP2 do not add up to n − 1.
    mislabelled = replace(small_event(), scoring_scale="MP2")
    assert "mp-sum" in codes(validate_pairs(mislabelled))
    assert compute_pair_scores(small_event(scale="MP2"))["E"].total == Fraction(9, 4)


def test_identity_checks():
    board3 = [tl("A", "X", 110, 0, 2), tl("B", "B", 140, 2, 0)]
    problems = validate_pairs(small_event(board3=board3))
    assert "unknown-pair" in codes(problems)
    assert "pair-twice-on-line" in codes(problems)
    unknown = next(p for p in problems if p.code == "unknown-pair")
    assert "par X finns inte i resultatlistan" in unknown.message_sv
    board3 = [tl("A", "D", 110, 0, 2), tl("A", "C", 140, 2, 0)]
    twice = [
        p for p in validate_pairs(small_event(board3=board3)) if p.code == "board-played-twice"
    ]
    assert len(twice) == 1 and "Par A har spelat bricka 3 två gånger" in twice[0].message_sv


def test_score_contract_mismatch_is_a_warning():
    board1 = ParsedBoard(
        1,
        [
            tl("A", "B", 420, 2, 0, contract="4S", declarer="N", tricks=10),
            tl("C", "D", 450, 0, 2, contract="4S", declarer="S", tricks=10),
        ],
    )
    event = ParsedPairEvent("t", None, 1, [ParsedPair(x) for x in "ABCD"], [board1])
    (p,) = [p for p in validate_pairs(event) if p.code == "score-contract"]
    assert not p.is_error and "ger 420" in p.message_sv and "450" in p.message_sv


def test_rank_order():
    pairs = [
        ParsedPair("A", percentage=D("45.83"), rank=2),
        ParsedPair("E", percentage=D("37.50"), rank=1),
        ParsedPair("F", percentage=D("50.00"), rank=1),
    ]
    event = replace(small_event(), pairs=pairs + [ParsedPair(x) for x in "BCD"])
    problems = [p for p in validate_pairs(event) if p.code == "rank-order"]
    assert len(problems) == 1 and problems[0].element == "par A"
    assert "par E är 1:a" in problems[0].message_sv


def test_fixtures_validate_clean_and_reproduce_the_files_percentages():
    howell = parse_usebio_pairs(fixture("pairs_howell_usebio.xml"))
    assert validate_pairs(howell) == []
    totals = compute_pair_totals(howell)
    assert totals == {p.number: p.percentage for p in howell.pairs}
    mitchell = parse_pbn_pairs(fixture("pairs_ruter_mitchell.pbn").decode("latin-1"))
    assert validate_pairs(mitchell) == []
    assert compute_pair_totals(mitchell) == {p.number: p.percentage for p in mitchell.pairs}


def test_changed_matchpoint_in_fixture_is_found():
    text = fixture("pairs_ruter_mitchell.pbn").decode("latin-1")
    lines = text.split("\n")
    # Board 1, table 1 reads "... 9.0  3.0  75  25": swap 1 MP from NS to EW.
    i = next(k for k, x in enumerate(lines) if x.startswith(" 1  1  1  1 5C"))
    lines[i] = lines[i].replace(" 9.0  3.0", " 8.0  4.0")
    problems = validate_pairs(parse_pbn_pairs("\n".join(lines)))
    assert "mp-recomputed" in codes(problems)
    p = next(p for p in problems if p.code == "mp-recomputed")
    assert p.line == i + 1 and p.element == "bricka 1"


# --------------------------------------------------------------------------- teams


def team_event(matches, boards_per_match=16) -> ParsedTeamEvent:
    teams = [ParsedTeam(str(k), f"Lag {k}") for k in range(1, 5)]
    return ParsedTeamEvent("t", None, boards_per_match, teams, matches)


def board(number, s1, s2, imp=None) -> ParsedTeamBoard:
    return ParsedTeamBoard(number, s1, s2, None if imp is None else D(imp))


def test_vp_check_r_team_vp_1():
    # R-TEAM-VP-1 / R-VP-2: SPEC's known value: 16 boards, margin 1 → 10.31-9.69.
    ok = ParsedMatch(1, "1", "2", D(11), D(10), D("10.31"), D("9.69"), board_count=16)
    assert validate_teams(team_event([ok])) == []
    wrong = replace(ok, vp_home=D("10.36"), vp_away=D("9.64"))
    (p,) = validate_teams(team_event([wrong]))
    assert p.code == "vp" and p.clause == "R-TEAM-VP-1"
    assert "10,31-9,69" in p.message_sv and "10,36-9,64" in p.message_sv


def test_board_imps_recomputed_from_both_rooms():
    good = ParsedMatch(1, "1", "2", D(10), D(0), boards=[board(1, 420, -50, 10)])
    assert validate_teams(team_event([good])) == []
    bad = ParsedMatch(1, "1", "2", D(9), D(0), boards=[board(1, 420, -50, 9)])
    (p,) = validate_teams(team_event([bad]))
    assert p.code == "board-imps" and "bricka 1" in p.message_sv and "ger 10 IMP" in p.message_sv


def test_match_imps_must_equal_the_sum_of_board_imps():
    boards = [board(1, 420, -50), board(2, -100, 100)]  # +10, -5
    ok = ParsedMatch(1, "1", "2", D(10), D(5), boards=boards)
    assert validate_teams(team_event([ok])) == []
    wrong_net = ParsedMatch(1, "1", "2", D(12), D(5), boards=boards)
    (p,) = validate_teams(team_event([wrong_net]))
    assert p.is_error and p.code == "match-imps" and "10-5" in p.message_sv
    same_net = ParsedMatch(1, "1", "2", D(5), D(0), boards=boards)
    (p,) = validate_teams(team_event([same_net]))
    assert not p.is_error and p.code == "match-imps"


def test_duplicate_match_and_team_twice_in_a_round():
    m = ParsedMatch(2, "1", "3", D(10), D(0), board_count=16)
    dup = ParsedMatch(2, "3", "1", D(0), D(10), board_count=16)
    problems = validate_teams(team_event([m, dup]))
    assert codes(problems) == ["duplicate-match"]
    twice = ParsedMatch(2, "1", "4", D(3), D(0), board_count=16)
    problems = validate_teams(team_event([m, twice]))
    assert codes(problems) == ["team-twice-in-round"]
    assert "Lag 1 spelar två matcher i rond 2" in problems[0].message_sv


def test_board_count_r_team_kval_5():
    # R-TEAM-KVAL-5: every match of a heat has the same number of boards (8-24).
    a = ParsedMatch(1, "1", "2", D(10), D(0), board_count=24)
    b = ParsedMatch(1, "3", "4", D(10), D(0), board_count=22)
    (p,) = validate_teams(team_event([a, b]), expected_boards=24)
    assert p.code == "board-count" and p.clause == "R-TEAM-KVAL-5"
    assert "rond 1: 3-4 har 22 brickor" in p.message_sv and "24" in p.message_sv
    # Without an expected number, the odd match out is still named.
    c = ParsedMatch(2, "1", "3", D(10), D(0), board_count=24)
    (p,) = validate_teams(team_event([a, b, c]))
    assert p.code == "board-count" and "rond 1: 3-4" in p.message_sv
    unknown = ParsedMatch(1, "1", "2", D(10), D(0))
    (p,) = validate_teams(team_event([unknown], None), expected_boards=24)
    assert not p.is_error and p.code == "board-count-unknown"


def test_fixture_files_validate_clean():
    assert validate_teams(parse_usebio_teams(fixture("teams_usebio.xml")), expected_boards=24) == []
    teams_pbn = parse_pbn_teams(fixture("teams_ruter.pbn").decode("latin-1"))
    assert validate_teams(teams_pbn, expected_boards=16) == []


def test_team_match_summary_shape_for_rank_teams():
    m = ParsedMatch(1, "1", "2", D(11), D(10), boards=[board(1, 420, -50), board(2, 0, 90)])
    (s,) = team_match_summary(team_event([m]), boards_per_match=16)
    assert (s["home"], s["away"], s["imps_home"], s["imps_away"]) == ("1", "2", 11, 10)
    assert (s["vp_home"], s["vp_away"]) == (D("10.31"), D("9.69"))  # 16 boards, margin 1
    # Without the heat's number of boards, the match's own (2 boards here) is used.
    (own,) = team_match_summary(team_event([m]))
    assert own["vp_home"] > D("10.31") and own["vp_home"] + own["vp_away"] == 20
    assert s["vp_from_file"] is False and s["board_count"] == 2
    b1, b2 = s["boards"]
    assert (b1["imps_home"], b1["imps_away"], b1["points_home"], b1["points_away"]) == (
        10, 0, None, None,
    )  # fmt: skip
    assert (b2["imps_home"], b2["imps_away"]) == (0, 3)
    with_points = replace(
        m, boards=[ParsedTeamBoard(1, 420, -50, None, 470, 0)], vp_home=D(12), vp_away=D(8)
    )
    (s,) = team_match_summary(team_event([with_points]))
    assert s["boards"][0]["points_home"] == 470 and s["vp_from_file"] is True
    assert s["vp_home"] == D(12)


def test_one_decimal_matchpoints_from_neuberg_are_within_tolerance():
    # Three real results and an artificial one: the real ones are matchpointed among
    # themselves (0, 2, 4 of top 4) and scaled to the board's 4 results: (mp + 1)·4/3 − 1
    # = 0.333…, 3, 5.666… of top 6; Magic Contest style writes one decimal.
    lines = [
        tl("A", "B", -50, "0.3", "5.7"),
        tl("C", "D", 100, "3.0", "3.0"),
        tl("E", "F", 420, "5.7", "0.3"),
        tl("G", "H", None, "3.6", "2.4", adjusted="A6040"),
    ]
    event = ParsedPairEvent(
        "t", None, 1, [ParsedPair(x) for x in "ABCDEFGH"], [ParsedBoard(1, lines)]
    )
    assert validate_pairs(event) == []
    wrong = [replace(lines[0], mp_ns=D("0.5"), mp_ew=D("5.5")), *lines[1:]]
    event = replace(event, boards=[ParsedBoard(1, wrong)])
    assert codes(validate_pairs(event)) == ["mp-recomputed"]
