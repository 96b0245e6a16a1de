"""``make screenshots``: every public page of the demo, at 390 px (a phone) and 1280 px, saved
as docs/screenshots/<date>-<page>-<width>.png and linked from the README.

For each of two demo dates (the heats, 18 Nov 2016, as ``make demo`` serves it; the final's
second day, 5 Mar 2017, after round 7 of 9) the demo is loaded into a throwaway SQLite database
(``manage.py migrate`` and ``load_demo`` with DEMO_DATE), served by ``manage.py runserver`` on a
free port, and photographed by Debian's Chromium through Playwright (as tests/browser does).
Long pages are cut at a fixed height, so the PNGs stay small. The club page (/klubb/) and TK's
queue (/tk/) are taken logged in as the demo's ``klubb`` and ``tk``, the captain's team page
(/mitt-lag/<id>/) as ``kapten``.

    .venv/bin/python tools/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("UBF_CHROMIUM", "/usr/bin/chromium")
DATES = ("2016-11-18", "2017-03-05")
WIDTHS = {390: 844, 1280: 900}
#: The tallest part of a page kept, in CSS pixels, per width.
MAX_HEIGHT = {390: 2000, 1280: 1400}
#: The demo's logins (ubf/demo/season.py, PASSWORDS).
LOGINS = {"klubb": "dm-klubb-2016", "tk": "dm-tk-2016", "kapten": "dm-kapten-2016"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _manage(env: dict, *args: str) -> None:
    """``manage.py`` quietly; its output is printed only when it fails."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"manage.py {' '.join(args)} failed ({done.returncode})")


def _wait(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _shoot(page, path: Path, width: int) -> None:
    height = page.evaluate("document.documentElement.scrollHeight")
    clip = {"x": 0, "y": 0, "width": width, "height": min(height, MAX_HEIGHT[width])}
    page.screenshot(path=str(path), full_page=True, clip=clip)


def _login(page, base: str, user: str) -> None:
    page.goto(f"{base}/konto/login/")
    page.get_by_label("Användarnamn").fill(user)
    page.get_by_label("Lösenord").fill(LOGINS[user])
    with page.expect_navigation():
        page.get_by_role("button", name="Logga in").click()


def _pages(page, base: str) -> list[tuple[str, str, str | None]]:
    """(name, path, login) of the pages to take; the team and match page are the first ones
    /lag/ links to."""
    page.goto(f"{base}/lag/")
    team = page.locator("main a[href^='/lag/lag/']").first.get_attribute("href")
    match = page.locator("main a[href^='/lag/match/']").first
    shots = [
        ("home", "/", None),
        ("lag", "/lag/", None),
        ("team", team, None),
    ]
    if match.count():
        shots.append(("match", match.get_attribute("href"), None))
    shots += [
        ("par", "/par/", None),
        ("kalender", "/kalender/", None),
        ("klubb", "/klubb/", "klubb"),
        ("klubb-heat", _first_link("/klubb/", "a:has-text('Hantera heatet')"), "klubb"),
        ("avgifter", _first_link("/klubb/", "a[href^='/avgifter/heat/parkval/']"), "klubb"),
        ("tk", "/tk/", "tk"),
        ("tk-sasong", "/tk/sasong/", "tk"),
        # the captain's team page: the first team /mitt-lag/ lists (found once logged in)
        ("mitt-lag", _first_link("/mitt-lag/", "main h2 a[href^='/mitt-lag/']"), "kapten"),
    ]
    return shots


def _first_link(where: str, selector: str):
    """A path read once logged in: the first link matching ``selector`` on ``where``."""

    def find(page, base: str) -> str:
        page.goto(f"{base}{where}")
        return page.locator(selector).first.get_attribute("href")

    return find


def take(day: str, out: Path, browser, only: set[str] | None = None) -> list[Path]:
    saved = []
    with tempfile.TemporaryDirectory(prefix="ubf-shots-") as tmp:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{tmp}/demo.sqlite3",
            "DEMO_DATE": day,
            "CELERY_BROKER_URL": "",
            "DEBUG": "true",  # the demo's mode, said explicitly (DEBUG defaults to off)
        }
        env.pop("UBF_CLOCK_OVERRIDE", None)
        print(f"{day}: loading the demo into a throwaway database", flush=True)
        _manage(env, "migrate", "--noinput")
        _manage(env, "load_demo")
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            _wait(f"{base}/")
            for width, height in WIDTHS.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                logged_in = None
                for name, path, user in _pages(page, base):
                    if only and name not in only:
                        continue
                    if user and user != logged_in:
                        context.clear_cookies()
                        _login(page, base, user)
                        logged_in = user
                    if callable(path):
                        path = path(page, base)
                    page.goto(f"{base}{path}")
                    target = out / f"{day}-{name}-{width}.png"
                    _shoot(page, target, width)
                    saved.append(target)
                    print(f"  {target.relative_to(ROOT)}", flush=True)
                context.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return saved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument(
        "--only", default="", help="comma-separated page names (klubb,avgifter,...); default all"
    )
    args = parser.parse_args()
    only = {n for n in args.only.split(",") if n} or None
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            saved = [p for day in DATES for p in take(day, out, browser, only)]
        finally:
            browser.close()
    print(f"{len(saved)} screenshots in {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
