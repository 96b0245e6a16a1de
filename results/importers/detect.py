"""Reading an uploaded file: size, binary check, encoding, format, and dispatch.

:func:`parse_upload` is the one entry point the Django layer needs::

    event = parse_upload(data, filename, kind="pairs")   # or kind="teams"

It enforces a size limit before anything else (default 5 MB), refuses binary files (NUL
bytes; recognised kinds such as Excel/zip, PDF and Bridgemate/Access ``.bws`` get their own
message, sniffed from the first bytes) and then names whose extension is no result file's
(:data:`ALLOWED_EXTENSIONS`: ``.pbn``, ``.xml``, ``.usebio``, ``.csv``, ``.txt`` or none),
decodes text as UTF-8 (with or without BOM), then Windows-1252, then Latin-1,
detects the format from the content (``<`` → USEBIO XML; ``%`` or ``[`` → PBN; the "CSV för
lag" header → CSV) and from the file name's extension when the content does not say, and
calls the matching parser. Every failure is an :class:`~.model.ImportFailed` with a Swedish
message first.
"""

from __future__ import annotations

import codecs
from dataclasses import replace

from ubf.rules.i18n import Number, gettext_noop

from .bounds import Limits, check_pairs_event, check_teams_event
from .csv_teams import is_csv_teams, parse_csv_teams
from .model import (
    ImportFailed,
    ImportNote,
    ImportProblem,
    ParsedPairEvent,
    ParsedTeamEvent,
    fail,
    note,
    problem,
)
from .pbn import parse_pbn_pairs, parse_pbn_teams
from .usebio import parse_usebio

__all__ = [
    "ALLOWED_EXTENSIONS",
    "DEFAULT_MAX_BYTES",
    "FORMATS",
    "KINDS",
    "ImportFailed",
    "check_bytes",
    "check_name",
    "decode_text",
    "detect_format",
    "parse_upload",
]

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
KINDS = ("pairs", "teams")
FORMATS = ("pbn", "usebio", "csv")
_EXTENSIONS = {".pbn": "pbn", ".xml": "usebio", ".usebio": "usebio", ".csv": "csv", ".txt": "csv"}
#: The extensions an uploaded file may have ("" = none: the content decides).
ALLOWED_EXTENSIONS = ("", *_EXTENSIONS)
_SIGNATURES = (
    (b"PK\x03\x04", gettext_noop("en zip-fil eller ett Excel/Word-dokument (.xlsx/.docx)")),
    (b"%PDF", gettext_noop("en PDF-fil")),
    (b"\x00\x01\x00\x00Standard Jet DB", gettext_noop("en Bridgemate-/Access-databas (.bws/.mdb)")),
    (b"\x00\x01\x00\x00Standard ACE DB", gettext_noop("en Access-databas (.accdb)")),
    (b"\xd0\xcf\x11\xe0", gettext_noop("ett gammalt Office-dokument (.xls/.doc)")),
    (b"\x89PNG", gettext_noop("en bild (PNG)")),
    (b"\xff\xd8\xff", gettext_noop("en bild (JPEG)")),
)  # fmt: skip


def _mb(size: int) -> Number:
    return Number(f"{size / (1024 * 1024):.1f}".replace(".", ","))


def too_large(size: int, max_bytes: int = DEFAULT_MAX_BYTES) -> ImportProblem | None:
    """The problem of a file of ``size`` bytes over ``max_bytes``, else ``None`` (the upload
    form asks it of the uploaded file's size, before reading it)."""
    if size <= max_bytes:
        return None
    return problem(
        gettext_noop(
            "Filen är för stor (%(size)s MB). Största tillåtna storlek är %(largest)s MB; en "
            "resultatfil för en heat är normalt under 1 MB. Är det rätt fil?"
        ),
        params={"size": _mb(size), "largest": _mb(max_bytes)},
        code="too-large",
    )


def check_bytes(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
    """Refuse an empty, too large or binary upload (raises ImportFailed)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError("data must be bytes")
    size = len(data)
    large = too_large(size, max_bytes)
    if large is not None:
        raise ImportFailed(large)
    if size == 0 or not bytes(data[:4096]).strip(b" \t\r\n\xef\xbb\xbf"):
        raise fail(
            gettext_noop("Filen är tom."),
            code="empty",
        )
    head = bytes(data[:64])
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return  # UTF-16 text has NUL bytes by nature
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            raise fail(
                gettext_noop(
                    "Filen är %(what)s, inte en resultatfil. Exportera resultatet som PBN (eller "
                    "USEBIO XML) från resultatprogrammet (t.ex. Ruter) och ladda upp den."
                ),
                params={"what": what},
                code="binary",
            )
    nul = bytes(data).find(b"\x00")
    if nul >= 0:
        raise _binary(nul)


def _binary(nul: int) -> ImportFailed:
    return fail(
        gettext_noop(
            "Filen är en binärfil (den innehåller NUL-tecken, första vid byte %(nul)s), inte en "
            "textfil. Ladda upp PBN-, USEBIO XML- eller CSV-filen från resultatprogrammet."
        ),
        params={"nul": nul},
        code="binary",
    )


def check_name(filename: str) -> None:
    """Refuse a file whose extension is no result file's (``heat.exe``, ``lista.docx``); a
    name without one is read by its content. The upload service asks it before
    :func:`parse_upload`, which itself goes by the content whatever the name (CONTRACT.md)."""
    ext = _extension(filename)
    if ext in ALLOWED_EXTENSIONS or len(ext) > 12 or " " in ext:
        return  # "Heat 3. Final" has a dot but no extension
    raise fail(
        gettext_noop(
            "Filtypen %(ext)s tas inte emot. Ladda upp en PBN-fil (.pbn), en USEBIO XML-fil "
            "(.xml) eller, för lag, en CSV-fil (.csv)."
        ),
        params={"ext": ext},
        code="file-type",
    )


def decode_text(data: bytes, *, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, str]:
    """``(text, encoding)``: UTF-8 (BOM or not), UTF-16 with BOM, else cp1252, else latin-1."""
    check_bytes(data, max_bytes=max_bytes)
    data = bytes(data)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise fail(
                gettext_noop("Filen börjar som UTF-16 men innehåller ogiltiga tecken."),
                code="encoding",
            ) from exc
        nul = text.find("\x00")
        if nul >= 0:  # a NUL character, not a NUL byte of UTF-16: no text file has one
            raise _binary(2 + 2 * nul)
        return text, "utf-16"
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte string")  # pragma: no cover


def _strip_start(data: bytes) -> bytes:
    if data.startswith(codecs.BOM_UTF8):
        data = data[3:]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data = data[:4096].decode("utf-16", errors="ignore").encode("utf-8")
        except UnicodeError:  # pragma: no cover
            return b""
    return data.lstrip()


def _extension(filename: str) -> str:
    name = (filename or "").strip().lower()
    dot = name.rfind(".")
    return name[dot:] if dot >= 0 else ""


def detect_format(data: bytes, filename: str = "") -> str:
    """``"pbn"``, ``"usebio"`` or ``"csv"``, from the content first, then the extension.

    Raises ImportFailed when neither says.
    """
    start = _strip_start(bytes(data[:8192]))
    if start.startswith(b"<"):
        return "usebio"
    if start.startswith((b"%", b"[")):
        return "pbn"
    text = start.decode("latin-1")
    if is_csv_teams(text):
        return "csv"
    by_name = _EXTENSIONS.get(_extension(filename))
    if by_name:
        return by_name
    raise fail(
        gettext_noop(
            "Filformatet känns inte igen. Ladda upp en PBN-fil (.pbn) från Ruter, en USEBIO "
            "XML-fil (.xml) eller, för lag, en CSV-fil enligt beskrivningen (CSV för lag)."
        ),
        code="unknown-format",
    )


def parse_upload(
    data: bytes,
    filename: str,
    kind: str,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    limits: Limits | None = None,
) -> ParsedPairEvent | ParsedTeamEvent:
    """Parse an uploaded result file (``kind`` ``"pairs"`` or ``"teams"``).

    Returns a :class:`ParsedPairEvent` for pairs and a :class:`ParsedTeamEvent` for teams;
    raises :class:`ImportFailed` when the file cannot be read. Notes about how the file was
    read (encoding fallback, extension/content disagreement) are added to ``warnings``.
    Run :func:`results.importers.validate.validate_pairs` / ``validate_teams`` on the result.

    ``limits`` (:mod:`.bounds`, issue 25): what the upload's heat or final can hold. The
    parsers count a file's rows before they read them, and the parsed event is checked
    again (:func:`~.bounds.check_pairs_event`, ``check_teams_event``), so a file over a bound
    is refused before any arithmetic.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    check_bytes(data, max_bytes=max_bytes)
    data = bytes(data)
    fmt = detect_format(data, filename)
    notes: list[ImportNote] = []
    by_name = _EXTENSIONS.get(_extension(filename))
    if by_name and by_name != fmt:
        notes.append(
            note(
                gettext_noop(
                    "Filnamnet (%(filename)s) tyder på %(named)s, men innehållet är "
                    "%(format)s; filen lästes som %(format)s."
                ),
                params={"filename": filename, "named": by_name.upper(), "format": fmt.upper()},
                code="name-and-content-differ",
            )
        )
    if fmt == "usebio":
        event = parse_usebio(data, kind, limits=limits)
    else:
        text, encoding = decode_text(data, max_bytes=max_bytes)
        if fmt == "csv" and encoding in ("cp1252", "latin-1"):
            notes.append(
                note(
                    gettext_noop("Filen är inte UTF-8; den lästes som %(encoding)s."),
                    params={
                        "encoding": "Windows-1252"
                        if encoding == "cp1252"
                        else "Latin-1 (ISO-8859-1)"
                    },
                    code="not-utf8",
                )
            )
        if fmt == "csv":
            if kind == "pairs":
                raise fail(
                    gettext_noop(
                        "CSV stöds bara för lagresultat. För par: ladda upp PBN-filen från Ruter (eller "
                        "USEBIO XML)."
                    ),
                    code="csv-pairs",
                )
            event = parse_csv_teams(text, limits=limits)
        elif kind == "pairs":
            event = parse_pbn_pairs(text, limits=limits)
        else:
            event = parse_pbn_teams(text, limits=limits)
    if isinstance(event, ParsedPairEvent):
        check_pairs_event(event, limits)
    else:
        check_teams_event(event, limits)
    if notes:
        event = replace(event, warnings=notes + list(event.warnings))
    return event
