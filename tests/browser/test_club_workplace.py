"""Issue 13, item 3 in a browser, on the demo as ``make demo`` starts it: the club official of
Enköpings BK logs in and lands on the club page, registers a pair heat, enters a pair in it by
typing the players' names (the look-up fills the MID field's suggestions), marks the pair's
fees collected, and uploads the results of the club's played heat, on a phone."""

from datetime import date

import pytest

from clubs import clock
from clubs.models import Player
from pairs.models import PairEntry, PairHeat
from portal.models import FeeStatus
from results.models import ResultUpload
from tests.browser.helpers import click_and_wait, fits_width, load_demo
from ubf.demo.results import pair_heat_file
from ubf.demo.season import PASSWORDS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo(settings):
    load_demo(settings)
    assert clock.today() == date(2016, 11, 18)


def two_members_of(club_name: str) -> list[Player]:
    """Two players of the club this season with paid membership and names no one else has."""
    found = []
    for p in Player.objects.filter(
        representations__club__name=club_name, memberships__paid_on__isnull=False
    ).distinct():
        same = Player.objects.filter(first_name=p.first_name, last_name=p.last_name).count()
        if same == 1 and "-" not in p.last_name:
            found.append(p)
        if len(found) == 2:
            return found
    raise AssertionError("the demo has no two such players")


def test_club_official_registers_enters_by_name_marks_fees_and_uploads(
    demo, phone, screens, tmp_path
):
    shot = screens(phone)
    # Log in without ?next=: a club official lands on the club page.
    phone.goto("/konto/login/")
    phone.get_by_label("Användarnamn").fill("klubb")
    phone.get_by_label("Lösenord").fill(PASSWORDS["klubb"])
    click_and_wait(phone, phone.get_by_role("button", name="Logga in"))
    assert phone.url.endswith("/klubb/")
    assert "Enköpings BK" in phone.inner_text("main")

    # Register a heat.
    click_and_wait(phone, phone.get_by_role("link", name="Anmäl kvalheat (par)"))
    phone.get_by_label("Tävling").select_option(label="DM Par Open 2016-2017")
    phone.get_by_label("Heatets namn").fill("Enköpings vårkval")
    phone.get_by_label("Typ av kval").select_option(label="silverkval")
    phone.get_by_label("Spelplats").fill("Enköpings bridgelokal")
    phone.get_by_label("Speltillfälle 1").fill("2017-02-26")
    phone.get_by_label("Bordsavgift per spelare (kr)").fill("40")
    phone.get_by_label("Inbjudan (länk)").fill("https://example.se/inbjudan.pdf")
    click_and_wait(phone, phone.get_by_role("button", name="Skicka anmälan"))
    assert phone.url.endswith("/klubb/"), phone.inner_text("main")[:800]
    assert "Kvalheatet Enköpings vårkval är anmält" in phone.inner_text("main")
    heat = PairHeat.objects.get(name="Enköpings vårkval")

    # Its page, then the pair entry: typed by name.
    phone.goto(f"/klubb/parkval/{heat.pk}/")
    assert phone.inner_text("#heat-dates") == "2017-02-26"
    assert fits_width(phone)
    shot("heat-page")
    click_and_wait(phone, phone.get_by_role("link", name="Anmäl par"))
    a, b = two_members_of("Enköpings BK")
    field = phone.get_by_label("Spelare 1 (MID eller namn)")
    field.press_sequentially(a.last_name, delay=30)
    # The look-up answers into the field's datalist while one types.
    option = phone.locator(f"#id_mid1-players option[value='{a.mid}']")
    option.wait_for(state="attached")
    assert a.full_name in option.get_attribute("label")
    field.fill(option.get_attribute("value"))  # picking the suggestion puts its MID in
    phone.get_by_label("Spelare 2 (MID eller namn)").fill(f"{b.first_name} {b.last_name}")
    shot("pair-by-name")
    click_and_wait(phone, phone.get_by_role("button", name="Anmäl paret"))
    assert "är anmält" in phone.inner_text("main")
    entry = PairEntry.objects.get(heat=heat)
    assert {entry.player1, entry.player2} == {a, b}
    assert fits_width(phone)

    # The fee list: one row for the pair, 2 × (50 + 40) = 180 kr; mark it collected.
    phone.goto(f"/avgifter/heat/parkval/{heat.pk}/")
    row = phone.locator(".fee-row")
    assert row.count() == 1 and "180,00 kr" in row.inner_text()
    assert a.full_name in row.inner_text() and b.full_name in row.inner_text()
    assert fits_width(phone)
    click_and_wait(phone, row.get_by_role("button", name="Inbetald"))
    assert "1 rad markerad som inbetald." in phone.inner_text("main")
    assert FeeStatus.objects.get(object_id=entry.pk).collected_on == date(2016, 11, 18)
    shot("fees")

    # Results of the club's heat played on 6 Nov: the club's file from the scoring program
    # (the demo's file for the heat), uploaded as if the club had not done so yet.
    played = PairHeat.objects.get(name="Mixedkval Enköping")
    ResultUpload.objects.filter(heat=played).delete()
    data, filename, pairs = pair_heat_file(played, 0)
    path = tmp_path / filename
    path.write_bytes(data)
    phone.goto(f"/resultat/par/{played.pk}/")
    assert "Rond" not in phone.inner_text("main")
    phone.get_by_label("Resultatfil").set_input_files(str(path))
    click_and_wait(phone, phone.get_by_role("button", name="Ladda upp"))
    assert "Sparat, resultatlistan uppdateras snart." in phone.inner_text("main")
    upload = ResultUpload.objects.get(heat=played, status=ResultUpload.Status.ACCEPTED)
    assert upload.pair_results.count() == pairs
    shot("uploaded")
