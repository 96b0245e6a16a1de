"""R-TEAM-3 on the pages: the captain of a team without a UBF majority asks TK for the
dispensation on the captain's page (/mitt-lag/<team>/, POST /mitt-lag/<team>/dispens/) with
the team's reason; TK's queue shows the request with it; TK's answer is shown to the captain;
the captain's page and the public team page say what it means until it is granted.

The team is tests/teams/test_balance_dispensation.py's: 1 player from a UBF club, 3 from BK
Stockholm (STH)."""

import pytest

from clubs import clock
from teams.models import Dispensation
from tests.teams.test_balance_dispensation import REASON, balance_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def w():
    return balance_world()


def section(html: str, key: str) -> str:
    return html.split(f'id="{key}"')[1].split("</section>")[0]


def test_r_team_3_the_captain_asks_on_the_page_and_reads_tk_s_answer(w, client):
    client.force_login(w.captain)
    with clock.frozen("2016-10-25 10:00"):
        page = client.get(f"/mitt-lag/{w.team.pk}/").content.decode()
        part = section(page, "distriktsbalans")
        assert "Laget har 1 spelare från UBF-klubbar men 3 från STH" in part
        assert "Laget får inte starta förrän TK har beviljat dispens." in part
        assert "Begär dispens hos TK" in part and "stänger 5 nov" in part
        public = client.get(f"/lag/lag/{w.team.pk}/").content.decode()
        assert "Laget saknar UBF-majoritet och får inte starta förrän TK har beviljat" in public
        response = client.post(f"/mitt-lag/{w.team.pk}/dispens/", {"reason": ""}, follow=True)
        assert "Skriv varför laget ska få dispens" in response.content.decode()
        response = client.post(f"/mitt-lag/{w.team.pk}/dispens/", {"reason": REASON}, follow=True)
        page = response.content.decode()
        assert "Dispensen är begärd hos TK (R-TEAM-3)" in page
        part = section(page, "distriktsbalans")
        assert "begärd, väntar på TK" in part and REASON in part and "<textarea" not in part
        assert (
            "Dispens: begärd, väntar på TK."
            in client.get(f"/lag/lag/{w.team.pk}/").content.decode()
        )

        # TK's queue: the request with the team's reason, by the heat's first day.
        client.force_login(w.tk)
        queue = section(client.get("/tk/").content.decode(), "dispensations")
        assert "Blandlaget" in queue and f"Lagets motivering: {REASON}" in queue
        assert "sista dag 5 nov 2016" in queue and "R-TEAM-3" in queue
        d = Dispensation.objects.get(team=w.team)
        client.post(
            "/tk/beslut/",
            {"action": "dispensation", "pk": d.pk, "decision": "yes", "reason": "Godtas"},
        )
        client.force_login(w.captain)
        part = section(client.get(f"/mitt-lag/{w.team.pk}/").content.decode(), "distriktsbalans")
        assert "TK har beviljat dispens: laget får starta." in part and "Godtas" in part
        public = client.get(f"/lag/lag/{w.team.pk}/").content.decode()
        assert "har TK:s dispens och får starta (R-TEAM-3)" in public


def test_r_team_3_only_the_team_s_own_people_may_ask(w, client):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    with clock.frozen("2016-10-25 10:00"):
        assert client.post(f"/mitt-lag/{w.team.pk}/dispens/", {"reason": REASON}).status_code == 403
    assert Dispensation.objects.get(team=w.team).request_reason == ""
