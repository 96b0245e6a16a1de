"""The broken-file corpus (tests/fixtures/results/broken/): every file gets a clear Swedish
message that names the line, the element or the thing that is wrong."""

from __future__ import annotations

import time

import pytest

from results.importers.detect import parse_upload
from results.importers.model import ImportFailed
from results.importers.validate import validate_pairs, validate_teams

from ._fixtures import broken, errors


def failure(name: str, kind: str = "pairs") -> ImportFailed:
    with pytest.raises(ImportFailed) as exc:
        parse_upload(broken(name), name, kind)
    return exc.value


def test_truncated_xml_names_the_line():
    (p,) = failure("truncated.xml").problems
    assert p.code == "xml-syntax" and p.line is not None and p.line > 900
    assert f"trasig på rad {p.line}" in p.message_sv
    assert "avklippt" in p.message_sv


def test_wrong_encoding_bytes_in_utf8_declared_xml():
    (p,) = failure("wrong_encoding.xml").problems
    assert p.code == "xml-encoding" and p.line == 28
    assert "UTF-8" in p.message_sv and "rad 28" in p.message_sv and "0xD6" in p.message_sv


def test_entity_bomb_fails_fast_with_a_clear_message():
    start = time.perf_counter()
    (p,) = failure("entity_bomb.xml").problems
    assert time.perf_counter() - start < 1.0
    assert p.code == "xml-entities" and p.line == 3
    assert "entiteter" in p.message_sv and "säkerhetsskäl" in p.message_sv
    assert p.element == "<!ENTITY lol>"


def test_unknown_layouts_say_what_was_found():
    (p,) = failure("unknown_layout.xml").problems
    assert p.code == "usebio-layout" and p.element == "USEBIO/EVENT"
    assert "okänd uppbyggnad" in p.message_sv and "RESULTS" in p.message_sv
    (p,) = failure("unknown_pairs_layout.xml").problems
    assert p.element == "EVENT/PARTICIPANTS/PAIR" and "COMPETITORS" in p.message_sv


def test_wrong_board_count_names_the_match_r_team_kval_5():
    event = parse_upload(broken("wrong_board_count.xml"), "lag.xml", "teams")
    problems = validate_teams(event, expected_boards=24)
    (p,) = errors(problems)
    assert p.clause == "R-TEAM-KVAL-5" and p.code == "board-count"
    assert "Matchen rond 2: 1-3 har 22 brickor" in p.message_sv
    assert p.line is not None and p.element == "match rond 2: 1-3"


def test_totals_that_do_not_add_up():
    event = parse_upload(broken("totals_mismatch.pbn"), "heat.pbn", "pairs")
    problems = errors(validate_pairs(event))
    pct = next(p for p in problems if p.code == "percentage")
    assert pct.element == "par 3NS" and pct.line is not None
    assert "filens procent 53,90 stämmer inte" in pct.message_sv and "49,40" in pct.message_sv
    rank = next(p for p in problems if p.code == "rank-order")
    assert "par 3NS är 9:a" in rank.message_sv


def test_imps_that_do_not_match_the_scores():
    event = parse_upload(broken("imps_mismatch.xml"), "lag.xml", "teams")
    problems = errors(validate_teams(event, expected_boards=24))
    board = next(p for p in problems if p.code == "board-imps")
    assert "Matchen rond 1: 1-2, bricka 5" in board.message_sv
    assert "filen ger hemmalaget" in board.message_sv and board.line is not None


def test_duplicate_match():
    event = parse_upload(broken("duplicate_match.csv"), "lag.csv", "teams")
    (p,) = errors(validate_teams(event, expected_boards=24))
    assert p.code == "duplicate-match" and p.line == 14
    assert "finns två gånger i filen (även rad 10)" in p.message_sv


def test_binary_files():
    (p,) = failure("bridgemate.bws").problems
    assert "Bridgemate" in p.message_sv and "PBN" in p.message_sv
    (p,) = failure("binary.pbn").problems
    assert "binärfil" in p.message_sv and "NUL" in p.message_sv


def test_matchpoints_that_do_not_add_up_to_the_top():
    event = parse_upload(broken("mp_wrong.xml"), "heat.xml", "pairs")
    p = next(p for p in errors(validate_pairs(event)) if p.code == "mp-sum")
    assert p.element == "bricka 7" and p.line is not None
    assert "Bricka 7" in p.message_sv and "toppen är 8" in p.message_sv


def test_pbn_rows_with_unquoted_names_and_broken_quotes():
    problems = failure("bad_rows.pbn").problems
    width = next(p for p in problems if p.code == "pbn-row-width")
    assert width.element == "TotalScoreTable" and width.line is not None
    assert "citattecken" in width.message_sv
    bad = next(p for p in problems if p.element == "ScoreTable bricka 1")
    assert bad.line == 24 and "Score_NS" in bad.message_sv


def test_csv_without_header_and_with_a_bad_number():
    (p,) = failure("no_header.csv", "teams").problems
    assert p.line == 1 and "Rubrikraden saknas" in p.message_sv
    (p,) = failure("bad_number.csv", "teams").problems
    assert p.line == 3 and '"tio"' in p.message_sv and "imps_home" in p.message_sv


def test_generated_large_payload():
    data = bytes(25 * 1024 * 1024)  # 25 MB of NULs, in memory only
    start = time.perf_counter()
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data, "heat.pbn", "pairs")
    assert time.perf_counter() - start < 1.0
    assert "för stor (25,0 MB)" in exc.value.problems[0].message_sv
