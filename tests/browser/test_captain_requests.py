"""Issue 22 in a browser, on phones: the captain's page for what the regulations ask of a team
and TK's page beside it.

- R-TEAM-KVAL-2: Lilla kvalet closed its entries with three teams (tests/teams/
  test_short_heats.py). TK offers Alfa a place in Stora kvalet from the queue's item, Alfa's
  captain says yes on the captain's page, and the team's public page says Stora kvalet.
- R-TEAM-3: Blandlaget (1 player from UBF, 3 from STH; tests/teams/
  test_balance_dispensation.py) asks TK for the dispensation with its reason; TK grants it
  in the queue; the captain reads TK's answer."""

import pytest

from clubs import clock
from teams.models import Dispensation
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import UserFactory
from tests.teams.test_balance_dispensation import balance_world
from tests.teams.test_short_heats import short_and_big_heats

pytestmark = pytest.mark.django_db(transaction=True)


def test_r_team_kval_2_tk_offers_a_place_and_the_captain_says_yes(phone, screens):
    shot = screens(phone)
    with clock.frozen("2016-10-31 10:00"):
        small, big, _started = short_and_big_heats()
        alfa = small.teams.get(name="Alfa")
        UserFactory(username="tk-kval", is_superuser=True, is_staff=True)
        login(phone, "tk-kval", "pw-test-123", next_url="/tk/#short_heats")
        item = phone.locator("#short_heats li.list-group-item").first
        assert "3 anmälda lag när anmälan stängt (minst 4)." in item.inner_text()
        click_and_wait(phone, item.get_by_role("link", name="Lilla kvalet"))
        team = phone.locator(f"#lag-{alfa.pk}")
        team.get_by_label("Erbjud plats i").select_option(label="Stora kvalet (19 nov)")
        team.get_by_label("Motivering").fill("Bara tre lag i Lilla kvalet")
        click_and_wait(phone, team.get_by_role("button", name="Erbjud plats"))
        assert "Alfa har erbjudits plats i Stora kvalet" in phone.inner_text("main")
        assert "väntar på svar" in phone.locator(f"#lag-{alfa.pk}").inner_text()
        assert fits_width(phone)
        shot("offered")

        phone.context.clear_cookies()
        alfa.captain_user.username = "kapten-alfa"
        alfa.captain_user.save()
        login(phone, "kapten-alfa", "pw-test-123", next_url=f"/mitt-lag/{alfa.pk}/")
        offer = phone.locator("#annat-heat")
        assert "Plats i Stora kvalet (spelas från 2016-11-19)" in offer.inner_text()
        click_and_wait(phone, offer.get_by_role("button", name="Ja, vi flyttar dit"))
        assert "Alfa tackade ja och spelar nu i Stora kvalet" in phone.inner_text("main")
        assert fits_width(phone)
        shot("accepted")
        phone.goto(f"/lag/lag/{alfa.pk}/")
        assert "Kvalheat: Stora kvalet." in phone.locator("#status").inner_text()


def test_r_team_3_the_captain_asks_and_tk_grants_the_dispensation(phone, screens):
    shot = screens(phone)
    with clock.frozen("2016-10-25 10:00"):
        w = balance_world()
        w.captain.username = "kapten-bland"
        w.captain.save()
        login(phone, "kapten-bland", "pw-test-123", next_url=f"/mitt-lag/{w.team.pk}/")
        part = phone.locator("#distriktsbalans")
        assert "Laget får inte starta förrän TK har beviljat dispens." in part.inner_text()
        part.get_by_label("Lagets motivering").fill("Tre av oss flyttade till Stockholm i år")
        click_and_wait(phone, part.get_by_role("button", name="Begär dispens hos TK"))
        assert "Dispensen är begärd hos TK (R-TEAM-3)" in phone.inner_text("main")
        assert "begärd, väntar på TK" in phone.locator("#distriktsbalans").inner_text()
        assert fits_width(phone)
        shot("asked")

        phone.context.clear_cookies()
        w.tk.username = "tk-bland"
        w.tk.save()
        w.tk.set_password("pw-test-123")
        w.tk.save()
        login(phone, "tk-bland", "pw-test-123", next_url="/tk/#dispensations")
        item = phone.locator("#dispensations li.list-group-item").first
        assert "Lagets motivering: Tre av oss flyttade till Stockholm i år" in item.inner_text()
        item.get_by_label("Motivering").fill("Spelar i UBF varje vecka")
        click_and_wait(phone, item.get_by_role("button", name="Bevilja"))
        assert Dispensation.objects.get(team=w.team).status == "granted"

        phone.context.clear_cookies()
        login(phone, "kapten-bland", "pw-test-123", next_url=f"/mitt-lag/{w.team.pk}/")
        text = phone.locator("#distriktsbalans").inner_text()
        assert "TK har beviljat dispens: laget får starta." in text
        assert "Spelar i UBF varje vecka" in text
        shot("granted")
