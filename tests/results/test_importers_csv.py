""" "CSV för lag": the documented team CSV (delimiters, decimal comma, board rows, errors)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from results.importers.csv_teams import is_csv_teams, parse_csv_teams
from results.importers.model import ImportFailed
from results.importers.validate import validate_teams

from ._fixtures import fixture


def test_fixture():
    event = parse_csv_teams(fixture("teams.csv").decode("utf-8-sig"))
    assert event.source_format == "csv"
    assert event.title == "DM Lag kval, heat 2 (Enköping)"
    assert event.date.isoformat() == "2016-11-26"
    assert [t.id for t in event.teams] == ["1", "2", "3", "4"]
    assert event.team("4").name == "Klöver Kung Östhammar"
    assert [p.name for p in event.team("1").players][:2] == ["Åsa Öberg", "Märta Ängström"]
    assert all(p.mid for p in event.team("1").players)
    assert len(event.matches) == 6 and event.boards_per_match == 24
    first = event.matches[0]
    assert (first.round, first.home, first.away) == (1, "1", "2")
    assert (first.imps_home, first.imps_away) == (Decimal(59), Decimal(29))
    assert (first.vp_home, first.vp_away) == (Decimal("15.83"), Decimal("4.17"))  # decimal comma
    assert len(first.boards) == 24  # board rows for round 1
    later = event.matches[-1]
    assert later.boards == [] and later.board_count == 24  # the boards column
    assert validate_teams(event, expected_boards=24) == []


def test_comma_delimiter_swedish_headers_and_team_rows():
    text = (
        "# kommentar\n"
        "team,1,Ruter Ess,Åsa Öberg (12345),Märta Ängström\n"
        "rond,hemma,borta,imp_hemma,imp_borta,vp_hemma,vp_borta,brickor\n"
        '1,1,2,40,30,"12,61",7.39,16\n'
    )
    assert is_csv_teams(text)
    event = parse_csv_teams(text)
    (m,) = event.matches
    assert (m.imps_home, m.imps_away, m.vp_home, m.vp_away) == (
        40,
        30,
        Decimal("12.61"),
        Decimal("7.39"),
    )
    assert m.board_count == 16
    assert [(p.name, p.mid) for p in event.team("1").players] == [
        ("Åsa Öberg", "12345"),
        ("Märta Ängström", None),
    ]
    assert event.team("2").name == "2"


def test_tab_delimiter_and_free_column_order():
    text = "home\taway\tround\timps_away\timps_home\n3\t4\t2\t12\t30\n"
    (m,) = parse_csv_teams(text).matches
    assert (m.round, m.home, m.away, m.imps_home, m.imps_away) == (2, "3", "4", 30, 12)


def test_board_rows_and_imps_column():
    text = (
        "round;home;away;imps_home;imps_away\n"
        "1;1;2;10;0\n"
        "board;1;1;2;1;420;-50\n"
        "board;1;1;2;2;-100;-100;0\n"
    )
    (m,) = parse_csv_teams(text).matches
    assert [(b.number, b.score_ns_room1, b.score_ns_room2, b.imps_home) for b in m.boards] == [
        (1, 420, -50, None),
        (2, -100, -100, Decimal(0)),
    ]
    assert (m.boards[0].points_home, m.boards[0].points_away) == (470, 0)


def test_errors_name_the_line():
    text = "round;home;away;imps_home;imps_away\n1;1;2;45;32\n1;3;4;tio;10\n1;5\n"
    with pytest.raises(ImportFailed) as exc:
        parse_csv_teams(text)
    lines = [(p.line, p.code) for p in exc.value.problems]
    assert (3, "csv-bad-value") in lines and (4, "csv-row-width") in lines
    bad_value = next(p for p in exc.value.problems if p.line == 3)
    assert '"tio"' in bad_value.message_sv and "imps_home" in bad_value.message_sv


def test_board_row_for_unknown_match_names_the_line():
    text = "round;home;away;imps_home;imps_away\n1;1;2;10;0\nboard;2;1;2;1;420;-50\n"
    with pytest.raises(ImportFailed) as exc:
        parse_csv_teams(text)
    (p,) = exc.value.problems
    assert p.line == 3 and "rond 2: 1-2" in p.message_sv


def test_missing_header_and_empty_file():
    with pytest.raises(ImportFailed) as exc:
        parse_csv_teams("1;1;2;45;32\n")
    assert exc.value.problems[0].code == "csv-no-header"
    assert "round;home;away;imps_home;imps_away" in exc.value.problems[0].message_sv
    with pytest.raises(ImportFailed) as exc:
        parse_csv_teams("round;home;away;imps_home;imps_away\n")
    assert "inga matchrader" in exc.value.problems[0].message_sv


def test_team_playing_itself_is_an_error_with_line():
    with pytest.raises(ImportFailed) as exc:
        parse_csv_teams("round;home;away;imps_home;imps_away\n1;3;3;10;0\n")
    assert exc.value.problems[0].line == 2 and "sig självt" in exc.value.problems[0].message_sv
