"""Magic Contest / Ruter habits the importers must read (issue 10, items 1, 5, 7, 8).

The file below is hand-written in the layout Magic Contest exports (no real Ruter PBN with a
ScoreTable was found in a public repository; see tests/fixtures/results/real/README.md).
Expected figures are worked out by hand in the comments, on the MP1 scale (2 per pair
beaten), top 2 with two results on each board:

* board 1: 1-2 (420) and 3-4 (450): 450 beats 420, so 3 NS gets 2, 1 NS 0.
* board 2: 1-3 a real score alone, 2-4 ``"A+" "A+"`` (60 % each = 1.2 of 2). The real result
  alone is 0 of 0, Neuberg to 2 results: (0 + 1) x 2 / 1 - 1 = 1 for each side.
* board 3: 1-4 a real score alone (1 / 1 as above), 2-3 ``"A-" "A+"``: NS 2 gets 40 % = 0.8,
  EW 3 gets 60 % = 1.2.

Pair totals (of 3 x 2 = 6): 1: 0 + 1 + 1 = 2 (33.33 %); 2: 2 + 1.2 + 0.8 = 4 (66.67 %);
3: 2 + 1 + 1.2 = 4.2 (70 %); 4: 0 + 1.2 + 1 = 2.2 (36.67 %).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from results.importers.model import ImportFailed, normalize_mid, split_mids, split_names
from results.importers.pbn import (
    parse_pbn_pairs,
    parse_pbn_teams,
    parse_table,
    read_games,
    side_percentage,
)
from results.importers.validate import compute_pair_totals, validate_pairs

MAGIC = r"""% PBN 2.1
% EXPORT
%Content-type: text/x-pbn; charset=ISO-8859-1
%Creator: Ruter
[Event "Klubbtävling"]
[Date "2025.10.14"]
[Board ""]
[Scoring "MP1"]
[TotalScoreTable "Rank\2R;PairId\2R;TotalScoreMP\5R;TotalPercentage\6R;Names\40L;NrBoards\2R;PlayerId\20L"]
 1  3   4.2  70.00 "Cecilia Ceder;David Dahl"             3 "00312345;00323456"
 2  2   4.0  66.67 "Anna Andersson;Bertil Berg"
                                                           3 "00203787;00214321"
 3  4   2.2  36.67 "Tävlingsledaren;Erik Ek"              3 "0;45678"
 4  1   2.0  33.33 "Gustav Gran;Helena Holm"              3 "56789;67890"

[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[ScoreTable "Table\2R;Round\2R;PairId_NS\2R;PairId_EW\2R;Contract\5L;Declarer\1R;Result\2R;Score_NS\6R;Score_EW\6R;MP_NS\4R;MP_EW\4R"]
 1  1  1  2 4S    N 10 "420"      -  0.0  2.0
 2  1  3  4 4S    N 11 "450"      -  2.0  0.0

[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[ScoreTable "Table\2R;Round\2R;PairId_NS\2R;PairId_EW\2R;Contract\5L;Declarer\1R;Result\2R;Score_NS\6R;Score_EW\6R;MP_NS\4R;MP_EW\4R"]
 1  2  1  3 3NT   S  8      -  "100"  1.0  1.0
 2  2  2  4 -     -  -   "A+"   "A+"  1.2  1.2

[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[ScoreTable "Table\2R;Round\2R;PairId_NS\2R;PairId_EW\2R;Contract\5L;Declarer\1R;Result\2R;Score_NS\6R;Score_EW\6R;MP_NS\4R;MP_EW\4R"]
 1  3  1  4 2S    E  7  "100"      -  1.0  1.0
 2  3  2  3 A-    -  -   "A-"   "A+"  0.8  1.2
"""


def _line(event, board: int, ns: str):
    b = next(b for b in event.boards if b.number == board)
    return next(t for t in b.lines if t.ns == ns)


def test_per_side_codes_give_each_side_its_own_percentage():
    event = parse_pbn_pairs(MAGIC)
    both_plus = _line(event, 2, "2")
    assert both_plus.adjusted == "A6060"
    assert both_plus.artificial_percentages == (60, 60)
    minus_plus = _line(event, 3, "2")
    # NS (pair 2) wrote A-, EW (pair 3) A+: 40 for NS, 60 for EW, not the other way round.
    assert minus_plus.artificial_percentages == (40, 60)
    assert minus_plus.score_ns is None


def test_magic_file_validates_and_recomputes_to_the_files_percentages():
    event = parse_pbn_pairs(MAGIC)
    errors = [p for p in validate_pairs(event) if p.is_error]
    assert errors == []
    assert compute_pair_totals(event) == {
        "1": Decimal("33.33"),
        "2": Decimal("66.67"),
        "3": Decimal("70.00"),
        "4": Decimal("36.67"),
    }


def test_semicolon_separates_names_and_no_mid_is_dropped():
    event = parse_pbn_pairs(MAGIC)
    pair3 = event.pair("3")
    assert [p.name for p in pair3.players] == ["Cecilia Ceder", "David Dahl"]
    assert [p.mid for p in pair3.players] == ["312345", "323456"]  # leading zeros dropped
    assert split_names("Åsa Öberg;Märta Ängström") == split_names("Åsa Öberg - Märta Ängström")


def test_row_continued_on_the_next_line_is_one_row():
    event = parse_pbn_pairs(MAGIC)
    pair2 = event.pair("2")
    assert pair2.boards_played == 3
    assert [p.mid for p in pair2.players] == ["203787", "214321"]
    games, _ = read_games(MAGIC)
    _, rows, problems = parse_table(games[0].tags["totalscoretable"])
    assert len(rows) == 4 and problems == []


def test_a_row_that_runs_over_the_columns_is_one_error():
    text = MAGIC.replace('3 "00312345;00323456"', '3 "00312345;00323456" 99')
    games, _ = read_games(text)
    _, rows, problems = parse_table(games[0].tags["totalscoretable"])
    assert [p.code for p in problems] == ["pbn-row-width"]
    assert len(rows) == 3


def test_mid_zero_is_skipped_with_a_note():
    event = parse_pbn_pairs(MAGIC)
    pair4 = event.pair("4")
    # The zero keeps its place: 45678 belongs to the second name, not the first.
    assert [(p.name, p.mid) for p in pair4.players] == [
        ("Tävlingsledaren", None),
        ("Erik Ek", "45678"),
    ]
    assert [w for w in event.warnings if "par 4" in w] == [
        "rad 13: par 4 har medlemsnummer 0 (inget medlemsnummer, t.ex. tävlingsledaren); den "
        "spelaren matchas utan MID."
    ]


def test_extra_mids_are_kept_not_dropped():
    text = MAGIC.replace('"56789;67890"', '"56789;67890;78901"')
    pair1 = parse_pbn_pairs(text).pair("1")
    assert [p.mid for p in pair1.players] == ["56789", "67890", "78901"]


def test_mid_helpers():
    assert normalize_mid("00203787") == "203787"
    assert normalize_mid("0") is None and normalize_mid("000") is None
    assert normalize_mid("12a") is None
    assert split_mids("00203787 - 0 - 12345") == ["203787", "12345"]


def test_side_codes():
    assert [side_percentage(x) for x in ("A+", "ave+", "AV+", "MEDEL+")] == [60] * 4
    assert [side_percentage(x) for x in ("A=", "AVE", "MEDEL")] == [50] * 3
    assert [side_percentage(x) for x in ("A-", "AVE-", "AV-", "MEDEL-")] == [40] * 4
    assert side_percentage("420") is None and side_percentage("A6040") is None


def td_corrected(update_totals: bool = True) -> str:
    """MAGIC with board 1 changed by the director to 1-1 on both tables (each side still sums
    to the top 2). With the totals updated by hand: 1: 1 + 1 + 1 = 3 (50 %), 2: 1 + 1.2 + 0.8
    = 3 (50 %), 3: 1 + 1 + 1.2 = 3.2 (53.33 %), 4: 1 + 1.2 + 1 = 3.2 (53.33 %)."""
    text = MAGIC.replace(
        ' 1  1  1  2 4S    N 10 "420"      -  0.0  2.0',
        ' 1  1  1  2 4S    N 10 "420"      -  1.0  1.0',
    ).replace(
        ' 2  1  3  4 4S    N 11 "450"      -  2.0  0.0',
        ' 2  1  3  4 4S    N 11 "450"      -  1.0  1.0',
    )
    if update_totals:
        text = (
            text.replace(" 1  3   4.2  70.00", " 1  3   3.2  53.33")
            .replace(" 2  2   4.0  66.67", " 3  2   3.0  50.00")
            .replace(" 3  4   2.2  36.67", " 1  4   3.2  53.33")
            .replace(" 4  1   2.0  33.33", " 3  1   3.0  50.00")
        )
    return text


def test_td_correction_is_accepted_with_a_warning_naming_the_board():
    event = parse_pbn_pairs(td_corrected())
    problems = validate_pairs(event)
    assert [p for p in problems if p.is_error] == []
    (td,) = [p for p in problems if p.code == "td-correction"]
    assert not td.is_error
    assert td.message_sv.startswith("Brickor med ändrade matchpoäng: 1.")
    assert "TK ska bekräfta" in td.message_sv
    # The stored percentages are the director's, not the recomputation's.
    assert compute_pair_totals(event) == {
        "1": Decimal("50.00"),
        "2": Decimal("50.00"),
        "3": Decimal("53.33"),
        "4": Decimal("53.33"),
    }


def test_changed_matchpoints_without_matching_totals_stay_errors():
    problems = validate_pairs(parse_pbn_pairs(td_corrected(update_totals=False)))
    assert "mp-recomputed" in {p.code for p in problems if p.is_error}
    assert "td-correction" not in {p.code for p in problems}


def test_changed_matchpoints_that_do_not_sum_to_the_top_stay_errors():
    text = td_corrected().replace(
        ' 2  1  3  4 4S    N 11 "450"      -  1.0  1.0',
        ' 2  1  3  4 4S    N 11 "450"      -  1.0  0.0',
    )
    problems = validate_pairs(parse_pbn_pairs(text))
    assert "td-correction" not in {p.code for p in problems}
    assert any(p.is_error for p in problems)


TEAM_FIRST_GAME_ONLY = """[Event "Lag"]
[Board "1"]
[HomeTeam "A"]
[VisitTeam "B"]
[Round "1"]
[Room "Open"]
[Score "NS 420"]

[Board "1"]
[Room "Closed"]
[Score "NS -50"]

[Board "2"]
[Room "Open"]
[Score "NS 100"]

[Board "2"]
[Room "Closed"]
[Score "NS 100"]

[Board "1"]
[HomeTeam "C"]
[VisitTeam "D"]
[Round "1"]
[Room "Open"]
[Score "NS 110"]

[Board "1"]
[Room "Closed"]
[Score "NS 140"]
"""


def test_team_tags_only_on_the_first_game_of_a_match_are_carried_forward():
    event = parse_pbn_teams(TEAM_FIRST_GAME_ONLY)
    ab, cd = event.matches
    assert (ab.round, ab.home, ab.away, [b.number for b in ab.boards]) == (1, "A", "B", [1, 2])
    # Board 1: 420 in room 1, -50 in room 2 → 470 for A = 10 IMPs; board 2: 100 and 100 → 0.
    assert (ab.imps_home, ab.imps_away) == (Decimal(10), Decimal(0))
    # C-D board 1: 110 and 140 → -30 for C = 1 IMP to D.
    assert (cd.home, cd.away, cd.imps_home, cd.imps_away) == ("C", "D", Decimal(0), Decimal(1))
    assert event.warnings == [
        "HomeTeam/VisitTeam saknas på 4 givar (första på rad 9); de räknas till samma match "
        "som närmast föregående giv med lagen."
    ]


# Session 2 of two, as Magic Contest writes it: Total* and NrBoards add session 1 (3 boards,
# made-up figures) to this session; Session* are this file's three boards (the figures of
# MAGIC above). Pair 3, for example: session 1 3.0 MP + this session's 4.2 = 7.2 MP over 6
# boards of top 2 = 60.00 %.
TWO_SESSIONS = (
    MAGIC.replace(
        r'[TotalScoreTable "Rank\2R;PairId\2R;TotalScoreMP\5R;TotalPercentage\6R;Names\40L;NrBoards\2R;PlayerId\20L"]',
        r'[TotalScoreTable "Rank\2R;PairId\2R;TotalScoreMP\5R;TotalPercentage\6R;Names\40L;NrBoards\2R;PlayerId\20L;SessionScoreMP\5R;SessionPercentage\6R;SessionRank\2R;NrBoardsSession\2R"]',
    )
    .replace(
        ' 1  3   4.2  70.00 "Cecilia Ceder;David Dahl"             3 "00312345;00323456"',
        ' 1  3   7.2  60.00 "Cecilia Ceder;David Dahl"             6 "00312345;00323456" 4.2 70.00 1 3',
    )
    .replace(
        '                                                           3 "00203787;00214321"',
        '                                                           6 "00203787;00214321" 4.0 66.67 2 3',
    )
    .replace(
        ' 3  4   2.2  36.67 "Tävlingsledaren;Erik Ek"              3 "0;45678"',
        ' 3  4   5.2  43.33 "Tävlingsledaren;Erik Ek"              6 "0;45678" 2.2 36.67 3 3',
    )
    .replace(
        ' 4  1   2.0  33.33 "Gustav Gran;Helena Holm"              3 "56789;67890"',
        ' 4  1   4.4  36.67 "Gustav Gran;Helena Holm"              6 "56789;67890" 2.0 33.33 4 3',
    )
    .replace(" 2  2   4.0  66.67", " 2  2   7.2  60.00")
)


def test_second_session_file_uses_the_session_columns():
    assert "SessionScoreMP" in TWO_SESSIONS and TWO_SESSIONS.count(" 3 3\n") == 1
    event = parse_pbn_pairs(TWO_SESSIONS)
    pair3 = event.pair("3")
    assert (pair3.total, pair3.percentage, pair3.rank, pair3.boards_played) == (
        Decimal("4.2"), Decimal("70.00"), 1, 3,
    )  # fmt: skip
    assert [p for p in validate_pairs(event) if p.is_error] == []
    assert any("sessionens" in w for w in event.warnings)


def test_cumulative_ranking_list_without_session_columns_is_refused_with_one_message():
    cumulative = (
        MAGIC.replace(' 3 "00312345', ' 6 "00312345')
        .replace(' 3 "00203787', ' 6 "00203787')
        .replace(' 3 "0;45678"', ' 6 "0;45678"')
        .replace(' 3 "56789', ' 6 "56789')
    )
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_pairs(cumulative)
    (p,) = exc.value.problems
    assert p.code == "pbn-multi-session"
    assert "NrBoards upp till 6" in p.message_sv and "(3)" in p.message_sv
