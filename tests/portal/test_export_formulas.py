"""Exports neutralise formulas (issue 14): a team named =HYPERLINK(...) is text in the fee
list's CSV (a leading ') and Excel file (a string cell with the quote prefix, no formula)."""

import csv
import io

import pytest
from openpyxl import load_workbook

from clubs.spreadsheets import safe_cell
from portal.services import fees
from tests.portal.test_fees import heat_list  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://x","y")'


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        (EVIL, "'" + EVIL),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("-100", "-100"),  # a plain number cannot be a formula
        ("-1 250,00", "-1 250,00"),
        ("Åkerby = Öst", "Åkerby = Öst"),
        (None, ""),
        (1850, "1850"),
    ],
)
def test_safe_cell(value, cell):
    assert safe_cell(value) == cell


def test_a_team_named_like_a_formula_is_text_in_the_csv(heat_list):  # noqa: F811
    heat, teams = heat_list
    teams[1].name = EVIL
    teams[1].save()
    text = fees.fee_list_csv(fees.team_heat_fee_list(heat))
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    payers = {r[0] for r in rows}
    assert "'" + EVIL in payers and EVIL not in payers
    assert any(r[0] == "Åkerby Öst" and r[4] == "-100" for r in rows)  # numbers untouched


def test_a_team_named_like_a_formula_is_text_in_the_xlsx(heat_list):  # noqa: F811
    heat, teams = heat_list
    teams[1].name = EVIL
    teams[1].save()
    ws = load_workbook(io.BytesIO(fees.fee_list_xlsx(fees.team_heat_fee_list(heat)))).active
    cells = [row[0] for row in ws.iter_rows(min_row=2) if row[0].value == EVIL]
    assert cells, "the team's rows"
    for cell in cells:
        assert cell.data_type == "s"  # a string, not a formula ("f")
        assert cell.quotePrefix
    amounts = [row[4] for row in ws.iter_rows(min_row=2) if row[0].value == EVIL]
    assert all(c.data_type == "n" for c in amounts)
