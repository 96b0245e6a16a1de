"""/tk/register/ (issue 23, R-GEN-2: members by MID, membership paid per season): TK uploads the federation's register, sees the preview (nothing
saved), applies it; a club's official is refused. The file and its figures:
tests/fixtures/register/README.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from clubs.models import Club, Player
from tests.clubs.test_register_import import federation  # noqa: F401 - the fixture
from tests.factories import ClubOfficialFactory

pytestmark = pytest.mark.django_db

FILE = Path(__file__).resolve().parents[1] / "fixtures" / "register" / "federation_2016.csv"


def upload(client, **extra):
    data = {"kind": "register", "file": SimpleUploadedFile(FILE.name, FILE.read_bytes())}
    data.update(extra)
    return client.post("/tk/register/", data)


def test_upload_preview_apply(client, tk, federation):  # noqa: F811
    client.force_login(tk)
    page = upload(client, season=federation.pk).content.decode()
    assert "register: 2 new, 2 changed, 1 unchanged, 1 missing, 2 problems" in page
    assert "Rad 5:" in page and "Rad 7:" in page
    assert "Sala BK (VBF)" in page and "David Dahl (1004)" in page
    assert "Uppsala BK → Enköpings BS" in page
    assert not Player.objects.filter(mid="1005").exists()  # a preview saves nothing
    sha = page.split('name="sha256" value="')[1].split('"')[0]
    wrong = client.post("/tk/register/", {"apply": "1", "sha256": "0" * 64}, follow=True)
    assert "ladda upp den igen" in wrong.content.decode()
    assert not Player.objects.filter(mid="1005").exists()
    done = client.post("/tk/register/", {"apply": "1", "sha256": sha}, follow=True)
    assert "Sparat: register: 2 new, 2 changed" in done.content.decode()
    assert Player.objects.filter(mid__in=["1005", "1006"]).count() == 2
    assert Club.objects.get(name="Märsta BK").district.code == "UBF"
    # The file previewed is gone: applying again needs a new upload.
    again = client.post("/tk/register/", {"apply": "1", "sha256": sha}, follow=True)
    assert "ladda upp den igen" in again.content.decode()


def test_the_page_in_english(client, tk, federation):  # noqa: F811
    client.force_login(tk)
    page = client.post(
        "/tk/register/?lang=en",
        {"kind": "register", "file": SimpleUploadedFile(FILE.name, FILE.read_bytes())},
    ).content.decode()
    assert "Row 5:" in page and "Member register" in page


def test_a_file_that_is_no_register_is_refused(client, tk, federation):  # noqa: F811
    client.force_login(tk)
    response = client.post(
        "/tk/register/",
        {"kind": "register", "file": SimpleUploadedFile("x.csv", b"Namn;Adress\nA;B\n")},
    )
    assert response.status_code == 400
    assert "Kolumner saknas" in response.content.decode()


def test_a_club_official_is_refused(client, federation):  # noqa: F811
    client.force_login(ClubOfficialFactory().user)
    assert upload(client).status_code == 403
    assert not Player.objects.filter(mid="1005").exists()


def test_the_club_list_on_the_page(client, tk, federation):  # noqa: F811
    client.force_login(tk)
    clubs = FILE.parent / "clubs.csv"
    page = client.post(
        "/tk/register/",
        {"kind": "clubs", "file": SimpleUploadedFile(clubs.name, clubs.read_bytes())},
    ).content.decode()
    # Uppsala BK and Enköpings BS get their club numbers; Sala BK (VBF) is new.
    assert "clubs: 1 new, 2 changed, 0 unchanged, 0 problems" in page
    assert "klubbnummer: — → 101" in page
    sha = page.split('name="sha256" value="')[1].split('"')[0]
    client.post("/tk/register/", {"apply": "1", "sha256": sha})
    assert Club.objects.get(name="Sala BK").sbf_number == "201"
