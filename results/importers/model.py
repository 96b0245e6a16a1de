"""Format-independent data parsed from a club's result file (pure Python, no Django).

Every parser in :mod:`results.importers` returns one of two shapes:

* :class:`ParsedPairEvent` for a pairs heat (matchpoints, DM Par), and
* :class:`ParsedTeamEvent` for a team heat or final (IMPs -> VP, DM Lag).

Identifiers are strings throughout: pair numbers such as ``"7"``, ``"1NS"`` or ``"1EW"``
(Mitchell files number the two directions separately) and team ids such as ``"3"``.
Player identity is the SBF member number (MID) when the file carries one; the Django layer
matches pairs by pair number within the heat plus MIDs when present, never by names alone.

A parser raises :class:`ImportFailed` only when the file cannot be read at all (wrong format,
broken XML, unreadable encoding, too large ...). Everything else (MPs that do not add up, IMPs
that do not match the scores, a wrong number of boards) is found by :mod:`.validate` and
returned as a list of :class:`ImportProblem`, Swedish first.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from ubf.rules.i18n import Message, english, gettext_noop, swedish
from ubf.rules.violations import Severity

__all__ = [
    "ImportFailed",
    "ImportNote",
    "ImportProblem",
    "ParsedBoard",
    "ParsedMatch",
    "ParsedPair",
    "ParsedPairEvent",
    "ParsedPlayer",
    "ParsedTeam",
    "ParsedTeamBoard",
    "ParsedTeamEvent",
    "Severity",
    "TravellerLine",
]


# --------------------------------------------------------------------------- problems


@dataclass(frozen=True)
class ImportProblem:
    """One problem found in an uploaded file: a Swedish template and its parameters.

    ``template`` is marked with ``gettext_noop`` (docs/translation.md); :attr:`message_sv` fills
    it in, :attr:`message_en` fills its English msgstr from the catalogue, and a page shows it in
    the reader's language with ``clubs.i18n.render(problem)``. ``line`` is the 1-based line in
    the file when known; ``element`` names the thing the problem is about (an XML element path
    such as ``EVENT/BOARD[3]/TRAVELLER_LINE[2]``, a PBN tag, "bricka 12", "match rond 2: 1-4"
    ...). ``code`` is a stable machine-readable key (e.g. ``"mp-sum"``, ``"board-count"``) and
    ``clause`` the SPEC clause when one applies.
    """

    template: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    line: int | None = None
    element: str | None = None
    severity: Severity = Severity.ERROR
    code: str = ""
    clause: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == Severity.ERROR

    @property
    def message_sv(self) -> str:
        return swedish(self.template, self.params)

    @property
    def message_en(self) -> str:
        return english(self.template, self.params)

    def message(self, language: str = "sv") -> str:
        return self.message_en if language.startswith("en") else self.message_sv

    @property
    def location(self) -> Message | None:
        """Where in the file, as a message ("rad 12, bricka 3"), or ``None``."""
        if self.line is not None and self.element:
            return Message(
                gettext_noop("rad %(line)s, %(element)s"),
                {"line": self.line, "element": self.element},
            )
        if self.line is not None:
            return Message(gettext_noop("rad %(line)s"), {"line": self.line})
        if self.element:
            return Message("%(element)s", {"element": self.element})
        return None

    def where(self, language: str = "sv") -> str:
        where = self.location
        if where is None:
            return ""
        if language.startswith("en"):
            return english(where.template, where.params)
        return where.message_sv

    @property
    def with_line(self) -> ImportProblem | Message:
        """The message preceded by its line ("rad 12: ..."), as logs and ImportFailed show it."""
        if not self.line:
            return self
        return Message(
            gettext_noop("rad %(line)s: %(message)s"), {"line": self.line, "message": self}
        )

    def __str__(self) -> str:
        return swedish(self.with_line.template, self.with_line.params)


class ImportFailed(Exception):
    """The file could not be read at all; ``problems`` says why (Swedish first)."""

    def __init__(self, problems: list[ImportProblem] | ImportProblem):
        if isinstance(problems, ImportProblem):
            problems = [problems]
        self.problems: list[ImportProblem] = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @property
    def message_sv(self) -> str:
        return "; ".join(str(p) for p in self.problems)

    @property
    def message_en(self) -> str:
        return "; ".join(english(p.with_line.template, p.with_line.params) for p in self.problems)


def problem(
    template: str,
    *,
    params: Mapping[str, Any] | None = None,
    line: int | None = None,
    element: str | None = None,
    warning: bool = False,
    code: str = "",
    clause: str | None = None,
) -> ImportProblem:
    """Shorthand used by the parsers and validators: ``template`` is a ``gettext_noop``
    Swedish template, ``params`` fills its ``%(name)s`` placeholders."""
    return ImportProblem(
        template,
        dict(params or {}),
        line=line,
        element=element,
        severity=Severity.WARNING if warning else Severity.ERROR,
        code=code,
        clause=clause,
    )


class ImportNote(str):
    """A note on how a file was read (``ParsedPairEvent.warnings``): the Swedish text with its
    line ("rad 12: …", as before), carrying the :class:`ImportProblem` (a warning) it was made
    from, so a page renders it in the reader's language (``clubs.i18n.render(note)``) and
    :attr:`message_en` reads the English without Django."""

    problem: ImportProblem

    def __new__(cls, problem: ImportProblem) -> ImportNote:
        self = super().__new__(cls, str(problem))
        self.problem = problem
        return self

    @property
    def template(self) -> str:
        return self.problem.with_line.template

    @property
    def params(self) -> Mapping[str, Any]:
        return self.problem.with_line.params

    @property
    def message_sv(self) -> str:
        return str(self)

    @property
    def message_en(self) -> str:
        return english(self.template, self.params)


def note(
    template: str,
    *,
    params: Mapping[str, Any] | None = None,
    line: int | None = None,
    element: str | None = None,
    code: str = "",
) -> ImportNote:
    """A note for an event's ``warnings``: ``template`` is a ``gettext_noop`` Swedish template
    without the line (the note says "rad 12: " itself, once)."""
    return ImportNote(
        problem(template, params=params, line=line, element=element, warning=True, code=code)
    )


def fail(
    template: str,
    *,
    params: Mapping[str, Any] | None = None,
    line: int | None = None,
    element: str | None = None,
    code: str = "",
) -> ImportFailed:
    """An :class:`ImportFailed` carrying one error (``raise fail(...)``)."""
    return ImportFailed(problem(template, params=params, line=line, element=element, code=code))


# --------------------------------------------------------------------------- pairs


@dataclass(frozen=True)
class ParsedPlayer:
    """A player as written in the file. ``mid`` is the SBF member number when present."""

    mid: str | None
    name: str


@dataclass(frozen=True)
class ParsedPair:
    """One pair of a pairs heat (a row of the ranking list / a USEBIO ``PAIR``).

    ``total`` and ``percentage`` are the file's own figures (``None`` when absent);
    ``declared_qualifier`` is the bronze-heat declaration (R-PAIR-KVAL-5) when the file has
    one. ``line`` is where the pair was found in the file (for messages).
    """

    number: str
    players: tuple[ParsedPlayer, ...] = ()
    total: Decimal | None = None
    percentage: Decimal | None = None
    rank: int | None = None
    boards_played: int | None = None
    declared_qualifier: bool | None = None
    line: int | None = field(default=None, compare=False)
    #: A session file of a multi-session event (Magic Contest ``SessionScoreMP`` beside
    #: ``TotalScoreMP``): the file's cumulative figures over every session so far
    #: (``TotalScoreMP``, ``TotalPercentage``, ``NrBoards``); ``None`` otherwise.
    cumulative_total: Decimal | None = field(default=None, compare=False)
    cumulative_percentage: Decimal | None = field(default=None, compare=False)
    cumulative_boards: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TravellerLine:
    """One result on one board.

    ``score_ns`` is always North-South's score (``None`` for an artificial adjusted score).
    ``adjusted`` is ``None`` for a normal result, ``"A6040"``-style for an artificial score
    (NS percentage then EW percentage, two digits each: A6040, A5050, A6060, A4040), or
    ``"^"`` for an assigned (artificial but real-valued) score that is matchpointed as usual.
    ``tricks`` is the number of tricks declarer took. ``mp_ns``/``mp_ew`` are the file's
    matchpoints on the file's own scale (see ``ParsedPairEvent.scoring_scale``).
    """

    ns: str
    ew: str
    contract: str | None
    declarer: str | None
    tricks: int | None
    score_ns: int | None
    mp_ns: Decimal | None
    mp_ew: Decimal | None
    adjusted: str | None = None
    round: int | None = None
    table: int | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def artificial_percentages(self) -> tuple[int, int] | None:
        """(NS %, EW %) for an artificial score such as ``A6040``, else ``None``."""
        a = self.adjusted
        if a and len(a) == 5 and a[0] == "A" and a[1:].isdigit():
            return int(a[1:3]), int(a[3:5])
        return None


@dataclass(frozen=True)
class ParsedBoard:
    number: int
    lines: list[TravellerLine] = field(default_factory=list)


@dataclass(frozen=True)
class ParsedPairEvent:
    """A pairs heat (one session or the whole heat) as read from a file.

    ``scoring_scale`` is ``"MP1"`` (2 per pair beaten, the Swedish scale) or ``"MP2"``
    (1 per pair beaten). ``source_format`` is ``"pbn"`` or ``"usebio"``. ``warnings`` are
    Swedish notes from the parser (ignored columns, normalised values ...).
    """

    title: str
    date: datetime.date | None
    boards_in_session: int
    pairs: list[ParsedPair]
    boards: list[ParsedBoard]
    scoring_scale: str = "MP1"
    source_format: str = ""
    warnings: list[ImportNote] = field(default_factory=list)

    def pair(self, number: str) -> ParsedPair | None:
        for p in self.pairs:
            if p.number == number:
                return p
        return None


# --------------------------------------------------------------------------- teams


@dataclass(frozen=True)
class ParsedTeam:
    """A team: ``id`` is the team's id/number in the heat (a string), ``name`` its name."""

    id: str
    name: str
    players: tuple[ParsedPlayer, ...] = ()


@dataclass(frozen=True)
class ParsedTeamBoard:
    """One board of a team match.

    Room 1 is where the home team sat North-South, room 2 where it sat East-West.
    ``score_ns_room1``/``score_ns_room2`` are both North-South-relative, so the home team's
    net is ``score_ns_room1 - score_ns_room2``. ``imps_home`` is the file's IMPs for the home
    team (``None`` if the file has none). ``points_home``/``points_away`` are the score points
    each side won on the board, both tables together (for R-TEAM-TIE-1's "most total points").
    """

    number: int
    score_ns_room1: int | None
    score_ns_room2: int | None
    imps_home: Decimal | None = None
    points_home: int | None = None
    points_away: int | None = None
    #: Each room's contract ("4SX", "3NT", "Pass") and declarer (N/E/S/W) where the file has
    #: them (PBN, USEBIO; a CSV has none), shown on the public match page. Shown only, not part
    #: of the result (the scores are), so not compared: the writers do not write them.
    contract_room1: str | None = field(default=None, compare=False)
    declarer_room1: str | None = field(default=None, compare=False)
    contract_room2: str | None = field(default=None, compare=False)
    declarer_room2: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ParsedMatch:
    """A match between two teams in one round.

    ``imps_home``/``imps_away`` are IMPs won by each side (gross, e.g. 45-32), ``vp_*`` the
    file's VPs when it has them. ``board_count`` is the number of boards the file says the
    match had when it lists no boards (CSV without board rows); else it equals len(boards).
    """

    round: int
    home: str
    away: str
    imps_home: Decimal
    imps_away: Decimal
    vp_home: Decimal | None = None
    vp_away: Decimal | None = None
    boards: list[ParsedTeamBoard] = field(default_factory=list)
    board_count: int | None = None
    line: int | None = field(default=None, compare=False)

    @property
    def boards_played(self) -> int | None:
        return len(self.boards) if self.boards else self.board_count

    @property
    def label(self) -> str:
        return f"rond {self.round}: {self.home}-{self.away}"


@dataclass(frozen=True)
class ParsedTeamEvent:
    """A team heat/final as read from a file (``source_format`` "pbn", "usebio" or "csv")."""

    title: str
    date: datetime.date | None
    boards_per_match: int | None
    teams: list[ParsedTeam]
    matches: list[ParsedMatch]
    source_format: str = ""
    warnings: list[ImportNote] = field(default_factory=list)

    def team(self, team_id: str) -> ParsedTeam | None:
        for t in self.teams:
            if t.id == team_id:
                return t
        return None


# --------------------------------------------------------------------------- value helpers
# Shared by the parsers and writers: normalising the notations real files use.

_STRAIN_ALIASES = {
    "C": "C",
    "D": "D",
    "H": "H",
    "S": "S",
    "N": "NT",
    "NT": "NT",
    "SA": "NT",  # sans atout (French Magic Contest)
    "K": "C",  # klöver
    "R": "D",  # ruter
    "HJ": "H",  # hjärter
    "SP": "S",  # spader
}
_DECLARERS = {"N": "N", "E": "E", "S": "S", "W": "W", "Ö": "E", "O": "E", "V": "W"}
_PASS_WORDS = {"PASS", "P", "AP", "PASSED", "ALL PASS", "ALLPASS", "PASSOUT", "PASS OUT"}


def normalize_contract(text: str | None) -> str | None:
    """``"2N"`` → ``"2NT"``, ``"4 H"`` → ``"4H"``, ``"3ntx"`` → ``"3NTX"``, pass → ``"Pass"``.

    Returns ``None`` for an empty/irrelevant value (``""``, ``"-"``, ``"?"``) and raises
    ValueError for text that is not a contract.
    """
    if text is None:
        return None
    raw = text.strip().upper().replace(" ", "").replace("*", "X")
    if raw in ("", "-", "?"):
        return None
    if raw in {w.replace(" ", "") for w in _PASS_WORDS}:
        return "Pass"
    if not raw[:1].isdigit() or raw[0] not in "1234567":
        raise ValueError(text)
    level = raw[0]
    rest = raw[1:]
    doubled = ""
    for suffix in ("XX", "X", "RE", "R", "D"):
        # "D" alone after a full strain only (4HD); never strip the strain "D" itself.
        if rest.endswith(suffix) and rest[: -len(suffix)] in _STRAIN_ALIASES:
            doubled = {"XX": "XX", "X": "X", "RE": "XX", "R": "XX", "D": "X"}[suffix]
            rest = rest[: -len(suffix)]
            break
    if rest not in _STRAIN_ALIASES:
        raise ValueError(text)
    return f"{level}{_STRAIN_ALIASES[rest]}{doubled}"


def split_contract(contract: str) -> tuple[int, str, int] | None:
    """``"4SX"`` → ``(4, "S", 1)``; ``"Pass"`` → ``None``. The input must be normalised."""
    if contract == "Pass":
        return None
    level = int(contract[0])
    rest = contract[1:]
    doubled = 0
    if rest.endswith("XX"):
        doubled, rest = 2, rest[:-2]
    elif rest.endswith("X"):
        doubled, rest = 1, rest[:-1]
    return level, rest, doubled


def normalize_declarer(text: str | None) -> str | None:
    """N/E/S/W (also Swedish Ö/V, and words like "North"/"Nord"); ``None`` when empty."""
    if text is None:
        return None
    raw = text.strip().upper()
    if raw in ("", "-", "?"):
        return None
    if raw[0] in _DECLARERS:
        return _DECLARERS[raw[0]]
    raise ValueError(text)


# --------------------------------------------------------------------------- bounded numbers
# Every number of a result file is read here, as text checked before it is converted: an
# optional sign, at most MAX_DIGITS digits before the decimal point and MAX_DECIMALS after it,
# nothing else (no exponent, no "inf"/"nan", no digit strings thousands long). So "1e999999" or
# a 5,000-digit "score" is refused as "not a number" and never reaches Decimal or int, whose
# work would grow with the number (a traveller with tricks 1e999999 cost 38 s of CPU in int()).
# Each field then has its range (:class:`Bounds`), checked by the same call.

MAX_DIGITS = 7
MAX_DECIMALS = 6
_NUMBER_RE = re.compile(
    rf"[+-]?(?:\d{{1,{MAX_DIGITS}}}(?:\.\d{{0,{MAX_DECIMALS}}})?|\.\d{{1,{MAX_DECIMALS}}})",
    re.ASCII,
)


@dataclass(frozen=True)
class Bounds:
    """The range of one field of a result file, both ends included.

    ``what`` is a ``gettext_noop`` phrase that names the field with its range ("ett bricknummer
    (1–999)"): the parsers' existing "... har värdet "x", som inte är %(what)s." problem says it
    for a value that is no number and for one out of range alike, with its line and column.
    """

    what: str
    low: Decimal
    high: Decimal

    def __contains__(self, value: Decimal | int) -> bool:
        return self.low <= value <= self.high


class OutOfRange(ValueError):
    """A number that is read but lies outside its field's :class:`Bounds`."""

    def __init__(self, text: str | None, bounds: Bounds):
        self.bounds = bounds
        super().__init__(text)


def refused_as(exc: ValueError, default: str) -> str:
    """What a refused value should have been: its field with the range for a number out of
    range (``"ett bricknummer (1–999)"``), else ``default`` (``"ett tal"``, a gettext_noop
    phrase) for text that is no number at all."""
    return exc.bounds.what if isinstance(exc, OutOfRange) else default


def _bounds(what: str, low: int | str, high: int | str) -> Bounds:
    return Bounds(what, Decimal(low), Decimal(high))


# The ranges (docs/result-formats.md, "Gränser för talen"). Scores: the largest a board can
# give either way is 7600 (7NTXX vulnerable down 13); IMPs: 24 a board (Law 78B, MAX_IMPS), so
# a match of at most 100 boards has at most 2400; VP: the WBF 20-point scale (R-TEAM-VP-1),
# 25 for files still on the old scale (they then fail the VP check, with its own message).
BOARD_NUMBER = _bounds(gettext_noop("ett bricknummer (1–999)"), 1, 999)
TRICKS = _bounds(gettext_noop("ett antal stick (0–13)"), 0, 13)
SCORE = _bounds(gettext_noop("en poäng (−7600 till 7600)"), -7600, 7600)
BOARD_IMPS = _bounds(gettext_noop("IMP för en bricka (−24 till 24)"), -24, 24)
MATCH_IMPS = _bounds(gettext_noop("IMP för en match (0–2400)"), 0, 2400)
VICTORY_POINTS = _bounds(gettext_noop("segerpoäng (0–25)"), 0, 25)
MATCHPOINTS = _bounds(gettext_noop("matchpoäng för en bricka (0–1000)"), 0, 1000)
TOTAL_MATCHPOINTS = _bounds(gettext_noop("en poängsumma (0–999999)"), 0, 999999)
PERCENTAGE = _bounds(gettext_noop("en procentsats (0–100)"), 0, 100)
RANK = _bounds(gettext_noop("en placering (1–9999)"), 1, 9999)
BOARD_COUNT = _bounds(gettext_noop("ett antal brickor (0–999)"), 0, 999)
ROUND = _bounds(gettext_noop("ett rondnummer (1–99)"), 1, 99)
TABLE = _bounds(gettext_noop("ett bordsnummer (1–999)"), 1, 999)

#: A pair number ("7", "1NS", "12A"): at most this many characters, letters and digits.
MAX_PAIR_NUMBER = 10
_PAIR_NUMBER_RE = re.compile(rf"[0-9A-Za-zÅÄÖåäö]{{1,{MAX_PAIR_NUMBER}}}")
PAIR_NUMBER_WHAT = gettext_noop("ett parnummer (högst 10 bokstäver och siffror)")


def shown(text: str | None, limit: int = 40) -> str:
    """A file's value as a problem quotes it: cut after ``limit`` characters ("99999…"), so a
    20 KB cell makes a one-line message."""
    text = text or ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def valid_pair_number(text: str | None) -> bool:
    """True for a pair number the heat could have: 1–10 letters and digits (``"1NS"``)."""
    return bool(text) and _PAIR_NUMBER_RE.fullmatch(text) is not None


def parse_decimal(text: str | None, bounds: Bounds | None = None) -> Decimal | None:
    """``"12.5"``, ``"12,5"`` (Swedish decimal comma), ``"-"``/``"?"``/``""`` → ``None``.

    ValueError for anything that is not a plain number of at most :data:`MAX_DIGITS` digits
    (and :data:`MAX_DECIMALS` decimals); :class:`OutOfRange` (a ValueError) for a number
    outside ``bounds``.
    """
    if text is None:
        return None
    raw = text.strip().replace("\u2212", "-").replace(",", ".").replace("%", "").strip()
    if raw in ("", "-", "?"):
        return None
    if _NUMBER_RE.fullmatch(raw) is None:
        raise ValueError(text)
    value = Decimal(raw)
    if bounds is not None and value not in bounds:
        raise OutOfRange(text, bounds)
    return value


def parse_int(text: str | None, bounds: Bounds | None = None) -> int | None:
    """A whole number, or ``None`` for empty/``-``/``?``; ValueError otherwise (as
    :func:`parse_decimal`, and for a fraction)."""
    value = parse_decimal(text, bounds)
    if value is None:
        return None
    if value != value.to_integral_value():
        raise ValueError(text)
    return int(value)


def parse_date(text: str | None) -> datetime.date | None:
    """YYYY.MM.DD (PBN), YYYY-MM-DD (ISO, USEBIO 1.3) or DD/MM/YYYY (USEBIO 1.2); else None."""
    if not text:
        return None
    raw = text.strip()
    for fmt in ("%Y.%m.%d", "%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%Y/%m/%d"):
        try:
            return datetime.datetime.strptime(raw, fmt).date()
        except ValueError:
            continue
    return None


def board_points(
    score_ns_room1: int | None, score_ns_room2: int | None
) -> tuple[int | None, int | None]:
    """Score points won by (home, away) on a board, both rooms together (R-TEAM-TIE-1).

    In room 1 the home team sits NS and wins a positive NS score; in room 2 it sits EW and
    wins a negative NS score. ``(None, None)`` when a room has no score.
    """
    if score_ns_room1 is None or score_ns_room2 is None:
        return None, None
    home = max(score_ns_room1, 0) + max(-score_ns_room2, 0)
    away = max(-score_ns_room1, 0) + max(score_ns_room2, 0)
    return home, away


def match_imps(board_imps: list[Decimal]) -> tuple[Decimal, Decimal]:
    """Gross IMPs (home, away) from the home team's net IMPs on each board."""
    home = sum((b for b in board_imps if b > 0), Decimal(0))
    away = sum((-b for b in board_imps if b < 0), Decimal(0))
    return home, away


def fmt_decimal(value: Decimal | None, places: int | None = None) -> str:
    """Plain text for a Decimal (no exponent); ``places`` fixes the number of decimals."""
    if value is None:
        return ""
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
    text = format(value, "f")
    if places is None and "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"


_MID_TOKEN_RE = re.compile(r"\d+")


def normalize_mid(text: str | None) -> str | None:
    """A member number as real programs write it: ``"00203787"`` → ``"203787"``.

    Leading zeros are dropped (Ruter and Compscore pad to a fixed width); a value that is only
    zeros (``"0"``, a director's or guest's line) is no member number and gives ``None``, as
    does anything that is not digits.
    """
    if text is None:
        return None
    raw = text.strip()
    if not raw.isdigit():
        return None
    stripped = raw.lstrip("0")
    return stripped or None


def split_names(cell: str | None) -> tuple[ParsedPlayer, ...]:
    """Players from a PBN ``Names`` cell.

    The PBN standard separates the two names of a pair with ``;`` (``"Öberg;Ängström"``);
    `` - `` (space, hyphen, space; names may contain hyphens such as "Anna-Karin"), ``&`` and
    ``/`` are read too (documented in docs/result-formats.md). Each name may be followed by its
    MID in parentheses or brackets: ``"Åsa Öberg (12345) - Märta Ängström (23456)"``; MIDs are
    normalised with :func:`normalize_mid` (a MID ``0`` gives ``mid=None``). Without MIDs,
    ``mid`` is ``None``.
    """
    if not cell:
        return ()
    text = cell.strip()
    if text in ("-", "?"):
        return ()
    for sep in (";", " - ", " – ", " & ", " / "):
        if sep in text:
            parts = text.split(sep)
            break
    else:
        parts = [text]
    players = []
    for part in parts:
        part = part.strip()
        if not part:
            continue
        mid = None
        for open_, close in (("(", ")"), ("[", "]")):
            if part.endswith(close) and open_ in part:
                inner = part[part.rindex(open_) + 1 : -1].strip()
                if inner.isdigit():
                    mid = normalize_mid(inner)
                    part = part[: part.rindex(open_)].strip()
                break
        players.append(ParsedPlayer(mid=mid, name=part))
    return tuple(players)


def split_mids(cell: str | None) -> list[str]:
    """MIDs from a ``PlayerId``-style cell (``"12345 - 23456"``, ``"00203787;0"``).

    Every run of digits is a MID, normalised with :func:`normalize_mid`; zeros (no member
    number) are left out: use :func:`zero_mids` to note them.
    """
    if not cell:
        return []
    out = []
    for token in _MID_TOKEN_RE.findall(cell):
        mid = normalize_mid(token)
        if mid is not None:
            out.append(mid)
    return out


def zero_mids(cell: str | None) -> int:
    """How many MIDs in a ``PlayerId``-style cell are only zeros (a director's line)."""
    if not cell:
        return 0
    return sum(1 for token in _MID_TOKEN_RE.findall(cell) if normalize_mid(token) is None)


def infer_scale(boards: list[ParsedBoard]) -> str:
    """``"MP2"`` when the fully scored lines mostly sum to n − 1, else ``"MP1"`` (§5.1)."""
    mp1 = mp2 = 0
    for b in boards:
        n = len(b.lines)
        if n < 3:
            continue
        for t in b.lines:
            if t.mp_ns is None or t.mp_ew is None or t.adjusted:
                continue
            s = t.mp_ns + t.mp_ew
            if s == 2 * (n - 1):
                mp1 += 1
            elif s == n - 1:
                mp2 += 1
    return "MP2" if mp2 > mp1 else "MP1"
