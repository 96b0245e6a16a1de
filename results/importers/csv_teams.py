"""CSV för lag: a simple, documented CSV for team-match results (pure Python, no Django).

For clubs whose scoring program writes neither PBN nor USEBIO for a team event, the heat
responsible can type the match results into a spreadsheet and save it as CSV. The same text
is in ``docs/result-formats.md`` ("CSV för lag").

Format
------
* UTF-8 (with or without BOM), Windows-1252 or Latin-1; delimiter ``;`` (what Swedish Excel
  writes), ``,`` or tab, detected from the header row. With ``;`` or tab, decimals may use a
  comma (``13,78``); with ``,`` use a point or put the value in quotes.
* Empty lines and lines starting with ``#`` are ignored.
* One header row (required), before the match rows::

      round;home;away;imps_home;imps_away;vp_home;vp_away;boards

  ``round``, ``home``, ``away``, ``imps_home``, ``imps_away`` are required; ``vp_home``,
  ``vp_away`` and ``boards`` (the number of boards in the match) are optional. Columns are
  found by name, so their order is free. Swedish names are accepted too: ``rond``, ``hemma``,
  ``borta``, ``imp_hemma``, ``imp_borta``, ``vp_hemma``, ``vp_borta``, ``brickor``.
* Match rows: one per match. ``home``/``away`` are the teams' ids (numbers) in the heat,
  ``imps_*`` the IMPs each team won in the match (e.g. 45 and 32), ``vp_*`` the VP.
* Optional board rows, anywhere after the header, first cell ``board`` (or ``bricka``)::

      board;round;home;away;board_number;score_ns_room1;score_ns_room2[;imps_home]

  Room 1 is where the home team sat North-South, room 2 where it sat East-West; both
  scores are North-South's (so the home team's net is room 1 − room 2). ``imps_home`` is the
  home team's net IMPs on the board (optional; computed from the scores when absent).
* Optional team rows, first cell ``team`` (or ``lag``): ``team;id;name[;player;player…]``
  where each player is ``Name (MID)`` or just ``Name``.
* Optional event row: ``event;title;date`` (date as ÅÅÅÅ-MM-DD).

Example::

    event;DM Lag kval Enköping;2016-11-12
    team;1;Ruter Ess;Åsa Öberg (12345);Märta Ängström (23456)
    team;2;Klöver Kung
    round;home;away;imps_home;imps_away;vp_home;vp_away
    1;1;2;45;32;13,78;6,22
    board;1;1;2;1;420;-50

Every parse error names its line number.
"""

from __future__ import annotations

import csv
from collections import Counter

from ubf.rules.i18n import gettext_noop

from .bounds import Limits
from .model import (
    BOARD_COUNT,
    BOARD_IMPS,
    BOARD_NUMBER,
    MATCH_IMPS,
    ROUND,
    SCORE,
    VICTORY_POINTS,
    Bounds,
    ImportFailed,
    ImportNote,
    ImportProblem,
    ParsedMatch,
    ParsedTeam,
    ParsedTeamBoard,
    ParsedTeamEvent,
    board_points,
    note,
    parse_date,
    parse_decimal,
    parse_int,
    problem,
    refused_as,
    shown,
    split_names,
)

__all__ = ["HEADER", "BOARD_ROW", "is_csv_teams", "parse_csv_teams"]

HEADER = ("round", "home", "away", "imps_home", "imps_away")
OPTIONAL = ("vp_home", "vp_away", "boards")
BOARD_ROW = ("board", "round", "home", "away", "board_number", "score_ns_room1", "score_ns_room2")

_ALIASES = {
    "round": "round",
    "rond": "round",
    "home": "home",
    "hemma": "home",
    "hemmalag": "home",
    "away": "away",
    "borta": "away",
    "bortalag": "away",
    "imps_home": "imps_home",
    "imp_home": "imps_home",
    "imp_hemma": "imps_home",
    "imps_away": "imps_away",
    "imp_away": "imps_away",
    "imp_borta": "imps_away",
    "vp_home": "vp_home",
    "vp_hemma": "vp_home",
    "vp_away": "vp_away",
    "vp_borta": "vp_away",
    "boards": "boards",
    "brickor": "boards",
}
_BOARD_WORDS = {"board", "bricka"}
_TEAM_WORDS = {"team", "lag"}
_EVENT_WORDS = {"event", "tävling", "tavling"}


def _delimiter(line: str) -> str:
    counts = {d: line.count(d) for d in (";", "\t", ",")}
    return max(counts, key=lambda d: (counts[d], d == ";"))


def _cells(line: str, delimiter: str) -> list[str]:
    return [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]


def _is_header(cells: list[str]) -> bool:
    names = {_ALIASES.get(c.strip().lower()) for c in cells}
    return set(HEADER) <= names


def is_csv_teams(text: str) -> bool:
    """True when the text has the documented header row among its first lines."""
    for raw in text.splitlines()[:50]:
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        if _is_header(_cells(line, _delimiter(line))):
            return True
    return False


def parse_csv_teams(text: str, *, limits: Limits | None = None) -> ParsedTeamEvent:
    """Team matches from "CSV för lag" text (see the module docstring). Raises ImportFailed.

    ``limits`` (:mod:`.bounds`, issue 25): the match rows, and each match's board rows, are
    counted before their values are read; a file over a bound is refused at once."""
    match_rows = 0
    boards_of: Counter = Counter()
    errors: list[ImportProblem] = []
    warnings: list[ImportNote] = []
    header: dict[str, int] | None = None
    delimiter = ";"
    title, date = "", None
    teams: dict[str, ParsedTeam] = {}
    matches: list[dict] = []
    board_rows: list[tuple[int, list[str]]] = []
    refused_matches: set[tuple[int, str, str]] = set()

    def err(line: int, template: str, params=None, code: str = "csv-bad-value") -> None:
        errors.append(problem(template, params=params, line=line, code=code))

    def number(line: int, column: str, value: str, bounds: Bounds, whole: bool = False):
        """The number in a cell within its column's ``bounds`` (``None``: empty or refused)."""
        try:
            return parse_int(value, bounds) if whole else parse_decimal(value, bounds)
        except ValueError as exc:
            what = refused_as(exc, gettext_noop("ett heltal") if whole else gettext_noop("ett tal"))
            err(
                line,
                gettext_noop('Kolumnen %(column)s har värdet "%(value)s", som inte är %(what)s.'),
                params={"column": column, "value": shown(value), "what": what},
            )
            return None

    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for index, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#"):
            continue
        if header is None:
            delimiter = _delimiter(line)
        cells = _cells(line, delimiter)
        if all(not c for c in cells):
            continue
        first = cells[0].lower()
        if first in _EVENT_WORDS:
            title = cells[1] if len(cells) > 1 else ""
            date = parse_date(cells[2]) if len(cells) > 2 else None
            continue
        if first in _TEAM_WORDS:
            if len(cells) < 2 or not cells[1]:
                err(index, gettext_noop("Lagraden saknar lagets id."))
                continue
            players = tuple(p for c in cells[3:] for p in split_names(c) if c)
            teams[cells[1]] = ParsedTeam(
                id=cells[1], name=(cells[2] if len(cells) > 2 else "") or cells[1], players=players
            )
            continue
        if header is None:
            if _is_header(cells):
                header = {}
                for k, c in enumerate(cells):
                    name = _ALIASES.get(c.lower())
                    if name and name not in header:
                        header[name] = k
                    elif c:
                        warnings.append(
                            note(
                                gettext_noop("Okänd kolumn '%(column)s' ignoreras."),
                                params={"column": c},
                                line=index,
                                code="csv-unknown-column",
                            )
                        )
                continue
            err(
                index,
                gettext_noop(
                    "Rubrikraden saknas: filen ska börja med %(columns)s (valfritt även %(optional)s)."
                ),
                params={"columns": ";".join(HEADER), "optional": ";".join(OPTIONAL)},
                code="csv-no-header",
            )
            break
        if first in _BOARD_WORDS:
            board_rows.append((index, cells))
            continue
        match_rows += 1
        if limits is not None:
            limits.check("matches", match_rows, line=index)
        width = max(header.values()) + 1
        if len(cells) < width:
            err(
                index,
                gettext_noop("Raden har %(count)s värden men rubrikraden har %(width)s."),
                params={"count": len(cells), "width": width},
                code="csv-row-width",
            )
            continue
        values = {name: cells[k] for name, k in header.items()}
        rnd = number(index, "round", values["round"], ROUND, whole=True)
        home, away = values["home"], values["away"]
        ih = number(index, "imps_home", values["imps_home"], MATCH_IMPS)
        ia = number(index, "imps_away", values["imps_away"], MATCH_IMPS)
        vh = number(index, "vp_home", values.get("vp_home", ""), VICTORY_POINTS)
        va = number(index, "vp_away", values.get("vp_away", ""), VICTORY_POINTS)
        nb = number(index, "boards", values.get("boards", ""), BOARD_COUNT, whole=True)
        if not home or not away:
            err(index, gettext_noop("Hemma- eller bortalaget saknas."))
            continue
        if home == away:
            err(index, gettext_noop("Lag %(home)s möter sig självt."), params={"home": home})
            continue
        if rnd is None or ih is None or ia is None:
            if rnd is not None:
                refused_matches.add((rnd, home, away))  # its board rows say no more
            if rnd is None and not values["round"]:
                err(index, gettext_noop("Rondnumret saknas."))
            if (ih is None and not values["imps_home"]) or (ia is None and not values["imps_away"]):
                err(index, gettext_noop("IMP saknas för matchen."))
            continue
        matches.append(
            {"line": index, "round": rnd, "home": home, "away": away, "ih": ih, "ia": ia,
             "vh": vh, "va": va, "nb": nb, "boards": []}
        )  # fmt: skip

    if header is None and not errors:
        err(
            1,
            gettext_noop("Rubrikraden saknas: filen ska ha raden %(columns)s."),
            params={"columns": ";".join(HEADER)},
            code="csv-no-header",
        )

    index_of = {(m["round"], m["home"], m["away"]): m for m in matches}
    for index, cells in board_rows:
        if limits is not None and limits.boards is not None and len(cells) >= 4:
            key = (cells[1], cells[2], cells[3])
            boards_of[key] += 1
            limits.check("match-boards", boards_of[key], line=index, match="{}: {}-{}".format(*key))
        if len(cells) < len(BOARD_ROW):
            err(
                index,
                gettext_noop("Brickraden har %(count)s värden; den ska vara %(columns)s."),
                params={"count": len(cells), "columns": ";".join(BOARD_ROW)},
                code="csv-row-width",
            )
            continue
        rnd = number(index, "round", cells[1], ROUND, whole=True)
        bn = number(index, "board_number", cells[4], BOARD_NUMBER, whole=True)
        s1 = number(index, "score_ns_room1", cells[5], SCORE, whole=True)
        s2 = number(index, "score_ns_room2", cells[6], SCORE, whole=True)
        bi = number(index, "imps_home", cells[7], BOARD_IMPS) if len(cells) > 7 else None
        if rnd is None or bn is None:
            continue
        m = index_of.get((rnd, cells[2], cells[3]))
        if m is None and (rnd, cells[2], cells[3]) in refused_matches:
            continue
        if m is None:
            err(
                index,
                gettext_noop(
                    "Brickraden hör till matchen rond %(round)s: %(home)s-%(away)s, som inte finns bland "
                    "matchraderna."
                ),
                params={"round": rnd, "home": cells[2], "away": cells[3]},
                code="csv-board-no-match",
            )
            continue
        if s1 is None and s2 is None and bi is None and not (cells[5] or cells[6]):
            err(index, gettext_noop("Brickraden saknar poäng."))
            continue
        ph, pa = board_points(s1, s2)
        m["boards"].append(
            ParsedTeamBoard(
                number=bn, score_ns_room1=s1, score_ns_room2=s2, imps_home=bi,
                points_home=ph, points_away=pa, line=index,
            )
        )  # fmt: skip

    if errors:
        raise ImportFailed(errors)
    if not matches:
        raise ImportFailed(
            problem(
                gettext_noop("Filen innehåller inga matchrader."),
                code="csv-empty",
            )
        )

    parsed: list[ParsedMatch] = []
    for m in matches:
        boards = sorted(m["boards"], key=lambda b: b.number)
        parsed.append(
            ParsedMatch(
                round=m["round"],
                home=m["home"],
                away=m["away"],
                imps_home=m["ih"],
                imps_away=m["ia"],
                vp_home=m["vh"],
                vp_away=m["va"],
                boards=boards,
                board_count=len(boards) if boards else m["nb"],
                line=m["line"],
            )
        )
        for side in (m["home"], m["away"]):
            teams.setdefault(side, ParsedTeam(id=side, name=side))
    counts = Counter(m.boards_played for m in parsed if m.boards_played)
    return ParsedTeamEvent(
        title=title,
        date=date,
        boards_per_match=counts.most_common(1)[0][0] if counts else None,
        teams=list(teams.values()),
        matches=parsed,
        source_format="csv",
        warnings=warnings,
    )
