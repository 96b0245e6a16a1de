"""Issue 21 in a browser: the hall follows "Vad behöver laget?" live. The demo on the final's
second day (``DEMO_DATE=2017-03-05``: rounds 1-7 of 9 played) shows, before the last two
rounds, what each team needs; a scoring program pushes round 8 through the API (a TK token
scoped to the final, ``POST /api/v1/competitions/<id>/final-results/``), and the open page,
without a reload, shows round 8 and what each team needs before the last round (htmx polls
the final's block, UBF_LIVE_POLL_SECONDS=1 here). R-TEAM-FINAL-2, R-VP-1."""

from datetime import date
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from playwright.sync_api import expect
from rest_framework.test import APIClient

from api.services import create_token
from clubs import clock, seats
from teams.models import Match, Team, TeamCompetition
from tests.api.conftest import with_token
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

    # As tests/browser/test_public_site.py: the polls are held back while the push writes
    # (SQLite in memory refuses a read beside a write instead of waiting).
    held: list[str] = []
    page.route("**/lag/final/", lambda route: (held.append(route.request.url), route.abort()))
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the page did not poll /lag/final/"
    _token, key = create_token(tk, owner=tk, name="Ruter", final_of=final_day)
    response = with_token(APIClient(), key).post(
        f"/api/v1/competitions/{final_day.pk}/final-results/",
        {"file": SimpleUploadedFile("rond8.csv", _round_8_csv()), "round": 8},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    page.unroute("**/lag/final/")

    expect(page.locator("#final")).to_contain_text("Efter rond 8.", timeout=15_000)
    expect(needs).to_contain_text("inför sista ronden (rond 9)")
    expect(needs).to_contain_text("från sista matchen")
    expect(needs).not_to_contain_text("de två sista matcherna")
    expect(page.locator("#rond-9")).to_contain_text("pågår")
    assert page.evaluate("window.notReloaded") is True
    shot("after-round-8")
