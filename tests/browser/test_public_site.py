"""Issue 12 in a browser: a visitor on a phone (390 px) follows the DM Lag final live on the
demo as ``DEMO_DATE=2017-03-05 make demo`` shows it (the final after round 7 of 9). A result
upload during the test (round 8's file, through the upload service as the demo does) changes
the open page without a reload: htmx polls the final's block (UBF_LIVE_POLL_SECONDS=1 here).
Then the visitor finds why a team is in the final (its team page says it), reads a match's
boards, and subscribes to the calendar (the ICS behind the page's link parses)."""

from datetime import date
from io import StringIO

import icalendar
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from clubs import clock
from teams.models import Match
from tests.browser.helpers import click_and_wait, fits_box, fits_width
from ubf.demo.results import load_demo_results

pytestmark = pytest.mark.django_db(transaction=True)

FINAL_DAY2 = "2017-03-05"


@pytest.fixture
def final_day(settings):
    """The demo on the final's second day: rounds 1-7 uploaded, 8 and 9 not yet."""
    settings.UBF_DEMO_DATE = FINAL_DAY2
    settings.UBF_LIVE_POLL_SECONDS = 1
    call_command("load_demo", stdout=StringIO())
    assert clock.today() == date(2017, 3, 5)
    played = Match.objects.filter(stage="final", status="played")
    assert sorted(set(played.values_list("round", flat=True))) == [1, 2, 3, 4, 5, 6, 7]


def test_a_visitor_follows_the_final_live_on_a_phone(final_day, phone, screens):
    shot = screens(phone)
    phone.goto("/lag/")
    final = phone.locator("#final")
    expect(final).to_contain_text("Efter rond 7.")
    expect(phone.locator("#live-status")).to_contain_text("Uppdaterad")
    expect(phone.locator("#rond-8")).to_contain_text("ej spelad")
    assert fits_width(phone)
    shot("after-round-7")
    phone.evaluate("window.notReloaded = true")  # gone if the page were loaded again

    # Round 8 is played and uploaded while the page is open. The page's polls are held back
    # (aborted, as a dropped connection would be; htmx keeps polling) from the first one after
    # this point until the upload has committed, so what the page shows next is the committed
    # round, whatever the database (when the test database was SQLite in memory, a read beside
    # the upload's write failed at once with "table is locked").
    held: list[str] = []
    phone.route("**/lag/final/", lambda route: (held.append(route.request.url), route.abort()))
    for _ in range(100):
        if held:
            break
        phone.wait_for_timeout(100)
    assert held, "the page did not poll /lag/final/"
    outcome = load_demo_results(final_rounds=8)
    phone.unroute("**/lag/final/")
    assert outcome.imported == 1, outcome.lines
    first = Match.objects.filter(stage="final", round=8).order_by("id").first()
    assert first.status == "played"
    imps = "–".join(
        f"{x.normalize():f}".replace(".", ",") for x in (first.imps_home, first.imps_away)
    )

    expect(final).to_contain_text("Efter rond 8.", timeout=15_000)
    round8 = phone.locator("#rond-8")
    expect(round8).not_to_contain_text("ej spelad")
    expect(round8.get_by_role("row").filter(has_text=first.home.name)).to_contain_text(imps)
    assert phone.evaluate("window.notReloaded") is True
    expect(phone.locator("#rond-9")).to_contain_text("ej spelad")  # still polling: not over
    assert phone.locator("#final-live[hx-get]").count() == 1
    assert fits_width(phone)
    shot("after-round-8")


def test_a_visitor_finds_why_a_team_qualified_reads_a_match_and_subscribes(
    final_day, phone, screens
):
    shot = screens(phone)
    phone.goto("/lag/")
    # The leader of the final's standings: its team page says why it is in the final.
    leader = phone.locator("#final table").first.get_by_role("link").first
    name = leader.inner_text()
    click_and_wait(phone, leader)
    expect(phone.locator("h1")).to_contain_text(name)
    expect(phone.locator("#status")).to_contain_text("I finalen")
    expect(phone.locator("#status")).to_contain_text("R-TEAM-")
    assert fits_width(phone)
    assert fits_box(phone, "#matcher .table-responsive")  # IMP and VP in view, no scrolling
    shot("team")

    # One of its final matches: the boards, both rooms.
    row = phone.locator("#matcher tr").filter(has_text="Final, 1").first
    click_and_wait(phone, row.locator("a[href*='/lag/match/']"))
    boards = phone.locator("#brickor")
    expect(boards).to_contain_text("Bricka")
    match = Match.objects.get(pk=int(phone.url.rstrip("/").rsplit("/", 1)[1]))
    assert match.stage == "final" and match.round == 1
    assert boards.locator("tbody tr").count() == match.boards
    assert fits_width(phone)
    assert fits_box(phone, "#brickor .table-responsive")  # both teams' IMP columns in view
    shot("match")

    # The calendar: the page's link for all competitions is an ICS feed a phone can read.
    phone.goto("/kalender/")
    link = phone.get_by_role("link", name="alla tävlingar")
    response = phone.request.get(link.get_attribute("href"))
    assert response.ok and response.headers["content-type"].startswith("text/calendar")
    cal = icalendar.Calendar.from_ical(response.body())
    summaries = [str(e["SUMMARY"]) for e in cal.walk("VEVENT")]
    assert any("DM Lag" in s and "final" in s.lower() for s in summaries), summaries
    assert fits_width(phone)
    shot("calendar")
