"""XML is parsed through defusedxml only (issue 14): no module of the app parses XML with the
standard library's parsers, and an XXE or entity-bomb file uploaded as a heat's result is
refused with nothing changed."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from results.services.uploads import UploadRejected, upload_pair_heat
from tests.results.test_uploads import counts, pair_heat_for
from tests.results.test_uploads_badinput import media_files

ROOT = Path(__file__).resolve().parents[2]
APPS = ("clubs", "pairs", "teams", "results", "portal", "ubf")
# Any XML *parsing* entry point of the standard library or lxml (writing XML is fine).
UNSAFE = re.compile(
    r"\b(?:ET|ElementTree|etree)\.(?:parse|fromstring|XML|XMLParser|iterparse|XMLPullParser)\b"
    r"|\bxml\.dom\b|\bminidom\b|\bxml\.sax\.(?:parse|make_parser)|\bexpat\b|\blxml\b"
)


def test_no_app_module_parses_xml_without_defusedxml():
    offenders = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if UNSAFE.search(line.split("#", 1)[0]):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []
    usebio = (ROOT / "results" / "importers" / "usebio.py").read_text(encoding="utf-8")
    assert "DefusedXMLParser(" in usebio and "forbid_entities=True" in usebio


XXE = b"""<?xml version="1.0"?>
<!DOCTYPE USEBIO [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<USEBIO><EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>&xxe;</EVENT_DESCRIPTION></EVENT></USEBIO>"""
BOMB = (
    b'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa">'
    + b"".join(
        b'<!ENTITY %s "%s">' % (bytes([98 + k]), (b"&" + bytes([97 + k]) + b";") * 10)
        for k in range(8)
    )
    + b"]>\n<USEBIO><EVENT>&i;</EVENT></USEBIO>"
)


@pytest.mark.django_db
@pytest.mark.parametrize(("raw", "entity"), [(XXE, "xxe"), (BOMB, "a")])
def test_xxe_and_entity_bomb_uploads_are_refused_with_nothing_changed(tk, raw, entity):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    before = counts()
    start = time.process_time()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=raw, filename="heat.xml")
    assert time.process_time() - start < 1.0
    (p,) = exc.value.problems
    assert p.code == "xml-entities" and "entiteter" in p.message_sv and entity in p.message_sv
    assert counts() == before and media_files() == []
