"""The member register reader (issue 23; CONTRACT.md "Season data"): pure, no database.
Expected values are worked by hand from the files (tests/fixtures/register/README.md)."""

import io
from pathlib import Path

import pytest
from openpyxl import Workbook

from ubf.rules.register import RegisterUnreadable, read_clubs, read_register

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "register"


def test_federation_file_in_windows_1252_with_semicolons():
    register = read_register((FIXTURES / "federation_2016.csv").read_bytes(), "reg.csv")
    assert register.read == 7
    assert [r.mid for r in register.rows] == ["1001", "1002", "1003", "1005", "1006"]
    goran = register.rows[-1]
    assert (goran.first_name, goran.last_name, goran.club) == ("Göran", "Gräslund", "Märsta BK")
    assert (goran.birth_year, goran.gender, goran.district, goran.paid) == (1948, "M", "UBF", True)
    frida = register.rows[3]
    assert (frida.gender, frida.district, frida.paid) == ("F", "VBF", False)
    # R-GEN-2: players are identified by MID; row 5 is no MID, row 7 repeats row 2's.
    assert [(p.row, p.code) for p in register.problems] == [(5, "mid"), (7, "duplicate")]
    assert register.problem_rows == 2
    assert register.problems[0].message_sv.startswith('Rad 5: MID "12A4"')
    assert "rad 2" in register.problems[1].message_sv
    assert register.problems[1].message_en.startswith("Row 7:")
    assert register.clubs == {
        "Uppsala BK": "UBF",
        "Enköpings BS": "UBF",
        "Sala BK": "VBF",
        "Märsta BK": "UBF",
    }


def test_utf8_bom_commas_birth_date_and_extra_columns():
    text = (
        "\ufeffmid , FÖRNAMN,Efternamn,Födelsedatum,Kön,Klubb,Distrikt,Betald,Telefon\n"
        "00042,Åsa,Öberg,1951-03-07,K,Uppsala BK,ubf,JA,018-1\n"
        "43,Per,,19620101,M,Uppsala BK,UBF,nej,\n"
        "44,Lars,Lind,07/03/51,M,Uppsala BK,UBF,nej,\n"
        "45,Lena,Lund,,X,Uppsala BK,UBF,kanske,\n"
        ",,,,,,,,\n"
    )
    register = read_register(text.encode("utf-8"), "reg.csv")
    assert register.read == 4  # the empty line is not a row
    assert len(register.rows) == 1
    asa = register.rows[0]
    assert (asa.mid, asa.first_name, asa.birth_year, asa.district, asa.paid) == (
        "42",
        "Åsa",
        1951,
        "UBF",
        True,
    )
    assert [(p.row, p.code) for p in register.problems] == [
        (3, "name"),
        (4, "birth"),
        (5, "gender"),
        (5, "paid"),
    ]
    assert register.problem_rows == 3
    assert register.problem_mids == {"43", "44", "45"}


def test_xlsx_read_only():
    book = Workbook()
    sheet = book.active
    sheet.append(["MID", "Förnamn", "Efternamn", "Födelseår", "Kön", "Klubb", "Distrikt", "Betald"])
    sheet.append([1001, "Anna", "Andersson", 1950, "K", "Uppsala BK", "UBF", "ja"])
    sheet.append([1002.0, "Bo", "Berg", 1960, "M", "Sala BK", "VBF", "nej"])
    sheet.append(["1002", "Bo", "Berg", 1960, "M", "Sala BK", "VBF", "nej"])
    out = io.BytesIO()
    book.save(out)
    register = read_register(out.getvalue(), "medlemmar.xlsx")
    assert [(r.mid, r.club, r.paid) for r in register.rows] == [
        ("1001", "Uppsala BK", True),
        ("1002", "Sala BK", False),
    ]
    assert [(p.row, p.code) for p in register.problems] == [(4, "duplicate")]


def test_missing_columns_refuse_the_file():
    with pytest.raises(RegisterUnreadable) as caught:
        read_register("MID;Förnamn;Efternamn\n1;A;B\n".encode(), "reg.csv")
    assert "Kön" in caught.value.problems[0].message_sv
    assert "Födelseår/Födelsedatum" in caught.value.problems[0].message_sv
    with pytest.raises(RegisterUnreadable):
        read_register(b"PK\x03\x04 not a workbook", "reg.xlsx")


def test_club_list():
    clubs = read_clubs((FIXTURES / "clubs.csv").read_bytes(), "clubs.csv")
    assert [(c.number, c.name, c.district) for c in clubs.rows] == [
        ("101", "Uppsala BK", "UBF"),
        ("102", "Enköpings BS", "UBF"),
        ("201", "Sala BK", "VBF"),
    ]
    assert clubs.problems == []
