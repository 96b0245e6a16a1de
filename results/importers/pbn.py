"""PBN 2.1 results as Ruter / Magic Contest export them (pure Python, no Django).

Reads the tag pairs of a PBN file game by game and turns the ``ScoreTable`` (one per board)
and ``TotalScoreTable`` (the ranking list) into a :class:`~.model.ParsedPairEvent`, or, for
teams, the one-game-per-table idiom (``Room`` Open/Closed, ``HomeTeam``/``VisitTeam``,
``Round``, ``Score``, optional ``ScoreIMP``) into a :class:`~.model.ParsedTeamEvent`.

What is handled (PBN 2.1: file rules, score tags, ``ScoreTable``/``TotalScoreTable``; what
clubs may upload: docs/result-formats.md):

* ``%`` lines (comments and escapes such as ``% PBN 2.1``), ``;`` comment lines and ``{...}``
  commentary; games separated by empty lines; ``[Tag "value"]`` with ``\\"`` escapes.
* Inheritance: ``"#"`` copies the previous game's value; ``"##text"`` sets ``text`` for this
  and every following game that does not set the tag itself.
* Table headers such as ``Rank\\2R;PairId\\2R;TotalScoreMP\\5R``: a leading ``+``/``-`` sort
  mark and the ``\\<width><L|R>`` suffix are stripped; names are matched case-insensitively.
* Table rows are tokenised with quotes, so ``"Åsa Öberg - Märta Ängström"`` is one cell;
  ``-`` (irrelevant) and ``?`` (unknown) cells are empty; a ``^`` prefix marks an artificial
  score (``^"A6040"`` = 60 % / 40 %, ``^"-420"`` = an assigned score).
* ``Score_NS`` or ``Score_EW`` (the other ``-``), ``Pass`` boards, ``2N`` → ``2NT``.
* ``TotalMP`` / ``TotalScoreMP`` / ``TotalScore`` and ``TotalPercentage``; the
  ``TotalScoreTable`` is searched for in the whole file (Ruter may put it first or last).
* Mitchell files whose ``TotalScoreTable`` has the same ``PairId`` in both directions (with a
  ``Direction`` column) get pair numbers ``"1NS"``/``"1EW"``, as USEBIO files have them.

Member numbers (MID): Ruter's standard columns carry none. Two conventions are read:
a user-defined column named like ``PlayerId``, ``PlayerId_1``, ``MemberID`` or ``MID`` (every run
of three or more digits in the cell is a MID, in the order of the names), and MIDs written in
the ``Names`` cell after each name: ``"Åsa Öberg (12345) - Märta Ängström (23456)"``. The
Django layer matches a pair by its pair number within the heat plus the MIDs when present,
never by names alone.

A bronze heat's qualifier declaration (R-PAIR-KVAL-5) is read from a ``Qualifier`` / ``Kval``
column (``Ja``/``Nej``, ``Y``/``N``, ``1``/``0``, ``K``/``-``).

Parse errors (a cell that is not a number, a row with the wrong number of cells, a missing
``PairId`` column ...) are all collected and raised together as :class:`~.model.ImportFailed`
with their line numbers; checks of the figures themselves are in :mod:`.validate`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from decimal import Decimal

from ubf.rules.i18n import gettext_noop
from ubf.rules.scoring import board_vulnerability, contract_score, imps

from .bounds import Limits, check
from .model import (
    BOARD_COUNT,
    BOARD_IMPS,
    BOARD_NUMBER,
    MATCH_IMPS,
    MATCHPOINTS,
    PAIR_NUMBER_WHAT,
    PERCENTAGE,
    RANK,
    ROUND,
    SCORE,
    TABLE,
    TOTAL_MATCHPOINTS,
    TRICKS,
    VICTORY_POINTS,
    Bounds,
    ImportFailed,
    ImportNote,
    ImportProblem,
    OutOfRange,
    ParsedBoard,
    ParsedMatch,
    ParsedPair,
    ParsedPairEvent,
    ParsedPlayer,
    ParsedTeam,
    ParsedTeamBoard,
    ParsedTeamEvent,
    TravellerLine,
    board_points,
    infer_scale,
    match_imps,
    normalize_contract,
    normalize_declarer,
    normalize_mid,
    note,
    parse_date,
    parse_decimal,
    parse_int,
    problem,
    refused_as,
    shown,
    split_contract,
    split_names,
    valid_pair_number,
    zero_mids,
)

__all__ = [
    "Cell",
    "PbnGame",
    "PbnTag",
    "parse_artificial",
    "parse_pbn_pairs",
    "parse_pbn_teams",
    "parse_score_tag",
    "parse_table",
    "read_games",
    "tokenize_row",
]

_TAG_RE = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(.*)$')
_TABLE_SUFFIX_RE = re.compile(r"\\.*$")
_ARTIFICIAL_RE = re.compile(r"^A?\s*(\d{1,3})\s*%?\s*(?:[-/]\s*(\d{1,3})\s*%?)?$", re.IGNORECASE)


# --------------------------------------------------------------------------- reading games


@dataclass
class PbnTag:
    name: str
    value: str
    line: int
    section: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class PbnGame:
    start_line: int
    tags: dict[str, PbnTag] = field(default_factory=dict)

    def get(self, name: str) -> str | None:
        """The (inherited) value of a tag, case-insensitive; ``None`` when absent."""
        tag = self.tag(name)
        return tag.value if tag is not None else None

    def tag(self, name: str) -> PbnTag | None:
        key = name.lower()
        return self.tags.get(key)


_ESCAPE_RE = re.compile(r'\\(["\\])')


def _unescape(value: str) -> str:
    """PBN string escapes: only ``\\"`` and ``\\\\`` (``Rank\\2R`` keeps its backslash)."""
    if "\\" not in value:
        return value  # most tags: no regex at all (a file of 350,000 tags spent 1 s here)
    return _ESCAPE_RE.sub(lambda m: m.group(1), value)


def read_games(text: str) -> tuple[list[PbnGame], list[ImportProblem]]:
    """Split PBN text into games, resolving ``#``/``##`` inheritance.

    Returns the games and the (non-fatal) problems met; raises ImportFailed if the text does
    not look like PBN at all (no tag pair before the first other content).
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    games: list[PbnGame] = []
    problems: list[ImportProblem] = []
    current: PbnGame | None = None
    last_tag: PbnTag | None = None
    in_brace = False
    seen_tag = False
    for index, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        if in_brace:
            if "}" in line:
                in_brace = False
            continue
        if line.startswith("%"):
            continue
        stripped = line.strip()
        if not stripped:
            current = None
            last_tag = None
            continue
        if stripped.startswith(";"):
            continue
        if stripped.startswith("{"):
            if "}" not in stripped:
                in_brace = True
            continue
        match = _TAG_RE.match(line)
        if match:
            seen_tag = True
            if current is None:
                current = PbnGame(start_line=index)
                games.append(current)
            name, value, rest = match.group(1), _unescape(match.group(2)), match.group(3)
            tag = PbnTag(name=name, value=value, line=index)
            key = name.lower()
            if key not in current.tags:
                current.tags[key] = tag
            last_tag = tag
            if rest.strip() and not rest.strip().startswith(";"):
                tag.section.append((index, rest))
            continue
        if stripped.startswith("["):
            if not seen_tag:
                raise _not_pbn(index)
            problems.append(
                problem(
                    gettext_noop("Raden kunde inte läsas som en PBN-tagg: %(text)s"),
                    params={"text": _short(stripped)},
                    line=index,
                    code="pbn-bad-tag",
                )
            )
            continue
        if not seen_tag:
            raise _not_pbn(index)
        if last_tag is None:
            problems.append(
                problem(
                    gettext_noop("Raden hör inte till någon tagg och hoppades över: %(text)s"),
                    params={"text": _short(stripped)},
                    line=index,
                    warning=True,
                    code="pbn-stray-line",
                )
            )
            continue
        last_tag.section.append((index, line))
    if not seen_tag:
        raise ImportFailed(
            problem(
                gettext_noop('Filen innehåller inga PBN-taggar ([Tagg "värde"]). Är det rätt fil?'),
                code="pbn-empty",
            )
        )
    _resolve_inheritance(games)
    return games, problems


def _not_pbn(line: int) -> ImportFailed:
    return ImportFailed(
        problem(
            gettext_noop(
                "Filen ser inte ut som PBN: den första raden med innehåll är ingen tagg ([Tagg "
                '"värde"]).'
            ),
            line=line,
            code="pbn-not-pbn",
        )
    )


def _short(text: str, size: int = 60) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def _resolve_inheritance(games: list[PbnGame]) -> None:
    previous: dict[str, PbnTag] = {}
    persistent: dict[str, PbnTag] = {}
    for game in games:
        for key, tag in list(game.tags.items()):
            if tag.value.startswith("##"):
                tag.value = tag.value[2:]
                persistent[key] = tag
            elif tag.value == "#":
                before = previous.get(key)
                tag.value = before.value if before is not None else ""
            elif key in persistent:
                del persistent[key]
        for key, tag in persistent.items():
            if key not in game.tags:
                game.tags[key] = PbnTag(tag.name, tag.value, tag.line)
        previous = dict(game.tags)


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Cell:
    """One table cell: ``text`` without quotes; ``empty`` for ``-``/``?``; ``artificial`` for ^."""

    text: str
    quoted: bool = False
    artificial: bool = False

    @property
    def empty(self) -> bool:
        return not self.quoted and self.text in ("-", "?", "")

    @property
    def value(self) -> str | None:
        return None if self.empty else self.text


def tokenize_row(row: str) -> list[Cell]:
    """Split a table row into cells; quoted strings keep their spaces (``\\"`` escapes).

    Raises ValueError for an unterminated quote.
    """
    cells: list[Cell] = []
    i, n = 0, len(row)
    while i < n:
        ch = row[i]
        if ch.isspace():
            i += 1
            continue
        artificial = False
        if ch == "^":
            artificial = True
            i += 1
            if i >= n:
                cells.append(Cell("", artificial=True))
                break
            ch = row[i]
        if ch == '"':
            i += 1
            buf = []
            while i < n and row[i] != '"':
                if row[i] == "\\" and i + 1 < n:
                    i += 1
                buf.append(row[i])
                i += 1
            if i >= n:
                raise ValueError("unterminated quote")
            i += 1
            cells.append(Cell("".join(buf), quoted=True, artificial=artificial))
        else:
            start = i
            while i < n and not row[i].isspace():
                i += 1
            cells.append(Cell(row[start:i], artificial=artificial))
    return cells


def column_name(spec: str) -> str:
    """``"+Rank\\2R"`` → ``"Rank"``."""
    name = _TABLE_SUFFIX_RE.sub("", spec.strip())
    return name.lstrip("+-").strip()


def parse_table(
    tag: PbnTag, max_rows: int | None = None
) -> tuple[list[str], list[tuple[int, dict[str, Cell]]], list]:
    """A table tag's columns (lower-case names) and rows (line number, column → cell).

    Returns ``(columns, rows, problems)``; a row with the wrong number of cells or an
    unterminated quote becomes an error problem naming its line. With ``max_rows``
    (:mod:`.bounds`) it stops at the row after the last allowed one: the caller refuses the
    table without reading the rest.
    """
    names = [column_name(c) for c in tag.value.split(";") if column_name(c)]
    columns = [c.lower() for c in names]
    rows: list[tuple[int, dict[str, Cell]]] = []
    problems: list[ImportProblem] = []
    # PBN §5 lets a row continue on the next line: cells are counted across lines until the
    # row has one per column.
    pending: list[Cell] = []
    pending_line = 0
    for line_no, text in tag.section:
        try:
            cells = tokenize_row(text)
        except ValueError:
            problems.append(
                problem(
                    gettext_noop(
                        '%(name)s: ett citattecken (") öppnas men stängs aldrig på raden.'
                    ),
                    params={"name": tag.name},
                    line=line_no,
                    element=tag.name,
                    code="pbn-quote",
                )
            )
            pending = []
            continue
        if not cells:
            continue
        if not pending:
            pending_line = line_no
        pending = pending + cells
        if len(pending) < len(columns):
            continue
        if len(pending) > len(columns):
            problems.append(_row_width_problem(tag, names, columns, pending_line, len(pending)))
        else:
            rows.append((pending_line, dict(zip(columns, pending))))
        pending = []
        if max_rows is not None and len(rows) > max_rows:
            return columns, rows, problems
    if pending:
        problems.append(_row_width_problem(tag, names, columns, pending_line, len(pending)))
    return columns, rows, problems


def _row_width_problem(tag: PbnTag, names: list[str], columns: list[str], line: int, count: int):
    return problem(
        gettext_noop(
            "%(name)s: raden har %(count)s värden men tabellen har %(width)s kolumner "
            "(%(names)s). Namn med mellanslag måste stå inom citattecken."
        ),
        params={
            "name": tag.name,
            "count": count,
            "width": len(columns),
            "names": ";".join(names),
        },
        line=line,
        element=tag.name,
        code="pbn-row-width",
    )


_SIDE_CODES = {
    "A+": 60, "AVE+": 60, "AV+": 60, "MEDEL+": 60, "M+": 60,
    "A=": 50, "AVE=": 50, "AV=": 50, "MEDEL=": 50, "AVE": 50, "AV": 50, "MEDEL": 50, "A": 50,
    "A-": 40, "AVE-": 40, "AV-": 40, "MEDEL-": 40, "M-": 40,
}  # fmt: skip


def side_percentage(text: str | None) -> int | None:
    """The percentage a per-side adjusted code gives its own side, else ``None``.

    Magic Contest / Ruter write the code of each side in its own score column: ``A+`` (also
    ``AVE+``, ``AV+``, ``MEDEL+``) = 60 %, ``A=`` (``AVE``, ``MEDEL``) = 50 %, ``A-`` (``AVE-``,
    ``AV-``, ``MEDEL-``) = 40 %.
    """
    if not text:
        return None
    return _SIDE_CODES.get(text.strip().upper().replace(" ", "").replace("\u2212", "-"))


def parse_artificial(text: str | None) -> str | None:
    """An artificial score as ``"A6040"``: ``A6040``, ``A60``, ``60-40``, ``60%``, ``A5050``.

    A single percentage means NS gets it and EW the complement (``A60`` → ``A6040``).
    ``None`` if the text is not an artificial-score notation.
    """
    if not text:
        return None
    raw = text.strip().upper()
    if raw.startswith("ARB") or raw in ("AVE+", "AV+", "MEDEL+"):
        return "A6040"
    if raw in ("AVE-", "AV-", "MEDEL-"):
        return "A4060"
    if raw in ("AVE", "AV", "AVE=", "MEDEL"):
        return "A5050"
    if not (raw.startswith("A") or "%" in raw or "-" in raw[1:] or "/" in raw):
        return None
    compact = raw.replace(" ", "")
    if compact.startswith("A") and compact[1:].isdigit() and len(compact) == 5:
        return compact
    m = _ARTIFICIAL_RE.match(compact)
    if not m:
        return None
    ns = int(m.group(1))
    ew = int(m.group(2)) if m.group(2) is not None else 100 - ns
    if not (0 <= ns <= 100 and 0 <= ew <= 100) or ns == 100 or ew == 100:
        return None
    return f"A{ns:02d}{ew:02d}"


# --------------------------------------------------------------------------- pairs


class _Collector:
    def __init__(self) -> None:
        self.errors: list[ImportProblem] = []
        self.warnings: list[ImportNote] = []

    def add(self, p: ImportProblem) -> None:
        if p.is_error:
            self.errors.append(p)
        else:
            self.warnings.append(ImportNote(p))

    def extend(self, problems: list[ImportProblem]) -> None:
        for p in problems:
            self.add(p)

    def bad_value(self, line: int, element: str, column: str, text: str, what: str):
        """``what`` is a ``gettext_noop`` phrase ("ett tal"), translated with the message."""
        self.errors.append(
            problem(
                gettext_noop(
                    '%(element)s: kolumnen %(column)s har värdet "%(text)s", som inte är %(what)s.'
                ),
                params={"element": element, "column": column, "text": shown(text), "what": what},
                line=line,
                element=element,
                code="pbn-bad-value",
            )
        )

    def finish(self) -> None:
        if self.errors:
            raise ImportFailed(self.errors)


def _cell_decimal(
    c: _Collector, cell: Cell | None, line: int, element: str, column: str, bounds: Bounds
):
    """A number cell within its field's ``bounds`` (``None`` when empty or refused)."""
    if cell is None or cell.empty:
        return None
    try:
        return parse_decimal(cell.text, bounds)
    except ValueError as exc:
        c.bad_value(line, element, column, cell.text, refused_as(exc, gettext_noop("ett tal")))
        return None


def _cell_int(
    c: _Collector, cell: Cell | None, line: int, element: str, column: str, bounds: Bounds
):
    """A whole-number cell within its field's ``bounds`` (``None`` when empty or refused)."""
    if cell is None or cell.empty:
        return None
    text = cell.text.rstrip("=").strip()  # "3=" for a shared rank
    try:
        return parse_int(text, bounds)
    except ValueError as exc:
        what = refused_as(exc, gettext_noop("ett heltal"))
        c.bad_value(line, element, column, cell.text, what)
        return None


def _board_number(c: _Collector, game: PbnGame, text: str, element: str) -> int | None:
    """A game's ``Board`` tag: a board number 1–999 (``None`` when refused)."""
    try:
        return parse_int(text, BOARD_NUMBER)
    except ValueError as exc:
        what = refused_as(exc, gettext_noop("ett bricknummer"))
        c.bad_value(game.start_line, element, "Board", text, what)
        return None


def _direction(text: str | None) -> str | None:
    if not text:
        return None
    raw = text.upper().replace("-", "").replace(" ", "").replace("/", "")
    if raw in ("NS", "N", "NORDSYD", "NORTHSOUTH"):
        return "NS"
    if raw in ("EW", "E", "W", "ÖV", "OV", "ÖSTVÄST", "EASTWEST", "Ö", "V"):
        return "EW"
    return None


_MID_COLUMN_RE = re.compile(
    r"^(playerid|playerids|memberid|memberids|mid|mids|medlemsnr)(\d|ns|ew)?$"
)
_QUALIFIER_COLUMNS = ("qualifier", "kval", "kvalificerad", "declaredqualifier")
_TOTAL_COLUMNS = ("totalscoremp", "totalmp", "totalscore", "totalmatchpoints")
_PERCENT_COLUMNS = ("totalpercentage", "percentage", "totalscorepercentage")
_SESSION_NAMES = {
    "sessionscoremp": "SessionScoreMP",
    "sessionpercentage": "SessionPercentage",
    "sessionrank": "SessionRank",
    "nrboardssession": "NrBoardsSession",
}
_SESSION_COLUMNS = tuple(_SESSION_NAMES)


def _mid_columns(columns: list[str]) -> list[str]:
    return [c for c in columns if _MID_COLUMN_RE.match(c.replace("_", ""))]


def _qualifier(text: str | None) -> bool | None:
    if text is None:
        return None
    raw = text.strip().upper()
    if raw in ("JA", "J", "Y", "YES", "1", "K", "KVAL", "X", "TRUE"):
        return True
    if raw in ("NEJ", "N", "NO", "0", "", "FALSE"):
        return False
    return None


def _total_score_table(games: list[PbnGame]) -> PbnTag | None:
    candidates = [g.tags["totalscoretable"] for g in games if "totalscoretable" in g.tags]
    candidates = [t for t in candidates if t.section] or candidates
    if not candidates:
        return None
    # The one with the most rows; among equals the last (a final ranking after sessions).
    return max(reversed(candidates), key=lambda t: len(t.section))


def _scale_from_scoring(value: str | None) -> str | None:
    if not value:
        return None
    parts = {p.strip().upper() for p in value.replace(",", ";").split(";")}
    if "MP2" in parts:
        return "MP2"
    if "MP1" in parts:
        return "MP1"
    return None


def _event_title_and_date(games: list[PbnGame]) -> tuple[str, object]:
    title = ""
    date = None
    for g in games:
        if not title and (g.get("event") or "").strip():
            title = g.get("event").strip()
        if date is None:
            date = parse_date(g.get("eventdate")) or parse_date(g.get("date"))
        if title and date:
            break
    return title, date


_IMP_SCORING = {"IMP", "IMPS", "BUTLER", "CROSSIMP", "CROSSIMPS", "CROSS-IMP", "CROSS-IMPS"}
_MP_SCORING = {"MP", "MP1", "MP2", "MATCHPOINTS", "MATCHPOINT", "MATCHPOINTSPAIRS"}


def _scoring_parts(games: list[PbnGame]) -> set[str]:
    parts: set[str] = set()
    for g in games:
        for part in (g.get("scoring") or "").replace(",", ";").split(";"):
            if part.strip():
                parts.add(part.strip().upper().replace(" ", ""))
    return parts


def _has_result(g: PbnGame) -> bool:
    contract = (g.get("contract") or "").strip()
    return bool(contract) and contract not in ("-", "?")


_RUTER_EXPORT = gettext_noop(
    "Ladda upp PBN-exporten från Ruter med resultat per bricka (ScoreTable) och "
    "resultatlista (TotalScoreTable)."
)


def _refuse_as_pairs(games: list[PbnGame]) -> ImportProblem | None:
    """One message that says what a PBN file is when it is no matchpointed pairs result.

    A hand record, a file with one game per table and no pair numbers (BBO, web pages), a
    frequency table without pair numbers or an IMP-scored tournament gets one message naming
    what the file is and what to upload instead, not one line per board.
    """
    score_tables = [g.tags["scoretable"] for g in games if "scoretable" in g.tags]
    has_totals = any("totalscoretable" in g.tags for g in games)
    boards = [g for g in games if (g.get("board") or "").strip()]
    scoring = _scoring_parts(games)
    if scoring & _IMP_SCORING and not scoring & _MP_SCORING:
        shown = next((g.get("scoring") for g in games if g.get("scoring")), "")
        return problem(
            gettext_noop(
                'Filen är en IMP-räknad tävling ([Scoring "%(scoring)s"]), inte en matchpoängräknad '
                "partävling. DM-par räknas i matchpoäng: räkna tävlingen i matchpoäng i "
                "resultatprogrammet och exportera PBN igen."
            ),
            params={"scoring": shown},
            element="Scoring",
            code="pbn-imp-scoring",
        )
    if not score_tables and not has_totals:
        played = sum(1 for g in boards if _has_result(g))
        if not played:
            return problem(
                gettext_noop(
                    "Filen är en handlista (%(deals)s givar med bara korten, inga resultat). "
                    "%(export)s"
                ),
                params={"deals": len(boards), "export": _RUTER_EXPORT},
                element="Board",
                code="pbn-hand-record",
            )
        return problem(
            gettext_noop(
                "Filen har ett resultat per spelat bord (%(played)s givar med kontrakt) men inga "
                "parnummer och ingen resultatlista (t.ex. en BBO-fil eller en sparad webbsida), "
                "så resultaten kan inte kontrolleras eller kopplas till heatets par. %(export)s"
            ),
            params={"played": played, "export": _RUTER_EXPORT},
            element="Board",
            code="pbn-no-pair-numbers",
        )
    if score_tables:
        without = [
            t
            for t in score_tables
            if not {"pairid_ns", "pairid_ew"} & {column_name(x).lower() for x in t.value.split(";")}
        ]
        if len(without) == len(score_tables):
            return problem(
                gettext_noop(
                    "Brickornas ScoreTable har inga parnummer (PairId_NS/PairId_EW saknas på alla "
                    "%(boards)s brickor): filen är en frekvenstabell som visar resultaten men "
                    "inte vilka par som fick dem. %(export)s"
                ),
                params={"boards": len(score_tables), "export": _RUTER_EXPORT},
                line=score_tables[0].line,
                element="ScoreTable",
                code="pbn-frequency-table",
            )
    elif has_totals:
        return problem(
            gettext_noop(
                "Filen har en resultatlista men inga resultat per bricka (ingen ScoreTable), "
                "t.ex. en export utan brickresultat; brickresultaten behövs för kontrollen. "
                "%(export)s"
            ),
            params={"export": _RUTER_EXPORT},
            element="ScoreTable",
            code="pbn-no-boards",
        )
    return None


def parse_pbn_pairs(text: str, *, limits: Limits | None = None) -> ParsedPairEvent:
    """A pairs heat from PBN text (already decoded). See the module docstring.

    Raises ImportFailed with every parse error (line numbers included) when the file cannot
    be read; the result's ``warnings`` hold non-fatal notes. ``limits`` (:mod:`.bounds`): the
    rows of the ranking list and of each board's ScoreTable, and the boards, are counted
    before any of them is read, and a file over a bound is refused at once.
    """
    games, problems = read_games(text)
    if limits is not None:
        _check_pairs_bounds(games, limits)
    c = _Collector()
    c.extend(problems)
    title, date = _event_title_and_date(games)
    scale = None
    for g in games:
        scale = _scale_from_scoring(g.get("scoring"))
        if scale:
            break

    if any(g.tag("room") is not None for g in games) and not any(
        g.tag("scoretable") is not None for g in games
    ):
        raise ImportFailed(
            problem(
                gettext_noop(
                    "Filen ser ut som en lagtävling (den har Room/HomeTeam-taggar men ingen ScoreTable). "
                    "Ladda upp den som lagresultat."
                ),
                code="pbn-teams-as-pairs",
            )
        )

    refusal = _refuse_as_pairs(games)
    if refusal is not None:
        raise ImportFailed(refusal)

    # ---- ranking list
    pairs: list[ParsedPair] = []
    suffix_directions = False
    tst = _total_score_table(games)
    tables = sum(1 for g in games if "totalscoretable" in g.tags)
    if tables > 1:
        c.warnings.append(
            note(
                gettext_noop(
                    "Filen har %(tables)s TotalScoreTable; den med flest rader (rad %(line)s) "
                    "används."
                ),
                params={"tables": tables, "line": tst.line},
                code="pbn-many-totals",
            )
        )
    if tst is None:
        c.errors.append(
            problem(
                gettext_noop(
                    "Filen saknar resultatlistan (TotalScoreTable). Exportera PBN med resultatlista från "
                    "Ruter."
                ),
                element="TotalScoreTable",
                code="pbn-no-totals",
            )
        )
    else:
        pairs, suffix_directions = _parse_totals(c, tst, limits)

    # ---- boards
    boards: dict[int, list[TravellerLine]] = {}
    board_lines: dict[int, int] = {}
    refused_boards = 0  # games whose Board is no board number (their own problem says so)
    for g in games:
        board_text = (g.get("board") or "").strip()
        if not board_text:
            continue
        element = f"Board {board_text}"
        number = _board_number(c, g, board_text, element)
        if number is None:
            refused_boards += 1
            continue
        st = g.tags.get("scoretable")
        if st is None:
            c.warnings.append(
                note(
                    gettext_noop("Bricka %(number)s har ingen ScoreTable (inga resultat)."),
                    params={"number": number},
                    line=g.start_line,
                    code="pbn-no-scoretable",
                )
            )
            continue
        already = len(boards.get(number, ()))
        lines = _parse_score_table(c, st, number, suffix_directions, limits, already)
        if number in boards:
            c.warnings.append(
                note(
                    gettext_noop(
                        "Bricka %(number)s finns två gånger; resultaten slås ihop (första "
                        "gången rad %(first)s)."
                    ),
                    params={"number": number, "first": board_lines[number]},
                    line=g.start_line,
                    code="pbn-board-twice",
                )
            )
            boards[number].extend(lines)
        else:
            boards[number] = lines
            board_lines[number] = g.start_line

    if not boards and tst is not None:
        c.errors.append(
            problem(
                gettext_noop(
                    "Filen har en resultatlista men inga brickor med ScoreTable; brickresultaten behövs "
                    "för kontrollen."
                ),
                element="ScoreTable",
                code="pbn-no-boards",
            )
        )
    in_file = len(boards) + refused_boards
    over = [p for p in pairs if p.boards_played is not None and p.boards_played > in_file]
    if boards and over:
        most = max(p.boards_played for p in over)
        c.errors = [
            problem(
                gettext_noop(
                    "Resultatlistan räknar med fler brickor (NrBoards upp till %(most)s) än filen har "
                    "(%(boards)s): den gäller flera sessioner tillsammans, men filen har bara den här "
                    "sessionens brickor. Exportera sessionen med sessionens resultatlista "
                    "(SessionScoreMP/SessionPercentage), eller en fil med alla sessionernas brickor."
                ),
                params={"most": most, "boards": len(boards)},
                line=over[0].line,
                element="TotalScoreTable",
                code="pbn-multi-session",
            )
        ]
    c.finish()

    parsed_boards = [ParsedBoard(number=n, lines=boards[n]) for n in sorted(boards)]
    if scale is None:
        scale = infer_scale(parsed_boards)
    return ParsedPairEvent(
        title=title,
        date=date,
        boards_in_session=len(parsed_boards),
        pairs=pairs,
        boards=parsed_boards,
        scoring_scale=scale,
        source_format="pbn",
        warnings=c.warnings,
    )


def _check_pairs_bounds(games: list[PbnGame], limits: Limits) -> None:
    """Issue 25: the file's boards counted (no table read yet) against what its heat holds;
    the rows of each table are bounded as they are read (``parse_table``'s ``max_rows``)."""
    boards: set[str] = set()
    for g in games:
        board = (g.get("board") or "").strip()
        if board and "scoretable" in g.tags:
            boards.add(board)
            limits.check("boards", len(boards), line=g.start_line, element=f"Board {board}")


_MID_TOKEN_RE = re.compile(r"\d+")
_ZERO_MID_IN_NAME_RE = re.compile(r"[(\[]\s*0+\s*[)\]]")


def _players_with_mids(
    c: _Collector,
    line_no: int,
    who: str,
    names_cell: str | None,
    mid_cells: list[str | None],
    *,
    roster: bool = False,
) -> list[ParsedPlayer]:
    """Players from a names cell plus MID columns; no MID is ever dropped silently.

    MIDs are normalised (leading zeros dropped); a MID that is only zeros (a director's or
    guest's line) is skipped with a note. MIDs are given to the names in order; MIDs beyond the
    names become players without a name (with a note), so the upload check still sees them.
    """
    players = list(_split_roster(names_cell) if roster else split_names(names_cell))
    zeros = len(_ZERO_MID_IN_NAME_RE.findall(names_cell or ""))
    # One slot per MID written, in order; a zero keeps its place (its player gets no MID).
    slots: list[str | None] = []
    for cell in mid_cells:
        zeros += zero_mids(cell)
        slots.extend(normalize_mid(t) for t in _MID_TOKEN_RE.findall(cell or ""))
    if zeros:
        c.warnings.append(
            note(
                gettext_noop(
                    "%(who)s har medlemsnummer 0 (inget medlemsnummer, t.ex. "
                    "tävlingsledaren); den spelaren matchas utan MID."
                ),
                params={"who": who},
                line=line_no,
                code="pbn-mid-zero",
            )
        )
    if not any(slots):
        return players
    if players and len(slots) != len(players):
        template = (
            gettext_noop(
                "%(who)s har %(names)s namn men %(mids)s medlemsnummer; de tilldelas i "
                "ordning, och de överblivna medlemsnumren behålls utan namn."
            )
            if len(slots) > len(players)
            else gettext_noop(
                "%(who)s har %(names)s namn men %(mids)s medlemsnummer; de tilldelas i ordning."
            )
        )
        c.warnings.append(
            note(
                template,
                params={"who": who, "names": len(players), "mids": len(slots)},
                line=line_no,
                code="pbn-mid-count",
            )
        )
    for k, m in enumerate(slots):
        if k < len(players):
            if m is not None:
                players[k] = ParsedPlayer(mid=m, name=players[k].name)
        elif m is not None:
            players.append(ParsedPlayer(mid=m, name=""))
    return players


def _parse_totals(
    c: _Collector, tag: PbnTag, limits: Limits | None = None
) -> tuple[list[ParsedPair], bool]:
    columns, rows, problems = parse_table(tag, limits.pairs if limits else None)
    if limits is not None:
        over = (
            rows[limits.pairs][0] if limits.pairs is not None and len(rows) > limits.pairs else None
        )
        limits.check("pairs", len(rows), line=over, element="TotalScoreTable")
    c.extend(problems)
    element = "TotalScoreTable"
    if "pairid" not in columns:
        c.errors.append(
            problem(
                gettext_noop("TotalScoreTable saknar kolumnen PairId (kolumner: %(columns)s)."),
                params={"columns": ";".join(columns)},
                line=tag.line,
                element=element,
                code="pbn-no-pairid",
            )
        )
        return [], False
    total_col = next((x for x in _TOTAL_COLUMNS if x in columns), None)
    pct_col = next((x for x in _PERCENT_COLUMNS if x in columns), None)
    rank_col, boards_col = "rank", "nrboards"
    # Magic Contest, several sessions: Total* and NrBoards are cumulative; the Session*
    # columns describe the boards in this file, so those are the ones to check and store.
    session = [x for x in _SESSION_COLUMNS if x in columns]
    cumulative = (None, None, "")
    if session:
        cumulative = (total_col, pct_col, "nrboards" if "nrboards" in columns else "")
        total_col = "sessionscoremp" if "sessionscoremp" in columns else None
        pct_col = "sessionpercentage" if "sessionpercentage" in columns else None
        rank_col = "sessionrank" if "sessionrank" in columns else "rank"
        boards_col = "nrboardssession" if "nrboardssession" in columns else ""
        c.warnings.append(
            note(
                gettext_noop(
                    "Resultatlistan har kolumner både för hela tävlingen och för sessionen; "
                    "sessionens (%(columns)s) används, eftersom de gäller brickorna i filen."
                ),
                params={"columns": ", ".join(_SESSION_NAMES[x] for x in session)},
                code="pbn-session-columns",
            )
        )
    mid_cols = _mid_columns(columns)
    qual_col = next((x for x in _QUALIFIER_COLUMNS if x in columns), None)

    ids = [row["pairid"].text for _, row in rows]
    directions = [
        _direction(row["direction"].value) if "direction" in row else None for _, row in rows
    ]
    duplicated = {i for i, k in Counter(ids).items() if k > 1}
    suffix = bool(duplicated) and all(
        directions[k] is not None for k, i in enumerate(ids) if i in duplicated
    )

    pairs: list[ParsedPair] = []
    for (line_no, row), direction in zip(rows, directions):
        number = row["pairid"].text.strip()
        if not number or row["pairid"].empty or not valid_pair_number(number):
            c.bad_value(line_no, element, "PairId", row["pairid"].text, PAIR_NUMBER_WHAT)
            continue
        if suffix and direction and not number.upper().endswith(("NS", "EW")):
            number = f"{number}{direction}"
        names_cell = row["names"].value if "names" in row else None
        players = _players_with_mids(
            c, line_no, f"par {number}", names_cell, [row[col].value for col in mid_cols]
        )
        qualifier = None
        if qual_col:
            qualifier = _qualifier(row[qual_col].value)
        pairs.append(
            ParsedPair(
                number=number,
                players=tuple(players),
                total=_cell_decimal(
                    c, row.get(total_col), line_no, element, total_col or "", TOTAL_MATCHPOINTS
                ),
                percentage=_cell_decimal(
                    c, row.get(pct_col), line_no, element, pct_col or "", PERCENTAGE
                ),
                rank=_cell_int(c, row.get(rank_col), line_no, element, rank_col, RANK),
                boards_played=_cell_int(
                    c,
                    row.get(boards_col) if boards_col else None,
                    line_no,
                    element,
                    boards_col,
                    BOARD_COUNT,
                ),
                declared_qualifier=qualifier,
                line=line_no,
                cumulative_total=_cell_decimal(
                    c,
                    row.get(cumulative[0]),
                    line_no,
                    element,
                    cumulative[0] or "",
                    TOTAL_MATCHPOINTS,
                ),
                cumulative_percentage=_cell_decimal(
                    c, row.get(cumulative[1]), line_no, element, cumulative[1] or "", PERCENTAGE
                ),
                cumulative_boards=_cell_int(
                    c,
                    row.get(cumulative[2]) if cumulative[2] else None,
                    line_no,
                    element,
                    cumulative[2],
                    BOARD_COUNT,
                ),
            )
        )
    seen: dict[str, int] = {}
    for p in pairs:
        if p.number in seen:
            c.errors.append(
                problem(
                    gettext_noop(
                        "Par %(number)s står två gånger i resultatlistan (även rad %(other_line)s)."
                    ),
                    params={"number": p.number, "other_line": seen[p.number]},
                    line=p.line,
                    element=element,
                    code="pbn-duplicate-pair",
                )
            )
        seen.setdefault(p.number, p.line or 0)
    return pairs, suffix


_PAIRID_NAMES = {"pairid_ns": "PairId_NS", "pairid_ew": "PairId_EW"}


def _parse_score_table(
    c: _Collector,
    tag: PbnTag,
    board: int,
    suffix_directions: bool,
    limits: Limits | None = None,
    already: int = 0,
) -> list[TravellerLine]:
    """A board's ScoreTable rows; ``already``: the lines the board has from an earlier
    ScoreTable of the same board. Over ``limits.lines_per_board`` the file is refused as soon
    as the row after the last allowed one is split off, before any cell of it is read."""
    room = None
    if limits is not None and limits.lines_per_board is not None:
        room = max(limits.lines_per_board - already, 0)
    columns, rows, problems = parse_table(tag, room)
    if room is not None and len(rows) > room:
        limits.check(
            "lines",
            already + len(rows),
            line=rows[room][0],
            element=f"ScoreTable bricka {board}",
            board=board,
        )
    c.extend(problems)
    element = f"ScoreTable bricka {board}"
    missing = [x for x in ("pairid_ns", "pairid_ew") if x not in columns]
    if missing:
        c.errors.append(
            problem(
                gettext_noop("%(element)s: kolumnen %(column)s saknas (kolumner: %(columns)s)."),
                params={
                    "element": element,
                    "column": _PAIRID_NAMES[missing[0]],
                    "columns": ";".join(columns),
                },
                line=tag.line,
                element=element,
                code="pbn-no-pairid",
            )
        )
        return []
    out: list[TravellerLine] = []
    for line_no, row in rows:
        ns = row["pairid_ns"].text.strip()
        ew = row["pairid_ew"].text.strip()
        bad = [(col, v) for col, v in (("PairId_NS", ns), ("PairId_EW", ew)) if v]
        bad = [(col, v) for col, v in bad if not valid_pair_number(v)]
        for col, v in bad:
            c.bad_value(line_no, element, col, v, PAIR_NUMBER_WHAT)
        if bad:
            continue
        if suffix_directions:
            ns = ns if ns.upper().endswith("NS") else ns + "NS"
            ew = ew if ew.upper().endswith("EW") else ew + "EW"
        adjusted: str | None = None
        contract = None
        contract_cell = row.get("contract")
        if contract_cell is not None and contract_cell.value is not None:
            try:
                contract = normalize_contract(contract_cell.text)
            except ValueError:
                side = side_percentage(contract_cell.text)
                adjusted = (
                    f"A{side:02d}{100 - side:02d}"
                    if side is not None
                    else parse_artificial(contract_cell.text)
                )
                if adjusted is None:
                    c.bad_value(
                        line_no,
                        element,
                        "Contract",
                        contract_cell.text,
                        gettext_noop("ett kontrakt"),
                    )
        declarer = None
        decl_cell = row.get("declarer")
        if decl_cell is not None and decl_cell.value is not None:
            try:
                declarer = normalize_declarer(decl_cell.text)
            except ValueError:
                c.bad_value(
                    line_no, element, "Declarer", decl_cell.text, gettext_noop("N, E, S eller W")
                )
        tricks = _cell_int(c, row.get("result"), line_no, element, "Result", TRICKS)

        score_ns, adj = _score_ns_from_row(c, row, line_no, element)
        if adj:
            adjusted = adj
        if score_ns is None and adjusted is None and contract == "Pass":
            score_ns = 0
        out.append(
            TravellerLine(
                ns=ns,
                ew=ew,
                contract=contract,
                declarer=declarer,
                tricks=tricks,
                score_ns=score_ns,
                mp_ns=_cell_decimal(c, row.get("mp_ns"), line_no, element, "MP_NS", MATCHPOINTS),
                mp_ew=_cell_decimal(c, row.get("mp_ew"), line_no, element, "MP_EW", MATCHPOINTS),
                adjusted=adjusted,
                round=_cell_int(c, row.get("round"), line_no, element, "Round", ROUND),
                table=_cell_int(c, row.get("table"), line_no, element, "Table", TABLE),
                line=line_no,
            )
        )
    return out


_SCORE_COLUMN_NAMES = {"score_ns": "Score_NS", "score_ew": "Score_EW"}


def _score_ns_from_row(
    c: _Collector, row: dict[str, Cell], line_no: int, element: str
) -> tuple[int | None, str | None]:
    """(NS score, adjusted code) from Score_NS / Score_EW (or a ``Score`` "NS x" column).

    A per-side code (``A+``, ``A-``, ``AVE+`` ...; see :func:`side_percentage`) belongs to the
    side whose column it is in: ``"A-" "A+"`` is 40 % for NS and 60 % for EW (``A4060``),
    ``"A+" "A+"`` 60 % for both (``A6060``). A code in one column only gives the other side
    the complement. A full code such as ``A6040`` names both sides itself (NS first).
    """
    values: list[int] = []
    adjusted = None
    sides: dict[str, int] = {}
    for column, sign in (("score_ns", 1), ("score_ew", -1)):
        cell = row.get(column)
        if cell is None or cell.empty:
            continue
        pct = side_percentage(cell.text)
        if pct is not None:
            sides[column] = pct
            continue
        art = parse_artificial(cell.text)
        if art and not _looks_numeric(cell.text):
            adjusted = art
            continue
        try:
            value = parse_int(cell.text, SCORE)
        except OutOfRange:
            c.bad_value(line_no, element, _SCORE_COLUMN_NAMES[column], cell.text, SCORE.what)
            continue
        except ValueError:
            c.bad_value(
                line_no,
                element,
                _SCORE_COLUMN_NAMES[column],
                cell.text,
                gettext_noop("en poäng eller en justering (A+, A=, A-)"),
            )
            continue
        if value is None:
            continue
        if cell.artificial:
            adjusted = adjusted or "^"
        values.append(sign * value)
    if sides:
        ns = sides.get("score_ns")
        ew = sides.get("score_ew")
        ns = 100 - ew if ns is None else ns
        ew = 100 - ns if ew is None else ew
        if values:
            c.errors.append(
                problem(
                    gettext_noop(
                        "%(element)s: ena sidan har en poäng och den andra en justering (A+/A=/A-); raden "
                        "kan inte läsas."
                    ),
                    params={"element": element},
                    line=line_no,
                    element=element,
                    code="pbn-score-conflict",
                )
            )
            return None, None
        return None, f"A{ns:02d}{ew:02d}"
    if "score" in row and not row["score"].empty and not values and adjusted is None:
        try:
            values.append(parse_score_tag(row["score"].text, None))
        except ValueError:
            c.bad_value(line_no, element, "Score", row["score"].text, gettext_noop("en poäng"))
    if len(values) == 2 and values[0] != values[1]:
        c.errors.append(
            problem(
                gettext_noop("%(element)s: Score_NS och Score_EW motsäger varandra."),
                params={"element": element},
                line=line_no,
                element=element,
                code="pbn-score-conflict",
            )
        )
    if not values:
        return None, adjusted
    return values[0], adjusted


def _looks_numeric(text: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+\u2212]?\d+\s*", text))


def parse_score_tag(value: str, declarer: str | None) -> int:
    """NS score from a PBN ``Score`` value (spec §4.2).

    Formats: ``"420"`` (declarer's side), ``"NS 420"``, ``"EW -50"``, ``"NS 420 EW -420"``,
    ``"EW -420 NS 420"``. Raises ValueError when unreadable or when a bare number has no
    declarer to relate it to.
    """
    parts = value.replace("\u2212", "-").split()
    if not parts:
        raise ValueError(value)
    if len(parts) == 1:
        number = parse_int(parts[0], SCORE)
        if number is None:
            raise ValueError(value)
        if number == 0:
            return 0
        if declarer is None:
            raise ValueError(value)
        return number if declarer in ("N", "S") else -number
    found: dict[str, int] = {}
    it = iter(parts)
    for side in it:
        side = side.upper()
        if side not in ("NS", "EW"):
            raise ValueError(value)
        number = parse_int(next(it, ""), SCORE)
        if number is None:
            raise ValueError(value)
        found[side] = number
    if "NS" in found:
        if "EW" in found and found["EW"] != -found["NS"]:
            raise ValueError(value)
        return found["NS"]
    return -found["EW"]


# --------------------------------------------------------------------------- teams

_OPEN_ROOMS = {"OPEN", "ÖPPET", "OPPET", "ÖPPNA", "O", "1", "OPEN ROOM"}
_CLOSED_ROOMS = {"CLOSED", "SLUTET", "SLUTNA", "C", "2", "CLOSED ROOM"}


_TEAM_TAGS = ("hometeam", "visitteam", "awayteam", "room")


def _refuse_as_teams(games: list[PbnGame]) -> ImportProblem | None:
    """One message for a PBN file offered as teams that has no team matches at all."""
    if any(g.tag(t) is not None for g in games for t in _TEAM_TAGS):
        return None
    if any(
        key.endswith("table")
        and all(
            x in {column_name(y).lower() for y in tag.value.split(";")}
            for x in _MATCH_TABLE_REQUIRED
        )
        for g in games
        for key, tag in g.tags.items()
    ):
        return None
    pairs_file = any("scoretable" in g.tags for g in games) or any(
        "pairid" in {column_name(y).lower() for y in g.tags["totalscoretable"].value.split(";")}
        for g in games
        if "totalscoretable" in g.tags
    )
    if pairs_file:
        return problem(
            gettext_noop(
                "Filen är en partävling (resultat med parnummer, ScoreTable/TotalScoreTable), men "
                "den laddades upp som lagresultat. Ladda upp den under par, eller exportera "
                "lagmatcherna (PBN med HomeTeam/VisitTeam/Room, eller CSV för lag)."
            ),
            element="ScoreTable",
            code="pbn-pairs-as-teams",
        )
    return problem(
        gettext_noop(
            "Filen har inga lagmatcher: ingen giv har taggarna HomeTeam, VisitTeam och Room "
            "(t.ex. en handlista). Exportera lagmatcherna som PBN från Ruter, eller använd CSV "
            "för lag."
        ),
        element="HomeTeam",
        code="pbn-no-team-tags",
    )


_ROOM_TAG_RE = re.compile(r"^\s*\[room\s", re.IGNORECASE | re.MULTILINE)


def _check_team_tables(text: str, limits: Limits) -> None:
    """Issue 25: the games of a team file (a Room tag each: one a table and board) counted in
    the text, before it is split into games (5 MB of games cost 2 s to split): no more than
    two rooms for each board of each match the heat's bounds allow."""
    if limits.boards is None or limits.matches is None:
        return
    limit = 2 * limits.boards * limits.matches
    for count, found in enumerate(_ROOM_TAG_RE.finditer(text), start=1):
        if count > limit:
            line = text.count("\n", 0, found.start()) + 1
            check("tables", count, limit, line=line, element="Room", target=limits.target)


def _check_teams_bounds(games: list[PbnGame], limits: Limits) -> None:
    """Issue 25: a team file's games (one a table: two a board) counted per match, before any
    is read, against what the heat's matches can hold."""
    tables: dict[tuple, int] = {}
    for g in games:
        if g.tag("room") is None:
            continue
        key = tuple((g.get(t) or "").strip() for t in ("round", "hometeam", "visitteam"))
        tables[key] = tables.get(key, 0) + 1
        match = f"{key[0]}: {key[1]}-{key[2]}"
        limits.check("matches", len(tables), line=g.start_line, element="Round")
        if limits.boards is not None and tables[key] > 2 * limits.boards:
            limits.check("match-boards", (tables[key] + 1) // 2, line=g.start_line, match=match)


def parse_pbn_teams(text: str, *, limits: Limits | None = None) -> ParsedTeamEvent:
    """A team event from PBN text: one game per table, grouped by round and teams.

    Each game needs ``Board``, ``Room`` (Open: the home team sits NS; Closed: it sits EW),
    ``HomeTeam`` and ``VisitTeam`` (``AwayTeam`` is accepted), and ``Round`` (missing in
    every game: round 1). The NS score comes from ``Score``, or is computed from ``Contract``,
    ``Declarer``, ``Result`` and ``Vulnerable`` (else the standard cycle). ``ScoreIMP`` is read
    when present (from either room) as the file's IMPs; the match IMPs are the sum of the
    board IMPs (the file's, else computed with ``imps()`` later in validation: here the
    computed value is used when the file has none).

    Team ids: a ``TotalScoreTable`` with ``TeamId`` and ``TeamName`` (and optionally
    ``Roster``/``PlayerId`` columns with names and MIDs) maps names to ids; otherwise the id
    is the ``HomeTeam``/``VisitTeam`` text itself.

    Per-match VPs (which PBN games cannot carry) come from a user-defined table with the
    columns ``Round``, ``TeamId_Home``, ``TeamId_Away`` and optionally ``IMP_Home``,
    ``IMP_Away``, ``VP_Home``, ``VP_Away``, ``Boards`` (written by
    :func:`~.writers.write_pbn_teams` as ``MatchScoreTable``); a row for a match without
    games adds that match with its IMPs.
    """
    if limits is not None:
        _check_team_tables(text, limits)
    games, problems = read_games(text)
    if limits is not None:
        _check_teams_bounds(games, limits)
    refusal = _refuse_as_teams(games)
    if refusal is not None:
        raise ImportFailed(refusal)
    c = _Collector()
    c.extend(problems)
    title, date = _event_title_and_date(games)

    teams, name_to_id = _parse_team_totals(c, games)
    rooms: dict[
        tuple[int, str, str], dict[int, dict[str, tuple[int | None, Decimal | None, int]]]
    ] = {}
    match_line: dict[tuple[int, str, str], int] = {}
    no_round = not any((g.get("round") or "").strip() for g in games)
    if no_round:
        c.warnings.append(
            note(
                gettext_noop("Ingen Round-tagg i filen: alla matcher räknas som rond 1."),
                code="pbn-no-round",
            )
        )

    # Some programs write HomeTeam/VisitTeam (and Round) only on the first game of a match:
    # later games without them belong to the same match, with one note for the file.
    carried: list[int] = []
    last: dict[str, str] = {}
    for g in games:
        board_text = (g.get("board") or "").strip()
        if not board_text:
            continue
        element = f"Board {board_text} (rad {g.start_line})"
        number = _board_number(c, g, board_text, element)
        if number is None:
            continue
        home = (g.get("hometeam") or "").strip()
        away = (g.get("visitteam") or g.get("awayteam") or "").strip()
        round_text = (g.get("round") or "").strip()
        if home and away:
            last = {"home": home, "away": away, "round": round_text}
        elif not home and not away and last:
            home, away = last["home"], last["away"]
            if not round_text and last["round"]:
                g.tags["round"] = PbnTag("Round", last["round"], g.start_line)
            carried.append(g.start_line)
        room_text = (g.get("room") or "").strip().upper()
        missing = [
            name
            for name, val in (("HomeTeam", home), ("VisitTeam", away), ("Room", room_text))
            if not val
        ]
        if missing:
            c.errors.append(
                problem(
                    gettext_noop(
                        "Bricka %(number)s: taggen %(tag)s saknas eller är tom; den behövs för att veta "
                        "vilket lag som satt var."
                    ),
                    params={"number": number, "tag": missing[0]},
                    line=g.start_line,
                    element=f"Board {number}",
                    code="pbn-team-tag-missing",
                )
            )
            continue
        if room_text in _OPEN_ROOMS:
            room = "open"
        elif room_text in _CLOSED_ROOMS:
            room = "closed"
        else:
            c.bad_value(
                g.start_line,
                f"Board {number}",
                "Room",
                room_text,
                gettext_noop("Open eller Closed"),
            )
            continue
        rnd = 1
        if not no_round:
            try:
                rnd = parse_int((g.get("round") or "").strip(), ROUND)
                if rnd is None:
                    raise ValueError("")
            except ValueError as exc:
                c.bad_value(
                    g.start_line,
                    f"Board {number}",
                    "Round",
                    g.get("round") or "",
                    refused_as(exc, gettext_noop("ett rondnummer")),
                )
                continue
        home_id = name_to_id.get(home, home)
        away_id = name_to_id.get(away, away)
        score = _game_score_ns(c, g, number)
        imp_home = None
        imp_text = (g.get("scoreimp") or "").strip()
        if imp_text:
            try:
                imp_ns = _parse_score_decimal(imp_text)
                imp_home = imp_ns if room == "open" else -imp_ns
            except ValueError as exc:
                what = refused_as(exc, gettext_noop("IMP"))
                c.bad_value(g.start_line, f"Board {number}", "ScoreIMP", imp_text, what)
        key = (rnd, home_id, away_id)
        match_line.setdefault(key, g.start_line)
        per_board = rooms.setdefault(key, {}).setdefault(number, {})
        if room in per_board:
            c.errors.append(
                problem(
                    gettext_noop(
                        "Bricka %(number)s i rond %(round)s (%(home)s-%(away)s) finns två gånger i rummet "
                        "%(room)s."
                    ),
                    params={
                        "number": number,
                        "round": rnd,
                        "home": home,
                        "away": away,
                        "room": g.get("room"),
                    },
                    line=g.start_line,
                    element=f"Board {number}",
                    code="pbn-duplicate-room",
                )
            )
            continue
        per_board[room] = (score, imp_home, g.start_line, *_contract_and_declarer(g))
        for team_id, name in ((home_id, home), (away_id, away)):
            if team_id not in teams:
                teams[team_id] = ParsedTeam(id=team_id, name=name)

    if carried:
        c.warnings.append(
            note(
                gettext_noop(
                    "HomeTeam/VisitTeam saknas på %(count)s givar (första på rad %(first)s); "
                    "de räknas till samma match som närmast föregående giv med lagen."
                ),
                params={"count": len(carried), "first": carried[0]},
                code="pbn-teams-carried",
            )
        )
    match_rows = _parse_match_table(c, games, name_to_id)
    c.finish()
    matches: list[ParsedMatch] = []
    for key in sorted(rooms, key=lambda k: (k[0], match_line[k])):
        rnd, home_id, away_id = key
        bl: list[ParsedTeamBoard] = []
        for number in sorted(rooms[key]):
            r = rooms[key][number]
            open_ = r.get("open")
            closed = r.get("closed")
            s1 = open_[0] if open_ else None
            s2 = closed[0] if closed else None
            file_imps = None
            for entry in (open_, closed):
                if entry and entry[1] is not None:
                    file_imps = entry[1]
                    break
            if open_ is None or closed is None:
                c.warnings.append(
                    note(
                        gettext_noop(
                            "Bricka %(number)s i rond %(round)s (%(home)s-%(away)s) har bara "
                            "ett rum."
                        ),
                        params={"number": number, "round": rnd, "home": home_id, "away": away_id},
                        line=(open_ or closed)[2],
                        code="pbn-one-room",
                    )
                )
            ph, pa = board_points(s1, s2)
            bl.append(
                ParsedTeamBoard(
                    number=number,
                    score_ns_room1=s1,
                    score_ns_room2=s2,
                    imps_home=file_imps,
                    points_home=ph,
                    points_away=pa,
                    contract_room1=open_[3] if open_ else None,
                    declarer_room1=open_[4] if open_ else None,
                    contract_room2=closed[3] if closed else None,
                    declarer_room2=closed[4] if closed else None,
                    line=(open_ or closed)[2],
                )
            )
        net = []
        for b in bl:
            if b.imps_home is not None:
                net.append(b.imps_home)
            elif b.score_ns_room1 is not None and b.score_ns_room2 is not None:
                net.append(Decimal(imps(b.score_ns_room1 - b.score_ns_room2)))
        ih, ia = match_imps(net)
        matches.append(
            ParsedMatch(
                round=rnd,
                home=home_id,
                away=away_id,
                imps_home=ih,
                imps_away=ia,
                boards=bl,
                board_count=len(bl),
                line=match_line[key],
            )
        )
    matches = _merge_match_rows(matches, match_rows)
    for m in matches:
        for team_id in (m.home, m.away):
            teams.setdefault(team_id, ParsedTeam(id=team_id, name=team_id))
    counts = Counter(m.boards_played for m in matches if m.boards_played)
    return ParsedTeamEvent(
        title=title,
        date=date,
        boards_per_match=counts.most_common(1)[0][0] if counts else None,
        teams=list(teams.values()),
        matches=matches,
        source_format="pbn",
        warnings=c.warnings,
    )


_MATCH_TABLE_REQUIRED = ("round", "teamid_home", "teamid_away")


def _parse_match_table(c: _Collector, games: list[PbnGame], name_to_id: dict[str, str]) -> list:
    """Rows of a user-defined match table (any ``…Table`` tag with the columns ``Round``,
    ``TeamId_Home``, ``TeamId_Away``, optionally ``IMP_Home``, ``IMP_Away``, ``VP_Home``,
    ``VP_Away``, ``Boards``): the per-match VPs (and IMPs) that PBN games cannot carry."""
    out = []
    for g in games:
        for key, tag in g.tags.items():
            if not key.endswith("table") or key in ("scoretable", "optimumresulttable"):
                continue
            names = {column_name(x).lower() for x in tag.value.split(";")}
            if not all(x in names for x in _MATCH_TABLE_REQUIRED):
                continue
            _, rows, problems = parse_table(tag)
            c.extend(problems)
            for line_no, row in rows:
                el = tag.name
                rnd = _cell_int(c, row["round"], line_no, el, "Round", ROUND)
                home = row["teamid_home"].text.strip()
                away = row["teamid_away"].text.strip()
                out.append(
                    {
                        "line": line_no,
                        "round": rnd,
                        "home": name_to_id.get(home, home),
                        "away": name_to_id.get(away, away),
                        "ih": _cell_decimal(
                            c, row.get("imp_home"), line_no, el, "IMP_Home", MATCH_IMPS
                        ),
                        "ia": _cell_decimal(
                            c, row.get("imp_away"), line_no, el, "IMP_Away", MATCH_IMPS
                        ),
                        "vh": _cell_decimal(
                            c, row.get("vp_home"), line_no, el, "VP_Home", VICTORY_POINTS
                        ),
                        "va": _cell_decimal(
                            c, row.get("vp_away"), line_no, el, "VP_Away", VICTORY_POINTS
                        ),
                        "boards": _cell_int(
                            c, row.get("boards"), line_no, el, "Boards", BOARD_COUNT
                        ),
                    }
                )
    return out


def _merge_match_rows(matches: list[ParsedMatch], rows: list[dict]) -> list[ParsedMatch]:
    by_key = {(m.round, m.home, m.away): k for k, m in enumerate(matches)}
    out = list(matches)
    for r in rows:
        if r["round"] is None:
            continue
        k = by_key.get((r["round"], r["home"], r["away"]))
        if k is not None:
            m = out[k]
            changes = {"vp_home": r["vh"], "vp_away": r["va"]}
            if r["ih"] is not None and r["ia"] is not None:
                changes.update(imps_home=r["ih"], imps_away=r["ia"])
            out[k] = replace(m, **changes)
        elif r["ih"] is not None and r["ia"] is not None:
            out.append(
                ParsedMatch(
                    round=r["round"],
                    home=r["home"],
                    away=r["away"],
                    imps_home=r["ih"],
                    imps_away=r["ia"],
                    vp_home=r["vh"],
                    vp_away=r["va"],
                    board_count=r["boards"],
                    line=r["line"],
                )
            )
    return out


def _parse_score_decimal(value: str) -> Decimal:
    """NS value of a ``ScoreIMP``-style tag: ``"NS 10"``, ``"EW -3.5"``, ``"NS 3 EW -3"``."""
    parts = value.replace(",", ".").split()
    if len(parts) == 1:
        d = parse_decimal(parts[0], BOARD_IMPS)
        if d is None:
            raise ValueError(value)
        return d
    found: dict[str, Decimal] = {}
    it = iter(parts)
    for side in it:
        side = side.upper()
        if side not in ("NS", "EW"):
            raise ValueError(value)
        d = parse_decimal(next(it, ""), BOARD_IMPS)
        if d is None:
            raise ValueError(value)
        found[side] = d
    return found["NS"] if "NS" in found else -found["EW"]


def _game_score_ns(c: _Collector, g: PbnGame, board: int) -> int | None:
    element = f"Board {board}"
    declarer = None
    try:
        declarer = normalize_declarer(g.get("declarer"))
    except ValueError:
        c.bad_value(
            g.start_line,
            element,
            "Declarer",
            g.get("declarer") or "",
            gettext_noop("N, E, S eller W"),
        )
    score_text = (g.get("score") or "").strip()
    if score_text:
        try:
            return parse_score_tag(score_text, declarer)
        except ValueError:
            c.bad_value(
                g.start_line,
                element,
                "Score",
                score_text,
                gettext_noop('en poäng (t.ex. "NS 420")'),
            )
            return None
    try:
        contract = normalize_contract(g.get("contract"))
    except ValueError:
        c.bad_value(
            g.start_line, element, "Contract", g.get("contract") or "", gettext_noop("ett kontrakt")
        )
        return None
    if contract is None:
        return None
    if contract == "Pass":
        return 0
    result = (g.get("result") or "").strip()
    try:
        tricks = parse_int(result, TRICKS)
    except ValueError:
        tricks = None
    if declarer is None or tricks is None:
        c.errors.append(
            problem(
                gettext_noop(
                    "Bricka %(board)s: Score saknas och kan inte räknas fram (Declarer/Result saknas "
                    "eller är fel)."
                ),
                params={"board": board},
                line=g.start_line,
                element=element,
                code="pbn-no-score",
            )
        )
        return None
    vul_text = (g.get("vulnerable") or "").strip().upper()
    vul = {
        "NONE": "None",
        "LOVE": "None",
        "-": "None",
        "NS": "NS",
        "EW": "EW",
        "ALL": "All",
        "BOTH": "All",
    }.get(vul_text) or board_vulnerability(board)
    level, strain, doubled = split_contract(contract)
    declarer_vul = (
        vul == "All" or (vul == "NS" and declarer in "NS") or (vul == "EW" and declarer in "EW")
    )
    score = contract_score(level, strain, doubled, declarer_vul, tricks)
    return score if declarer in ("N", "S") else -score


def _contract_and_declarer(g: PbnGame) -> tuple[str | None, str | None]:
    """A game's contract (normalised, "4SX") and declarer, for showing only: text that is not a
    contract is left out here (the score is what counts, and is checked where it is read)."""
    try:
        contract = normalize_contract(g.get("contract"))
    except ValueError:
        contract = None
    declarer = (g.get("declarer") or "").strip().upper()
    return contract, declarer if declarer in ("N", "E", "S", "W") and contract != "Pass" else None


def _parse_team_totals(
    c: _Collector, games: list[PbnGame]
) -> tuple[dict[str, ParsedTeam], dict[str, str]]:
    tag = _total_score_table(games)
    teams: dict[str, ParsedTeam] = {}
    name_to_id: dict[str, str] = {}
    if tag is None:
        return teams, name_to_id
    columns, rows, problems = parse_table(tag)
    c.extend(problems)
    if "teamid" not in columns:
        return teams, name_to_id
    mid_cols = _mid_columns(columns)
    for line_no, row in rows:
        team_id = row["teamid"].text.strip()
        name = (row["teamname"].value if "teamname" in row else None) or team_id
        names_cell = None
        for col in ("roster", "names"):
            if col in row and row[col].value:
                names_cell = row[col].value
                break
        players = _players_with_mids(
            c,
            line_no,
            f"lag {team_id}",
            names_cell,
            [row[col].value for col in mid_cols],
            roster=True,
        )
        teams[team_id] = ParsedTeam(id=team_id, name=name, players=tuple(players))
        name_to_id[name] = team_id
        name_to_id[team_id] = team_id
    return teams, name_to_id


def _split_roster(cell: str | None) -> tuple[ParsedPlayer, ...]:
    """A team roster cell: names separated by ``,`` or `` - ``, each optionally ``(MID)``."""
    if not cell:
        return ()
    if "," in cell:
        players: list[ParsedPlayer] = []
        for part in cell.split(","):
            players.extend(split_names(part.strip()))
        return tuple(players)
    return split_names(cell)
