"""SBF's masterpoint table for the pairs finals, as TK loads it per season (R-PAIR-MP-1,
R-GEN-1: what the system takes from SBF is season configuration). Pure: no Django.

The table gives the silver points of each place of a final by the number of pairs in it:
(number of pairs, place) → points, which :func:`ubf.rules.masterpoints.pair_final_masterpoints`
applies (tied pairs share the points of the places they cover). TK gives it as a file (CSV with
``;``, ``,`` or tabs, UTF-8 or Windows-1252, or XLSX, its first sheet) or pastes it (from a
spreadsheet: tabs), in one of two shapes, the first row naming the columns:

- one row per place: ``Antal par``, ``Placering``, ``Poäng``;
- one row per number of pairs, as SBF prints its tables: ``Antal par`` and then the places
  ``1``, ``2``, ``3``, … as the headers, each row the number of pairs and the points of each
  place (an empty cell: no points for that place).

Points are whole or with up to two decimals (``12,5`` or ``12.5``; with ``,`` between the
columns a decimal point). Every problem names its row (the header is row 1), in Swedish with
English from the catalogue; a table with any problem is not used at all (:attr:`MpTable.ok`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from .i18n import gettext_noop
from .register import RegisterProblem as TableProblem
from .register import RegisterUnreadable as TableUnreadable
from .register import _decode, _text, _xlsx_rows

__all__ = [
    "MAX_PAIRS",
    "MAX_POINTS",
    "MpTable",
    "TableProblem",
    "TableUnreadable",
    "from_stored",
    "grid",
    "read_mp_table",
    "to_stored",
]

#: The largest field a row may name, and the most points a place may give (bounds of a sane
#: table, not regulation numbers: a DM final has 28–36 pairs, R-ALLOC-1).
MAX_PAIRS = 400
MAX_POINTS = Decimal(1000)

PAIRS = ("antal par", "par", "antal")
PLACE = ("placering", "plats")
POINTS = ("poäng", "silverpoäng", "mp", "mästarpoäng")


@dataclass
class MpTable:
    """The table read: ``points`` (number of pairs, place) → points, and every problem."""

    points: dict[tuple[int, int], Decimal] = field(default_factory=dict)
    problems: list[TableProblem] = field(default_factory=list)
    #: Rows read (the header not counted), good or not.
    read: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.points)

    @property
    def sizes(self) -> list[int]:
        return sorted({n for n, _p in self.points})


def _problem(row: int | None, template: str, **params) -> TableProblem:
    return TableProblem(template, {"row": row, **params} if row else params, row=row)


def _rows(data: bytes | str, filename: str) -> list[list[Any]]:
    """The file's or the pasted text's rows of cells."""
    if isinstance(data, bytes):
        is_xlsx = filename.lower().endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04"
        if is_xlsx:
            try:
                return _xlsx_rows(data)
            except Exception as exc:  # noqa: BLE001 - any unreadable file is one clear refusal
                raise TableUnreadable(
                    [
                        TableProblem(
                            gettext_noop("Filen kan inte läsas som CSV eller XLSX (%(error)s)."),
                            {"error": type(exc).__name__},
                            code="unreadable",
                        )
                    ]
                ) from exc
        text = _decode(data)
    else:
        text = data
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    if "\t" in first:
        delimiter = "\t"
    else:
        delimiter = ";" if first.count(";") >= first.count(",") else ","
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter))


def _key(cell: Any) -> str:
    return re.sub(r"\s+", " ", _text(cell)).strip().casefold()


def _whole(cell: Any) -> int | None:
    text = _text(cell)
    return int(text) if re.fullmatch(r"\d{1,4}", text) else None


def _points(cell: Any) -> Decimal | None | str:
    """The points of a cell: a Decimal, None when empty, or "bad"."""
    if cell is None or _text(cell) == "":
        return None
    if isinstance(cell, int | float) and not isinstance(cell, bool):
        value = Decimal(str(cell))
    else:
        text = _text(cell).replace(",", ".")
        if not re.fullmatch(r"\d{1,4}(\.\d{1,2})?", text):
            return "bad"
        try:
            value = Decimal(text)
        except InvalidOperation:
            return "bad"
    if value < 0 or value > MAX_POINTS or value != value.quantize(Decimal("0.01")):
        return "bad"
    return Decimal(int(value)) if value == value.to_integral() else value


def read_mp_table(data: bytes | str, filename: str = "tabell.csv") -> MpTable:
    """R-PAIR-MP-1: SBF's table from a file's bytes (``filename`` tells an XLSX) or pasted text.
    Raises :class:`TableUnreadable` when the file cannot be read as a table at all; otherwise
    every row is checked and each problem names its row."""
    table = _rows(data, filename)
    while table and not any(_text(c) for c in table[0]):
        table = table[1:]
    if not table:
        raise TableUnreadable([_problem(None, gettext_noop("Tabellen är tom."))])
    header = [_key(c) for c in table[0]]
    out = MpTable()
    where: dict[tuple[int, int], int] = {}
    if any(h in PLACE for h in header) and any(h in POINTS for h in header):
        _read_long(table, header, out, where)
    elif header and header[0] in PAIRS and len(header) > 1:
        places = [_whole(c) for c in table[0][1:]]
        if any(p < 1 for p in places if p is not None) or not any(places):
            raise TableUnreadable([_header_problem()])
        _read_wide(table, places, out, where)
    else:
        raise TableUnreadable([_header_problem()])
    _order_problems(out, where)
    if not out.points and not out.problems:
        out.problems.append(_problem(None, gettext_noop("Tabellen har inga poäng.")))
    return out


def _header_problem() -> TableProblem:
    return _problem(
        None,
        gettext_noop(
            "Första raden ska ha rubrikerna Antal par, Placering och Poäng (en rad per "
            "placering), eller Antal par följt av placeringarna 1, 2, 3 … (en rad per antal par)."
        ),
    )


def _add(out: MpTable, where, row: int, n: int, place: int, value) -> None:
    if value is None:
        return
    if value == "bad":
        out.problems.append(
            _problem(
                row,
                gettext_noop(
                    "Rad %(row)s: poängen för placering %(place)s är inte ett tal mellan 0 och "
                    "%(max)s med högst två decimaler."
                ),
                place=place,
                max=MAX_POINTS,
            )
        )
        return
    if place > n:
        out.problems.append(
            _problem(
                row,
                gettext_noop("Rad %(row)s: placering %(place)s finns inte med %(n)s par."),
                place=place,
                n=n,
            )
        )
        return
    if (n, place) in out.points:
        out.problems.append(
            _problem(
                row,
                gettext_noop(
                    "Rad %(row)s: %(n)s par, placering %(place)s står redan på rad %(first)s."
                ),
                n=n,
                place=place,
                first=where[(n, place)],
            )
        )
        return
    out.points[(n, place)] = value
    where[(n, place)] = row


def _pairs_problem(row: int, cell) -> TableProblem:
    return _problem(
        row,
        gettext_noop("Rad %(row)s: antal par ska vara ett heltal 2–%(max)s (inte ”%(value)s”)."),
        max=MAX_PAIRS,
        value=_text(cell)[:20],
    )


def _pairs(cell) -> int | None:
    n = _whole(cell)
    return n if n is not None and 2 <= n <= MAX_PAIRS else None


def _read_long(table, header, out: MpTable, where) -> None:
    col_n = next((i for i, h in enumerate(header) if h in PAIRS), None)
    col_place = next(i for i, h in enumerate(header) if h in PLACE)
    col_points = next(i for i, h in enumerate(header) if h in POINTS)
    if col_n is None:
        raise TableUnreadable([_header_problem()])
    for number, row in enumerate(table[1:], start=2):
        if not any(_text(c) for c in row):
            continue
        out.read += 1
        cell = row + [None] * (max(col_n, col_place, col_points) + 1 - len(row))
        n = _pairs(cell[col_n])
        if n is None:
            out.problems.append(_pairs_problem(number, cell[col_n]))
            continue
        place = _whole(cell[col_place])
        if place is None or place < 1:
            out.problems.append(
                _problem(
                    number,
                    gettext_noop("Rad %(row)s: placeringen ska vara ett heltal från 1."),
                )
            )
            continue
        value = _points(cell[col_points])
        if value is None:
            out.problems.append(
                _problem(number, gettext_noop("Rad %(row)s: poängen saknas."), place=place)
            )
            continue
        _add(out, where, number, n, place, value)


def _read_wide(table, places, out: MpTable, where) -> None:
    for number, row in enumerate(table[1:], start=2):
        if not any(_text(c) for c in row):
            continue
        out.read += 1
        n = _pairs(row[0])
        if n is None:
            out.problems.append(_pairs_problem(number, row[0]))
            continue
        for place, cell in zip(places, row[1:]):
            if place is None:
                if _text(cell):
                    out.problems.append(
                        _problem(
                            number, gettext_noop("Rad %(row)s: ett värde i en kolumn utan rubrik.")
                        )
                    )
                continue
            _add(out, where, number, n, place, _points(cell))


def _order_problems(out: MpTable, where) -> None:
    """A worse place never gets more points than a better one at the same number of pairs."""
    for (n, place), value in sorted(out.points.items()):
        better = out.points.get((n, place - 1))
        if better is not None and value > better:
            out.problems.append(
                _problem(
                    where[(n, place)],
                    gettext_noop(
                        "Rad %(row)s: placering %(place)s ger fler poäng (%(points)s) än "
                        "placering %(better)s (%(better_points)s) med %(n)s par."
                    ),
                    place=place,
                    points=value,
                    better=place - 1,
                    better_points=better,
                    n=n,
                )
            )
    out.problems.sort(key=lambda p: (p.row or 0))


# ---------------------------------------------------------------------------------------------
# Stored in the season (Season.tables["pair_final_mp_table"]) and shown
# ---------------------------------------------------------------------------------------------


def to_stored(points: Mapping[tuple[int, int], Decimal]) -> dict[str, str]:
    """The table as the season keeps it: "pairs:place" → points as text, in order."""
    return {f"{n}:{place}": format(points[(n, place)], "f") for n, place in sorted(points)}


def from_stored(raw: Mapping | None) -> dict[tuple[int, int], Decimal]:
    """The table the season keeps (see :func:`to_stored`); a key or value that cannot be read
    is left out."""
    out: dict[tuple[int, int], Decimal] = {}
    for key, value in dict(raw or {}).items():
        try:
            n, place = (int(x) for x in str(key).split(":"))
            out[(n, place)] = Decimal(str(value))
        except (ValueError, InvalidOperation):
            continue
    return out


def grid(points: Mapping[tuple[int, int], Decimal]) -> tuple[list[int], list[tuple]]:
    """The table as SBF prints it: the places (columns) and, per number of pairs, its points
    for each place (None where the table gives none)."""
    places = sorted({p for _n, p in points})
    rows = []
    for n in sorted({n for n, _p in points}):
        rows.append((n, [points.get((n, p)) for p in places]))
    return places, rows
