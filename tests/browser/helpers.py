"""What the browser tests do as a person would: log in through the form, look at the page,
keep screenshots (var/screenshots/, git-ignored), and load the demo as ``make demo`` does."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "var" / "screenshots"


def make_demo_date() -> str:
    """The Makefile's default ``DEMO_DATE`` (what ``make demo`` serves)."""
    text = (ROOT / "Makefile").read_text()
    return re.search(r"^DEMO_DATE \?= (\S+)$", text, re.M).group(1)


def load_demo(settings) -> None:
    """``make demo``: DEMO_DATE from the Makefile, then ``manage.py load_demo`` (results too)."""
    settings.UBF_DEMO_DATE = make_demo_date()
    call_command("load_demo", stdout=StringIO())


class Screens:
    """Saves numbered screenshots of a test under var/screenshots/ (git-ignored)."""

    def __init__(self, page, name: str):
        self.page = page
        self.name = re.sub(r"[^\w.-]+", "_", name)
        self.count = 0
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def __call__(self, step: str) -> Path:
        self.count += 1
        path = SCREENSHOTS / f"{self.name}-{self.count:02d}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def click_and_wait(page, button) -> None:
    """Click a button that submits a form, and wait for the page it leads to."""
    with page.expect_navigation():
        button.click()


def login(page, username: str, password: str, next_url: str = "/") -> None:
    """Log in through the login form, as a person does."""
    page.goto(f"/konto/login/?next={next_url}")
    page.get_by_label("Användarnamn").fill(username)
    page.get_by_label("Lösenord").fill(password)
    click_and_wait(page, page.get_by_role("button", name="Logga in"))
    assert "/konto/login/" not in page.url, page.inner_text("body")


def fits_width(page) -> bool:
    """Nothing wider than the screen: no sideways scrolling of the whole page."""
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def fits_box(page, selector: str) -> bool:
    """The first element matching ``selector`` (a scrolling ``.table-responsive``) shows all
    its content without sideways scrolling: every score column is in view on the phone."""
    return page.locator(selector).first.evaluate("el => el.scrollWidth <= el.clientWidth")
