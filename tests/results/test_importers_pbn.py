"""PBN 2.1 (Ruter / Magic Contest) parsing: tags, inheritance, tables, pairs and teams."""

from __future__ import annotations

from decimal import Decimal

import pytest

from results.importers.model import ImportFailed, normalize_contract
from results.importers.pbn import (
    column_name,
    parse_artificial,
    parse_pbn_pairs,
    parse_pbn_teams,
    parse_score_tag,
    read_games,
    tokenize_row,
)
from results.importers.validate import validate_pairs, validate_teams
from ubf.rules.scoring import board_vulnerability, contract_score, imps

from ._fixtures import fixture

# A pairs PBN as Ruter/Magic Contest emits it (the reference example of the PBN 2.1 format,
# values consistent with the USEBIO example of the same event).
REFERENCE_EXAMPLE = r"""% PBN 2.1
% EXPORT
[Event "DM-par kval, heat 3"]
[Site "BK Exempel"]
[Date "2025.10.14"]
[Board ""]
[Scoring "MatchPoints;MP1"]
[Competition "Pairs"]
[TotalScoreTable "Rank\2R;PairId\2R;TotalScoreMP\5R;TotalPercentage\6R;Names\40L;NrBoards\2R"]
 1  1     4 100.00 "Anna Andersson - Bertil Berg"          1
 1  6     4 100.00 "Cecilia Ceder - David Dahl"            1
 3  3     2  50.00 "Erik Ek - Frida Fors"                  1
 3  4     2  50.00 "Gustav Gran - Helena Holm"             1
 5  2     0   0.00 "Ingrid Isaksson - Johan Jansson"       1
 5  5     0   0.00 "Karin Karlsson - Lars Lund"            1

[Event "#"]
[Site "#"]
[Date "#"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"]
[Scoring "MatchPoints;MP1"]
[ScoreTable "Table\2R;Round\2R;PairId_NS\2R;PairId_EW\2R;Contract\4L;Declarer\1R;Result\2R;Lead\3L;Score_NS\6R;Score_EW\6R;MP_NS\4R;MP_EW\4R;Percentage_NS\3R;Percentage_EW\3R"]
 1  1  1  2 4S   E  9 D3    "50"      -  4.0  0.0 100   0
 2  1  3  4 4S   W 10 DA       -  "420"  2.0  2.0  50  50
 3  1  5  6 5HX  S  8 SK       -  "500"  0.0  4.0   0 100
"""


def test_tokenize_keeps_quoted_names_with_spaces_and_swedish_letters():
    cells = tokenize_row(' 4  1 "Åsa Öberg - Märta Ängström"  ^"A6040" - ? "say \\"hi\\""')
    assert [c.text for c in cells] == [
        "4",
        "1",
        "Åsa Öberg - Märta Ängström",
        "A6040",
        "-",
        "?",
        'say "hi"',
    ]
    assert cells[2].quoted and not cells[2].empty
    assert cells[3].artificial
    assert cells[4].empty and cells[5].empty
    with pytest.raises(ValueError):
        tokenize_row('1 "never closed')


def test_column_name_strips_width_alignment_and_sort_marks():
    assert column_name("Rank\\2R") == "Rank"
    assert column_name("+TotalScoreMP\\5R") == "TotalScoreMP"
    assert column_name("-Names\\40L") == "Names"
    assert column_name("PairId_NS") == "PairId_NS"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2N", "2NT"), ("4 H", "4H"), ("3ntx", "3NTX"), ("Pass", "Pass"), ("PASS", "Pass"),
     ("6SXX", "6SXX"), ("1SA", "1NT"), ("4HD", "4HX"), ("2D", "2D"), ("-", None)],
)  # fmt: skip
def test_contract_notations_are_normalised(text, expected):
    assert normalize_contract(text) == expected


def test_bad_contract_is_refused():
    for text in ("8S", "4Z", "hello", "0NT"):
        with pytest.raises(ValueError):
            normalize_contract(text)


@pytest.mark.parametrize(
    ("value", "declarer", "ns"),
    [("NS 420", None, 420), ("EW -50", None, 50), ("NS 420 EW -420", None, 420),
     ("EW 620 NS -620", None, -620), ("420", "N", 420), ("420", "W", -420), ("0", None, 0)],
)  # fmt: skip
def test_score_tag_formats(value, declarer, ns):
    assert parse_score_tag(value, declarer) == ns


def test_artificial_notations():
    assert parse_artificial("A6040") == "A6040"
    assert parse_artificial("A60") == "A6040"
    assert parse_artificial("60%-40%") == "A6040"
    assert parse_artificial("A5050") == "A5050"
    assert parse_artificial("-420") is None
    assert parse_artificial("4S") is None


def test_inheritance_hash_and_double_hash_and_comments():
    text = """% PBN 2.1
; a comment line
{ a commentary
  over two lines }
[Event "Heat 1"]
[Site "##Enköping"]
[Board "1"]

[Event "#"]
[Board "2"]

[Event "Annat"]
[Board "3"]
"""
    games, problems = read_games(text)
    assert problems == []
    assert [g.get("event") for g in games] == ["Heat 1", "Heat 1", "Annat"]
    assert [g.get("site") for g in games] == ["Enköping", "Enköping", "Enköping"]
    assert [g.get("board") for g in games] == ["1", "2", "3"]


def test_not_pbn_at_all_names_the_line():
    with pytest.raises(ImportFailed) as exc:
        read_games("\n\nround;home;away\n1;2;3\n")
    assert exc.value.problems[0].line == 3
    assert "inte ut som PBN" in exc.value.problems[0].message_sv


def test_reference_example_parses_and_validates():
    event = parse_pbn_pairs(REFERENCE_EXAMPLE)
    assert event.title == "DM-par kval, heat 3"
    assert event.date.isoformat() == "2025-10-14"
    assert event.scoring_scale == "MP1"
    assert [p.number for p in event.pairs] == ["1", "6", "3", "4", "2", "5"]
    first = event.pairs[0]
    assert [pl.name for pl in first.players] == ["Anna Andersson", "Bertil Berg"]
    assert first.total == Decimal(4) and first.percentage == Decimal("100.00") and first.rank == 1
    (board,) = event.boards
    scores = [t.score_ns for t in board.lines]
    assert scores == [50, -420, -500]  # Score_EW becomes a negative NS score
    assert [t.contract for t in board.lines] == ["4S", "4S", "5HX"]
    assert [t.tricks for t in board.lines] == [9, 10, 8]
    assert validate_pairs(event) == []


def test_ruter_mitchell_fixture():
    event = parse_pbn_pairs(fixture("pairs_ruter_mitchell.pbn").decode("latin-1"))
    assert event.source_format == "pbn"
    assert event.title == "DM-par kval Mixed, heat 2 (Enköping)"
    assert event.boards_in_session == 28
    # Mitchell: PairId 1-7 in both directions (Direction column) → 1NS..7NS, 1EW..7EW.
    assert sorted(p.number for p in event.pairs) == sorted(
        [f"{k}NS" for k in range(1, 8)] + [f"{k}EW" for k in range(1, 8)]
    )
    assert all(len(b.lines) == 7 for b in event.boards)
    pair = event.pair("1NS")
    assert [pl.name for pl in pair.players] == ["Åsa Öberg", "Märta Ängström"]
    assert all(pl.mid and pl.mid.isdigit() for pl in pair.players)  # from the PlayerId column
    assert pair.boards_played == 28
    contracts = {t.contract for b in event.boards for t in b.lines}
    assert "Pass" in contracts
    assert any(c.endswith("NT") or "NTX" in c for c in contracts if c)
    assert not any(c.endswith("N") for c in contracts if c)
    for b in event.boards:
        for t in b.lines:
            if t.contract == "Pass":
                assert t.score_ns == 0 and t.declarer is None and t.tricks is None
    # Scores on either side: some NS scores negative (came from Score_EW).
    assert any(t.score_ns < 0 for b in event.boards for t in b.lines)
    line = event.boards[0].lines[0]
    assert (line.table, line.round, line.ns, line.ew) == (1, 1, "1NS", "1EW")


def test_declared_qualifier_column_r_pair_kval_5():
    # R-PAIR-KVAL-5: a bronze heat's qualifier declaration is shown on the result list.
    text = REFERENCE_EXAMPLE.replace("NrBoards\\2R", "NrBoards\\2R;Kval\\3L")
    lines = text.split("\n")
    start = next(i for i, x in enumerate(lines) if x.startswith("[TotalScoreTable"))
    marks = ["Ja", "Nej", "Ja", "-", "Ja", "Nej"]
    for k, mark in enumerate(marks):
        lines[start + 1 + k] += f" {mark}"
    event = parse_pbn_pairs("\n".join(lines))
    assert [p.declared_qualifier for p in event.pairs] == [True, False, True, None, True, False]


def test_names_cell_with_mids_and_totalmp_alias():
    text = REFERENCE_EXAMPLE.replace("TotalScoreMP", "TotalMP").replace(
        '"Anna Andersson - Bertil Berg"', '"Anna Andersson (12345) - Bertil Berg (23456)"'
    )
    event = parse_pbn_pairs(text)
    assert event.pairs[0].total == Decimal(4)
    assert [(p.name, p.mid) for p in event.pairs[0].players] == [
        ("Anna Andersson", "12345"),
        ("Bertil Berg", "23456"),
    ]
    assert event.pairs[1].players[0].mid is None


def test_artificial_score_cell_and_totals_first_or_last():
    text = REFERENCE_EXAMPLE.replace(
        ' 3  1  5  6 5HX  S  8 SK       -  "500"  0.0  4.0   0 100',
        ' 3  1  5  6 -    -  - -   ^"A6040"      -  2.4  1.6  60  40',
    )
    event = parse_pbn_pairs(text)
    art = event.boards[0].lines[2]
    assert art.adjusted == "A6040" and art.score_ns is None and art.contract is None
    assert art.artificial_percentages == (60, 40)
    # Move the ranking list to a last game: it is still found.
    head, _, rest = text.partition("[TotalScoreTable")
    table, _, games = rest.partition("\n\n")
    moved = head + "\n" + games.rstrip("\n") + '\n\n[Event "#"]\n[TotalScoreTable' + table + "\n"
    assert moved.index("[TotalScoreTable") > moved.index("[ScoreTable")
    again = parse_pbn_pairs(moved)
    assert [p.number for p in again.pairs] == [p.number for p in event.pairs]


def test_contradicting_score_columns_fail_with_line():
    text = REFERENCE_EXAMPLE.replace(
        ' 1  1  1  2 4S   E  9 D3    "50"      -', ' 1  1  1  2 4S   E  9 D3    "50"  "100"'
    )
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_pairs(text)
    (p,) = exc.value.problems
    assert p.line == 26 and "motsäger" in p.message_sv and p.element == "ScoreTable bricka 1"


def test_missing_pairid_column_and_missing_ranking_list():
    bad = REFERENCE_EXAMPLE.replace("PairId_NS\\2R", "Par_NS\\2R")
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_pairs(bad)
    assert "PairId_NS saknas" in exc.value.problems[0].message_sv
    no_totals = REFERENCE_EXAMPLE.replace("[TotalScoreTable", "[OtherTable")
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_pairs(no_totals)
    assert "TotalScoreTable" in exc.value.problems[0].message_sv


def test_team_file_uploaded_as_pairs_is_refused():
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_pairs(fixture("teams_ruter.pbn").decode("latin-1"))
    assert "lagtävling" in exc.value.problems[0].message_sv


# --------------------------------------------------------------------------- teams


def test_teams_pbn_fixture():
    event = parse_pbn_teams(fixture("teams_ruter.pbn").decode("latin-1"))
    assert event.source_format == "pbn"
    assert event.boards_per_match == 16
    # Team ids come from the TotalScoreTable (TeamId/TeamName), not the names.
    assert sorted(t.id for t in event.teams) == ["1", "2", "3", "4"]
    norrtalje = event.team("1")
    assert norrtalje.name == "BK Norrtälje"
    assert [p.name for p in norrtalje.players][:2] == ["Åsa Öberg", "Märta Ängström"]
    assert all(p.mid for p in norrtalje.players)
    assert len(event.matches) == 6
    assert {(m.round, m.home, m.away) for m in event.matches} == {
        (1, "1", "2"), (1, "3", "4"), (2, "1", "3"), (2, "4", "2"), (3, "1", "4"), (3, "2", "3"),
    }  # fmt: skip
    for m in event.matches:
        assert len(m.boards) == 16
        assert all(b.score_ns_room1 is not None and b.score_ns_room2 is not None for b in m.boards)
        # ScoreIMP only in round 1's open room
        assert all((b.imps_home is not None) == (m.round == 1) for b in m.boards)
        net = [Decimal(imps(b.score_ns_room1 - b.score_ns_room2)) for b in m.boards]
        assert m.imps_home == sum(x for x in net if x > 0)
        assert m.imps_away == -sum(x for x in net if x < 0)
    assert validate_teams(event, expected_boards=16) == []


def test_teams_pbn_scores_computed_from_contract_when_score_tag_missing():
    # Round 3 of the fixture has no Score tags; scores come from Contract/Declarer/Result.
    text = fixture("teams_ruter.pbn").decode("latin-1")
    games, _ = read_games(text)
    event = parse_pbn_teams(text)
    m = next(m for m in event.matches if m.round == 3 and m.home == "1")
    g = next(
        g
        for g in games
        if g.get("round") == "3" and g.get("board") == "5" and g.get("room") == "Open"
        and g.get("hometeam") == "BK Norrtälje"
    )  # fmt: skip
    assert g.get("score") is None
    contract = normalize_contract(g.get("contract"))
    board5 = next(b for b in m.boards if b.number == 5)
    if contract == "Pass":
        assert board5.score_ns_room1 == 0
    else:
        level, strain, doubled = int(contract[0]), contract[1:].rstrip("X"), contract.count("X")
        decl = g.get("declarer")
        vul = board_vulnerability(5)
        dv = vul == "All" or (vul == "NS" and decl in "NS") or (vul == "EW" and decl in "EW")
        expected = contract_score(level, strain, doubled, dv, int(g.get("result")))
        assert board5.score_ns_room1 == (expected if decl in "NS" else -expected)


def test_teams_pbn_missing_room_names_the_board():
    text = """[Event "Lag"]
[Board "1"]
[HomeTeam "A"]
[VisitTeam "B"]
[Round "1"]
[Score "NS 420"]
"""
    with pytest.raises(ImportFailed) as exc:
        parse_pbn_teams(text)
    p = exc.value.problems[0]
    assert "Room" in p.message_sv and p.line == 1 and p.element == "Board 1"


def test_teams_pbn_without_total_table_uses_names_and_computes_imps():
    text = """[Event "Lag"]
[Board "1"]
[HomeTeam "Ruter Ess"]
[VisitTeam "Klöver Kung"]
[Room "Open"]
[Round "2"]
[Score "NS 420"]

[Board "1"]
[HomeTeam "Ruter Ess"]
[VisitTeam "Klöver Kung"]
[Room "Closed"]
[Round "2"]
[Score "EW 50"]
"""
    event = parse_pbn_teams(text)
    (m,) = event.matches
    assert (m.round, m.home, m.away) == (2, "Ruter Ess", "Klöver Kung")
    (b,) = m.boards
    assert (b.score_ns_room1, b.score_ns_room2) == (420, -50)
    assert m.imps_home == Decimal(10) and m.imps_away == 0  # 470 → 10 IMPs
    # R-TEAM-TIE-1: score points won on the board, both rooms together.
    assert (b.points_home, b.points_away) == (470, 0)
