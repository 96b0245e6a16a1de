"""Issue 22 in a browser (R-TEAM-SEMI-1): the demo's DM Lag final played to its end on the
second central day (``DEMO_DATE=2017-03-05``, round 9 uploaded as the demo uploads it). TK,
in the hall with a phone, records the SM semifinal venue choices in the full final order: the
winners choose first, the second team declines (its place goes to the fourth, who chooses
last), then downloads the list for SBF. UBF has three places (the demo's SBF number) and the
demo's ten venues."""

import csv
import io
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from openpyxl import load_workbook

from clubs import clock
from results.models import StandingSnapshot
from teams.models import SemifinalChoice
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import UserFactory
from ubf.demo.results import load_demo_results

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def final_over(settings):
    settings.UBF_DEMO_DATE = "2017-03-05"
    call_command("load_demo", stdout=StringIO())
    load_demo_results(final_rounds=9)
    assert clock.today() == date(2017, 3, 5)
    snap = StandingSnapshot.objects.get(scope="team_final")
    assert not snap.provisional
    return [r["name"] for r in snap.data]


def test_tk_records_the_semifinal_choices_in_turn_and_downloads_the_list(
    final_over, phone, screens
):
    first, second, third, fourth = final_over[:4]
    UserFactory(username="tk-semifinal", is_superuser=True, is_staff=True)
    shot = screens(phone)
    login(phone, "tk-semifinal", "pw-test-123", next_url="/tk/sm-semifinal/")
    main = phone.locator("main")
    assert "UBF har 3 platser i SM Lags semifinal" in main.inner_text()
    turn = phone.locator("#tur-1")
    assert first in turn.inner_text() and "väljer nu" in turn.inner_text()
    assert fits_width(phone)
    shot("first-turn")

    # The winners choose Örebro.
    phone.locator("#valj").get_by_label("Semifinalort").select_option(label="Örebro (1 apr)")
    click_and_wait(phone, phone.get_by_role("button", name="Registrera valet"))
    assert f"{first} valde Örebro (R-TEAM-SEMI-1)." in main.inner_text()
    assert "valt: Örebro" in phone.locator("#tur-1").inner_text()

    # The second team declines: the fourth moves up and chooses last.
    assert second in phone.locator("#tur-2").inner_text()
    phone.locator("#tur-2 summary").filter(has_text="Laget tackar nej").click()
    phone.locator("#tur-2").get_by_label("Motivering").fill("Två spelare kan inte resa")
    click_and_wait(phone, phone.get_by_role("button", name="Registrera nej"))
    assert f"{second} tackade nej till sin plats" in main.inner_text()
    assert third in phone.locator("#tur-2").inner_text()
    assert fourth in phone.locator("#tur-3").inner_text()
    assert "Två spelare kan inte resa" in phone.locator("#nej").inner_text()
    shot("declined")

    for team, venue in ((third, "Umeå (1 apr)"), (fourth, "Gävle (1 apr)")):
        assert "väljer nu" in phone.locator(f"li:has-text('{team}')").first.inner_text()
        phone.locator("#valj").get_by_label("Semifinalort").select_option(label=venue)
        click_and_wait(phone, phone.get_by_role("button", name="Registrera valet"))
        assert f"{team} valde {venue.split(' (')[0]}" in main.inner_text()
    assert phone.locator("#valj").count() == 0  # every place chosen
    assert fits_width(phone)
    shot("all-chosen")

    with phone.expect_download() as download:
        phone.get_by_role("link", name="Lista till SBF (CSV)").click()
    rows = list(
        csv.reader(
            io.StringIO(download.value.path().read_text(encoding="utf-8-sig")), delimiter=";"
        )
    )
    assert rows[0][:5] == ["Ordning", "Lag", "Semifinalort", "Speldagar", "Status"]
    teams = [(r[0], r[1], r[2], r[4]) for r in rows[1:]]
    assert list(dict.fromkeys(teams)) == [
        ("1", first, "Örebro", "valt"),
        ("2", third, "Umeå", "valt"),
        ("3", fourth, "Gävle", "valt"),
    ]
    with phone.expect_download() as download:
        phone.get_by_role("link", name="Lista till SBF (Excel)").click()
    assert download.value.suggested_filename == "sm-semifinal-2016-2017.xlsx"
    sheet = load_workbook(io.BytesIO(download.value.path().read_bytes())).active
    assert [sheet.cell(2, c).value for c in (1, 2, 3)] == ["1", first, "Örebro"]
    assert SemifinalChoice.objects.count() == 4

    phone.goto("/lag/")
    block = phone.locator("#semifinal-val").inner_text()
    assert "valt: Örebro" in block and "valt: Gävle" in block
    assert second in phone.locator("#sm-semifinal").inner_text()  # "Tackade nej …"
