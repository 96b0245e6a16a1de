"""Browser tests: headless Chromium (Debian's, /usr/bin/chromium) driven by Playwright against
pytest-django's ``live_server``.

Playwright's browsers are not downloaded (no network to its CDN): the tests launch the
Chromium that ``make browser`` (or ``.ci/run``) installs with apt. Without it they skip and
say so; with ``UBF_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) a missing browser fails instead.
Every test module here is marked ``browser`` (``pytest -m browser`` runs only them).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.browser.helpers import Screens

CHROMIUM = os.environ.get("UBF_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _missing() -> str:
    """Why the browser tests cannot run here, or "" when they can."""
    if not shutil.which(CHROMIUM):
        return f"Chromium saknas ({CHROMIUM}): kör `make browser` (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright saknas: kör `make install` och `make browser`"
    return ""


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="package")
def browser():
    """One headless Chromium for the browser tests (started once, closed after the last)."""
    reason = _missing()
    if reason:
        if os.environ.get("UBF_REQUIRE_BROWSER") == "1":
            pytest.fail(f"UBF_REQUIRE_BROWSER=1, men {reason}", pytrace=False)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an asyncio loop in this thread; Django's ORM refuses to run
    # beside a running loop unless told it is safe (it is: nothing here is async).
    old = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    pw = sync_playwright().start()
    chromium = pw.chromium.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
    )
    try:
        yield chromium
    finally:
        chromium.close()
        pw.stop()
        if old is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = old


def _page(browser, live_server, viewport, locale):
    """A fresh browser context (no cookies) on the live server. A script error on the page, a
    policy violation on the console (CSP, Permissions-Policy) or a server error (a traceback,
    status 500) fails the test even where no assertion looks."""
    context = browser.new_context(base_url=live_server.url, viewport=viewport, locale=locale)
    # Every wait is bounded and its TimeoutError names what it waited for (the locator, the
    # URL): an action or a locator's wait 15 s, a page load (goto, expect_navigation) 30 s.
    context.set_default_timeout(15_000)
    context.set_default_navigation_timeout(30_000)
    page = context.new_page()
    broken: list[str] = []
    page.on("pageerror", lambda exc: broken.append(f"script error: {exc}"))
    # The Content-Security-Policy (no inline script) and the Permissions-Policy: anything
    # they block or cannot parse is reported on the console and fails the test.
    page.on(
        "console",
        lambda msg: broken.append(f"console: {msg.text}")
        if msg.type == "error"
        and any(w in msg.text for w in ("Content Security Policy", "Permissions-Policy"))
        else None,
    )
    page.on(
        "response",
        lambda r: broken.append(f"{r.status} {r.request.method} {r.url}")
        if r.status >= 500
        else None,
    )
    yield page
    context.close()
    assert not broken, broken


@pytest.fixture
def page(browser, live_server):
    """A desktop-sized page (1280 px); the browser says it prefers English, and the site stays
    Swedish until the visitor picks ?lang=en."""
    yield from _page(browser, live_server, DESKTOP, "en-US")


@pytest.fixture
def phone(browser, live_server):
    """A page 390 x 844 px, a phone set to Swedish."""
    yield from _page(browser, live_server, PHONE, "sv-SE")


@pytest.fixture
def screens(request):
    """``shot = screens(page)``; ``shot("step")`` saves var/screenshots/<test>-NN-step.png."""

    def make(page) -> Screens:
        return Screens(page, request.node.name)

    return make
