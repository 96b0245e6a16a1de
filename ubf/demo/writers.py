"""Writing parsed results back out as PBN, USEBIO XML and "CSV för lag" (pure Python).

The demo season generator writes the clubs' files with these, and they are then imported
through the same parsers, so every writer's output reads back (round-trip tests in
``tests/results/test_importers_writers.py``):

* :func:`write_pbn_pairs` → ``str`` in Ruter style (``TotalScoreTable`` in the first game,
  then one game per board with a ``ScoreTable``). Encode it as Latin-1 (``"latin-1"``) to
  get what Ruter writes; the parsers read UTF-8 too.
* :func:`write_pbn_teams` → ``str``: a teams ``TotalScoreTable`` (``TeamId``, ``TeamName``,
  ``Roster``), a user-defined ``MatchScoreTable`` (``Round``, ``TeamId_Home``,
  ``TeamId_Away``, ``IMP_Home``, ``IMP_Away``, ``VP_Home``, ``VP_Away``, ``Boards``: what PBN
  games cannot carry), and one game per table (``Room`` Open/Closed, ``HomeTeam``/
  ``VisitTeam``, ``Round``, ``Score``, ``ScoreIMP``).
* :func:`write_usebio_pairs` / :func:`write_usebio_teams` → ``bytes``: USEBIO 1.2, ISO-8859-1
  (characters outside Latin-1 as character references), with the usual DOCTYPE.
* :func:`write_csv_teams` → ``str``: the documented CSV (``;``, decimal comma).

MIDs: PBN pairs files carry them in the ``Names`` cell as ``"Åsa Öberg (12345) - Märta
Ängström (23456)"``; USEBIO in ``NATIONAL_ID_NUMBER``; CSV/PBN teams as ``Name (MID)``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

from results.importers.model import (
    ParsedPairEvent,
    ParsedPlayer,
    ParsedTeamEvent,
    TravellerLine,
    fmt_decimal,
    match_imps,
)
from ubf.rules.scoring import board_dealer, board_vulnerability

__all__ = [
    "write_csv_teams",
    "write_pbn_pairs",
    "write_pbn_teams",
    "write_usebio_pairs",
    "write_usebio_teams",
]

GENERATOR = "UBF DM ubf.demo.writers"
USEBIO_DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'


# --------------------------------------------------------------------------- helpers


def _q(text: str) -> str:
    """A quoted PBN string (``\\`` and ``"`` escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_q(value)}]"


def _player_text(p: ParsedPlayer) -> str:
    return f"{p.name} ({p.mid})" if p.mid else p.name


def _names(players: tuple[ParsedPlayer, ...]) -> str:
    return " - ".join(_player_text(p) for p in players)


def _split_suffix(number: str) -> tuple[str, str | None]:
    upper = number.upper()
    if len(number) > 2 and upper.endswith(("NS", "EW")) and number[:-2].strip():
        return number[:-2], upper[-2:]
    return number, None


def _table(rows: list[list[str]], widths: list[int], right: list[bool]) -> list[str]:
    out = []
    for row in rows:
        cells = []
        for cell, width, r in zip(row, widths, right):
            cells.append(cell.rjust(width) if r else cell.ljust(width))
        out.append(" ".join(cells).rstrip())
    return out


def _column_widths(header: list[tuple[str, bool]], rows: list[list[str]]) -> list[int]:
    return [max([len(r[k]) for r in rows] + [1]) for k in range(len(header))]


def _header(columns: list[tuple[str, bool]], widths: list[int]) -> str:
    return ";".join(f"{name}\\{w}{'R' if r else 'L'}" for (name, r), w in zip(columns, widths))


def _mp(value: Decimal | None) -> str:
    return "-" if value is None else fmt_decimal(value)


def _date_pbn(event) -> str:
    return event.date.strftime("%Y.%m.%d") if event.date else ""


# --------------------------------------------------------------------------- PBN pairs


def _score_cells(t: TravellerLine) -> tuple[str, str]:
    art = t.artificial_percentages
    if art is not None:
        return f'^"{t.adjusted}"', "-"
    if t.score_ns is None:
        return "-", "-"
    mark = "^" if t.adjusted == "^" else ""
    if t.score_ns >= 0:
        return f'{mark}"{t.score_ns}"', "-"
    return "-", f'{mark}"{-t.score_ns}"'


def write_pbn_pairs(event: ParsedPairEvent) -> str:
    """A Ruter-style PBN 2.1 file for a pairs heat (see the module docstring)."""
    scale = "MP2" if event.scoring_scale == "MP2" else "MP1"
    # Mitchell numbers 1NS/1EW are written as PairId 1 plus a Direction column (as Ruter
    # does) only when the bare numbers repeat; otherwise the numbers are written as they are.
    bases = [_split_suffix(p.number) for p in event.pairs]
    suffixed = (
        bool(bases)
        and all(direction for _, direction in bases)
        and len({b for b, _ in bases}) < len(bases)
    )
    lines = [
        "% PBN 2.1",
        "% EXPORT",
        "%Content-type: text/x-pbn; charset=ISO-8859-1",
        f"%Creator: {GENERATOR}",
    ]
    head = [
        _tag("Event", event.title),
        _tag("Site", ""),
        _tag("Date", _date_pbn(event)),
        _tag("Board", ""),
        _tag("West", ""),
        _tag("North", ""),
        _tag("East", ""),
        _tag("South", ""),
        _tag("Dealer", ""),
        _tag("Vulnerable", ""),
        _tag("Deal", ""),
        _tag("Scoring", f"MatchPoints;{scale}"),
        _tag("Declarer", ""),
        _tag("Contract", ""),
        _tag("Result", ""),
        _tag("Competition", "Pairs"),
    ]
    lines.extend(head)

    columns: list[tuple[str, bool]] = [("Rank", True), ("PairId", True)]
    if suffixed:
        columns.append(("Direction", True))
    columns += [("TotalScoreMP", True), ("TotalPercentage", True), ("Names", False)]
    columns.append(("NrBoards", True))
    with_qualifier = any(p.declared_qualifier is not None for p in event.pairs)
    if with_qualifier:
        columns.append(("Kval", False))
    rows = []
    for p in event.pairs:
        base, direction = _split_suffix(p.number) if suffixed else (p.number, None)
        row = ["-" if p.rank is None else str(p.rank), base]
        if suffixed:
            row.append('"N-S"' if direction == "NS" else '"E-W"')
        row += [
            "-" if p.total is None else fmt_decimal(p.total),
            "-" if p.percentage is None else fmt_decimal(p.percentage, 2),
            _q(_names(p.players)),
            "-" if p.boards_played is None else str(p.boards_played),
        ]
        if with_qualifier:
            row.append({True: "Ja", False: "Nej", None: "-"}[p.declared_qualifier])
        rows.append(row)
    widths = _column_widths(columns, rows)
    lines.append(f"[TotalScoreTable {_q(_header(columns, widths))}]")
    lines.extend(_table(rows, widths, [r for _, r in columns]))

    sc_columns: list[tuple[str, bool]] = [
        ("Table", True),
        ("Round", True),
        ("PairId_NS", True),
        ("PairId_EW", True),
        ("Contract", False),
        ("Declarer", True),
        ("Result", True),
        ("Score_NS", True),
        ("Score_EW", True),
        ("MP_NS", True),
        ("MP_EW", True),
    ]
    for board in event.boards:
        lines.append("")
        inherit = "#"
        lines += [
            _tag("Event", inherit),
            _tag("Site", inherit),
            _tag("Date", inherit),
            _tag("Board", str(board.number)),
            _tag("West", ""),
            _tag("North", ""),
            _tag("East", ""),
            _tag("South", ""),
            _tag("Dealer", board_dealer(board.number)),
            _tag("Vulnerable", board_vulnerability(board.number)),
            _tag("Deal", ""),
            _tag("Scoring", inherit),
            _tag("Declarer", ""),
            _tag("Contract", ""),
            _tag("Result", ""),
        ]
        rows = []
        for t in board.lines:
            ns = _split_suffix(t.ns)[0] if suffixed else t.ns
            ew = _split_suffix(t.ew)[0] if suffixed else t.ew
            s_ns, s_ew = _score_cells(t)
            rows.append(
                [
                    "-" if t.table is None else str(t.table),
                    "-" if t.round is None else str(t.round),
                    ns,
                    ew,
                    t.contract or "-",
                    t.declarer or "-",
                    "-" if t.tricks is None else str(t.tricks),
                    s_ns,
                    s_ew,
                    _mp(t.mp_ns),
                    _mp(t.mp_ew),
                ]
            )
        widths = _column_widths(sc_columns, rows)
        lines.append(f"[ScoreTable {_q(_header(sc_columns, widths))}]")
        lines.extend(_table(rows, widths, [r for _, r in sc_columns]))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- PBN teams


def write_pbn_teams(event: ParsedTeamEvent) -> str:
    """A teams PBN 2.1 file: one game per table, a ``TotalScoreTable`` naming the teams."""
    lines = [
        "% PBN 2.1",
        "% EXPORT",
        "%Content-type: text/x-pbn; charset=ISO-8859-1",
        f"%Creator: {GENERATOR}",
        _tag("Event", event.title),
        _tag("Site", ""),
        _tag("Date", _date_pbn(event)),
        _tag("Board", ""),
        _tag("Scoring", "IMP"),
        _tag("Competition", "Teams"),
    ]
    columns = [("TeamId", True), ("TeamName", False), ("Roster", False)]
    rows = [
        [t.id, _q(t.name), _q(", ".join(_player_text(p) for p in t.players))] for t in event.teams
    ]
    widths = _column_widths(columns, rows)
    lines.append(f"[TotalScoreTable {_q(_header(columns, widths))}]")
    lines.extend(_table(rows, widths, [r for _, r in columns]))
    mcols = [("Round", True), ("TeamId_Home", True), ("TeamId_Away", True), ("IMP_Home", True),
             ("IMP_Away", True), ("VP_Home", True), ("VP_Away", True), ("Boards", True)]  # fmt: skip
    mrows = [
        [
            str(m.round),
            m.home,
            m.away,
            fmt_decimal(m.imps_home),
            fmt_decimal(m.imps_away),
            "-" if m.vp_home is None else fmt_decimal(m.vp_home, 2),
            "-" if m.vp_away is None else fmt_decimal(m.vp_away, 2),
            "-" if m.boards or not m.board_count else str(m.board_count),
        ]
        for m in event.matches
    ]
    widths = _column_widths(mcols, mrows)
    lines.append(f"[MatchScoreTable {_q(_header(mcols, widths))}]")
    lines.extend(_table(mrows, widths, [r for _, r in mcols]))
    names = {t.id: t.name for t in event.teams}
    for m in event.matches:
        home, away = names.get(m.home, m.home), names.get(m.away, m.away)
        for b in m.boards:
            for room, score in (("Open", b.score_ns_room1), ("Closed", b.score_ns_room2)):
                if score is None:
                    continue
                lines.append("")
                lines += [
                    _tag("Event", "#"),
                    _tag("Site", "#"),
                    _tag("Date", "#"),
                    _tag("Board", str(b.number)),
                    _tag("Dealer", board_dealer(b.number)),
                    _tag("Vulnerable", board_vulnerability(b.number)),
                    _tag("Scoring", "IMP"),
                    _tag("HomeTeam", home),
                    _tag("VisitTeam", away),
                    _tag("Room", room),
                    _tag("Round", str(m.round)),
                    _tag("Score", f"NS {score}"),
                ]
                if b.imps_home is not None:
                    side = "NS" if room == "Open" else "EW"
                    lines.append(_tag("ScoreIMP", f"{side} {fmt_decimal(b.imps_home)}"))
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- USEBIO


def _sub(parent: ET.Element, tag: str, text: object | None = None, **attrs) -> ET.Element:
    elem = ET.SubElement(parent, tag, {k: str(v) for k, v in attrs.items()})
    if text is not None:
        elem.text = str(text)
    return elem


def _usebio_bytes(root: ET.Element) -> bytes:
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="ISO-8859-1", xml_declaration=False)
    prolog = f'<?xml version="1.0" encoding="ISO-8859-1"?>\n{USEBIO_DOCTYPE}\n'
    return prolog.encode("ascii") + body + b"\n"


def _usebio_event(root: ET.Element, event, event_type: str) -> ET.Element:
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", "")
    ev = _sub(root, "EVENT", EVENT_TYPE=event_type)
    _sub(ev, "EVENT_DESCRIPTION", event.title)
    _sub(ev, "PROGRAM_NAME", GENERATOR)
    _sub(ev, "PROGRAM_VERSION", "1")
    _sub(ev, "WINNER_TYPE", "1")
    if event.date:
        _sub(ev, "DATE", event.date.strftime("%d/%m/%Y"))
    return ev


def _players(parent: ET.Element, players: tuple[ParsedPlayer, ...]) -> None:
    for p in players:
        pe = _sub(parent, "PLAYER")
        _sub(pe, "PLAYER_NAME", p.name)
        if p.mid:
            _sub(pe, "NATIONAL_ID_NUMBER", p.mid)


def write_usebio_pairs(event: ParsedPairEvent) -> bytes:
    """A USEBIO 1.2 ``MP_PAIRS`` file (ISO-8859-1) for a pairs heat."""
    root = ET.Element("USEBIO", Version="1.2")
    ev = _usebio_event(root, event, "MP_PAIRS")
    _sub(ev, "BOARD_SCORING_METHOD", "MATCH_POINTS")
    _sub(ev, "BOARDS_PLAYED", event.boards_in_session)
    _sub(ev, "SESSION_COUNT", 1)
    _sub(ev, "SECTION_COUNT", 1)
    part = _sub(ev, "PARTICIPANTS", EVENT_TYPE="MP_PAIRS")
    for p in event.pairs:
        pe = _sub(part, "PAIR")
        _sub(pe, "PAIR_NUMBER", p.number)
        _sub(pe, "DIRECTION", _split_suffix(p.number)[1] or "")
        if p.boards_played is not None:
            _sub(pe, "BOARDS_PLAYED", p.boards_played)
        if p.total is not None:
            _sub(pe, "TOTAL_SCORE", fmt_decimal(p.total))
        if p.percentage is not None:
            _sub(pe, "PERCENTAGE", fmt_decimal(p.percentage, 2))
        if p.rank is not None:
            _sub(pe, "PLACE", p.rank)
        if p.declared_qualifier is not None:
            _sub(pe, "QUALIFIER", "Y" if p.declared_qualifier else "N")
        _players(pe, p.players)
    for board in event.boards:
        be = _sub(ev, "BOARD", EVENT_TYPE="MP_PAIRS")
        _sub(be, "BOARD_NUMBER", board.number)
        for t in board.lines:
            te = _sub(be, "TRAVELLER_LINE")
            _sub(te, "NS_PAIR_NUMBER", t.ns)
            _sub(te, "EW_PAIR_NUMBER", t.ew)
            if t.round is not None:
                _sub(te, "ROUND_NUMBER", t.round)
            if t.table is not None:
                _sub(te, "TABLE_NUMBER", t.table)
            if t.artificial_percentages is not None:
                _sub(te, "SCORE", t.adjusted)
            else:
                if t.contract:
                    _sub(te, "CONTRACT", t.contract.upper() if t.contract != "Pass" else "PASS")
                if t.declarer:
                    _sub(te, "PLAYED_BY", t.declarer)
                if t.tricks is not None:
                    _sub(te, "TRICKS", t.tricks)
                if t.score_ns is not None:
                    _sub(te, "SCORE", t.score_ns)
                if t.adjusted == "^":
                    _sub(te, "ARTIFICIAL_SCORE", "Adjusted")
            if t.mp_ns is not None:
                _sub(te, "NS_MATCH_POINTS", fmt_decimal(t.mp_ns))
            if t.mp_ew is not None:
                _sub(te, "EW_MATCH_POINTS", fmt_decimal(t.mp_ew))
    return _usebio_bytes(root)


def write_usebio_teams(event: ParsedTeamEvent) -> bytes:
    """A USEBIO 1.2 ``TEAMS`` file (ISO-8859-1): teams, then one ``MATCH`` per match."""
    root = ET.Element("USEBIO", Version="1.2")
    ev = _usebio_event(root, event, "TEAMS")
    _sub(ev, "BOARD_SCORING_METHOD", "IMPS")
    _sub(ev, "MATCH_SCORING_METHOD", "VPS")
    if event.boards_per_match:
        _sub(ev, "BOARDS_PLAYED", event.boards_per_match)
    part = _sub(ev, "PARTICIPANTS", EVENT_TYPE="TEAMS")
    for t in event.teams:
        te = _sub(part, "TEAM", TEAM_ID=t.id, TEAM_NAME=t.name)
        _players(te, t.players)
    for m in event.matches:
        me = _sub(ev, "MATCH")
        _sub(me, "ROUND_NUMBER", m.round)
        _sub(me, "TEAM", m.home)
        _sub(me, "OPPOSING_TEAM", m.away)
        if m.boards:
            _sub(me, "START_BOARD_NUMBER", min(b.number for b in m.boards))
            _sub(me, "END_BOARD_NUMBER", max(b.number for b in m.boards))
        elif m.board_count:
            _sub(me, "START_BOARD_NUMBER", 1)
            _sub(me, "END_BOARD_NUMBER", m.board_count)
        if m.vp_home is not None:
            _sub(me, "TEAM_SCORE", fmt_decimal(m.vp_home, 2))
        if m.vp_away is not None:
            _sub(me, "OPPOSING_TEAM_SCORE", fmt_decimal(m.vp_away, 2))
        derived = None
        if m.boards and all(b.imps_home is not None for b in m.boards):
            derived = match_imps([b.imps_home for b in m.boards])
        if derived != (m.imps_home, m.imps_away):
            _sub(me, "TEAM_IMPS", fmt_decimal(m.imps_home))
            _sub(me, "OPPOSING_TEAM_IMPS", fmt_decimal(m.imps_away))
        for b in m.boards:
            be = _sub(me, "BOARD", EVENT_TYPE="TEAMS")
            _sub(be, "BOARD_NUMBER", b.number)
            if b.imps_home is not None:
                _sub(be, "IMPS", fmt_decimal(b.imps_home))
            for direction, score in (("NS", b.score_ns_room1), ("EW", b.score_ns_room2)):
                if score is None:
                    continue
                tl = _sub(be, "TRAVELLER_LINE")
                _sub(tl, "DIRECTION", direction)
                _sub(tl, "SCORE", score)
    return _usebio_bytes(root)


# --------------------------------------------------------------------------- CSV


def _csv_num(value: Decimal | None) -> str:
    return "" if value is None else fmt_decimal(value).replace(".", ",")


def _csv_cell(text: str) -> str:
    if any(ch in text for ch in ';"\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_csv_teams(event: ParsedTeamEvent) -> str:
    """The documented "CSV för lag" (``;``, decimal comma), with team and board rows."""
    lines = ["# CSV för lag (UBF DM): se docs/result-formats.md"]
    if event.title or event.date:
        date = event.date.isoformat() if event.date else ""
        lines.append(f"event;{_csv_cell(event.title)};{date}")
    for t in event.teams:
        cells = ["team", _csv_cell(t.id), _csv_cell(t.name)]
        cells += [_csv_cell(_player_text(p)) for p in t.players]
        lines.append(";".join(cells))
    lines.append("round;home;away;imps_home;imps_away;vp_home;vp_away;boards")
    for m in event.matches:
        boards = "" if m.boards or not m.board_count else str(m.board_count)
        lines.append(
            ";".join(
                [
                    str(m.round),
                    _csv_cell(m.home),
                    _csv_cell(m.away),
                    _csv_num(m.imps_home),
                    _csv_num(m.imps_away),
                    _csv_num(m.vp_home),
                    _csv_num(m.vp_away),
                    boards,
                ]
            )
        )
    for m in event.matches:
        for b in m.boards:
            cells = [
                "board",
                str(m.round),
                _csv_cell(m.home),
                _csv_cell(m.away),
                str(b.number),
                "" if b.score_ns_room1 is None else str(b.score_ns_room1),
                "" if b.score_ns_room2 is None else str(b.score_ns_room2),
            ]
            if b.imps_home is not None:
                cells.append(_csv_num(b.imps_home))
            lines.append(";".join(cells))
    return "\n".join(lines) + "\n"
