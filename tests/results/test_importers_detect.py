"""Upload handling: size limit, binary files, encodings, format detection and dispatch."""

from __future__ import annotations

import codecs
import time

import pytest

from results.importers.detect import (
    DEFAULT_MAX_BYTES,
    decode_text,
    detect_format,
    parse_upload,
)
from results.importers.model import ImportFailed, ParsedPairEvent, ParsedTeamEvent

from ._fixtures import broken, fixture


def test_large_payload_is_refused_quickly_with_a_clear_message():
    data = b"[Event " + b"x" * (21 * 1024 * 1024)  # > 20 MB, built in memory only
    start = time.perf_counter()
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data, "heat.pbn", "pairs")
    assert time.perf_counter() - start < 1.0
    p = exc.value.problems[0]
    assert p.code == "too-large"
    assert "för stor (21,0 MB)" in p.message_sv and "5,0 MB" in p.message_sv


def test_size_limit_is_a_parameter():
    data = fixture("teams.csv")
    assert len(data) < DEFAULT_MAX_BYTES
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data, "lag.csv", "teams", max_bytes=1000)
    assert exc.value.problems[0].code == "too-large"
    assert isinstance(parse_upload(data, "lag.csv", "teams", max_bytes=10_000), ParsedTeamEvent)


def test_empty_file():
    for data in (b"", b"  \r\n", codecs.BOM_UTF8 + b"\n"):
        with pytest.raises(ImportFailed) as exc:
            parse_upload(data, "x.pbn", "pairs")
        assert exc.value.problems[0].message_sv == "Filen är tom."


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"PK\x03\x04" + b"\x00" * 50, "Excel"),
        (b"%PDF-1.4\n" + b"\x00" * 50, "PDF"),
        (b"\x00\x01\x00\x00Standard Jet DB\x00", "Bridgemate"),
        (b"[Event \x00\x01\x02", "binärfil"),
    ],
)
def test_binary_files_are_refused(data, words):
    with pytest.raises(ImportFailed) as exc:
        parse_upload(data, "fil.pbn", "pairs")
    assert words in exc.value.problems[0].message_sv
    assert exc.value.problems[0].code == "binary"


def test_decode_order_utf8_bom_cp1252_latin1():
    assert decode_text("Åsa".encode()) == ("Åsa", "utf-8-sig")
    assert decode_text(codecs.BOM_UTF8 + "Åsa".encode()) == ("Åsa", "utf-8-sig")
    assert decode_text("Åsa – Öberg".encode("cp1252")) == ("Åsa – Öberg", "cp1252")
    # 0x81 is undefined in cp1252: only Latin-1 reads it.
    assert decode_text(b"\xc5sa \x81") == ("Åsa \x81", "latin-1")
    assert decode_text("Åsa".encode("utf-16")) == ("Åsa", "utf-16")


def test_detect_format_by_content_then_extension():
    assert detect_format(fixture("pairs_ruter_mitchell.pbn"), "x.txt") == "pbn"
    assert detect_format(fixture("pairs_howell_usebio.xml"), "") == "usebio"
    assert detect_format(codecs.BOM_UTF8 + b"  <?xml version='1.0'?><USEBIO/>", "") == "usebio"
    assert detect_format(fixture("teams.csv"), "") == "csv"
    assert detect_format(b"hello world", "heat.pbn") == "pbn"
    with pytest.raises(ImportFailed) as exc:
        detect_format(b"hello world", "heat.doc")
    assert "Filformatet känns inte igen" in exc.value.problems[0].message_sv


def test_parse_upload_dispatch():
    pairs = parse_upload(fixture("pairs_ruter_mitchell.pbn"), "heat2.pbn", "pairs")
    assert isinstance(pairs, ParsedPairEvent) and pairs.source_format == "pbn"
    assert pairs.pair("1NS").players[0].name == "Åsa Öberg"  # Latin-1 decoded right
    usebio = parse_upload(fixture("pairs_howell_usebio.xml"), "heat3.xml", "pairs")
    assert usebio.source_format == "usebio"
    teams = parse_upload(fixture("teams_ruter.pbn"), "lag.pbn", "teams")
    assert isinstance(teams, ParsedTeamEvent) and teams.source_format == "pbn"
    assert parse_upload(fixture("teams_usebio.xml"), "lag.xml", "teams").source_format == "usebio"
    assert parse_upload(fixture("teams.csv"), "lag.csv", "teams").source_format == "csv"
    with pytest.raises(ValueError):
        parse_upload(fixture("teams.csv"), "lag.csv", "individual")


def test_csv_for_pairs_is_refused():
    with pytest.raises(ImportFailed) as exc:
        parse_upload(fixture("teams.csv"), "lag.csv", "pairs")
    assert "CSV stöds bara för lagresultat" in exc.value.problems[0].message_sv


def test_extension_mismatch_and_encoding_fallback_are_noted():
    event = parse_upload(fixture("pairs_howell_usebio.xml"), "heat3.pbn", "pairs")
    assert any("tyder på PBN" in w and "USEBIO" in w for w in event.warnings)
    cp1252 = fixture("teams.csv").decode("utf-8-sig").encode("cp1252")
    event = parse_upload(cp1252, "lag.csv", "teams")
    assert any("Windows-1252" in w for w in event.warnings)
    assert event.team("1").players[0].name == "Åsa Öberg"


def test_binary_corpus_files():
    with pytest.raises(ImportFailed) as exc:
        parse_upload(broken("bridgemate.bws"), "heat.bws", "pairs")
    assert "Bridgemate" in exc.value.problems[0].message_sv
    with pytest.raises(ImportFailed) as exc:
        parse_upload(broken("binary.pbn"), "heat.pbn", "pairs")
    assert "binärfil" in exc.value.problems[0].message_sv
