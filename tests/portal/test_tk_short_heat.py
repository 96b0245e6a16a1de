"""R-TEAM-KVAL-2 on the pages: TK's queue lists a team heat that closed its entries with too
few teams; on /tk/kvalheat/<heat>/ TK offers its teams places in other heats, records an
answer given by phone, and cancels the heat once it is empty; the captain answers on the
captain's page (POST /mitt-lag/<team>/kvalplats/<offer>/).

The heats are tests/teams/test_short_heats.py's: Lilla kvalet (three teams: Alfa, Beta,
Gamma), Stora kvalet (five), Redan igång (started); today 31 Oct 2016."""

import pytest

from clubs import clock
from teams.models import HeatPlaceOffer
from tests.factories import UserFactory
from tests.teams.test_short_heats import short_and_big_heats

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def heats():
    with clock.frozen("2016-10-31 10:00"):
        yield short_and_big_heats()


@pytest.fixture
def tk(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def section(html: str, key: str) -> str:
    return html.split(f'id="{key}"')[1].split("</section>")[0]


def test_r_team_kval_2_tk_offers_places_records_answers_and_cancels_the_heat(heats, tk):
    small, big, _started = heats
    queue = section(tk.get("/tk/").content.decode(), "short_heats")
    assert "Lilla kvalet" in queue and "3 anmälda lag när anmälan stängt (minst 4)." in queue
    assert f"/tk/kvalheat/{small.pk}/" in queue and "Stora kvalet" not in queue

    page = tk.get(f"/tk/kvalheat/{small.pk}/").content.decode()
    assert "Lilla kvalet: för få lag" in page and "3 anmälda lag" in page
    teams = section(page, "lagen")
    # Only the heat that has not started is offered.
    assert "Stora kvalet (19 nov)" in teams and "Redan igång" not in teams
    alfa, beta, gamma = (small.teams.get(name=n) for n in ("Alfa", "Beta", "Gamma"))
    for team in (alfa, beta, gamma):
        response = tk.post(
            f"/tk/kvalheat/{small.pk}/",
            {"action": "offer", "team": team.pk, "to_heat": big.pk, "reason": "För få lag"},
            follow=True,
        )
        assert f"{team.name} har erbjudits plats i Stora kvalet (R-TEAM-KVAL-2)." in (
            response.content.decode()
        )
    queue = section(tk.get("/tk/").content.decode(), "short_heats")
    assert "3 erbjudande(n) om plats i annat heat väntar på svar." in queue

    # TK records Alfa's and Beta's yes given by phone (how it came is required), Gamma's no.
    offers = {o.team.name: o for o in HeatPlaceOffer.objects.select_related("team")}
    response = tk.post(
        f"/tk/kvalheat/{small.pk}/",
        {"action": "answer", "offer": offers["Alfa"].pk, "decision": "yes", "reason": ""},
        follow=True,
    )
    assert "Skriv en motivering" in response.content.decode()
    for name, decision in (("Alfa", "yes"), ("Beta", "yes"), ("Gamma", "no")):
        tk.post(
            f"/tk/kvalheat/{small.pk}/",
            {
                "action": "answer",
                "offer": offers[name].pk,
                "decision": decision,
                "reason": "Kaptenen i telefon",
            },
        )
    page = tk.get(f"/tk/kvalheat/{small.pk}/").content.decode()
    assert "Flyttade till andra heat: Alfa → Stora kvalet, Beta → Stora kvalet" in page
    assert "tackat nej" in section(page, "lagen") and "Ställ in heatet" not in page
    # Gamma withdraws; the heat is empty and can be cancelled.
    gamma.status = "withdrawn"
    gamma.save()
    page = tk.get(f"/tk/kvalheat/{small.pk}/").content.decode()
    assert "Inga lag kvar i heatet." in page and "Ställ in heatet (R-TEAM-KVAL-2)" in page
    response = tk.post(
        f"/tk/kvalheat/{small.pk}/",
        {"action": "cancel", "reason": "Två lag flyttade, ett drog sig ur"},
        follow=True,
    )
    assert "Lilla kvalet är inställt (R-TEAM-KVAL-2)." in response.content.decode()
    small.refresh_from_db()
    assert small.status == "cancelled"
    assert "Lilla kvalet" not in section(tk.get("/tk/").content.decode(), "short_heats")


def test_r_team_kval_2_the_captain_answers_on_the_captain_s_page(heats, client):
    small, big, _started = heats
    from teams.services.heats import offer_other_heat

    alfa = small.teams.get(name="Alfa")
    offer = offer_other_heat(UserFactory(is_superuser=True), alfa, big)
    client.force_login(alfa.captain_user)
    part = section(client.get(f"/mitt-lag/{alfa.pk}/").content.decode(), "annat-heat")
    assert "Plats i Stora kvalet (spelas från 2016-11-19)" in part
    assert "väntar på lagets svar" in part and "Ja, vi flyttar dit" in part
    # Another team's captain may not answer for Alfa.
    other = UserFactory()
    beta = small.teams.get(name="Beta")
    beta.captain_user = other
    beta.save()
    client.force_login(other)
    assert (
        client.post(f"/mitt-lag/{alfa.pk}/kvalplats/{offer.pk}/", {"decision": "yes"}).status_code
        == 403
    )
    client.force_login(alfa.captain_user)
    response = client.post(
        f"/mitt-lag/{alfa.pk}/kvalplats/{offer.pk}/", {"decision": "yes"}, follow=True
    )
    page = response.content.decode()
    assert "Alfa tackade ja och spelar nu i Stora kvalet (R-TEAM-KVAL-2)." in page
    assert "tackat ja" in section(page, "annat-heat")
    alfa.refresh_from_db()
    assert alfa.heat == big
