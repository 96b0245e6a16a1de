"""Issue 22 in a browser (R-TEAM-RES-1, R-TEAM-RES-4): an unpaid member fielded in two matches
of a heat on 2016-11-05. TK imposes the 5 VP for each on /tk/sanktioner/ (match and team picked
from the list), the heat page shows 10,00 VP off; on 2016-11-20, the day after the 14 days end
(2016-11-19, shown in the queue), TK disqualifies the team from the queue's item, and the heat
page shows the struck results and the opponents' W.O.s."""

import pytest

from clubs import clock
from tests.browser.helpers import click_and_wait, login
from tests.factories import UserFactory
from tests.portal.test_tk_sanctions import heat_with_unpaid_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_unpaid_member_penalty_leads_to_disqualification(phone, screens):
    heat, fyris, matches, unpaid = heat_with_unpaid_player()
    UserFactory(username="tk-browser", is_superuser=True, is_staff=True)
    shot = screens(phone)
    with clock.frozen("2016-11-19 10:00"):
        login(phone, "tk-browser", "pw-test-123", next_url="/tk/sanktioner/")
        for m in matches:
            form = phone.locator("#avdrag form")
            form.get_by_label("Match och lag").select_option(f"{m.pk}:{fyris.pk}")
            form.get_by_label("Motivering").fill("Nils Obetald har inte betalt")
            click_and_wait(phone, form.get_by_role("button", name="Besluta avdrag"))
            assert "Avdrag beslutat: Fyris 1" in phone.inner_text("main")
        shot("penalties")
        phone.goto(f"/lag/kval/{heat.pk}/")
        assert "Fyris 1: avdrag 10,00 VP" in phone.locator("#sanktioner").inner_text()
        phone.goto("/tk/#unpaid")
        item = phone.locator("#unpaid li.list-group-item").first
        assert "2016-11-19" in item.inner_text()
    with clock.frozen("2016-11-20 10:00"):
        phone.goto("/tk/#unpaid")
        item = phone.locator("#unpaid li.list-group-item").first
        item.get_by_label("Motivering").fill("Avgiften kom aldrig")
        click_and_wait(phone, item.get_by_role("button", name="Diskvalificera (R-TEAM-RES-1)"))
        shot("disqualified")
        assert "Fyris 1 är diskvalificerat enligt R-TEAM-RES-1" in phone.inner_text("main")
        phone.goto(f"/lag/kval/{heat.pk}/")
        text = phone.locator("#sanktioner").inner_text()
        assert "Motståndarna vinner på W.O.: Enköping 2, Sala 3" in text
        assert "Avgifterna återbetalas inte" in text
