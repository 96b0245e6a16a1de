"""Bad input through the upload service (issue 14): an error nobody foresaw in reading a file is
a refusal in Swedish, logged with its traceback; a refused or failed upload leaves the database
and the media folder as they were; an accepted one keeps its file under a name of ours."""

from __future__ import annotations

import decimal
import logging
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DataError
from django.utils.html import escape

import results.services.uploads as uploads
from results.models import ResultUpload
from results.services.uploads import UploadRejected, upload_pair_heat, upload_team_results
from tests.conftest import requires_postgres
from tests.results.test_uploads import counts, data, pair_heat_for, team_heat_for

pytestmark = pytest.mark.django_db


def media_files() -> list[str]:
    root = Path(settings.MEDIA_ROOT)
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def _raises(exc):
    def boom(*args, **kwargs):
        raise exc

    return boom


def test_an_unforeseen_error_in_validation_is_a_swedish_refusal_and_logged(tk, monkeypatch, caplog):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    monkeypatch.setattr(uploads, "validate_pairs", _raises(decimal.InvalidOperation("x")))
    before = counts()
    with (
        caplog.at_level(logging.ERROR, logger="results.services.uploads"),
        pytest.raises(UploadRejected) as exc,
    ):
        upload_pair_heat(tk, heat, data=data("pairs_howell_usebio.xml"), filename="h.xml")
    (p,) = exc.value.problems
    assert p.message_sv.startswith("Filen kunde inte läsas: InvalidOperation")
    assert p.message_en.startswith("The file could not be read: InvalidOperation")
    assert p.code == "unreadable"
    assert any(r.exc_info for r in caplog.records)  # the traceback is in the log
    assert counts() == before and media_files() == []


def test_an_unforeseen_error_in_a_team_summary_is_a_refusal(tk, monkeypatch):
    heat, _, _ = team_heat_for("teams.csv", 24)
    monkeypatch.setattr(uploads, "team_match_summary", _raises(ZeroDivisionError("division")))
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=data("teams.csv"), filename="lag.csv")
    assert exc.value.problems[0].message_sv.startswith(
        "Filen kunde inte läsas: ZeroDivisionError: division."
    )
    assert counts() == before and media_files() == []


def test_a_failure_after_the_file_was_written_deletes_it_again(tk, monkeypatch):
    # The file is written last, after the rows; anything that still fails before the commit
    # (here the recompute's request, as a database error) rolls back and removes the file.
    heat, _ = pair_heat_for("pairs_ruter_mitchell.pbn")
    written = []
    real = uploads._keep_file

    def keep(upload, raw, names):
        real(upload, raw, names)
        written.append(Path(settings.MEDIA_ROOT) / upload.file.name)

    monkeypatch.setattr(uploads, "_keep_file", keep)
    monkeypatch.setattr(uploads, "request_recompute", _raises(DataError("value too long")))
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=data("pairs_ruter_mitchell.pbn"), filename="h.pbn")
    assert exc.value.problems[0].message_sv.startswith(
        "Filen kunde inte sparas: DataError: value too long. Inget sparades."
    )
    assert len(written) == 1 and not written[0].exists()
    assert counts() == before and media_files() == []


def test_any_other_failure_in_the_transaction_also_leaves_no_file(tk, monkeypatch):
    heat, _ = pair_heat_for("pairs_ruter_mitchell.pbn")
    monkeypatch.setattr(uploads, "request_recompute", _raises(RuntimeError("broker down")))
    with pytest.raises(RuntimeError):
        upload_pair_heat(tk, heat, data=data("pairs_ruter_mitchell.pbn"), filename="h.pbn")
    assert ResultUpload.objects.count() == 0 and media_files() == []


def test_an_accepted_upload_keeps_its_file_under_our_name(tk):
    heat, _ = pair_heat_for("pairs_ruter_mitchell.pbn")
    raw = data("pairs_ruter_mitchell.pbn")
    outcome = upload_pair_heat(tk, heat, data=raw, filename="€\x00.pbn")
    upload = outcome.upload
    assert upload.original_name == "€.pbn"
    name = upload.file.name
    assert name.startswith("results/") and name.endswith(f"/{upload.checksum[:16]}.pbn")
    assert media_files() == [name]
    with upload.file.open("rb") as f:
        assert f.read() == raw


def test_a_utf16_file_with_a_nul_character_is_refused_as_binary(tk):
    heat, _, _ = team_heat_for("teams.csv", 24)
    text = data("teams.csv").decode("utf-8-sig").replace("BK Norrtälje", "BK\x00Norrtälje")
    raw = text.encode("utf-16")
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_team_results(tk, heat=heat, data=raw, filename="lag.csv")
    assert exc.value.problems[0].code == "binary"
    assert counts() == before and media_files() == []


@requires_postgres
@pytest.mark.postgres
def test_a_value_postgresql_refuses_is_a_refusal_without_an_orphan_file(tk, monkeypatch):
    # PairResult.total is numeric(8, 2): 10^7 overflows it in PostgreSQL (SQLite would store
    # it). The bounds keep a file's own figures far below; this stands for any value the
    # database still refuses: the DataError is a refusal, nothing is kept, no file stays.
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    monkeypatch.setattr(uploads, "_cents", lambda value: decimal.Decimal(10) ** 7)
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=data("pairs_howell_usebio.xml"), filename="h.xml")
    assert exc.value.problems[0].message_sv.startswith("Filen kunde inte sparas: DataError")
    assert counts() == before and media_files() == []


# Over HTTP (issue 14: board 0, MP 1e9999 or negative IMPs in a CSV gave 500).
@pytest.mark.parametrize(
    ("fixture_name", "old", "new", "expected"),
    [
        (
            "pairs_ruter_mitchell.pbn",
            b'[Board "1"]',
            b'[Board "0"]',
            'kolumnen Board har värdet "0", som inte är ett bricknummer (1–999).',
        ),
        (
            "pairs_ruter_mitchell.pbn",
            b"  9.0  3.0  75  25",
            b"  1e9999  3.0  75  25",
            'kolumnen MP_NS har värdet "1e9999", som inte är ett tal.',
        ),
        (
            "teams.csv",
            b"1;1;2;59;29;",
            b"1;1;2;-59;29;",
            'Kolumnen imps_home har värdet "-59", som inte är IMP för en match (0–2400).',
        ),
    ],
)
def test_the_issues_files_over_http_are_a_400_page_in_swedish(
    client, tk, fixture_name, old, new, expected
):
    raw = data(fixture_name)
    assert old in raw
    if fixture_name.endswith(".csv"):
        heat, _, _ = team_heat_for(fixture_name, 24)
        url = f"/resultat/lag/{heat.id}/"
    else:
        heat, _ = pair_heat_for(fixture_name)
        url = f"/resultat/par/{heat.id}/"
    client.force_login(tk)
    before = counts()
    response = client.post(
        url, {"file": SimpleUploadedFile(fixture_name, raw.replace(old, new, 1))}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Filen lästes inte in. Inget har sparats." in html
    assert escape(expected) in html
    assert counts() == before and media_files() == []
