"""Numbers in result files are bounded before they are converted (issue 14): no exponent, at
most 7 digits (and 6 decimals), and a range per field; a value outside is a problem that names
the column and the line, never a crash or a minute of CPU."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from results.importers import parse_upload, validate_pairs, validate_teams
from results.importers.model import (
    BOARD_NUMBER,
    MATCH_IMPS,
    ImportFailed,
    OutOfRange,
    parse_decimal,
    parse_int,
)

from ._fixtures import fixture


def refused(data: bytes, name: str, kind: str) -> list:
    start = time.process_time()
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data, name, kind)
    assert time.process_time() - start < 1.0
    return exc.value.problems


@pytest.mark.parametrize(
    "text", ["1e999999", "1E5", "99999999999999999999", "9" * 5000, "inf", "NaN", "1.1234567"]
)
def test_a_number_with_an_exponent_or_too_many_digits_is_no_number(text):
    start = time.process_time()
    with pytest.raises(ValueError) as exc:
        parse_decimal(text)
    assert not isinstance(exc.value, OutOfRange)
    assert time.process_time() - start < 0.1


def test_plain_numbers_still_read():
    assert parse_decimal("13,78") == Decimal("13.78")
    assert parse_decimal("−420") == Decimal(-420)
    assert parse_decimal("56.12%") == Decimal("56.12")
    assert parse_decimal(".5") == Decimal("0.5")
    assert parse_decimal("9999999") == Decimal(9999999)
    assert parse_int("999", BOARD_NUMBER) == 999


def test_a_range_refuses_both_ends():
    with pytest.raises(OutOfRange):
        parse_int("0", BOARD_NUMBER)
    with pytest.raises(OutOfRange):
        parse_int("1000", BOARD_NUMBER)
    with pytest.raises(OutOfRange):
        parse_decimal("-1", MATCH_IMPS)


def _pbn(old: bytes, new: bytes) -> bytes:
    data = fixture("pairs_ruter_mitchell.pbn")
    assert old in data
    return data.replace(old, new, 1)


def test_pbn_tricks_1e999999_is_refused_at_once_naming_column_and_line():
    # The first traveller line of board 1: " 1  1  1  1 5C    N 12 SK ..." (line 23).
    data = _pbn(b" 1  1  1  1 5C    N 12 SK", b" 1  1  1  1 5C    N 1e999999 SK")
    (p,) = refused(data, "heat.pbn", "pairs")
    assert p.line == 23
    assert p.message_sv == (
        'ScoreTable bricka 1: kolumnen Result har värdet "1e999999", som inte är ett heltal.'
    )


def test_pbn_tricks_out_of_range_names_the_range():
    data = _pbn(b" 1  1  1  1 5C    N 12 SK", b" 1  1  1  1 5C    N 14 SK")
    (p,) = refused(data, "heat.pbn", "pairs")
    assert p.line == 23 and "som inte är ett antal stick (0–13)" in p.message_sv
    assert "is not a number of tricks (0–13)" in p.message_en


def test_pbn_a_twenty_digit_score_is_refused():
    data = _pbn(b'"420"', b'"99999999999999999999"')
    (p,) = refused(data, "heat.pbn", "pairs")
    assert p.line == 23 and "kolumnen Score_NS" in p.message_sv
    data = _pbn(b'"420"', b'"7610"')
    (p,) = refused(data, "heat.pbn", "pairs")
    assert "som inte är en poäng (−7600 till 7600)" in p.message_sv


def test_pbn_board_zero_is_refused():
    data = _pbn(b'[Board "1"]', b'[Board "0"]')
    problems = refused(data, "heat.pbn", "pairs")
    assert any("som inte är ett bricknummer (1–999)" in p.message_sv for p in problems)


def test_pbn_matchpoints_out_of_range_are_refused():
    data = _pbn(b"  9.0  3.0  75  25", b"  1e9999  3.0  75  25")
    (p,) = refused(data, "heat.pbn", "pairs")
    assert p.line == 23 and "kolumnen MP_NS" in p.message_sv and "inte är ett tal" in p.message_sv
    data = _pbn(b"  9.0  3.0  75  25", b"  1001  3.0  75  25")
    (p,) = refused(data, "heat.pbn", "pairs")
    assert "som inte är matchpoäng för en bricka (0–1000)" in p.message_sv


def test_csv_negative_imps_are_refused_with_the_line():
    data = fixture("teams.csv").replace(b"1;1;2;59;29;", b"1;1;2;-59;29;", 1)
    (p,) = refused(data, "lag.csv", "teams")
    assert p.line == 8
    assert p.message_sv == (
        'Kolumnen imps_home har värdet "-59", som inte är IMP för en match (0–2400).'
    )


def test_csv_board_zero_and_a_huge_vp_are_refused():
    data = (
        fixture("teams.csv")
        .replace(b"board;1;1;2;1;50;-180", b"board;1;1;2;0;50;-180", 1)
        .replace(b"15,83", b"1e9999", 1)
    )
    messages = [p.message_sv for p in refused(data, "lag.csv", "teams")]
    assert any("som inte är ett tal" in m and "vp_home" in m for m in messages)
    assert any("board_number" in m and "ett bricknummer (1–999)" in m for m in messages)


def test_a_long_value_is_quoted_short():
    data = fixture("teams.csv").replace(b"1;1;2;59;29;", b"1;1;2;" + b"9" * 5000 + b";29;", 1)
    (p,) = refused(data, "lag.csv", "teams")
    assert p.message_sv == (
        'Kolumnen imps_home har värdet "' + "9" * 39 + '…", som inte är ett tal.'
    )


def test_usebio_tricks_and_pair_numbers_are_bounded():
    data = fixture("pairs_howell_usebio.xml")
    assert b"<BOARD_NUMBER>1</BOARD_NUMBER>" in data
    bad = data.replace(b"<BOARD_NUMBER>1</BOARD_NUMBER>", b"<BOARD_NUMBER>-1</BOARD_NUMBER>", 1)
    problems = refused(bad, "heat.xml", "pairs")
    assert any("BOARD_NUMBER" in p.message_sv and "(1–999)" in p.message_sv for p in problems)


def test_the_real_fixtures_still_pass():
    # The bounds leave every real file as it was (its own checks decide).
    for name, kind in (
        ("pairs_ruter_mitchell.pbn", "pairs"),
        ("pairs_howell_usebio.xml", "pairs"),
        ("teams.csv", "teams"),
        ("teams_ruter.pbn", "teams"),
        ("teams_usebio.xml", "teams"),
    ):
        event = parse_upload(fixture(name), name, kind)
        problems = validate_pairs(event) if kind == "pairs" else validate_teams(event)
        assert not [p for p in problems if p.is_error], name
