"""Live DM Lag standings (issue 12): while the final is being played, /lag/ polls the final's
block at /lag/final/ with htmx; the fragment is served from the public pages' cache, answered
304 with its ETag while nothing changed, and says when it was last updated. No polling before
the final or after it; a recompute in progress is shown as such (no <meta refresh> any more).

The final of tests/portal/test_lag_pages.py (four teams, 16 boards a match), with its third
round not played yet: after rounds 1 and 2, A has 13.75 + 15.00 = 28.75 VP.
"""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import clock
from clubs.models import FinalSeat
from results.models import RecomputeStatus
from results.services.recompute import recompute_team_competition
from teams.models import Match
from tests.factories import TeamHeatFactory
from tests.portal.test_lag_pages import ROUNDS, _final, _round_robin, _text

pytestmark = pytest.mark.django_db


def _unplay_last_round(competition_id) -> None:
    last = Match.objects.filter(competition_id=competition_id, stage="final").order_by("-round")
    rnd = last.first().round
    Match.objects.filter(competition_id=competition_id, stage="final", round=rnd).update(
        status="scheduled", imps_home=None, imps_away=None, vp_home=None, vp_away=None
    )
    recompute_team_competition(competition_id)


@pytest.fixture
def live():
    """The final after round 2 of 3: started, not over."""
    heat = TeamHeatFactory()
    teams, matches = _final(heat, "ABCD", ROUNDS)
    _unplay_last_round(heat.competition_id)
    return teams, matches


def test_the_fragment_is_the_final_block_alone_and_polls_itself(client, live):
    response = client.get("/lag/final/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and "Kvalheat" not in html  # the block, not the page
    assert 'id="final-live"' in html
    assert 'hx-get="/lag/final/"' in html
    assert 'hx-trigger="every 30s"' in html and 'hx-swap="outerHTML"' in html
    text = _text(html)
    assert "Efter rond 2." in text
    assert "28,75" in text  # A: 13.75 + 15.00
    assert "Rond 3" in text and "ej spelad" in text
    assert "Uppdaterad" in text and "Uppdatera" in text


def test_the_page_polls_while_the_final_is_played_and_works_without_javascript(client, live):
    html = client.get("/lag/").content.decode()
    assert "vendor/htmx/htmx.min.js" in html
    assert 'hx-get="/lag/final/"' in html
    assert 'http-equiv="refresh"' not in html
    # Without JavaScript: a plain link back to the page.
    assert '<a href="/lag/#final">Uppdatera</a>' in html


def test_it_says_when_it_was_last_updated(client, live, settings):
    settings.UBF_CLOCK_OVERRIDE = "2017-03-05T14:05:00+01:00"
    assert clock.now().astimezone(clock.now().tzinfo).hour == 14
    html = client.get("/lag/final/").content.decode()
    assert "Uppdaterad 14:05" in _text(html)


def test_no_polling_when_the_final_is_over_or_not_started(client):
    heat = TeamHeatFactory()
    _final(heat, "ABCD", ROUNDS)  # all three rounds played: over
    html = client.get("/lag/").content.decode()
    assert "Efter rond 3." in _text(html)
    assert "hx-get" not in html and "htmx.min.js" not in html
    assert "Uppdaterad" not in html
    # Not started: no match of the final played.
    Match.objects.filter(stage="final").update(status="scheduled", imps_home=None, imps_away=None)
    recompute_team_competition(heat.competition_id)
    html = client.get("/lag/").content.decode()
    assert "hx-get" not in html and "htmx.min.js" not in html


def test_an_unchanged_block_is_answered_304_with_its_etag_and_head_works(client, live):
    first = client.get("/lag/final/")
    tag = first["ETag"]
    assert tag and first["Cache-Control"] == "public, no-cache"
    again = client.get("/lag/final/", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    head = client.head("/lag/final/")
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == tag
    assert client.post("/lag/final/").status_code == 405


def test_a_new_result_changes_the_etag_and_the_block(client, live):
    teams, _ = live
    tag = client.get("/lag/final/")["ETag"]
    # Round 3 is played: A–D 35–15 (15.00–5.00) and B–C 40–26 (13.75–6.25).
    for home, away, ih, ia in ROUNDS[2]:
        m = Match.objects.get(stage="final", round=3, home=teams[home], away=teams[away])
        m.status, m.imps_home, m.imps_away = "played", ih, ia
        m.save()
    recompute_team_competition(teams["A"].competition_id)
    response = client.get("/lag/final/", HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200 and response["ETag"] != tag
    text = _text(response.content.decode())
    assert "Efter rond 3." in text and "43,75" in text  # A: 28.75 + 15.00
    assert "hx-get" not in response.content.decode()  # the final is over: polling stops


def test_a_recompute_in_progress_is_shown_and_polled_not_reloaded(client, live):
    teams, _ = live
    status = RecomputeStatus.objects.get(competition_id=teams["A"].competition_id)
    status.requested_at = status.finished_at + timedelta(seconds=5)
    status.save()
    html = client.get("/lag/").content.decode()
    assert "räknas in just nu" in html
    assert 'http-equiv="refresh"' not in html
    assert 'hx-get="/lag/final/"' in html
    assert "räknas in just nu" in client.get("/lag/final/").content.decode()


def test_the_poll_interval_comes_from_the_setting(client, live, settings):
    settings.UBF_LIVE_POLL_SECONDS = 2
    html = client.get("/lag/final/").content.decode()
    assert 'hx-trigger="every 2s"' in html and "var 2:e sekund" in _text(html)


def test_english_on_the_fragment(client, live):
    text = _text(client.get("/lag/final/?lang=en").content.decode())
    assert "Updated" in text and "After round 2." in text and "28.75" in text


def _queries(client, url) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_the_fragments_query_count_stays_fixed_as_the_final_grows(client):
    heat = TeamHeatFactory()
    _final(heat, "ABCD", _round_robin("ABCD"), boards_per_match=2)
    _unplay_last_round(heat.competition_id)
    client.get("/lag/final/")
    small = _queries(client, "/lag/final/")

    FinalSeat.objects.all().delete()
    Match.objects.all().delete()
    big_heat = TeamHeatFactory(competition=heat.competition)
    _final(big_heat, "ABCDEFGH", _round_robin("ABCDEFGH"), boards_per_match=10, prefix="Stor ")
    _unplay_last_round(heat.competition_id)
    html = client.get("/lag/final/").content.decode()
    assert "Stor H" in html and "hx-get" in html
    # 8, and one for the SM semifinal's answers once the final has started (R-TEAM-SEMI-1)
    assert _queries(client, "/lag/final/") == small <= 9
    # A cached block costs no query at all.
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/lag/final/").status_code == 200
    assert len(ctx.captured_queries) == 0


def test_a_recompute_in_progress_before_the_final_polls_the_whole_page(client):
    # Heats with results, no final match played: what changes is the heats' standings.
    from tests.factories import TeamFactory

    heat = TeamHeatFactory()
    for _ in range(4):
        TeamFactory(heat=heat)
    recompute_team_competition(heat.competition_id)
    html = client.get("/lag/").content.decode()
    assert "hx-get" not in html  # nothing pending, no final being played
    status = RecomputeStatus.objects.get(competition_id=heat.competition_id)
    status.requested_at = status.finished_at + timedelta(seconds=5)
    status.save()
    html = client.get("/lag/").content.decode()
    assert "räknas in just nu" in html
    assert 'hx-get="/lag/" hx-select="#lag-content" hx-target="#lag-content"' in html
    assert html.count('id="lag-content"') == 1


def test_the_fragment_reads_the_final_alone_and_is_the_block_of_the_page(client, live):
    """/lag/final/, the page the hall polls, is rendered from the final's standing and matches
    alone (``lag_page(final_only=True)``): on a national season the heats' standings and
    matches were most of its render. What it shows is the very block /lag/ shows."""
    teams, _matches = live
    heat = teams["A"].heat
    # a qualifier match and the heat's standing, which the fragment must not read
    Match.objects.create(
        competition=heat.competition,
        heat=heat,
        stage=Match.Stage.KVAL,
        round=1,
        home=teams["A"],
        away=teams["B"],
        boards=16,
    )
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        fragment = client.get("/lag/final/").content.decode()
    reads = [q["sql"] for q in ctx.captured_queries]
    matches = [sql for sql in reads if 'FROM "teams_match"' in sql]
    standings = [sql for sql in reads if 'FROM "results_standingsnapshot"' in sql]
    assert matches and all("'final'" in sql for sql in matches), matches
    assert standings and all("'team_final'" in sql for sql in standings), standings
    page = client.get("/lag/").content.decode()
    assert "Kvalheat" in page and "Kvalheat" not in fragment
    start = fragment.index('id="final-live"')
    assert fragment[start:] in page  # the same block, word for word
