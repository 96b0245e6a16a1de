"""Uploading real files written by other programs, and refusals a club treasurer can act on."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from pairs.models import PairEntry
from results.importers import parse_upload
from results.models import PairResult, ResultUpload
from results.services.uploads import UploadRejected, upload_pair_heat
from tests.factories import ClubOfficialFactory, PairHeatFactory, UserFactory, member

from .test_importers_real import HOWELL_PERCENT

pytestmark = pytest.mark.django_db
REAL = Path(__file__).resolve().parents[1] / "fixtures" / "results" / "real"
MITCHELL = "compscore3_mp_pairs_mitchell_03.xml"


def heat_numbered(numbers: list[str]):
    heat = PairHeatFactory()
    season = heat.competition.season
    for n in numbers:
        PairEntry.objects.create(
            heat=heat, player1=member(season=season), player2=member(season=season), pair_number=n
        )
    return heat


def test_real_compscore_howell_file_is_stored_with_the_files_percentages(
    django_capture_on_commit_callbacks,
):
    name = "compscore3_mp_pairs_howell.xml"
    raw = (REAL / name).read_bytes()
    heat = PairHeatFactory()
    season = heat.competition.season
    for pair in parse_upload(raw, name, "pairs").pairs:
        a, b = (member(season=season, mid=p.mid) for p in pair.players)
        PairEntry.objects.create(heat=heat, player1=a, player2=b, pair_number=pair.number)
    tk = UserFactory(username="tk", is_superuser=True, is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = upload_pair_heat(tk, heat, data=raw, filename=name)
    assert not outcome.unchanged
    stored = {r.entry.pair_number: r.percentage for r in PairResult.objects.filter(heat=heat)}
    # The file's own <PERCENTAGE> figures, read by hand (tests/results/test_importers_real.py).
    assert stored == {k: Decimal(v) for k, v in HOWELL_PERCENT.items()}


def test_mitchell_file_with_unknown_pairs_gets_one_summary_line():
    # The heat numbers its pairs 1..13 without direction; the Compscore file has 1NS, 2EW ...
    heat = heat_numbered([str(n) for n in range(1, 14)])
    tk = UserFactory(username="tk", is_superuser=True, is_staff=True)
    with pytest.raises(UploadRejected) as exc:
        upload_pair_heat(tk, heat, data=(REAL / MITCHELL).read_bytes(), filename=MITCHELL)
    unknown = [p for p in exc.value.problems if p.code == "unknown-pair"]
    assert len(unknown) == 1
    msg = unknown[0].message_sv
    assert msg.startswith("13 par i filen finns inte i heatet: 1NS, 2NS, 2EW, 3NS")
    assert "Mitchell" in msg and "samma nummer i Ruter" in msg
    assert ResultUpload.objects.count() == 0 and PairResult.objects.count() == 0


@pytest.mark.parametrize(
    "name",
    [
        "compscore3_notsupported.xml",
        "compscore3_cross_imp_howell.xml",
        "pbntools_jfr_barometer_wb120802.pbn",
        "pbntools_kops_imp_sm0807.pbn",
        "bridgecomposer_hand_record.pbn",
    ],
)
def test_upload_page_shows_a_refused_file_in_a_few_swedish_lines(client, name):
    heat = heat_numbered(["1", "2"])
    client.force_login(ClubOfficialFactory(club=heat.clubs.first()).user)
    raw = (REAL / name).read_bytes()
    response = client.post(f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile(name, raw)})
    assert response.status_code == 400
    lines = response.context["problems"]
    assert 1 <= len(lines) <= 5
    for line in lines:
        text = line["text"]
        # Swedish, and it says what to do.
        assert text.startswith(("Filen", "Brickornas")), text
        assert any(w in text for w in ("Ladda upp", "exportera", "Exportera")), text
    html = response.content.decode()
    assert "Filen lästes inte in. Inget har sparats." in html
    assert ResultUpload.objects.count() == 0


def test_upload_page_caps_many_errors_of_one_kind(client):
    heat = heat_numbered([str(n) for n in range(1, 14)])
    client.force_login(ClubOfficialFactory(club=heat.clubs.first()).user)
    raw = (REAL / MITCHELL).read_bytes()
    # Break every board's matchpoints: MP_NS+MP_EW no longer adds up to the top anywhere.
    broken = raw.replace(b"<NS_MATCH_POINTS>", b"<NS_MATCH_POINTS>1")
    response = client.post(
        f"/resultat/par/{heat.id}/", {"file": SimpleUploadedFile("x.xml", broken)}
    )
    lines = response.context["problems"]
    assert response.status_code == 400
    assert len(lines) <= 6
    assert any("fel till av samma slag" in line["text"] for line in lines)
