"""Issue 21: every public page and API field that shows a final place says the seat's state, on
the demo at 18 Nov 2016 (``make demo``). The season is loaded once for the module, as the
command runs it (outside a test transaction, as tests/portal/test_final_outlook_demo.py does);
each test's changes to the seats roll back.

The calendar of the demo at 18 Nov 2016, by hand: DM Lag has five heats, Enköping (12–13 Nov)
is played and in, Uppsala BK runs to 19 Nov and the heats of 3–4 Dec, 14–15 Jan and 21–22 Jan
are to come: every team's seat is "preliminärt, 4 heat kvar" (R-ALLOC-5: the allocation is
provisional until every heat is in). DM Par Mixed has its two heats (16 Oct, 6 Nov) in: its seats
are "kvalificerat" (R-ALLOC-3), the champions' seat "direktkvalificerat" (R-DIRECT-1).
An offer of a seat given up makes the pair asked "tillfrågat som ersättare" and the holder that
gave it up "tackat nej" (R-REPL-1, R-REPL-5); an accepted offer "kvalificerat" (R-REPL-6)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import override_settings

from clubs import clock, seats
from clubs.models import FinalSeat, SeatOffer
from pairs.models import PairCompetition, PairEntry, PairHeat
from teams.models import Team, TeamCompetition, TeamHeat
from tests.portal.test_lag_pages import _text
from ubf.rules.i18n import Message

pytestmark = pytest.mark.django_db

FOUR_LEFT = "preliminärt, 4 heat kvar"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    from ubf.celery import app

    old_eager = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    with (
        django_db_blocker.unblock(),
        override_settings(
            MEDIA_ROOT=str(tmp_path_factory.mktemp("demo-media")),
            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            UBF_DEMO_DATE="2016-11-18",
        ),
    ):
        call_command("load_demo", stdout=StringIO())
        try:
            yield
        finally:
            call_command("flush", interactive=False, verbosity=0)
            app.conf.CELERY_TASK_ALWAYS_EAGER = old_eager


@pytest.fixture
def demo_client(demo, client, settings):
    settings.UBF_DEMO_DATE = "2016-11-18"
    cache.clear()
    return client


def _get(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return _text(response.content.decode())


def _mixed():
    competition = PairCompetition.objects.get(discipline="mixed", season__is_current=True)
    return competition, list(PairHeat.objects.filter(competition=competition).order_by("id"))


# --- provisional: DM Lag on 18 Nov, 4 heats to go -------------------------------------------


def test_lag_finalists_are_provisional_with_four_heats_left(demo_client):
    # R-TEAM-ADV-1, R-ALLOC-5: ten teams within the final places, none of them "in the final".
    competition = TeamCompetition.objects.get(season__is_current=True)
    held = seats.holding(Team.objects.filter(competition=competition)).count()
    html = _get(demo_client, "/lag/")
    assert held == 10
    assert html.count(FOUR_LEFT) >= held
    assert "kvalificerat" not in html.replace("direktkvalificerat", "")


def test_team_page_of_a_team_whose_heat_is_still_played_says_provisional(demo_client, settings):
    # Lag Mattsson plays Lagkval Uppsala BK (to 19 Nov): not "I finalen (R-TEAM-ADV-1)."
    team = Team.objects.get(name="Lag Mattsson")
    html = _get(demo_client, f"/lag/lag/{team.pk}/")
    assert f"Inom finalplatserna just nu (R-TEAM-ADV-1): {FOUR_LEFT}." in html
    assert "I finalen (R-TEAM-ADV-1)" not in html
    demo_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    cache.clear()
    english = _get(demo_client, f"/lag/lag/{team.pk}/")
    assert "provisional, 4 heats to go" in english


def test_team_heat_page_says_provisional(demo_client):
    heat = TeamHeat.objects.get(name="Lagkval Enköping")
    html = _get(demo_client, f"/lag/kval/{heat.pk}/")
    seats_from_heat = FinalSeat.objects.filter(origin_heat=heat).count()
    assert seats_from_heat >= 1
    assert html.count(f"Inom finalplatserna: {FOUR_LEFT}") == seats_from_heat
    assert "I finalen:" not in html


def test_api_teams_and_team_seats_say_provisional(demo_client):
    team = Team.objects.get(name="Lag Mattsson")
    data = demo_client.get(f"/api/v1/teams/{team.pk}/").json()
    assert data["holds_final_seat"] is True
    assert data["final_seat_state"] == "provisional"
    assert data["final_seat_state_display"] == FOUR_LEFT
    rows = demo_client.get("/api/v1/final-seats/teams/?held=true").json()
    rows = rows.get("results", rows)
    assert rows and {r["state"] for r in rows} == {"provisional"}
    assert {r["state_display"] for r in rows} == {FOUR_LEFT}


# --- qualified and direct: DM Par Mixed, both heats in ----------------------------------------


def test_mixed_seats_are_qualified_and_the_champions_direct(demo_client):
    # R-ALLOC-3: both Mixed heats are in, the allocation is final; R-DIRECT-1: the champions.
    competition, heats = _mixed()
    allocated = FinalSeat.objects.filter(competition=competition, source="allocation").count()
    html = _get(demo_client, f"/par/{competition.pk}/")
    assert "preliminärt," not in html
    assert html.count("direktkvalificerat") >= 1
    assert html.replace("direktkvalificerat", "").count("kvalificerat") >= allocated
    heat_html = _get(demo_client, f"/par/kval/{heats[0].pk}/")
    from_heat = FinalSeat.objects.filter(origin_heat=heats[0], holder__isnull=False).count()
    assert from_heat and heat_html.count("I finalen: kvalificerat") == from_heat
    rows = demo_client.get(f"/api/v1/final-seats/pairs/?competition={competition.pk}").json()
    rows = rows.get("results", rows)
    states = {r["source"]: set() for r in rows}
    for r in rows:
        states[r["source"]].add((r["state"], r["state_display"]))
    assert states["allocation"] == {("qualified", "kvalificerat")}
    assert states["direct"] == {("direct", "direktkvalificerat")}


# --- offered, declined, accepted: a Mixed seat given up ----------------------------------------


def _give_up_and_offer(competition, heat):
    """The last seat from ``heat`` given up (R-REPL-1) and offered to a pair of the heat
    without a seat (R-REPL-5)."""
    seat = FinalSeat.objects.filter(origin_heat=heat, holder__isnull=False).order_by("-id").first()
    seat.vacate("R-REPL-1", Message("Paret lämnade platsen"))
    seat.save()
    holders = set(
        FinalSeat.objects.filter(competition=competition).values_list("holder_id", flat=True)
    )
    asked = PairEntry.objects.filter(heat=heat).exclude(pk__in=holders).order_by("pk").first()
    offer = SeatOffer.objects.create(seat=seat, entry=asked, offered_at=clock.now())
    return seat, offer


def test_offered_and_declined_on_the_heat_page_and_the_api(demo_client):
    competition, heats = _mixed()
    seat, offer = _give_up_and_offer(competition, heats[0])
    rows = demo_client.get(f"/api/v1/final-seats/pairs/?competition={competition.pk}").json()
    rows = {r["id"]: r for r in rows.get("results", rows)}
    assert (rows[seat.pk]["state"], rows[seat.pk]["state_display"]) == (
        "offered",
        "tillfrågat som ersättare",
    )
    # the pair asked is a reserve of the heat: its row says it
    assert "tillfrågat som ersättare" in _get(demo_client, f"/par/kval/{heats[0].pk}/")
    offer.answer = SeatOffer.Answer.DECLINED
    offer.save()
    cache.clear()
    rows = demo_client.get(f"/api/v1/final-seats/pairs/?competition={competition.pk}").json()
    rows = {r["id"]: r for r in rows.get("results", rows)}
    assert (rows[seat.pk]["state"], rows[seat.pk]["state_display"]) == ("declined", "tackat nej")


def test_accepted_replacement_is_qualified(demo_client):
    competition, heats = _mixed()
    seat, offer = _give_up_and_offer(competition, heats[0])
    offer.answer = SeatOffer.Answer.ACCEPTED
    offer.save()
    mine = seats.take_seat(offer, when=clock.now())
    rows = demo_client.get(f"/api/v1/final-seats/pairs/?competition={competition.pk}").json()
    rows = {r["id"]: r for r in rows.get("results", rows)}
    assert (rows[mine.pk]["state"], rows[mine.pk]["state_display"]) == (
        "qualified",
        "kvalificerat",
    )
    # the seat given up, now held by the replacement: its first holder said no
    assert rows[seat.pk]["state"] == "declined"
