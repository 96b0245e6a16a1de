"""The upload page: a club official uploads, errors are listed in Swedish, nothing is saved."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from pairs.models import PairEntry
from results.importers import parse_upload
from results.models import PairResult, ResultUpload
from tests.factories import ClubOfficialFactory, PairHeatFactory, member

pytestmark = pytest.mark.django_db
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "results"
NAME = "pairs_howell_usebio.xml"


@pytest.fixture
def heat_and_official():
    raw = (FIXTURES / NAME).read_bytes()
    heat = PairHeatFactory()
    for pair in parse_upload(raw, NAME, "pairs").pairs:
        a, b = (member(season=heat.competition.season, mid=p.mid) for p in pair.players)
        PairEntry.objects.create(heat=heat, player1=a, player2=b, pair_number=pair.number)
    official = ClubOfficialFactory(club=heat.clubs.first()).user
    return heat, official, raw


def test_login_required(client, heat_and_official):
    heat, _, _ = heat_and_official
    response = client.get(f"/resultat/par/{heat.id}/")
    assert response.status_code == 302 and "/konto/login/" in response["Location"]


def test_other_club_gets_403(client, heat_and_official):
    heat, _, _ = heat_and_official
    client.force_login(ClubOfficialFactory().user)
    assert client.get(f"/resultat/par/{heat.id}/").status_code == 403


def test_official_uploads_and_sees_confirmation(
    client, heat_and_official, django_capture_on_commit_callbacks
):
    heat, official, raw = heat_and_official
    client.force_login(official)
    page = client.get(f"/resultat/par/{heat.id}/")
    assert page.status_code == 200 and "Ladda upp resultat" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, raw)}, follow=True
        )
    html = response.content.decode()
    assert "Sparat, resultatlistan uppdateras snart." in html
    assert PairResult.objects.filter(heat=heat).count() == 10


def test_broken_upload_lists_errors_and_saves_nothing(client, heat_and_official):
    heat, official, raw = heat_and_official
    client.force_login(official)
    broken = raw[: len(raw) // 2]
    response = client.post(f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, broken)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Filen lästes inte in. Inget har sparats." in html
    assert ResultUpload.objects.count() == 0


def test_pair_final_upload_page_is_for_tk_only(client):
    from tests.factories import PairCompetitionFactory, UserFactory

    comp = PairCompetitionFactory()
    client.force_login(ClubOfficialFactory().user)
    assert client.get(f"/resultat/parfinal/{comp.id}/").status_code == 403
    client.force_login(UserFactory(username="tk-view", is_superuser=True, is_staff=True))
    assert client.get(f"/resultat/parfinal/{comp.id}/").status_code == 200
