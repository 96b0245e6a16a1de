"""Issue 24 end to end: the real FFB Magic Contest final uploads as a heat (R-PAIR-KVAL-5),
and a percentage that differs more than rounding but still fits the boards reaches the club
(the upload page) and TK (the upload's stored warnings, shown in the admin and the API)
through the path every validate_pairs warning takes."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from pairs.models import PairEntry
from results.importers import parse_upload
from results.models import PairResult, ResultUpload
from tests.factories import ClubOfficialFactory, PairHeatFactory, member

pytestmark = pytest.mark.django_db
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "results" / "real"
NAME = "magiccontest_ffb_open2_dn1_final_s1.pbn"
ROW = ' 1  7  7 "E-W" 771.2 61.21'


@pytest.fixture
def heat_and_official():
    raw = (REAL / NAME).read_bytes()
    heat = PairHeatFactory()
    season = heat.competition.season
    for pair in parse_upload(raw, NAME, "pairs").pairs:
        a, b = (member(season=season, mid=p.mid) for p in pair.players)
        PairEntry.objects.create(heat=heat, player1=a, player2=b, pair_number=pair.number)
    official = ClubOfficialFactory(club=heat.clubs.first()).user
    return heat, official, raw


def _post(client, heat, data: bytes, capture):
    with capture(execute=True):
        return client.post(
            f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, data)}, follow=True
        )


def test_the_real_final_uploads_without_a_word(
    client, heat_and_official, django_capture_on_commit_callbacks
):
    heat, official, raw = heat_and_official
    client.force_login(official)
    html = _post(client, heat, raw, django_capture_on_commit_callbacks).content.decode()
    assert "Sparat, resultatlistan uppdateras snart." in html
    upload = ResultUpload.objects.get(heat=heat)
    # Not a percentage, not a total: Magic Contest's rounding passes silently.
    assert not [w for w in upload.warnings if "procent" in w["text"] or "summa" in w["text"]]
    # The standings take the board results: pair 7 has 61.20, not the file's 61.21.
    assert str(PairResult.objects.get(heat=heat, entry__pair_number="7").percentage) == "61.20"


def test_a_larger_difference_that_fits_is_shown_to_the_club_and_kept_for_tk(
    client, heat_and_official, django_capture_on_commit_callbacks
):
    heat, official, raw = heat_and_official
    changed = raw.replace(ROW.encode(), ROW.replace("61.21", "61.25").encode())
    assert changed != raw
    client.force_login(official)
    html = _post(client, heat, changed, django_capture_on_commit_callbacks).content.decode()
    assert "Sparat, resultatlistan uppdateras snart." in html
    assert "Par 7: filens procent 61,25 skiljer sig" in html  # the club sees it
    upload = ResultUpload.objects.get(heat=heat)
    (warning,) = [w for w in upload.warnings if "procent" in w["text"]]
    assert warning["text"].startswith("Par 7: filens procent 61,25 skiljer sig 0,052")
    assert "kontrollera att filen är den slutliga" in warning["text"]
    assert str(PairResult.objects.get(heat=heat, entry__pair_number="7").percentage) == "61.20"


def test_a_difference_that_does_not_fit_refuses_and_saves_nothing(client, heat_and_official):
    heat, official, raw = heat_and_official
    changed = raw.replace(ROW.encode(), ROW.replace("61.21", "62.21").encode())
    client.force_login(official)
    response = client.post(f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(NAME, changed)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Par 7: filens procent 62,21 stämmer inte med brickresultaten" in html
    assert ResultUpload.objects.count() == 0
