"""SBF's masterpoint table for the pairs finals as TK loads it (ubf.rules.mp_table, R-PAIR-MP-1,
R-GEN-1): both shapes, CSV, pasted text and XLSX, every problem with its row number."""

import io
from decimal import Decimal

import pytest
from openpyxl import Workbook

from ubf.rules.masterpoints import pair_final_masterpoints
from ubf.rules.mp_table import (
    TableUnreadable,
    from_stored,
    grid,
    read_mp_table,
    to_stored,
)

#: A made-up table (the figures are the test's, not SBF's): 4 and 5 pairs, three places each.
WIDE = "Antal par;1;2;3\n4;4;2;1\n5;5;3;1,5\n"


def test_r_pair_mp_1_the_table_as_sbf_prints_it_one_row_per_field():
    table = read_mp_table(WIDE.encode("utf-8"), "mp.csv")
    assert table.ok and table.read == 2 and table.sizes == [4, 5]
    assert table.points == {
        (4, 1): 4,
        (4, 2): 2,
        (4, 3): 1,
        (5, 1): 5,
        (5, 2): 3,
        (5, 3): Decimal("1.5"),
    }


def test_r_pair_mp_1_one_row_per_place_and_pasted_from_a_spreadsheet():
    pasted = "Antal par\tPlacering\tPoäng\n4\t1\t4\n4\t2\t2\n\n4\t3\t1\n"
    table = read_mp_table(pasted)
    assert table.ok and table.points == {(4, 1): 4, (4, 2): 2, (4, 3): 1}
    commas = "antal par,placering,poäng\n4,1,4.5\n4,2,2\n"
    assert read_mp_table(commas.encode("cp1252")).points == {(4, 1): Decimal("4.5"), (4, 2): 2}


def test_r_pair_mp_1_an_xlsx_table():
    book = Workbook()
    sheet = book.active
    sheet.append(["Antal par", 1, 2, 3])
    sheet.append([4, 4, 2, 1])
    sheet.append([5, 5, 3, 1.5])
    data = io.BytesIO()
    book.save(data)
    table = read_mp_table(data.getvalue(), "mp.xlsx")
    assert table.ok and table.points[(5, 3)] == Decimal("1.5") and table.points[(4, 1)] == 4


def test_r_pair_mp_1_every_problem_names_its_row():
    text = (
        "Antal par;Placering;Poäng\n"
        "4;1;4\n"  # row 2
        "4;2;5\n"  # row 3: more than place 1
        "4;2;2\n"  # row 4: place 2 again
        "x;1;2\n"  # row 5: not a number of pairs
        "4;7;1\n"  # row 6: no 7th place with 4 pairs
        "4;3;1,234\n"  # row 7: three decimals
        "4;3;\n"  # row 8: no points
        "1;1;1\n"  # row 9: one pair is no field
    )
    table = read_mp_table(text.encode())
    assert not table.ok
    assert [p.message_sv for p in table.problems] == [
        "Rad 3: placering 2 ger fler poäng (5) än placering 1 (4) med 4 par.",
        "Rad 4: 4 par, placering 2 står redan på rad 3.",
        "Rad 5: antal par ska vara ett heltal 2–400 (inte ”x”).",
        "Rad 6: placering 7 finns inte med 4 par.",
        "Rad 7: poängen för placering 3 är inte ett tal mellan 0 och 1000 med högst två decimaler.",
        "Rad 8: poängen saknas.",
        "Rad 9: antal par ska vara ett heltal 2–400 (inte ”1”).",
    ]
    assert [p.row for p in table.problems] == [3, 4, 5, 6, 7, 8, 9]


def test_r_pair_mp_1_a_file_that_is_no_table_is_refused_whole():
    with pytest.raises(TableUnreadable) as exc:
        read_mp_table(b"MID;Namn\n123;Anna\n")
    assert "Antal par, Placering och Poäng" in exc.value.problems[0].message_sv
    with pytest.raises(TableUnreadable):
        read_mp_table(b"")
    with pytest.raises(TableUnreadable):
        read_mp_table(b"PK\x03\x04 not really a workbook", "mp.xlsx")
    empty = read_mp_table(b"Antal par;1;2\n")
    assert not empty.ok and empty.problems[0].message_sv == "Tabellen har inga poäng."


def test_r_pair_mp_1_stored_in_the_season_and_applied_to_a_final():
    points = read_mp_table(WIDE).points
    stored = to_stored(points)
    assert stored == {
        "4:1": "4",
        "4:2": "2",
        "4:3": "1",
        "5:1": "5",
        "5:2": "3",
        "5:3": "1.5",
    }
    assert from_stored(stored) == points
    assert from_stored({"4:1": "4", "x": "1", "4:2": "many"}) == {(4, 1): 4}
    # Five pairs, two tied second: they share places 2 and 3, (3 + 1.5) / 2 = 2.25 each.
    mp = pair_final_masterpoints({"a": 1, "b": 2, "c": 2, "d": 4, "e": 5}, from_stored(stored))
    assert [float(mp.points[k]) for k in "abcde"] == [5, 2.25, 2.25, 0, 0]
    places, rows = grid(points)
    assert places == [1, 2, 3]
    assert rows == [(4, [4, 2, 1]), (5, [5, 3, Decimal("1.5")])]
