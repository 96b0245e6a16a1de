"""The federation's member register and club list, read from the file its register exports
(issue 23; ../shared/CONTRACT.md "Season data"). Pure: no Django, no database.

A member register is CSV (``;`` or ``,``; UTF-8 with or without BOM, or Windows-1252) or XLSX
(the first sheet) whose first row names the columns, in Swedish as the register writes them:

- ``MID`` (SBF member number: digits; leading zeros do not count, R-GEN-2),
- ``Förnamn``, ``Efternamn``,
- ``Födelseår`` (a year) or ``Födelsedatum`` (``ÅÅÅÅ-MM-DD``, ``ÅÅÅÅMMDD``; the year is kept),
- ``Kön`` (``K`` or ``M``),
- ``Klubb`` (the representation club's name), ``Distrikt`` (its district; ``UBF`` for Uppland),
- ``Betald`` (``ja``/``nej``: the membership is paid for the season).

Other columns are ignored; header case and surrounding spaces do not matter. Every problem with
a row names its row number (the header is row 1), in Swedish with an English text from the
catalogue. A row with a problem is never used: :attr:`Register.rows` holds only good rows.

A club list has ``Klubbnummer``, ``Klubb`` (or ``Namn``) and ``Distrikt`` (the district
balance, R-TEAM-3, and the out-of-district rules, R-PAIR-1/2, read the club's district).
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .i18n import english, gettext_noop, swedish
from .people import normalise_mid
from .types import Gender

__all__ = [
    "ClubList",
    "ClubRow",
    "Register",
    "RegisterProblem",
    "RegisterRow",
    "RegisterUnreadable",
    "read_clubs",
    "read_register",
]

#: The longest MID the database keeps (clubs.models.Player.mid).
MID_MAX_DIGITS = 9


@dataclass(frozen=True)
class RegisterProblem:
    """A problem with the file (``row`` None) or with one row (``row``: its number in the
    file, the header being row 1). ``template`` is a Swedish msgid (``gettext_noop``)."""

    template: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    row: int | None = None
    code: str = ""

    @property
    def message_sv(self) -> str:
        return swedish(self.template, self.params)

    @property
    def message_en(self) -> str:
        return english(self.template, self.params)

    @property
    def is_error(self) -> bool:
        return True

    def __str__(self) -> str:
        return self.message_sv


class RegisterUnreadable(Exception):
    """The file cannot be read as a register at all (not CSV/XLSX, a required column missing):
    nothing of it is used."""

    def __init__(self, problems: list[RegisterProblem]):
        self.problems = problems
        super().__init__("; ".join(p.message_sv for p in problems))


@dataclass(frozen=True)
class RegisterRow:
    """One good row of the register (a MID given twice: the first row; the later ones are
    problems)."""

    row: int
    mid: str
    first_name: str
    last_name: str
    birth_year: int | None
    gender: str | None  # Gender value ("F" woman, "M" man) or None when not given
    club: str
    district: str
    paid: bool


@dataclass
class Register:
    rows: list[RegisterRow]
    problems: list[RegisterProblem]
    #: Rows read (the header not counted), good or not.
    read: int = 0
    #: The well-formed MIDs of rows with a problem: the member is in the file, not missing.
    problem_mids: set[str] = field(default_factory=set)

    @property
    def clubs(self) -> dict[str, str]:
        """Each club named by a good row → its district (the first row naming it decides)."""
        out: dict[str, str] = {}
        seen: set[str] = set()
        for r in self.rows:
            if r.club and r.club.casefold() not in seen:
                seen.add(r.club.casefold())
                out[r.club] = r.district
        return out

    @property
    def problem_rows(self) -> int:
        """How many rows have a problem (a row with two problems counts once)."""
        return len({p.row for p in self.problems if p.row is not None})


@dataclass(frozen=True)
class ClubRow:
    row: int
    number: str
    name: str
    district: str


@dataclass
class ClubList:
    rows: list[ClubRow]
    problems: list[RegisterProblem]


# ------------------------------------------------------------------------------ the file


def _decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), else Windows-1252 (which decodes any byte but five)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _csv_rows(data: bytes) -> list[list[str]]:
    text = _decode(data)
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


def _xlsx_rows(data: bytes) -> list[list[Any]]:
    from openpyxl import load_workbook  # only when an XLSX is read

    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheet = workbook.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        workbook.close()


def _table(data: bytes, filename: str) -> list[list[Any]]:
    is_xlsx = filename.lower().endswith((".xlsx", ".xlsm")) or data[:4] == b"PK\x03\x04"
    try:
        return _xlsx_rows(data) if is_xlsx else _csv_rows(data)
    except Exception as exc:  # noqa: BLE001 - any unreadable file is one clear refusal
        raise RegisterUnreadable(
            [
                RegisterProblem(
                    gettext_noop("Filen kan inte läsas som CSV eller XLSX (%(error)s)."),
                    {"error": type(exc).__name__},
                    code="unreadable",
                )
            ]
        ) from exc


def _key(header: Any) -> str:
    return re.sub(r"\s+", " ", str(header or "")).strip().casefold()


def _columns(header: list[Any], wanted: Mapping[str, Iterable[str]]) -> dict[str, int]:
    keys = [_key(h) for h in header]
    out = {}
    for name, aliases in wanted.items():
        for alias in aliases:
            if alias.casefold() in keys:
                out[name] = keys.index(alias.casefold())
                break
    return out


def _cell(row: list[Any], index: int | None) -> Any:
    if index is None or index >= len(row):
        return None
    return row[index]


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return re.sub(r"\s+", " ", str(value)).strip()


def _data_rows(table: list[list[Any]]) -> Iterator[tuple[int, list[Any]]]:
    for number, row in enumerate(table[1:], start=2):
        if any(_text(v) for v in row):
            yield number, row


# ------------------------------------------------------------------------------ members

REGISTER_COLUMNS = {
    "mid": ("MID", "Medlemsnummer", "Medlemsnr"),
    "first_name": ("Förnamn",),
    "last_name": ("Efternamn",),
    "birth_year": ("Födelseår",),
    "birth_date": ("Födelsedatum",),
    "gender": ("Kön",),
    "club": ("Klubb", "Representationsklubb"),
    "district": ("Distrikt",),
    "paid": ("Betald",),
}
REQUIRED = ("mid", "first_name", "last_name", "gender", "club", "district", "paid")
HEADER_NAMES = {
    "mid": "MID",
    "first_name": "Förnamn",
    "last_name": "Efternamn",
    "gender": "Kön",
    "club": "Klubb",
    "district": "Distrikt",
    "paid": "Betald",
    "birth_year": "Födelseår",
}

YES = {"ja", "j", "yes", "y", "x", "1", "true", "sant"}
NO = {"nej", "n", "no", "0", "false", "falskt", ""}


def _problem(row: int, template: str, code: str, **params) -> RegisterProblem:
    return RegisterProblem(template, {"row": row, **params}, row=row, code=code)


def _birth_year(value: Any, *, is_date: bool) -> int | None | str:
    """The year, None when empty, or "bad"."""
    if value is None or _text(value) == "":
        return None
    if isinstance(value, datetime.date | datetime.datetime):
        return value.year
    text = _text(value)
    match = re.fullmatch(r"(\d{4})(?:-?\d{2}-?\d{2})?(?:[- ]?\d{4})?", text)
    if not is_date and not re.fullmatch(r"\d{4}", text):
        match = None
    if not match:
        return "bad"
    year = int(match.group(1))
    if not 1890 <= year <= 2100:
        return "bad"
    return year


def read_register(data: bytes, filename: str = "register.csv") -> Register:
    """The register in ``data`` (``filename`` tells CSV from XLSX; an XLSX is also known by its
    first bytes). Raises :class:`RegisterUnreadable` when the file or its header cannot be
    used; a problem with a row is in :attr:`Register.problems` and that row is left out."""
    table = _table(data, filename)
    if not table:
        raise RegisterUnreadable([RegisterProblem(gettext_noop("Filen är tom."), code="empty")])
    columns = _columns(table[0], REGISTER_COLUMNS)
    missing = [HEADER_NAMES[c] for c in REQUIRED if c not in columns]
    if "birth_year" not in columns and "birth_date" not in columns:
        missing.append("Födelseår/Födelsedatum")
    if missing:
        raise RegisterUnreadable(
            [
                RegisterProblem(
                    gettext_noop("Kolumner saknas i första raden: %(columns)s."),
                    {"columns": ", ".join(missing)},
                    code="columns",
                )
            ]
        )
    rows: list[RegisterRow] = []
    problems: list[RegisterProblem] = []
    seen: dict[str, int] = {}
    problem_mids: set[str] = set()
    read = 0
    for number, row in _data_rows(table):
        read += 1
        row_problems: list[RegisterProblem] = []
        raw_mid = _text(_cell(row, columns["mid"]))
        mid = normalise_mid(raw_mid)
        if not (mid.isdigit() and mid.isascii() and len(mid) <= MID_MAX_DIGITS and mid != "0"):
            row_problems.append(
                _problem(
                    number,
                    gettext_noop(
                        'Rad %(row)s: MID "%(mid)s" är inget medlemsnummer (bara siffror, '
                        "högst nio)."
                    ),
                    "mid",
                    mid=raw_mid,
                )
            )
        first = _text(_cell(row, columns["first_name"]))
        last = _text(_cell(row, columns["last_name"]))
        if not first or not last:
            row_problems.append(
                _problem(number, gettext_noop("Rad %(row)s: för- eller efternamn saknas."), "name")
            )
        if len(first) > 60 or len(last) > 60:
            row_problems.append(
                _problem(number, gettext_noop("Rad %(row)s: namnet är för långt."), "name-long")
            )
        if "birth_year" in columns:
            year = _birth_year(_cell(row, columns["birth_year"]), is_date=False)
        else:
            year = _birth_year(_cell(row, columns["birth_date"]), is_date=True)
        if year == "bad":
            row_problems.append(
                _problem(
                    number,
                    gettext_noop(
                        "Rad %(row)s: födelseåret eller födelsedatumet går inte att läsa."
                    ),
                    "birth",
                )
            )
            year = None
        gender_text = _text(_cell(row, columns["gender"])).upper()
        gender = {"K": Gender.WOMAN.value, "M": Gender.MAN.value, "": None}.get(gender_text, "bad")
        if gender == "bad":
            row_problems.append(
                _problem(
                    number,
                    gettext_noop('Rad %(row)s: kön "%(gender)s" ska vara K eller M.'),
                    "gender",
                    gender=gender_text,
                )
            )
            gender = None
        club = _text(_cell(row, columns["club"]))
        district = _text(_cell(row, columns["district"])).upper()
        if club and not district:
            row_problems.append(
                _problem(
                    number,
                    gettext_noop("Rad %(row)s: klubben %(club)s har inget distrikt."),
                    "district",
                    club=club,
                )
            )
        if len(club) > 120 or len(district) > 16:
            row_problems.append(
                _problem(
                    number,
                    gettext_noop("Rad %(row)s: klubbens eller distriktets namn är för långt."),
                    "club-long",
                )
            )
        paid_text = _text(_cell(row, columns["paid"])).casefold()
        if paid_text not in YES | NO:
            row_problems.append(
                _problem(
                    number,
                    gettext_noop('Rad %(row)s: Betald "%(paid)s" ska vara ja eller nej.'),
                    "paid",
                    paid=paid_text,
                )
            )
        if mid and mid in seen and not any(p.code == "mid" for p in row_problems):
            row_problems.append(
                _problem(
                    number,
                    gettext_noop(
                        "Rad %(row)s: MID %(mid)s finns redan på rad %(first)s; raden används inte."
                    ),
                    "duplicate",
                    mid=mid,
                    first=seen[mid],
                )
            )
        if mid:
            seen.setdefault(mid, number)
        if row_problems:
            problems.extend(row_problems)
            if mid.isdigit() and mid.isascii():
                problem_mids.add(mid)
            continue
        rows.append(
            RegisterRow(
                row=number,
                mid=mid,
                first_name=first,
                last_name=last,
                birth_year=year,
                gender=gender,
                club=club,
                district=district,
                paid=paid_text in YES,
            )
        )
    problems.sort(key=lambda p: (p.row or 0))
    return Register(rows=rows, problems=problems, read=read, problem_mids=problem_mids)


# ------------------------------------------------------------------------------ clubs

CLUB_COLUMNS = {
    "number": ("Klubbnummer", "Klubbnr", "Nummer"),
    "name": ("Klubb", "Namn", "Klubbnamn"),
    "district": ("Distrikt",),
}


def read_clubs(data: bytes, filename: str = "klubbar.csv") -> ClubList:
    """A club list (``Klubbnummer``, ``Klubb``, ``Distrikt``). Raises
    :class:`RegisterUnreadable` when the file or its header cannot be used."""
    table = _table(data, filename)
    if not table:
        raise RegisterUnreadable([RegisterProblem(gettext_noop("Filen är tom."), code="empty")])
    columns = _columns(table[0], CLUB_COLUMNS)
    if "name" not in columns or "district" not in columns:
        raise RegisterUnreadable(
            [
                RegisterProblem(
                    gettext_noop("Kolumner saknas i första raden: %(columns)s."),
                    {"columns": "Klubb, Distrikt"},
                    code="columns",
                )
            ]
        )
    rows, problems, names = [], [], {}
    for number, row in _data_rows(table):
        name = _text(_cell(row, columns["name"]))
        district = _text(_cell(row, columns["district"])).upper()
        club_number = _text(_cell(row, columns.get("number")))
        if not name or not district:
            problems.append(
                _problem(
                    number,
                    gettext_noop("Rad %(row)s: klubbens namn eller distrikt saknas."),
                    "club",
                )
            )
            continue
        if name.casefold() in names:
            problems.append(
                _problem(
                    number,
                    gettext_noop("Rad %(row)s: klubben %(club)s finns också på rad %(rows)s."),
                    "duplicate",
                    club=name,
                    rows=str(names[name.casefold()]),
                )
            )
            continue
        names[name.casefold()] = number
        rows.append(ClubRow(row=number, number=club_number, name=name, district=district))
    return ClubList(rows=rows, problems=problems)
