"""Issue 13 items 4 and 5 in a browser: a captain asks the heat responsible to enter a team
and the heat responsible confirms it with one click on /klubb/ (R-TEAM-REG-2); an invited
captain follows the mailed link, sets a password, lands on the team and logs in with it again."""

# R-TEAM-REG-2
import re

import pytest
from django.core import mail

from clubs import clock
from clubs.models import ClubOfficial, Invitation
from portal.services.invitations import invite
from teams.models import Team
from tests.browser.helpers import click_and_wait, fits_width, login
from tests.factories import (
    ClubFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "Hjärter-Ess-2016"


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2016-10-20 10:00"):
        yield


@pytest.fixture
def heat():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    responsible = UserFactory(username="heatansvarig", password=PASSWORD)
    ClubOfficial.objects.create(user=responsible, club=club, role="heat_responsible")
    heat = TeamHeatFactory(
        competition=TeamCompetitionFactory(season=season),
        organisers=[club],
        name="Lagkval Uppsala",
        responsible_user=responsible,
        responsible_name="Heat Ansvarig",
    )
    heat.players = [member(season, club) for _ in range(4)]
    heat.club = club
    return heat


def test_a_captain_asks_for_entry_and_the_heat_responsible_confirms(heat, browser, live_server):
    from tests.browser.conftest import PHONE

    captain = UserFactory(username="kaptenen", password=PASSWORD)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="sv-SE")
    phone = context.new_page()
    login(phone, "kaptenen", PASSWORD, next_url="/mitt-lag/")
    click_and_wait(phone, phone.locator("#anmal-till-heatansvarig a", has_text="Lagkval Uppsala"))
    assert "Anmäl lag till heatansvarig" in phone.inner_text("h1")
    assert "Heat Ansvarig" in phone.inner_text("main")
    phone.get_by_label("Lagets namn").fill("Fyrisvallarna")
    phone.get_by_label("Lagkaptenens MID").fill(heat.players[0].mid)
    phone.get_by_label("Adress").fill("Storgatan 1, 753 20 Uppsala")
    phone.get_by_label("Telefon").fill("070-123 45 67")
    phone.get_by_label("E-post").fill("kapten@example.se")
    phone.get_by_label("Spelare (4–6)").fill("\n".join(p.mid for p in heat.players))
    click_and_wait(phone, phone.get_by_role("button", name="Skicka anmälan till heatansvarig"))
    main = phone.inner_text("main")
    assert "Anmälan av Fyrisvallarna är skickad till heatansvarig för Lagkval Uppsala" in main
    assert "väntar på heatansvarig" in main
    assert fits_width(phone)
    assert not Team.objects.filter(name="Fyrisvallarna").exists()
    context.close()

    context = browser.new_context(base_url=live_server.url, viewport=PHONE, locale="sv-SE")
    official = context.new_page()
    login(official, "heatansvarig", PASSWORD, next_url="/klubb/")
    requests = official.inner_text("#laganmalningar")
    assert "Fyrisvallarna" in requests and "4 spelare" in requests
    click_and_wait(official, official.get_by_role("button", name="Bekräfta anmälan"))
    main = official.inner_text("main")
    assert "Fyrisvallarna är anmält till Lagkval Uppsala som lag nr 1." in main
    assert official.locator("#laganmalningar").count() == 0
    context.close()

    team = Team.objects.get(name="Fyrisvallarna")
    assert team.heat_id == heat.pk and team.captain_user == captain
    assert sorted(team.roster.values_list("player__mid", flat=True)) == sorted(
        p.mid for p in heat.players
    )


def test_an_invited_captain_sets_a_password_and_logs_in(heat, browser, live_server, page):
    official = UserFactory()
    ClubOfficial.objects.create(user=official, club=heat.club, role="contact")
    captain = heat.players[0]
    TeamFactory(heat=heat, captain=captain, name="Kaptenens lag")
    invite(
        official,
        email="ny.kapten@example.se",
        role=Invitation.Role.CAPTAIN,
        club=heat.club,
        player_mid=captain.mid,
        site_url=live_server.url,
    )
    (message,) = mail.outbox
    link = re.search(r"https?://\S+/konto/inbjudan/\S+/", message.body).group(0)
    page.goto(link)
    assert "Skapa ditt konto" in page.inner_text("h1")
    page.get_by_label("Användarnamn").fill("nykapten")
    page.locator("#id_password1").fill(PASSWORD)  # "Lösenord*" beside "Lösenordet igen*"
    page.get_by_label("Lösenordet igen").fill(PASSWORD)
    click_and_wait(page, page.get_by_role("button", name="Skapa kontot och logga in"))
    assert page.url.endswith("/mitt-lag/")
    main = page.inner_text("main")
    assert "Välkommen! Ditt konto är klart och du är inloggad." in main
    assert "Kaptenens lag" in main
    page.context.clear_cookies()
    page.goto(link)
    assert "Länken är redan använd" in page.inner_text("main")
    login(page, "nykapten", PASSWORD, next_url="/mitt-lag/")
    assert "Kaptenens lag" in page.inner_text("main")
