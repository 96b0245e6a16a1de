"""Upload size and type limits (issue 14): a body over the limit is answered 413 from its
Content-Length before anything reads it; the form refuses a file by its size; a file whose
extension is no result file's is refused; Django's memory limits are set."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from results.forms import ResultFileForm
from results.importers import parse_upload
from results.importers.detect import check_name
from results.importers.model import ImportFailed
from results.services.uploads import UploadRejected, upload_pair_heat
from tests.results.test_uploads import counts, data, pair_heat_for

MB = 1024 * 1024


class UnreadableBody:
    """A request body that fails the test if anything reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def post_with_length(client, path, length, **extra):
    return client.generic(
        "POST",
        path,
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(length),
        **{"wsgi.input": UnreadableBody()},
        **extra,
    )


@pytest.mark.django_db
def test_a_200_mb_upload_is_refused_413_without_reading_its_body(client, tk):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    client.force_login(tk)
    before = counts()
    response = post_with_length(client, f"/resultat/par/{heat.id}/", 200 * MB)
    assert response.status_code == 413
    text = response.content.decode()
    assert "För stor fil" in text
    assert "Det du skickade är 200,0 MB; här tas högst 5,1 MB emot." in text
    assert counts() == before


@pytest.mark.django_db
def test_the_413_page_is_in_english_on_request(client, tk):
    heat, _ = pair_heat_for("pairs_howell_usebio.xml")
    client.force_login(tk)
    response = post_with_length(client, f"/resultat/par/{heat.id}/?lang=en", 200 * MB)
    assert response.status_code == 413
    assert (
        "What you sent is 200.0 MB; at most 5.1 MB is accepted here." in response.content.decode()
    )


@pytest.mark.django_db
def test_other_pages_take_a_larger_body_but_not_any(client):
    # An invitation PDF may be larger than a result file; 10 MB is the cap elsewhere.
    assert post_with_length(client, "/klubb/", 11 * MB).status_code == 413
    assert post_with_length(client, "/resultat/lag/1/", 6 * MB).status_code == 413


def test_django_memory_limits_are_set():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == MB
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == MB
    assert settings.REQUEST_BODY_LIMITS["/resultat/"] == 5 * MB + 64 * 1024


def test_the_form_refuses_a_file_by_its_size():
    big = SimpleUploadedFile("heat.pbn", b"%" * (5 * MB + 1))
    form = ResultFileForm({}, {"file": big})
    assert not form.is_valid()
    assert form.errors["file"] == [
        "Filen är för stor (5,0 MB). Största tillåtna storlek är 5,0 MB; en resultatfil för en "
        "heat är normalt under 1 MB. Är det rätt fil?"
    ]


@pytest.mark.parametrize("name", ["heat.exe", "resultat.docx", "lista.html"])
def test_a_file_whose_extension_is_no_result_file_is_refused(name):
    with pytest.raises(ImportFailed) as exc:
        check_name(name)
    (p,) = exc.value.problems
    assert p.code == "file-type"
    ext = name[name.rindex(".") :]
    assert p.message_sv.startswith(f"Filtypen {ext} tas inte emot.")


@pytest.mark.parametrize("name", ["heat", "heat.PBN", "Heat 3. Final", "lag.txt"])
def test_result_file_names_and_names_without_extension_pass(name):
    check_name(name)
    parse_upload(data("pairs_ruter_mitchell.pbn"), name, "pairs")


def test_the_pure_reader_goes_by_the_content_whatever_the_name():
    # CONTRACT.md: parse_upload(data, filename, kind); the type limit is the upload's
    event = parse_upload(data("pairs_ruter_mitchell.pbn"), "export.dat", "pairs")
    assert event.pairs


def test_the_content_is_sniffed_before_the_extension():
    # A PDF named .pbn is told to be a PDF (the first bytes), not read as PBN.
    with pytest.raises(ImportFailed) as exc:
        parse_upload(b"%PDF-1.7\n...", "heat.pbn", "pairs")
    assert "en PDF-fil" in exc.value.problems[0].message_sv


@pytest.mark.django_db
def test_an_exe_is_refused_by_the_service_and_nothing_is_saved(tk):
    heat, _ = pair_heat_for("pairs_ruter_mitchell.pbn")
    before = counts()
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=data("pairs_ruter_mitchell.pbn"), filename="heat.exe")
    assert exc.value.problems[0].code == "file-type"
    assert counts() == before
