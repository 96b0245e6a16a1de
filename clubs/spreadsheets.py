"""Cells of the CSV and Excel files the site writes (fee lists, TK's decision log), safe from
formula injection (issue 14): a team named ``=HYPERLINK("http://x","y")`` stays that text in
every export, never a live formula.

* CSV (:func:`safe_cell`): a text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
  carriage return gets a leading ``'``, which spreadsheets read as "text follows" (OWASP's
  advice for CSV injection); a plain number (``-120,00``) is left as it is, since it cannot be
  a formula.
* Excel (:func:`text_cells`): openpyxl stores a string that starts with ``=`` as a formula;
  every text cell of a row is made a string cell (``data_type = "s"``) and one that starts
  like a formula also gets Excel's quote prefix, so Excel shows it as text even after an edit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

__all__ = ["FORMULA_STARTS", "safe_cell", "text_cells"]

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d[\d\s]*(?:[.,]\d+)?")


def _risky(text: str) -> bool:
    return text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text)


def safe_cell(value: Any) -> str:
    """A CSV cell as text that no spreadsheet runs as a formula (``None`` is empty)."""
    text = "" if value is None else str(value)
    return "'" + text if _risky(text) else text


def text_cells(cells: Iterable[Any]) -> None:
    """Make the text cells of an openpyxl row plain strings, never formulas."""
    for cell in cells:
        if isinstance(cell.value, str):
            cell.data_type = "s"
            if _risky(cell.value):
                cell.quotePrefix = True
