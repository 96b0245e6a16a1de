"""Issue 12, "Live, phone-first, accessible": axe-core (vendored, tests/browser/vendor/VERSION)
checks every public page of the demo as ``make demo`` serves it, in Swedish and in English, and
a violation of impact "serious" or "critical" fails the test (labels, contrast, the page's
language, landmarks, link and button names). And a visitor without a mouse: Tab from the top of
/lag/ reaches the first team link, Enter opens that team's page."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from pairs.models import PairCompetition, PairHeat
from teams.models import Match, Team, TeamHeat
from tests.browser.helpers import load_demo, make_demo_date

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
FAILING = {"serious", "critical"}


def public_pages() -> list[str]:
    """Every kind of public HTML page, with the demo's first row of each (the ICS feed is not
    HTML and is not checked here)."""
    team = Team.objects.filter(heat__isnull=False).order_by("id").first()
    match = Match.objects.filter(status="played").order_by("id").first()
    team_heat = TeamHeat.objects.order_by("first_date", "id").first()
    pair_heat = PairHeat.objects.filter(uploads__isnull=False).order_by("id").first()
    pair_final = PairCompetition.objects.order_by("id").first()
    return [
        "/",
        "/lag/",
        f"/lag/lag/{team.id}/",
        f"/lag/match/{match.id}/",
        f"/lag/kval/{team_heat.id}/",
        "/par/",
        f"/par/kval/{pair_heat.id}/",
        f"/par/final/{pair_final.id}/",
        "/kalender/",
    ]


def serious_violations(page) -> list[str]:
    """axe-core's violations of impact serious or critical on the open page, one line each
    (the rule, what it says, and the first elements it found)."""
    # Evaluated by the test tool, not as an inline <script>, which the site's
    # Content-Security-Policy blocks (as it should).
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    lines = []
    for v in result["violations"]:
        if v["impact"] in FAILING:
            targets = ", ".join(" ".join(n["target"]) for n in v["nodes"][:3])
            lines.append(f"{v['id']} ({v['impact']}, {len(v['nodes'])}x): {v['help']}: {targets}")
    return lines


@pytest.mark.parametrize("day", [None, "2017-03-05"], ids=["make-demo", "final-day-2"])
def test_every_public_page_has_no_serious_accessibility_violation(settings, page, day):
    """On ``make demo``'s day, and on the team final's second day (standings, cross table and
    rounds on /lag/, the final's matches)."""
    settings.UBF_DEMO_DATE = day or make_demo_date()
    call_command("load_demo", stdout=StringIO())
    found = []
    for lang in ("sv", "en"):
        for path in public_pages():
            url = f"{path}?lang={lang}"
            response = page.goto(url)
            assert response.status == 200, url
            assert page.locator("html").get_attribute("lang") == lang, url
            found += [f"{url}: {line}" for line in serious_violations(page)]
    assert not found, "\n".join(found)


def test_axe_finds_a_serious_violation_when_there_is_one(settings, page):
    """The check can fail: a link with no text on /lag/ is reported (link-name, serious)."""
    load_demo(settings)
    page.goto("/lag/")
    page.evaluate(
        "document.querySelector('main').insertAdjacentHTML('beforeend', '<a href=\"/\"></a>')"
    )
    assert any(line.startswith("link-name (serious") for line in serious_violations(page))


def test_tab_from_the_top_of_lag_reaches_the_first_team_and_enter_opens_it(settings, page):
    load_demo(settings)
    page.goto("/lag/")
    first = page.locator("main a[href^='/lag/lag/']").first
    name = first.inner_text().strip()
    href = first.get_attribute("href")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('href')") == href:
            break
    else:
        pytest.fail(f"60 Tab presses from the top of /lag/ did not reach {href} ({name})")
    assert page.evaluate("document.activeElement.innerText").strip() == name
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(href)
    expect(page.locator("h1")).to_contain_text(name)
