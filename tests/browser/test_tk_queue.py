"""Issue 13, item 1 in a browser: on the demo as ``make demo`` starts it, TK opens the work
queue (/tk/), grants a 7th player's dispensation from it, and awards a W.O. by picking a match
from the list (R-TEAM-WO-1); each result is on the page at once and in the database, and the queue fits a
phone's width."""

from datetime import date
from decimal import Decimal

import pytest

from clubs import clock
from clubs.models import Decided
from teams.models import Dispensation, Match, Team, WalkOver
from tests.browser.helpers import click_and_wait, fits_width, load_demo, login
from tests.factories import member
from ubf.demo.season import PASSWORDS

pytestmark = pytest.mark.django_db(transaction=True)


def test_tk_grants_a_dispensation_and_awards_a_wo_from_the_queue(settings, page, phone, screens):
    load_demo(settings)
    assert clock.today() == date(2016, 11, 18)
    team = Team.objects.filter(competition__season__is_current=True).order_by("id").first()
    player = member(season=team.competition.season, first_name="Sjunde", last_name="Spelare")
    disp = Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER, team=team, player=player, occasion="rond 5"
    )
    match = (
        Match.objects.filter(competition__season__is_current=True, status="scheduled")
        .select_related("home", "away")
        .order_by("id")
        .first()
    )

    shot = screens(page)
    login(page, "tk", PASSWORDS["tk"], next_url="/tk/")
    item = page.locator("#dispensations li.list-group-item").filter(has_text="Sjunde Spelare")
    item.get_by_label("Motivering").fill("Två spelare sjuka")
    shot("queue")
    click_and_wait(page, item.get_by_role("button", name="Bevilja"))
    assert f"{disp}: beviljad." in page.inner_text("main")
    assert "Sjunde Spelare" not in page.inner_text("#dispensations")
    disp.refresh_from_db()
    assert disp.status == Decided.Status.GRANTED

    box = page.locator("#walkovers details")
    box.locator("summary").click()
    box.get_by_label("Match").select_option(value=str(match.pk))
    box.get_by_label("Lämnade W.O.").select_option(label="bortalaget")
    box.get_by_label("Motivering").fill(f"{match.away} kom inte")
    click_and_wait(page, box.get_by_role("button", name="Döm W.O."))
    main = page.inner_text("main")
    assert "W.O. utdömd" in main and f"(lämnad av {match.away})" in main
    assert "12,00–0,00 VP" in main  # R-TEAM-WO-2: the season's default 12-0
    shot("wo")
    wo = WalkOver.objects.get(match=match)
    assert wo.status == Decided.Status.GRANTED and wo.offender_id == match.away_id
    match.refresh_from_db()
    assert (match.vp_home, match.vp_away) == (Decimal("12.00"), Decimal("0.00"))

    login(phone, "tk", PASSWORDS["tk"], next_url="/tk/")
    assert f"{match.home} – {match.away}" in phone.inner_text("#walkovers_given")
    assert fits_width(phone)
