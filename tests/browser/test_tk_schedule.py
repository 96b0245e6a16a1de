"""Issue 22 in a browser (R-TEAM-KVAL-4, R-TEAM-KVAL-5): TK opens a four-team heat's schedule on
a phone, reads the proposal (everyone meets everyone: three rounds over the heat's two days),
types a day outside the heat and is refused with nothing saved, corrects it, swaps home and
away in the last round and saves; the public heat page shows the schedule."""

from datetime import date

import pytest

from teams.models import Match
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import TeamFactory, TeamHeatFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_tk_saves_a_heats_schedule(phone, screens):
    heat = TeamHeatFactory(
        name="Lagkval Sala",
        boards_per_match=24,
        first_date=date(2016, 11, 5),
        last_date=date(2016, 11, 6),
    )
    for i in range(1, 5):
        TeamFactory(heat=heat, number=i, name=f"Sala {i}")
    UserFactory(username="tk-browser", is_superuser=True, is_staff=True)
    shot = screens(phone)
    url = f"/klubb/lagkval/{heat.pk}/spelschema/"
    login(phone, "tk-browser", "pw-test-123", next_url=url)
    assert "R-TEAM-KVAL-4: alla lag möter alla där det går" in phone.inner_text("main")
    proposal = phone.locator("#schema").inner_text()
    assert "Förslag" in proposal and "inte sparat" in proposal and "Alla möter alla." in proposal
    assert fits_width(phone)
    shot("proposal")

    form = phone.locator("#schedule-rounds")
    form.get_by_label("Rond 2: speldag").fill("2016-11-12")
    click_and_wait(phone, form.get_by_role("button", name="Spara schemat"))
    assert "Rond 2 spelas 2016-11-12, utanför speldagarna" in phone.inner_text("main")
    assert not Match.objects.exists()
    shot("refused")

    form = phone.locator("#schedule-rounds")
    form.get_by_label("Rond 2: speldag").fill("2016-11-05")
    form.get_by_label("Rond 3: matcher (hemmalag–bortalag)").fill("4-3, 2-1")
    click_and_wait(phone, form.get_by_role("button", name="Spara schemat"))
    assert "Spelschemat är sparat: 3 ronder, 6 matcher." in phone.inner_text("main")
    assert Match.objects.filter(heat=heat).count() == 6
    assert "Sparat schema" in phone.locator("#schema").inner_text()
    shot("saved")

    phone.goto(f"/lag/kval/{heat.pk}/")
    schedule = phone.locator("#spelschema").inner_text()
    assert "Rond 3" in schedule and "Sala 4 – Sala 3 ej spelad" in schedule
    assert fits_width(phone)
    shot("public")
