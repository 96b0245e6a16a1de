"""Issue 25: a result file is bounded by what its heat can hold, before any arithmetic.

A heat of n entered pairs has ceil(n / 2) tables and a board is played once at each, so a
board has at most that many result lines; a file lists at most twice the heat's pairs (up to
that the upload's identity check names each pair that is not entered); a pairs session at most
70 boards (``results.importers.bounds.MAX_SESSION_BOARDS``), a team match at most the heat's
boards per match (R-TEAM-KVAL-5). The refusal names the bound, in Swedish and in English, with
the line of the first row over it; nothing is saved. R-PAIR-KVAL-5 (the heat's matchpoints
are never computed from such a file), R-TEAM-KVAL-5.
"""

from __future__ import annotations

import pytest

import results.importers.pbn as pbn
import results.services.uploads as uploads
from results.importers import ImportFailed, parse_upload
from results.importers.bounds import Limits
from results.services.uploads import UploadRejected, upload_pair_heat, upload_team_results
from tests.results.test_uploads import counts, data, pair_heat_for, team_heat_for

pytestmark = pytest.mark.django_db

MITCHELL = "pairs_ruter_mitchell.pbn"  # 14 pairs (1NS ... 7EW), 28 boards, 7 lines each
HOWELL = "pairs_howell_usebio.xml"  # 10 pairs, 27 boards, 5 lines each


@pytest.fixture
def tk():
    from tests.factories import UserFactory

    return UserFactory(username="tk", is_superuser=True, is_staff=True)


def repeated_pbn_row(copies: int) -> bytes:
    """The Mitchell file with the first ScoreTable row of board 1 (line 23) copied right
    after itself ``copies`` times, as in the issue (one row of board 1 repeated)."""
    lines = data(MITCHELL).decode("latin-1").split("\n")
    assert lines[22].startswith(" 1  1  1  1 5C")  # line 23: board 1, table 1
    return "\n".join(lines[:23] + [lines[22]] * copies + lines[23:]).encode("latin-1")


def repeated_usebio_line(copies: int) -> bytes:
    """The Howell file with board 1's first TRAVELLER_LINE (lines 203-213) copied right after
    itself ``copies`` times."""
    lines = data(HOWELL).decode("latin-1").split("\n")
    first = lines[202:213]
    assert first[0].strip() == "<TRAVELLER_LINE>" and first[-1].strip() == "</TRAVELLER_LINE>"
    return "\n".join(lines[:213] + first * copies + lines[213:]).encode("latin-1")


def test_a_pbn_with_one_row_of_board_1_repeated_is_refused_before_any_arithmetic(tk, monkeypatch):
    heat, _ = pair_heat_for(MITCHELL)  # 14 entries: 7 tables
    split = []
    real_tokenize = pbn.tokenize_row
    monkeypatch.setattr(pbn, "tokenize_row", lambda row: split.append(row) or real_tokenize(row))

    def never(*args, **kwargs):
        raise AssertionError("the file was validated")

    monkeypatch.setattr(uploads, "validate_pairs", never)
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=repeated_pbn_row(2000), filename="kval.pbn")
    (p,) = exc.value.problems
    assert p.code == "too-many-lines"
    # Board 1's rows are lines 23-29 (7 tables) and the copies follow: the 8th row, line 30,
    # is the first over the bound.
    assert p.line == 30
    assert p.message_sv == (
        "Bricka 1 har fler resultatrader än de 7 borden i heatet (en rad per bord: två "
        "par vid varje bord, inget par två gånger på en bricka). Filen lästes inte vidare: rader "
        "kan ha kopierats; exportera filen på nytt från resultatprogrammet."
    )
    assert "Board 1 has more result lines than the 7 tables of the heat" in p.message_en
    # Split into cells: the 14 rows of the ranking list and 8 rows of board 1, no more.
    assert len(split) == 14 + 8
    assert counts() == before


def test_a_usebio_file_with_a_traveller_line_repeated_is_refused_with_its_line(tk):
    heat, _ = pair_heat_for(HOWELL)  # 10 entries: 5 tables
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=repeated_usebio_line(2000), filename="kval.xml")
    (p,) = exc.value.problems
    assert p.code == "too-many-lines"
    # The original line at 203 and its copies from 214 on, 11 lines each: the 6th
    # TRAVELLER_LINE of board 1, the first over 5 tables, is the 5th copy, at 214 + 4 × 11.
    assert p.line == 258
    assert "Bricka 1 har fler resultatrader än de 5 borden i heatet" in p.message_sv
    assert counts() == before


def test_the_files_own_lines_are_within_the_bound():
    # 7 tables, 7 lines a board: read as before; one line more is over.
    event = parse_upload(data(MITCHELL), MITCHELL, "pairs", limits=Limits.for_pairs(14, 70))
    assert [len(b.lines) for b in event.boards] == [7] * 28
    with pytest.raises(ImportFailed) as exc:
        parse_upload(repeated_pbn_row(1), MITCHELL, "pairs", limits=Limits.for_pairs(14, 70))
    assert exc.value.problems[0].line == 30
    # An odd number of pairs: 13 entries still need 7 tables (one pair sits out a round).
    parse_upload(data(MITCHELL), MITCHELL, "pairs", limits=Limits.for_pairs(13, 70))


def test_more_than_twice_the_heats_pairs_is_refused_at_the_first_row_over():
    # 4 entries: at most 8 pairs in the ranking list. The Mitchell file's TotalScoreTable tag
    # is line 684 and its 14 rows lines 685-698: the 9th row, line 693, is the first over.
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data(MITCHELL), MITCHELL, "pairs", limits=Limits.for_pairs(4, 70))
    (p,) = exc.value.problems
    assert p.code == "too-many-pairs"
    assert p.line == 693
    assert "Filen har fler än 8 par, mer än dubbelt så många som heatet har." in p.message_sv
    assert "more than 8 pairs, over twice as many as the heat has" in p.message_en


def test_more_boards_than_the_bound_are_refused_before_any_table_is_read(monkeypatch):
    split = []
    real_tokenize = pbn.tokenize_row
    monkeypatch.setattr(pbn, "tokenize_row", lambda row: split.append(row) or real_tokenize(row))
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data(MITCHELL), MITCHELL, "pairs", limits=Limits.for_pairs(14, 27))
    (p,) = exc.value.problems
    assert p.code == "too-many-boards"
    assert "Filen har fler brickor än de högst 27 som heatet kan ha." in p.message_sv
    assert "more boards than the at most 27 that the heat can have" in p.message_en
    assert split == []  # counted from the Board tags; no row split


def test_a_team_match_with_more_than_twice_the_heats_boards_is_refused(tk):
    # R-TEAM-KVAL-5: the heat plays 8 boards a match; the file's matches have 24, more than
    # twice 8 (a match a board or two off gets R-TEAM-KVAL-5's own message instead).
    heat, _, _ = team_heat_for("teams_usebio.xml", 8)
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=data("teams_usebio.xml"), filename="t.xml")
    (p,) = exc.value.problems
    assert p.code == "too-many-match-boards"
    assert "har fler än 16 brickor, mer än dubbelt så många som en match i heatet har" in (
        p.message_sv
    )
    assert "more than 16 boards, over twice as many as a match of the heat has" in p.message_en
    assert counts() == before


def test_a_team_csv_with_a_board_row_repeated_is_refused_at_the_first_row_over():
    # At most 48 board rows a match (twice 24). The first board row (line 14, match 1: 1-2)
    # copied 100 times right after itself: the copies are lines 15-114, so the match's 49th
    # row, the first over, is line 14 + 48 = 62, before any later row of it is read.
    lines = data("teams.csv").decode("utf-8").split("\n")
    assert lines[13].startswith("board;1;1;2;1;")
    copied = lines[:14] + [lines[13]] * 100 + lines[14:]
    limits = Limits(pairs=20, boards=48, matches=100)
    with pytest.raises(ImportFailed) as exc:
        parse_upload("\n".join(copied).encode("utf-8"), "lag.csv", "teams", limits=limits)
    (p,) = exc.value.problems
    assert p.code == "too-many-match-boards"
    assert p.line == 62
    assert "Matchen 1: 1-2 har fler än 48 brickor" in p.message_sv


def test_xml_nested_deeper_than_any_usebio_is_refused_at_its_line():
    # A real USEBIO nests 5-6 levels; 33 levels inside the event is over the 32 allowed.
    text = data(HOWELL).decode("latin-1")
    i = text.index("<PARTICIPANTS")
    deep = text[:i] + "<X>" * 100_000 + "</X>" * 100_000 + text[i:]
    with pytest.raises(ImportFailed) as exc:
        parse_upload(deep.encode("latin-1"), HOWELL, "pairs")
    (p,) = exc.value.problems
    assert p.code == "xml-too-many-depth"
    assert "nästlade djupare än 32 nivåer" in p.message_sv
    assert "nested deeper than 32 levels" in p.message_en


def test_xml_with_more_elements_than_any_usebio_is_refused():
    # The largest heat a club could send (60 pairs, 70 boards) has about 24,000 elements.
    text = data(HOWELL).decode("latin-1")
    i = text.index("<PARTICIPANTS")
    flat = text[:i] + "<X/>" * 200_001 + text[i:]
    with pytest.raises(ImportFailed) as exc:
        parse_upload(flat.encode("latin-1"), HOWELL, "pairs")
    (p,) = exc.value.problems
    assert p.code == "xml-too-many-elements"
    assert "fler än 200000 element" in p.message_sv


def test_a_team_pbn_with_more_games_than_its_matches_can_have_is_refused_before_splitting():
    # One match of one board allowed: two rooms. teams_ruter.pbn's Room tags are on lines 21
    # (Open), 43 (Closed) and 64 (Open, the third): refused there, before any game is read.
    with pytest.raises(ImportFailed) as exc:
        parse_upload(
            data("teams_ruter.pbn"), "lag.pbn", "teams", limits=Limits(boards=1, matches=1)
        )
    (p,) = exc.value.problems
    assert p.code == "too-many-tables"
    assert p.line == 64
    assert "Filen har fler än 2 spel (ett för varje bord och bricka)" in p.message_sv
    assert "more than 2 games (one for each table and board)" in p.message_en
