"""USEBIO 1.2 / 1.3 XML results (pure Python, no Django).

Parsing is done with ``defusedxml`` (its pure-Python ``DefusedXMLParser``): a DOCTYPE with a
SYSTEM id is allowed (real files carry ``<!DOCTYPE USEBIO SYSTEM "http://…">``, which is never
fetched), but any entity declaration (internal: the "billion laughs" bomb; external: file or
network references) is refused with a clear message. Elements are found with ``.//`` searches
because writers nest ``EVENT/SESSION/SECTION`` differently; ``HANDSET`` boards (hands only) are
ignored. Every problem names the element path (``EVENT/BOARD[3]/TRAVELLER_LINE[2]``) and the
line the element starts on.

Encoding: the XML declaration's encoding is honoured (real files say ISO-8859-1); bytes that
do not fit the declared encoding (a UTF-8 declaration with Latin-1 bytes) fail with the line of
the first bad byte. UTF-8/UTF-16 byte-order marks are accepted.

Pairs (``MP_PAIRS``/``PAIRS``): ``PARTICIPANTS/PAIR`` (``PAIR_NUMBER`` kept as a string, e.g.
``1NS``; ``DIRECTION``; ``TOTAL_SCORE``; ``PERCENTAGE``; ``PLACE``; ``BOARDS_PLAYED``;
``PLAYER/PLAYER_NAME`` and ``PLAYER/NATIONAL_ID_NUMBER`` = MID) and ``BOARD/TRAVELLER_LINE``
(``NS_PAIR_NUMBER``, ``EW_PAIR_NUMBER``, ``CONTRACT`` (``4 H`` → ``4H``), ``PLAYED_BY``,
``TRICKS``, ``SCORE`` always NS or ``A5050``/``A6040`` artificial, ``ARTIFICIAL_SCORE``,
``NS_MATCH_POINTS``, ``EW_MATCH_POINTS``). Butler and cross-IMP files are refused (DM pairs are
matchpointed).

Teams (``TEAMS``/``SWISS_TEAMS``): ``PARTICIPANTS/TEAM`` with ``@TEAM_ID``/``@TEAM_NAME`` (or
child elements of the same names) and ``PLAYER``s; ``MATCH`` with ``ROUND_NUMBER``, ``TEAM``,
``OPPOSING_TEAM``, ``TEAM_SCORE``/``OPPOSING_TEAM_SCORE`` (VP when ``MATCH_SCORING_METHOD`` is
``VPS`` or absent), ``BOARD`` with ``IMPS`` (net, from ``TEAM``'s side) and two
``TRAVELLER_LINE``s whose ``DIRECTION`` says where ``TEAM`` sat and whose ``SCORE`` is NS's.
``TEAM`` is the home team. A match listed a second time from the other team's side (mirror
image) is dropped with a warning. A match without boards may carry the extension elements
``TEAM_IMPS``/``OPPOSING_TEAM_IMPS`` (written by :mod:`.writers` for CSV-only data).
"""

from __future__ import annotations

import codecs
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import replace
from decimal import Decimal

from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
from defusedxml.ElementTree import DefusedXMLParser

from ubf.rules.i18n import Message, Text, gettext_noop
from ubf.rules.scoring import imps

from .bounds import Limits
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
    fail,
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
    valid_pair_number,
)
from .pbn import parse_artificial

__all__ = ["XmlDocument", "load_xml", "parse_usebio", "parse_usebio_pairs", "parse_usebio_teams"]

_DECL_RE = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']", re.S)
PAIR_EVENT_TYPES = {"MP_PAIRS", "PAIRS", "MATCHPOINT_PAIRS", "MP", ""}
TEAM_EVENT_TYPES = {"TEAMS", "SWISS_TEAMS", "KO_TEAMS", "TEAMS_OF_FOUR", "MULTI_TEAMS"}


# --------------------------------------------------------------------------- XML loading


class XmlDocument:
    """A parsed XML tree with the start line and path of every element."""

    def __init__(self, root: ET.Element, lines: dict[int, int]):
        self.root = root
        self._lines = lines
        self._parent: dict[int, ET.Element] = {}
        for parent in root.iter():
            for child in parent:
                self._parent[id(child)] = parent

    def line(self, elem: ET.Element | None) -> int | None:
        return None if elem is None else self._lines.get(id(elem))

    def path(self, elem: ET.Element) -> str:
        parts = []
        node: ET.Element | None = elem
        while node is not None:
            parent = self._parent.get(id(node))
            if parent is None:
                parts.append(node.tag)
                break
            same = [c for c in parent if c.tag == node.tag]
            parts.append(f"{node.tag}[{same.index(node) + 1}]" if len(same) > 1 else node.tag)
            node = parent
        return "/".join(reversed(parts))


#: Issue 25: how deep a USEBIO file's elements may nest (a real one: USEBIO / EVENT / BOARD /
#: TRAVELLER_LINE / a value, 5 or 6 levels) and how many elements it may have (the largest
#: heat a club could send, 60 pairs over 70 boards, has about 24,000). Each element costs a
#: call here, so a file of a million tiny or nested elements under the size cap is refused
#: when it passes the bound, not after seconds of building a tree nobody reads.
MAX_XML_DEPTH = 32
MAX_XML_ELEMENTS = 200_000


class _TooMuchXml(Exception):
    def __init__(self, what: str, limit: int):
        self.what, self.limit = what, limit


class _LineTarget:
    """A TreeBuilder target that records each element's start line, and refuses a file that
    nests deeper than :data:`MAX_XML_DEPTH` or has more than :data:`MAX_XML_ELEMENTS`."""

    def __init__(self) -> None:
        self.builder = ET.TreeBuilder()
        self.lines: dict[int, int] = {}
        self.parser: DefusedXMLParser | None = None
        self.depth = 0
        self.count = 0

    def start(self, tag, attrs):
        self.depth += 1
        self.count += 1
        if self.depth > MAX_XML_DEPTH:
            raise _TooMuchXml("depth", MAX_XML_DEPTH)
        if self.count > MAX_XML_ELEMENTS:
            raise _TooMuchXml("elements", MAX_XML_ELEMENTS)
        elem = self.builder.start(tag, attrs)
        if self.parser is not None:
            self.lines[id(elem)] = self.parser.parser.CurrentLineNumber
        return elem

    def end(self, tag):
        self.depth -= 1
        return self.builder.end(tag)

    def data(self, data):
        self.builder.data(data)

    def close(self):
        return self.builder.close()


def _decode(data: bytes) -> str:
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
        declared = "utf-8"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise fail(
                gettext_noop("Filen börjar som UTF-16 men innehåller ogiltiga tecken."),
                code="xml-encoding",
            ) from exc
    else:
        m = _DECL_RE.match(data[:300])
        declared = m.group(1).decode("ascii") if m else "UTF-8"
    try:
        codec = codecs.lookup(declared).name
    except LookupError as exc:
        raise fail(
            gettext_noop(
                'XML-deklarationen anger en okänd teckenkodning: encoding="%(declared)s".'
            ),
            params={"declared": declared},
            line=1,
            code="xml-encoding",
        ) from exc
    try:
        return data.decode(codec)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start]
        raise fail(
            gettext_noop(
                'Filen säger att den är kodad som %(codec)s (encoding="%(declared)s"), men rad '
                "%(line)s innehåller ett tecken som inte är %(codec)s (byte %(byte)s). Spara "
                "filen som %(codec)s i resultatprogrammet, eller rätta encoding i första raden "
                "(t.ex. ISO-8859-1)."
            ),
            params={
                "codec": declared.upper(),
                "declared": declared,
                "line": line,
                "byte": f"0x{byte:02X}",
            },
            line=line,
            code="xml-encoding",
        ) from exc


def load_xml(data: bytes | str) -> XmlDocument:
    """Parse XML safely (no entities, no external references). Raises ImportFailed."""
    text = data if isinstance(data, str) else _decode(data)
    target = _LineTarget()
    parser = DefusedXMLParser(
        target=target, forbid_dtd=False, forbid_entities=True, forbid_external=True
    )
    target.parser = parser
    try:
        parser.feed(text)
        root = parser.close()
    except _TooMuchXml as exc:
        raise fail(
            gettext_noop(
                "XML-filen har element nästlade djupare än %(limit)s nivåer; en USEBIO-fil har "
                "högst ett tiotal. Filen lästes inte vidare: exportera den på nytt från "
                "resultatprogrammet."
            )
            if exc.what == "depth"
            else gettext_noop(
                "XML-filen har fler än %(limit)s element, fler än någon tävlings USEBIO-fil. "
                "Filen lästes inte vidare: exportera den på nytt från resultatprogrammet."
            ),
            params={"limit": exc.limit},
            line=parser.parser.CurrentLineNumber,
            code=f"xml-too-many-{exc.what}",
        ) from exc
    except EntitiesForbidden as exc:
        line = parser.parser.CurrentLineNumber
        raise fail(
            gettext_noop(
                "Filen deklarerar XML-entiteter (<!ENTITY %(name)s …>). Det är inte tillåtet av "
                "säkerhetsskäl (t.ex. en så kallad entitetsbomb) och förekommer inte i riktiga "
                "resultatfiler."
            ),
            params={"name": exc.name},
            line=line,
            element=f"<!ENTITY {exc.name}>",
            code="xml-entities",
        ) from exc
    except ExternalReferenceForbidden as exc:
        line = parser.parser.CurrentLineNumber
        raise fail(
            gettext_noop(
                "Filen hänvisar till en extern resurs (fil eller webbadress). Det är inte tillåtet "
                "av säkerhetsskäl."
            ),
            line=line,
            code="xml-external",
        ) from exc
    except DefusedXmlException as exc:
        raise fail(
            gettext_noop("Filen innehåller XML som inte är tillåten av säkerhetsskäl (%(error)s)."),
            params={"error": type(exc).__name__},
            line=parser.parser.CurrentLineNumber,
            code="xml-forbidden",
        ) from exc
    except ET.ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        reason = str(exc).split(":")[0]
        raise fail(
            gettext_noop(
                "XML-filen är trasig på rad %(line)s, kolumn %(column)s: %(reason)s. Filen kan "
                "vara avklippt eller ändrad för hand; exportera den på nytt från "
                "resultatprogrammet."
            ),
            params={"line": line, "column": column, "reason": _EXPAT.get(reason, reason)},
            line=line,
            code="xml-syntax",
        ) from exc
    return XmlDocument(root, target.lines)


#: expat's (English) reason -> the Swedish msgid; its English msgstr is expat's words.
_EXPAT = {
    "no element found": gettext_noop("filen tar slut innan alla element är avslutade"),
    "unclosed token": gettext_noop("ett element eller en tagg avslutas aldrig"),
    "mismatched tag": gettext_noop("en sluttagg passar inte ihop med starttaggen"),
    "not well-formed (invalid token)": gettext_noop("ogiltigt tecken eller felaktig XML"),
    "syntax error": gettext_noop("syntaxfel"),
    "junk after document element": gettext_noop("text efter rotelementet"),
    "unbound prefix": gettext_noop("okänt namnrymdsprefix"),
    "undefined entity": gettext_noop("okänd entitet (&…;)"),
    "duplicate attribute": gettext_noop("ett attribut förekommer två gånger"),
}


# --------------------------------------------------------------------------- helpers


class _Reader:
    def __init__(self, doc: XmlDocument):
        self.doc = doc
        self.errors: list[ImportProblem] = []
        self.warnings: list[str] = []

    def text(self, parent: ET.Element, tag: str) -> str | None:
        child = parent.find(tag)
        if child is None or child.text is None:
            return None
        value = child.text.strip()
        return value or None

    def where(self, elem: ET.Element, tag: str | None = None) -> tuple[int | None, str]:
        child = elem.find(tag) if tag else None
        target = child if child is not None else elem
        path = self.doc.path(target)
        if tag and child is None:
            path = f"{path}/{tag}"
        return self.doc.line(target), path

    def bad(self, elem: ET.Element, tag: str, value: str, what: str) -> None:
        """``what`` is a ``gettext_noop`` phrase ("ett tal"), translated with the message."""
        line, path = self.where(elem, tag)
        self.errors.append(
            problem(
                gettext_noop('%(path)s har värdet "%(value)s", som inte är %(what)s.'),
                params={"path": path, "value": shown(value), "what": what},
                line=line,
                element=path,
                code="usebio-bad-value",
            )
        )

    def missing(self, elem: ET.Element, tag: str, template: str = "") -> None:
        """``template`` says it otherwise, with ``%(path)s`` and ``%(tag)s``."""
        line, path = self.where(elem)
        self.errors.append(
            problem(
                template or gettext_noop("%(path)s saknar elementet %(tag)s."),
                params={"path": path, "tag": tag},
                line=line,
                element=f"{path}/{tag}",
                code="usebio-missing",
            )
        )

    def decimal(self, elem: ET.Element, tag: str, bounds: Bounds) -> Decimal | None:
        """The number in ``tag`` within its field's ``bounds`` (``None``: absent or refused)."""
        raw = self.text(elem, tag)
        try:
            return parse_decimal(raw, bounds)
        except ValueError as exc:
            self.bad(elem, tag, raw or "", refused_as(exc, gettext_noop("ett tal")))
            return None

    def integer(self, elem: ET.Element, tag: str, bounds: Bounds) -> int | None:
        """The whole number in ``tag`` within ``bounds`` (``None``: absent or refused)."""
        raw = self.text(elem, tag)
        try:
            return parse_int(raw, bounds)
        except ValueError as exc:
            self.bad(elem, tag, raw or "", refused_as(exc, gettext_noop("ett heltal")))
            return None

    def pair_number(self, elem: ET.Element, tag: str) -> str | None:
        """A pair number (``None`` when absent; refused when it is no pair number)."""
        raw = self.text(elem, tag)
        if raw is not None and not valid_pair_number(raw):
            self.bad(elem, tag, raw, PAIR_NUMBER_WHAT)
        return raw

    def players(self, parent: ET.Element) -> tuple[ParsedPlayer, ...]:
        out = []
        for pl in parent.iter("PLAYER"):
            name = self.text(pl, "PLAYER_NAME") or ""
            raw_mid = self.text(pl, "NATIONAL_ID_NUMBER")
            mid = normalize_mid(raw_mid)
            if raw_mid is not None and mid is None and raw_mid.strip("0") == "":
                line, path = self.where(pl, "NATIONAL_ID_NUMBER")
                self.warnings.append(
                    note(
                        gettext_noop(
                            "%(who)s har medlemsnummer %(mid)s (inget medlemsnummer, t.ex. "
                            "tävlingsledaren); spelaren matchas utan MID."
                        ),
                        params={"who": name or path, "mid": raw_mid},
                        line=line,
                        code="usebio-mid-zero",
                    )
                )
            elif raw_mid is not None and mid is None:
                line, path = self.where(pl, "NATIONAL_ID_NUMBER")
                self.warnings.append(
                    note(
                        gettext_noop(
                            "%(who)s har medlemsnummer '%(mid)s', som inte bara är siffror; "
                            "spelaren matchas utan MID."
                        ),
                        params={"who": name or path, "mid": raw_mid},
                        line=line,
                        code="usebio-mid-not-digits",
                    )
                )
            out.append(ParsedPlayer(mid=mid, name=name))
        return tuple(out)

    def finish(self) -> None:
        if self.errors:
            raise ImportFailed(self.errors)


def _root_event(doc: XmlDocument) -> ET.Element:
    root = doc.root
    if root.tag.upper() != "USEBIO":
        raise fail(
            gettext_noop("Filen är XML men inte USEBIO: rotelementet är <%(tag)s>, inte <USEBIO>."),
            params={"tag": root.tag},
            line=doc.line(root),
            element=root.tag,
            code="usebio-root",
        )
    event = root.find(".//EVENT")
    if event is None:
        children = ", ".join(sorted({c.tag for c in root})) or "inga"
        raise fail(
            gettext_noop(
                "USEBIO-filen saknar elementet EVENT (okänd uppbyggnad; under USEBIO finns: "
                "%(children)s)."
            ),
            params={"children": children},
            line=doc.line(root),
            element="USEBIO/EVENT",
            code="usebio-layout",
        )
    return event


MP_METHODS = {"MATCH_POINTS", "MATCHPOINTS", "MP", "MPS", ""}
_METHOD_NAMES = {
    "BUTLER_IMPS": gettext_noop("Butler (IMP mot ett datum)"),
    "CROSS_IMPS": gettext_noop("cross-IMP"),
    "IMPS": gettext_noop("IMP"),
    "AGGREGATE": gettext_noop("totalpoäng"),
    "PAB": gettext_noop("Point-a-board"),
    "BAM": gettext_noop("BAM"),
}
_TYPE_NAMES = {
    "BUTLER_PAIRS": gettext_noop("en Butler-partävling (IMP mot ett datum)"),
    "CROSS_IMP": gettext_noop("en cross-IMP-partävling"),
    "SWISS_PAIRS": gettext_noop("en Swiss-partävling"),
    "INDIVIDUAL": gettext_noop("en individuell tävling"),
}
_TEAM_EVENT = gettext_noop("en lagtävling")
_MP_PAIRS_EVENT = gettext_noop("en matchpoängräknad partävling")


def event_kind(event: ET.Element) -> tuple[str, Text | Message, str]:
    """What a USEBIO ``EVENT`` is: ``(kind, what, attributes)``; ``what`` names it for the
    message (a ``gettext_noop`` phrase or a :class:`~ubf.rules.i18n.Message`).

    ``kind`` is ``"pairs"`` (a matchpointed pairs result), ``"teams"`` or ``"other"``. Every
    place that names the type is read: ``EVENT@EVENT_TYPE``, ``PARTICIPANTS@EVENT_TYPE``,
    ``BOARD@EVENT_TYPE`` and the ``SCORING_METHOD`` / ``BOARD_SCORING_METHOD`` elements; a
    pairs event counts as matchpointed only when none of them says otherwise. ``attributes``
    lists what the file says (for the message).
    """
    found: list[tuple[str, str]] = []
    top = (event.get("EVENT_TYPE") or "").strip().upper()
    if top:
        found.append(("EVENT_TYPE", top))
    for part in event.iter("PARTICIPANTS"):
        value = (part.get("EVENT_TYPE") or "").strip().upper()
        if value:
            found.append(("PARTICIPANTS@EVENT_TYPE", value))
    for board in event.iter("BOARD"):
        value = (board.get("EVENT_TYPE") or "").strip().upper()
        if value:
            found.append(("BOARD@EVENT_TYPE", value))
    for tag in ("SCORING_METHOD", "BOARD_SCORING_METHOD"):
        for elem in event.iter(tag):
            value = (elem.text or "").strip().upper()
            if value:
                found.append((tag, value))
    seen = list(dict.fromkeys(found))
    attributes = ", ".join(f"{k}={v}" for k, v in seen)
    types = {v for k, v in seen if k.endswith("EVENT_TYPE")}
    methods = {v for k, v in seen if k.endswith("SCORING_METHOD")}
    if not types and (
        event.find(".//MATCH") is not None or event.find(".//PARTICIPANTS/TEAM") is not None
    ):
        types = {"TEAMS"}
    if types & TEAM_EVENT_TYPES:
        return "teams", _TEAM_EVENT, attributes
    for t in types:
        if t in _TYPE_NAMES:
            return "other", _TYPE_NAMES[t], attributes
    odd_methods = methods - MP_METHODS
    if types <= PAIR_EVENT_TYPES and not odd_methods:
        return "pairs", _MP_PAIRS_EVENT, attributes
    if types <= PAIR_EVENT_TYPES:
        method = sorted(odd_methods)[0]
        scored = Message(
            gettext_noop("en partävling räknad i %(method)s"),
            {"method": _METHOD_NAMES.get(method, method)},
        )
        return "other", scored, attributes
    unknown = ", ".join(sorted(types - PAIR_EVENT_TYPES))
    return (
        "other",
        Message(gettext_noop("en tävling av okänd typ (%(types)s)"), {"types": unknown}),
        attributes,
    )


def _title_date(r: _Reader, event: ET.Element):
    title = r.text(event, "EVENT_DESCRIPTION") or r.text(event, "TITLE") or ""
    date_text = r.text(event, "DATE")
    date = parse_date(date_text)
    if date_text and date is None:
        r.warnings.append(
            note(
                gettext_noop(
                    "Datumet '%(date)s' kunde inte läsas (väntat DD/MM/ÅÅÅÅ eller ÅÅÅÅ-MM-DD)."
                ),
                params={"date": date_text},
                code="usebio-date",
            )
        )
    return title, date


def parse_usebio(
    data: bytes | str, kind: str | None = None, *, limits: Limits | None = None
) -> ParsedPairEvent | ParsedTeamEvent:
    """A USEBIO file as pairs or teams (``kind`` "pairs"/"teams"; ``None``: from EVENT_TYPE).

    Refused with one message that says what the file is: anything that is not a matchpointed
    pairs result (Butler, cross-IMP, IMP-scored, Swiss, individual, an unknown type), and a
    pairs file offered as teams or the other way round. ``limits`` (:mod:`.bounds`): a pairs
    file's pairs, boards and traveller lines are counted before any of them is read.
    """
    doc = load_xml(data)
    event = _root_event(doc)
    found, what, attributes = event_kind(event)
    if kind is None:
        kind = "teams" if found == "teams" else "pairs"
    if found == kind:
        if kind == "teams":
            return _parse_teams(doc, event, limits)
        return _parse_pairs(doc, event, limits)
    program = (event.findtext("PROGRAM_NAME") or "").strip()
    if kind == "teams":
        if found == "pairs":
            advice = gettext_noop(
                "Ladda upp den under par, eller exportera lagtävlingens resultat (USEBIO med "
                "MATCH, eller CSV för lag)."
            )
        else:
            advice = gettext_noop(
                "Exportera lagtävlingens resultat (USEBIO med MATCH, eller CSV för lag)."
            )
        code = "usebio-wrong-kind" if found == "pairs" else "usebio-event-type"
    elif found == "teams":
        advice = gettext_noop("Ladda upp den som lagresultat.")
        code = "usebio-wrong-kind"
    else:
        advice = gettext_noop(
            "DM-par räknas i matchpoäng: räkna tävlingen i matchpoäng i resultatprogrammet "
            "och exportera igen, eller ladda upp PBN-filen från Ruter."
        )
        code = "usebio-event-type"
    params = {
        "what": what,
        "program": program,
        "attributes": attributes,
        "expected": _TEAM_EVENT if kind == "teams" else _MP_PAIRS_EVENT,
        "advice": advice,
    }
    raise fail(
        gettext_noop(
            "Filen är %(what)s från %(program)s (%(attributes)s), inte %(expected)s. %(advice)s"
        )
        if program
        else gettext_noop("Filen är %(what)s (%(attributes)s), inte %(expected)s. %(advice)s"),
        params=params,
        line=doc.line(event),
        element="EVENT@EVENT_TYPE",
        code=code,
    )


def parse_usebio_pairs(data: bytes | str) -> ParsedPairEvent:
    """A matchpointed pairs heat from USEBIO XML bytes. Raises ImportFailed."""
    result = parse_usebio(data, "pairs")
    if not isinstance(result, ParsedPairEvent):  # parse_usebio refuses a file of another kind
        raise TypeError(type(result).__name__)
    return result


def parse_usebio_teams(data: bytes | str) -> ParsedTeamEvent:
    """A team event from USEBIO XML bytes. Raises ImportFailed."""
    result = parse_usebio(data, "teams")
    if not isinstance(result, ParsedTeamEvent):
        raise TypeError(type(result).__name__)
    return result


# --------------------------------------------------------------------------- pairs


def _parse_pairs(doc: XmlDocument, event: ET.Element, limits: Limits | None) -> ParsedPairEvent:
    r = _Reader(doc)
    title, date = _title_date(r, event)
    pair_elems = event.findall(".//PARTICIPANTS/PAIR")
    board_elems = [b for b in event.iter("BOARD") if b.find("TRAVELLER_LINE") is not None]
    if limits is not None:
        _check_pairs_bounds(doc, pair_elems, board_elems, limits)
    if not pair_elems:
        found = ", ".join(sorted({c.tag for c in event})) or "inget"
        raise fail(
            gettext_noop(
                "Hittade inga par (PARTICIPANTS/PAIR) i filen: okänd uppbyggnad. Under EVENT finns: "
                "%(found)s."
            ),
            params={"found": found},
            line=doc.line(event),
            element="EVENT/PARTICIPANTS/PAIR",
            code="usebio-layout",
        )
    if not board_elems:
        raise fail(
            gettext_noop(
                "Hittade inga brickresultat (BOARD/TRAVELLER_LINE) i filen; de behövs för kontrollen "
                "av resultatet."
            ),
            line=doc.line(event),
            element="EVENT/BOARD/TRAVELLER_LINE",
            code="usebio-layout",
        )

    raw_pairs = []
    for pe in pair_elems:
        number = r.pair_number(pe, "PAIR_NUMBER")
        if number is None:
            r.missing(pe, "PAIR_NUMBER")
            continue
        direction = (r.text(pe, "DIRECTION") or "").upper().replace("-", "") or None
        raw_pairs.append((pe, number, direction))
    counts = Counter(n for _, n, _ in raw_pairs)
    suffix = any(k > 1 for k in counts.values()) and all(
        d in ("NS", "EW") for _, n, d in raw_pairs if counts[n] > 1
    )

    def key(number: str, direction: str | None) -> str:
        if suffix and direction and not number.upper().endswith(("NS", "EW")):
            return number + direction
        return number

    pairs: list[ParsedPair] = []
    seen: dict[str, ET.Element] = {}
    for pe, number, direction in raw_pairs:
        number = key(number, direction)
        if number in seen:
            line, path = r.where(pe, "PAIR_NUMBER")
            r.errors.append(
                problem(
                    gettext_noop(
                        "Par %(number)s finns två gånger bland deltagarna (%(path)s, även rad "
                        "%(other_line)s)."
                    ),
                    params={"number": number, "path": path, "other_line": doc.line(seen[number])},
                    line=line,
                    element=path,
                    code="usebio-duplicate-pair",
                )
            )
            continue
        seen[number] = pe
        qualifier = r.text(pe, "QUALIFIER")
        pairs.append(
            ParsedPair(
                number=number,
                players=r.players(pe),
                total=r.decimal(pe, "TOTAL_SCORE", TOTAL_MATCHPOINTS),
                percentage=r.decimal(pe, "PERCENTAGE", PERCENTAGE),
                rank=_place(r, pe),
                boards_played=r.integer(pe, "BOARDS_PLAYED", BOARD_COUNT),
                declared_qualifier=None
                if qualifier is None
                else qualifier.upper() in ("Y", "J", "JA", "YES", "1"),
                line=doc.line(pe),
            )
        )

    boards: dict[int, list[TravellerLine]] = {}
    for be in board_elems:
        number = r.integer(be, "BOARD_NUMBER", BOARD_NUMBER)
        if number is None:
            if r.text(be, "BOARD_NUMBER") is None:
                r.missing(be, "BOARD_NUMBER")
            continue
        lines = boards.setdefault(number, [])
        for te in be.findall("TRAVELLER_LINE"):
            line = _traveller(r, te, suffix)
            if line is not None:
                lines.append(line)
    r.finish()
    parsed = [ParsedBoard(n, _fill_artificial(boards[n])) for n in sorted(boards)]
    scale = infer_scale(parsed)
    return ParsedPairEvent(
        title=title,
        date=date,
        boards_in_session=len(parsed),
        pairs=pairs,
        boards=parsed,
        scoring_scale=scale,
        source_format="usebio",
        warnings=r.warnings,
    )


def _check_pairs_bounds(doc: XmlDocument, pair_elems, board_elems, limits: Limits) -> None:
    """Issue 25: the file's elements counted (no value read yet) against what its heat can
    hold; a board split over several BOARD elements counts as one."""
    if pair_elems:
        limits.check("pairs", len(pair_elems), line=doc.line(pair_elems[0]), element="PAIR")
    lines: dict[str, int] = {}
    for be in board_elems:
        number = (be.findtext("BOARD_NUMBER") or "").strip()
        travellers = be.findall("TRAVELLER_LINE")
        lines[number] = lines.get(number, 0) + len(travellers)
        limits.check("boards", len(lines), line=doc.line(be), element="BOARD")
        if limits.lines_per_board is not None and lines[number] > limits.lines_per_board:
            over = travellers[max(limits.lines_per_board - lines[number], -len(travellers))]
            limits.check(
                "lines",
                lines[number],
                line=doc.line(over),
                element=f"BOARD {number}/TRAVELLER_LINE",
                board=number,
            )


def _check_teams_bounds(doc: XmlDocument, match_elems, limits: Limits) -> None:
    """Issue 25: a team file's MATCH and BOARD elements counted (no value read yet) against
    what the heat's matches can hold."""
    if limits.matches is not None and len(match_elems) > limits.matches:
        over = match_elems[limits.matches]
        limits.check("matches", len(match_elems), line=doc.line(over), element="MATCH")
    for me in match_elems:
        boards = me.findall(".//BOARD")
        if limits.boards is not None and len(boards) > limits.boards:
            match = "{}: {}-{}".format(
                *((me.findtext(t) or "").strip() for t in ("ROUND_NUMBER", "TEAM", "OPPOSING_TEAM"))
            )
            limits.check(
                "match-boards",
                len(boards),
                line=doc.line(boards[limits.boards]),
                element="MATCH/BOARD",
                match=match,
            )


def _place(r: _Reader, elem: ET.Element) -> int | None:
    raw = r.text(elem, "PLACE")
    if raw is None:
        return None
    digits = raw.rstrip("=").strip()
    try:
        return parse_int(digits, RANK)
    except ValueError as exc:
        r.bad(elem, "PLACE", raw, refused_as(exc, gettext_noop("en placering")))
        return None


def _traveller(r: _Reader, te: ET.Element, suffix: bool) -> TravellerLine | None:
    ns = r.pair_number(te, "NS_PAIR_NUMBER")
    ew = r.pair_number(te, "EW_PAIR_NUMBER")
    if ns is None or ew is None:
        r.missing(te, "NS_PAIR_NUMBER" if ns is None else "EW_PAIR_NUMBER")
        return None
    if suffix:
        ns = ns if ns.upper().endswith("NS") else ns + "NS"
        ew = ew if ew.upper().endswith("EW") else ew + "EW"
    contract = declarer = None
    adjusted = None
    raw_contract = r.text(te, "CONTRACT")
    try:
        contract = normalize_contract(raw_contract)
    except ValueError:
        adjusted = parse_artificial(raw_contract)
        if adjusted is None:
            r.bad(te, "CONTRACT", raw_contract or "", gettext_noop("ett kontrakt"))
    raw_decl = r.text(te, "PLAYED_BY")
    try:
        declarer = normalize_declarer(raw_decl)
    except ValueError:
        r.bad(te, "PLAYED_BY", raw_decl or "", gettext_noop("N, E, S eller W"))
    tricks = r.integer(te, "TRICKS", TRICKS)
    raw_score = r.text(te, "SCORE")
    score = None
    if raw_score is not None:
        try:
            score = parse_int(raw_score, SCORE)
        except OutOfRange:
            r.bad(te, "SCORE", raw_score, SCORE.what)
        except ValueError:
            adjusted = parse_artificial(raw_score)
            if adjusted is None:
                r.bad(
                    te,
                    "SCORE",
                    raw_score,
                    gettext_noop("en poäng eller en konstgjord poäng (A6040)"),
                )
    artificial = r.text(te, "ARTIFICIAL_SCORE")
    if artificial is not None and adjusted is None:
        adjusted = "^" if score is not None else (parse_artificial(artificial) or "A?")
    if score is None and adjusted is None and contract == "Pass":
        score = 0
    line, path = r.where(te)
    if score is None and adjusted is None and raw_score is None:
        if raw_contract is None and r.text(te, "NS_MATCH_POINTS") is None:
            # A line with no contract, score or matchpoints: the board was not played there.
            r.warnings.append(
                note(
                    gettext_noop("%(path)s har inget resultat och räknas som ej spelad."),
                    params={"path": path},
                    line=line,
                    code="usebio-not-played",
                )
            )
            return None
        r.missing(
            te,
            "SCORE",
            gettext_noop("%(path)s saknar elementet %(tag)s (och ingen konstgjord poäng)."),
        )
    return TravellerLine(
        ns=ns,
        ew=ew,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        score_ns=score,
        mp_ns=r.decimal(te, "NS_MATCH_POINTS", MATCHPOINTS),
        mp_ew=r.decimal(te, "EW_MATCH_POINTS", MATCHPOINTS),
        adjusted=adjusted,
        round=r.integer(te, "ROUND_NUMBER", ROUND),
        table=r.integer(te, "TABLE_NUMBER", TABLE),
        line=line,
    )


def _fill_artificial(lines: list[TravellerLine]) -> list[TravellerLine]:
    """``ARTIFICIAL_SCORE`` without percentages: derive them from the line's matchpoints."""
    top = None
    for t in lines:
        if t.mp_ns is not None and t.mp_ew is not None and not t.adjusted:
            top = t.mp_ns + t.mp_ew
            break
    out = []
    for t in lines:
        if t.adjusted == "A?":
            if top and t.mp_ns is not None and t.mp_ew is not None:
                ns = int((100 * t.mp_ns / top).to_integral_value())
                ew = int((100 * t.mp_ew / top).to_integral_value())
                t = replace(t, adjusted=f"A{ns:02d}{ew:02d}")
            else:
                t = replace(t, adjusted="A5050")
        out.append(t)
    return out


# --------------------------------------------------------------------------- teams


def _parse_teams(doc: XmlDocument, event: ET.Element, limits: Limits | None) -> ParsedTeamEvent:
    r = _Reader(doc)
    title, date = _title_date(r, event)
    method = (r.text(event, "MATCH_SCORING_METHOD") or "VPS").upper()
    scores_are_vp = method in ("VPS", "VP", "VICTORY_POINTS")

    teams: dict[str, ParsedTeam] = {}
    for te in event.findall(".//PARTICIPANTS/TEAM"):
        team_id = (te.get("TEAM_ID") or r.text(te, "TEAM_ID") or "").strip()
        name = (te.get("TEAM_NAME") or r.text(te, "TEAM_NAME") or "").strip()
        if not team_id:
            line, path = r.where(te)
            r.errors.append(
                problem(
                    gettext_noop("%(path)s saknar TEAM_ID (lagets nummer)."),
                    params={"path": path},
                    line=line,
                    element=f"{path}@TEAM_ID",
                    code="usebio-missing",
                )
            )
            continue
        teams[team_id] = ParsedTeam(id=team_id, name=name or team_id, players=r.players(te))

    match_elems = list(event.iter("MATCH"))
    if not match_elems:
        found = ", ".join(sorted({c.tag for c in event})) or "inget"
        raise fail(
            gettext_noop(
                "Hittade inga matcher (MATCH) i lagfilen: okänd uppbyggnad. Under EVENT finns: "
                "%(found)s."
            ),
            params={"found": found},
            line=doc.line(event),
            element="EVENT/MATCH",
            code="usebio-layout",
        )
    if limits is not None:
        _check_teams_bounds(doc, match_elems, limits)
    matches: list[ParsedMatch] = []
    for me in match_elems:
        m = _match(r, me, scores_are_vp)
        if m is None:
            continue
        for side in (m.home, m.away):
            if side not in teams:
                teams[side] = ParsedTeam(id=side, name=side)
        mirror = next(
            (
                x
                for x in matches
                if x.round == m.round
                and x.home == m.away
                and x.away == m.home
                and x.imps_home == m.imps_away
                and x.imps_away == m.imps_home
                and x.vp_home == m.vp_away
                and x.vp_away == m.vp_home
            ),
            None,
        )
        if mirror is not None:
            r.warnings.append(
                note(
                    gettext_noop(
                        "Matchen %(match)s står också från det andra lagets sida; den andra "
                        "uppgiften används inte."
                    ),
                    params={"match": m.label},
                    line=m.line,
                    code="usebio-mirrored-match",
                )
            )
            continue
        matches.append(m)
    r.finish()
    counts = Counter(m.boards_played for m in matches if m.boards_played)
    return ParsedTeamEvent(
        title=title,
        date=date,
        boards_per_match=counts.most_common(1)[0][0] if counts else None,
        teams=list(teams.values()),
        matches=matches,
        source_format="usebio",
        warnings=r.warnings,
    )


def _match(r: _Reader, me: ET.Element, scores_are_vp: bool) -> ParsedMatch | None:
    rnd = r.integer(me, "ROUND_NUMBER", ROUND)
    home = r.text(me, "TEAM")
    away = r.text(me, "OPPOSING_TEAM")
    ok = True
    for tag, value in (("ROUND_NUMBER", rnd), ("TEAM", home), ("OPPOSING_TEAM", away)):
        if value is None:
            if r.text(me, tag) is None:
                r.missing(me, tag)
            ok = False
    if not ok:
        return None
    # TEAM_SCORE is VP, or the match's IMPs when MATCH_SCORING_METHOD says IMPs.
    score_bounds = VICTORY_POINTS if scores_are_vp else MATCH_IMPS
    team_score = r.decimal(me, "TEAM_SCORE", score_bounds)
    opp_score = r.decimal(me, "OPPOSING_TEAM_SCORE", score_bounds)
    boards: list[ParsedTeamBoard] = []
    net: list[Decimal] = []
    for be in me.findall(".//BOARD"):
        b = _team_board(r, be)
        if b is None:
            continue
        boards.append(b)
        if b.imps_home is not None:
            net.append(b.imps_home)
        elif b.score_ns_room1 is not None and b.score_ns_room2 is not None:
            net.append(Decimal(imps(b.score_ns_room1 - b.score_ns_room2)))
    ext_home = r.decimal(me, "TEAM_IMPS", MATCH_IMPS)
    ext_away = r.decimal(me, "OPPOSING_TEAM_IMPS", MATCH_IMPS)
    if ext_home is not None and ext_away is not None:
        imps_home, imps_away = ext_home, ext_away
    elif boards:
        imps_home, imps_away = match_imps(net)
    elif not scores_are_vp and team_score is not None and opp_score is not None:
        imps_home, imps_away = team_score, opp_score
    else:
        line, path = r.where(me)
        r.errors.append(
            problem(
                gettext_noop(
                    "%(path)s (rond %(rnd)s, %(home)s-%(away)s) har varken brickor (BOARD) eller "
                    "IMP-summor; matchens IMP kan inte läsas."
                ),
                params={"path": path, "rnd": rnd, "home": home, "away": away},
                line=line,
                element=path,
                code="usebio-no-imps",
            )
        )
        return None
    start = r.integer(me, "START_BOARD_NUMBER", BOARD_NUMBER)
    end = r.integer(me, "END_BOARD_NUMBER", BOARD_NUMBER)
    board_count = (
        len(boards) if boards else (end - start + 1 if start and end and end >= start else None)
    )
    line, _ = r.where(me)
    return ParsedMatch(
        round=rnd,
        home=home,
        away=away,
        imps_home=imps_home,
        imps_away=imps_away,
        vp_home=team_score if scores_are_vp else None,
        vp_away=opp_score if scores_are_vp else None,
        boards=boards,
        board_count=board_count,
        line=line,
    )


def _team_board(r: _Reader, be: ET.Element) -> ParsedTeamBoard | None:
    number = r.integer(be, "BOARD_NUMBER", BOARD_NUMBER)
    if number is None:
        if r.text(be, "BOARD_NUMBER") is None:
            r.missing(be, "BOARD_NUMBER")
        return None
    rooms: dict[str, int | None] = {}
    contracts: dict[str, tuple[str | None, str | None]] = {}
    for te in be.findall("TRAVELLER_LINE"):
        direction = (r.text(te, "DIRECTION") or "").upper().replace("-", "")
        if direction not in ("NS", "EW"):
            line, path = r.where(te, "DIRECTION")
            r.errors.append(
                problem(
                    gettext_noop(
                        '%(path)s ska vara NS eller EW (var lag 1 satt), inte "%(direction)s".'
                    ),
                    params={"path": path, "direction": direction},
                    line=line,
                    element=path,
                    code="usebio-bad-value",
                )
            )
            continue
        if direction in rooms:
            line, path = r.where(te)
            r.errors.append(
                problem(
                    gettext_noop(
                        "%(path)s: bricka %(number)s har två resultat där laget satt %(direction)s."
                    ),
                    params={"path": path, "number": number, "direction": direction},
                    line=line,
                    element=path,
                    code="usebio-duplicate-room",
                )
            )
            continue
        raw = r.text(te, "SCORE")
        score = None
        try:
            score = parse_int(raw, SCORE)
        except ValueError as exc:
            r.bad(te, "SCORE", raw or "", refused_as(exc, gettext_noop("en poäng")))
        if score is None and raw is None:
            try:
                if normalize_contract(r.text(te, "CONTRACT")) == "Pass":
                    score = 0
            except ValueError:
                pass
        rooms[direction] = score
        contracts[direction] = _shown_contract(r, te)
    s1, s2 = rooms.get("NS"), rooms.get("EW")
    (c1, d1), (c2, d2) = contracts.get("NS", (None, None)), contracts.get("EW", (None, None))
    ph, pa = board_points(s1, s2)
    line, _ = r.where(be)
    return ParsedTeamBoard(
        number=number,
        score_ns_room1=s1,
        score_ns_room2=s2,
        imps_home=r.decimal(be, "IMPS", BOARD_IMPS),
        points_home=ph,
        points_away=pa,
        contract_room1=c1,
        declarer_room1=d1,
        contract_room2=c2,
        declarer_room2=d2,
        line=line,
    )


def _shown_contract(r: _Reader, te: ET.Element) -> tuple[str | None, str | None]:
    """A traveller line's contract ("4SX") and declarer, for showing only (the score counts)."""
    try:
        contract = normalize_contract(r.text(te, "CONTRACT"))
    except ValueError:
        contract = None
    declarer = (r.text(te, "PLAYED_BY") or "").strip().upper()
    return contract, declarer if declarer in ("N", "E", "S", "W") and contract != "Pass" else None
