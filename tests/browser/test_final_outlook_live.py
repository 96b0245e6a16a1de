"""Issue 21 in a browser: the hall follows "Vad behöver laget?" live. The demo on the final's
second day (``DEMO_DATE=2017-03-05``: rounds 1-7 of 9 played) shows, before the last two
rounds, what each team needs; a scoring program pushes round 8 through the API (a TK token
scoped to the final, ``POST /api/v1/competitions/<id>/final-results/``), and the open page,
without a reload, shows round 8 and what each team needs before the last round (htmx polls
the final's block, UBF_LIVE_POLL_SECONDS=1 here). R-TEAM-FINAL-2, R-VP-1.

The same push with the site served as gunicorn serves it in production (``ubf.wsgi``: the
page cache's front before Django's handler, a stale page rendered after its copy is sent):
the polls never reach Django once the hall's page is stored, and the new round still shows."""

from datetime import date
from io import StringIO

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import request_started
from playwright.sync_api import expect
from rest_framework.test import APIClient

import portal.caching
from api.services import create_token
from clubs import clock, seats
from teams.models import Match, Team, TeamCompetition
from tests.api.conftest import with_token
from ubf.middleware import PageCacheFront
from ubf.rules.vp import victory_points

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def final_day(settings):
    settings.UBF_DEMO_DATE = "2017-03-05"
    settings.UBF_LIVE_POLL_SECONDS = 1
    call_command("load_demo", stdout=StringIO())
    assert clock.today() == date(2017, 3, 5)
    played = Match.objects.filter(stage="final", status="played")
    assert sorted(set(played.values_list("round", flat=True))) == [1, 2, 3, 4, 5, 6, 7]
    return TeamCompetition.objects.get(season__name="2016-2017")


def _round_8_csv() -> bytes:
    """Round 8 as a scoring program writes it: every home team wins by 5 IMPs."""
    lines = [b"round;home;away;imps_home;imps_away;vp_home;vp_away;boards"]
    number = {  # each team's number in the final, from its seat row
        t.id: t.final_seat_number for t in seats.with_seats(Team.objects.all())
    }
    for m in Match.objects.filter(stage="final", round=8):
        vh, va = victory_points(30, 25, m.boards)
        row = f"8;{number[m.home_id]};{number[m.away_id]};30;25;{vh};{va};{m.boards}"
        lines.append(row.replace(".", ",").encode())
    return b"\n".join(lines) + b"\n"


def _push_round_8(page, final, tk) -> None:
    """Round 8 pushed as a scoring program does, the page's polls held back while it writes
    (as tests/browser/test_public_site.py: SQLite refuses a read beside a write)."""
    held: list[str] = []
    page.route("**/lag/final/", lambda route: (held.append(route.request.url), route.abort()))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not poll /lag/final/"
    _token, key = create_token(tk, owner=tk, name="Ruter", final_of=final)
    response = with_token(APIClient(), key).post(
        f"/api/v1/competitions/{final.pk}/final-results/",
        {"file": SimpleUploadedFile("rond8.csv", _round_8_csv()), "round": 8},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    page.unroute("**/lag/final/")


def test_the_hall_sees_what_each_team_needs_change_after_a_pushed_round(
    final_day, page, tk, screens
):
    shot = screens(page)
    page.goto("/lag/")
    needs = page.locator("#vad-behover")
    expect(needs).to_contain_text("inför de två sista ronderna (från rond 8)")
    expect(needs).to_contain_text("från de två sista matcherna")
    expect(page.locator("#rond-8")).to_contain_text("pågår")
    shot("before-round-8")
    page.evaluate("window.notReloaded = true")

    _push_round_8(page, final_day, tk)

    expect(page.locator("#final")).to_contain_text("Efter rond 8.", timeout=15_000)
    expect(needs).to_contain_text("inför sista ronden (rond 9)")
    expect(needs).to_contain_text("från sista matchen")
    expect(needs).not_to_contain_text("de två sista matcherna")
    expect(page.locator("#rond-9")).to_contain_text("pågår")
    assert page.evaluate("window.notReloaded") is True
    shot("after-round-8")


@pytest.fixture
def front(live_server, settings):
    """The live server serving what gunicorn serves in production: ubf.wsgi's front before
    Django's handler (pytest-django's serves the handler alone), a stale page's copy sent and
    the page rendered after it. Yields the paths that reached Django's handler."""
    settings.UBF_PAGE_RENDER_IN_BACKGROUND = True
    settings.UBF_PAGE_VERSION_SECONDS = 0.25
    httpd = live_server.thread.httpd
    before = httpd.get_app()
    httpd.set_app(StaticFilesHandler(PageCacheFront(WSGIHandler())))
    reached: list[str] = []

    def started(sender=None, environ=None, **kwargs):
        reached.append(environ["PATH_INFO"])

    request_started.connect(started)
    try:
        yield reached
    finally:
        request_started.disconnect(started)
        httpd.set_app(before)
        assert portal.caching.renderer.wait(30)


def test_the_hall_served_before_django_still_sees_the_pushed_round(final_day, front, page, tk):
    polls: list[str] = []  # each poll's X-Cache, as the phone got it
    page.on(
        "response",
        lambda r: polls.append(r.headers.get("x-cache", ""))
        if r.url.endswith("/lag/final/")
        else None,
    )
    page.goto("/lag/")
    expect(page.locator("#rond-8")).to_contain_text("pågår")
    for _ in range(100):  # the first poll is rendered by Django and stored; the next ones not
        if len(polls) >= 3:
            break
        page.wait_for_timeout(100)
    assert polls[1:3] == ["hit", "hit"]
    assert front.count("/lag/final/") == 1

    _push_round_8(page, final_day, tk)
    expect(page.locator("#final")).to_contain_text("Efter rond 8.", timeout=15_000)
    expect(page.locator("#vad-behover")).to_contain_text("inför sista ronden (rond 9)")
    # The first poll after the push got the copy of round 7 from the front (stale), which
    # then rendered round 8 once that answer was sent; the next polls got it (hit). None of
    # them reached Django's handler.
    assert "stale" in polls
    assert polls[-1] == "hit"
    assert front.count("/lag/final/") == 1
