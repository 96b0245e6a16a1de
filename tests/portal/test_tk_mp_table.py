"""/tk/sasong/mastarpoang/ (issue 22, R-PAIR-MP-1, R-GEN-1): TK sees the season's masterpoint
table for the pairs finals and replaces it (a file or pasted), checked row by row with the row
numbers in the errors and nothing saved on any error; logged old → new; the pairs finals
recomputed (the real recompute: the final's page shows the new points)."""

from __future__ import annotations

import html as html_lib
import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from clubs import clock
from clubs.models import Decision, Season
from clubs.services.base import ServiceError
from clubs.services.season import load_mp_table, mp_table
from results.services.uploads import upload_pair_final
from tests.factories import SeasonFactory, UserFactory
from tests.results.test_pair_final import N_PAIRS, build_final, simulated_final
from ubf.demo.writers import write_usebio_pairs

pytestmark = pytest.mark.django_db

#: The test's own figures (not SBF's) for a 12-pair final: places 1–4.
TABLE = "Antal par;1;2;3;4\n12;12;9;7;5\n"


def plain(response) -> str:
    body = response.content.decode()
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture
def tk_user():
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def tk_client(client, tk_user):
    client.force_login(tk_user)
    return client


def test_r_pair_mp_1_no_table_yet_then_a_pasted_one(tk_client, recompute):
    season = SeasonFactory(is_current=True)
    page = plain(tk_client.get("/tk/sasong/mastarpoang/"))
    assert "Mästarpoängtabell för parfinalerna 2016-2017" in page
    assert "Ingen tabell är inlagd för säsongen" in page and "(R-PAIR-MP-1, R-GEN-1)" in page
    done = tk_client.post(
        "/tk/sasong/mastarpoang/", {"text": TABLE, "reason": "SBF:s tabell 2016"}, follow=True
    )
    text = plain(done)
    assert "Mästarpoängtabellen är sparad: 4 värden ändrade (12 par)." in text
    assert "Antal par 1 2 3 4 12 12 9 7 5" in text  # the table shown as SBF prints it
    season.refresh_from_db()
    assert season.tables["pair_final_mp_table"] == {
        "12:1": "12",
        "12:2": "9",
        "12:3": "7",
        "12:4": "5",
    }
    decision = Decision.objects.get(action="clubs.mp_table.loaded")
    assert decision.clause == "R-PAIR-MP-1" and decision.reason == "SBF:s tabell 2016"
    assert decision.data["old"] == {} and decision.data["source"] == "inklistrad"
    # The same table again: nothing changes, nothing is logged.
    again = tk_client.post("/tk/sasong/mastarpoang/", {"text": TABLE, "reason": "x"}, follow=True)
    assert "Inget ändrades." in plain(again)
    assert Decision.objects.filter(action="clubs.mp_table.loaded").count() == 1


def test_r_pair_mp_1_every_problem_with_its_row_and_nothing_saved(tk_client):
    season = SeasonFactory(is_current=True)
    bad = "Antal par;Placering;Poäng\n12;1;12\n12;2;15\nx;1;1\n"
    refused = tk_client.post("/tk/sasong/mastarpoang/", {"text": bad, "reason": "ny"})
    text = plain(refused)
    assert refused.status_code == 400
    assert "Rad 3: placering 2 ger fler poäng (15) än placering 1 (12) med 12 par." in text
    assert "Rad 4: antal par ska vara ett heltal 2–400 (inte ”x”)." in text
    season.refresh_from_db()
    assert "pair_final_mp_table" not in (season.tables or {}) and not Decision.objects.exists()
    english = plain(
        tk_client.post("/tk/sasong/mastarpoang/?lang=en", {"text": bad, "reason": "ny"})
    )
    assert "Row 3: place 2 gives more points (15) than place 1 (12) with 12 pairs." in english
    # A file that is no table at all, and neither a file nor text.
    nothing = tk_client.post("/tk/sasong/mastarpoang/?lang=sv", {"reason": "ny"})
    assert nothing.status_code == 400 and "Ladda upp en fil eller klistra in tabellen" in plain(
        nothing
    )
    other = SimpleUploadedFile("register.csv", b"MID;Namn\n1;Anna\n")
    refused = tk_client.post("/tk/sasong/mastarpoang/", {"file": other, "reason": "ny"})
    assert refused.status_code == 400 and "Antal par, Placering och Poäng" in plain(refused)


def test_r_pair_mp_1_an_xlsx_file_replaces_the_table_with_a_reason(tk_client, recompute):
    season = SeasonFactory(is_current=True, tables={"pair_final_mp_table": {"12:1": "10"}})
    book = Workbook()
    book.active.append(["Antal par", 1, 2])
    book.active.append([12, 12, 9])
    data = io.BytesIO()
    book.save(data)
    upload = SimpleUploadedFile("sbf-mp.xlsx", data.getvalue())
    refused = tk_client.post("/tk/sasong/mastarpoang/", {"file": upload, "reason": ""})
    assert refused.status_code == 400 and "Skriv en motivering" in plain(refused)
    upload.seek(0)
    tk_client.post("/tk/sasong/mastarpoang/", {"file": upload, "reason": "Rättad tabell"})
    decision = Decision.objects.get(action="clubs.mp_table.loaded")
    assert decision.data["old"] == {"12:1": "10"} and decision.data["new"] == {
        "12:1": "12",
        "12:2": "9",
    }
    assert decision.data["source"] == "sbf-mp.xlsx" and decision.data["changed"] == 2
    season.refresh_from_db()
    assert mp_table(season) == {(12, 1): 12, (12, 2): 9}


def test_only_tk_loads_the_table(client):
    season = SeasonFactory(is_current=True)
    client.force_login(UserFactory())
    assert client.get("/tk/sasong/mastarpoang/").status_code == 403
    assert client.post("/tk/sasong/mastarpoang/", {"text": TABLE, "reason": "x"}).status_code == 403
    with pytest.raises(Exception):  # noqa: B017 - PermissionDenied from the service
        load_mp_table(UserFactory(), season, {(12, 1): 12}, reason="x")
    season.refresh_from_db()
    assert not season.tables


def test_a_finished_season_keeps_its_table(tk_user):
    season = SeasonFactory(is_finished=True)
    with pytest.raises(ServiceError):
        load_mp_table(tk_user, season, {(12, 1): 12}, reason="x")


def test_r_pair_mp_1_the_final_is_recomputed_with_the_new_table(
    tk_client, tk_user, django_capture_on_commit_callbacks
):
    event = simulated_final()
    competition = build_final(event)
    Season.objects.filter(pk=competition.season_id).update(is_current=True)
    with clock.frozen("2017-04-22 18:00"), django_capture_on_commit_callbacks(execute=True):
        upload_pair_final(tk_user, competition, data=write_usebio_pairs(event), filename="f.xml")
    before = plain(tk_client.get(f"/par/final/{competition.pk}/"))
    assert "Mästarpoängtabellen för säsongen saknas" in before
    with django_capture_on_commit_callbacks(execute=True):
        tk_client.post("/tk/sasong/mastarpoang/", {"text": TABLE, "reason": "SBF 2016"})
    after = tk_client.get(f"/par/final/{competition.pk}/")
    rows = after.context["page"].data["rows"]
    # 12 pairs, no ties in the simulated final: places 1–4 get 12, 9, 7, 5; 5–12 nothing.
    assert [r["masterpoints"] for r in rows[:5]] == ["12.00", "9.00", "7.00", "5.00", "0.00"]
    assert len(rows) == N_PAIRS and "Mästarpoängtabellen för säsongen saknas" not in plain(after)
