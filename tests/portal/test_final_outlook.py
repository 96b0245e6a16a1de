""" "Vad behöver laget?" on /lag/ (the final block at /lag/final/), the team page and the API
(issue 21), and the live final's "preliminär" and "pågår".

The final of tests/portal/test_lag_pages.py (four teams, 16 boards a match) with its third
round not played yet. After rounds 1 and 2 (R-VP-2's known 16-board values: 14 IMPs →
13.75–6.25, 20 IMPs → 15.00–5.00): A 13.75 + 15.00 = 28.75, B 6.25 + 13.75 = 20.00, C 10.00 +
5.00 = 15.00, D 10.00 + 6.25 = 16.25 VP; round 3 is A–D and B–C. The 16-board scale's lines
used (R-VP-1, R-VP-2): 5 IMPs → 11.48, 25 → 15.92, 26 → 16.09, 27 → 16.26.

By hand, A's x from A–D and B's y from B–C:
* title possible: D 36.25 − x ≤ 28.75 + x needs x ≥ 3.75, and then some y keeps B and C at or
  under A; the least value ≥ 3.75 is 3.91 (a 26-IMP loss; 3.74, 27 IMPs, is below);
* title certain: B can reach 40.00, so A needs 28.75 + x > 40.00, x > 11.25: 11.48 (5 IMPs);
* a medal (top 3) is certain: with x = 0 D passes A, but B ≥ 28.75 needs y ≥ 8.75 and
  C ≥ 28.75 needs y ≤ 6.25, never both;
* an SM semifinal place with 2 places (top 2 of the full order): possible with 0.00 (only D
  passes A when B–C ends, e.g., 7.50–12.50), certain once D cannot tie A: x > 3.75, 3.91.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import FinalSeat
from portal.selectors import outlook
from results.models import StandingSnapshot
from results.services.recompute import recompute_team_competition
from teams.models import Match, Team
from tests.factories import TeamHeatFactory
from tests.portal.test_lag_pages import ROUNDS, _final, _round_robin, _text

pytestmark = pytest.mark.django_db


def _unplay(competition_id, rounds) -> None:
    Match.objects.filter(competition_id=competition_id, stage="final", round__in=rounds).update(
        status="scheduled", imps_home=None, imps_away=None, vp_home=None, vp_away=None
    )
    recompute_team_competition(competition_id)


@pytest.fixture
def live():
    """The final after round 2 of 3, SBF's 2 SM semifinal places."""
    heat = TeamHeatFactory()
    heat.competition.sm_semifinal_places = 2
    heat.competition.save()
    teams, _ = _final(heat, "ABCD", ROUNDS)
    _unplay(heat.competition_id, [3])
    cache.clear()
    return heat.competition, teams


def _needs(html: str, team: Team) -> str:
    start = html.index(f'id="behover-{team.pk}"')
    return _text(html[start : html.index("</div>", start)])


def test_the_final_block_says_what_each_team_needs_before_the_last_round(client, live):
    """R-TEAM-FINAL-2, R-VP-1, R-VP-2, R-TEAM-TIE-1, R-TEAM-SEMI-1: the figures worked out by
    hand in the module docstring, in Swedish sentences."""
    _competition, teams = live
    html = client.get("/lag/final/").content.decode()
    assert "Vad behöver laget?" in html and "inför sista ronden (rond 3)" in html
    a = _needs(html, teams["A"])
    assert (
        "DM-titeln: möjligt. Laget behöver minst 3,91 VP från sista matchen om andra resultat "
        "går dess väg, och är säkert med 11,48 VP."
    ) in a
    assert "DM-medalj (topp 3): klart, vad som än händer." in a
    assert (
        "SM-semifinalplats (topp 2): möjligt även utan en enda VP från sista matchen om andra "
        "resultat går lagets väg; säkert med 3,91 VP."
    ) in a
    # C (15.00) can reach 35.00 > 28.75, but B can always reach 40.00: possible, not certain.
    c = _needs(html, teams["C"])
    assert "DM-titeln: möjligt." in c and "kan inte säkras på egen hand" in c


def test_in_english(client, live):
    _competition, teams = live
    html = client.get("/lag/final/?lang=en").content.decode()
    assert "What does the team need?" in html and "before the last round (round 3)" in html
    a = _needs(html, teams["A"])
    assert (
        "The DM title: possible. The team needs at least 3.91 VP from its last match if other "
        "results go its way, and is certain with 11.48 VP."
    ) in a
    assert "A DM medal (top 3): certain, whatever happens." in a


def test_the_team_page_says_it_too(client, live):
    _competition, teams = live
    text = _text(client.get(f"/lag/lag/{teams['A'].pk}/").content.decode())
    assert "Vad behöver laget?" in text
    assert "DM-titeln: möjligt. Laget behöver minst 3,91 VP" in text
    assert "DM-medalj (topp 3): klart, vad som än händer." in text


def test_the_api_gives_the_figures(client, live):
    competition, teams = live
    data = client.get(f"/api/v1/competitions/{competition.pk}/outlook/").json()
    assert (data["before_round"], data["rounds_left"]) == (3, 1)
    a = next(t for t in data["teams"] if t["team"] == teams["A"].pk)
    chances = {c["goal"]: c for c in a["chances"]}
    assert chances["title"] | {"text": ""} == {
        "goal": "title",
        "place": 1,
        "order": "dm",
        "state": "possible",
        "needs_vp": "3.91",
        "secures_vp": "11.48",
        "text": "",
    }
    assert chances["medal"]["state"] == "certain"
    assert (chances["semifinal"]["place"], chances["semifinal"]["secures_vp"]) == (2, "3.91")
    english = client.get(f"/api/v1/competitions/{competition.pk}/outlook/?lang=en").json()
    a_en = next(t for t in english["teams"] if t["team"] == teams["A"].pk)
    assert a_en["chances"][1]["text"] == "A DM medal (top 3): certain, whatever happens."


def test_before_the_last_two_rounds_the_totals_of_both_matches(client):
    """Two rounds left (2 and 3): 'inför de två sista ronderna', figures from both matches.
    After round 1 only (A 13.75, B 6.25, C 10.00, D 10.00) nothing is certain for anyone
    yet: every team can still finish first or last with 40 VP in play."""
    heat = TeamHeatFactory()
    teams, _ = _final(heat, "ABCD", ROUNDS)
    _unplay(heat.competition_id, [2, 3])
    cache.clear()
    html = client.get("/lag/final/").content.decode()
    assert "inför de två sista ronderna (från rond 2)" in html
    for team in teams.values():
        text = _needs(html, team)
        assert "de två sista matcherna" in text
        assert "klart" not in text and "utom räckhåll" not in text


def test_not_shown_when_over_or_too_early(client):
    heat = TeamHeatFactory()
    teams, _ = _final(heat, "ABCDEF", _round_robin("ABCDEF"))
    cache.clear()
    assert "Vad behöver laget?" not in client.get("/lag/final/").content.decode()  # over
    _unplay(heat.competition_id, [3, 4, 5])  # three rounds left: too early
    cache.clear()
    assert "Vad behöver laget?" not in client.get("/lag/final/").content.decode()
    _unplay(heat.competition_id, [])  # no-op recompute
    Match.objects.filter(competition=heat.competition, stage="final", round=3).update(
        status="played", imps_home=30, imps_away=16
    )
    recompute_team_competition(heat.competition_id)
    cache.clear()
    assert "inför de två sista ronderna (från rond 4)" in client.get("/lag/final/").content.decode()


def _queries(client, url) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_teams(client):
    """No N+1: the outlook reads what the pages read anyway (the team page: one query more,
    the final's matches)."""
    heat = TeamHeatFactory()
    small, _ = _final(heat, "ABCD", _round_robin("ABCD"))
    _unplay(heat.competition_id, [3])
    client.get("/lag/final/")
    small_counts = (
        _queries(client, "/lag/final/"),
        _queries(client, "/lag/"),
        _queries(client, f"/lag/lag/{small['A'].pk}/"),
    )
    assert "Vad behöver laget?" in client.get("/lag/final/").content.decode()

    FinalSeat.objects.all().delete()  # the small final's teams leave it
    Match.objects.all().delete()
    StandingSnapshot.objects.all().delete()
    big_heat = TeamHeatFactory(competition=heat.competition)
    big, _ = _final(big_heat, "ABCDEFGH", _round_robin("ABCDEFGH"), prefix="Stor ")
    _unplay(heat.competition_id, [7])
    cache.clear()
    assert "Vad behöver laget?" in client.get("/lag/final/").content.decode()
    big_counts = (
        _queries(client, "/lag/final/"),
        _queries(client, "/lag/"),
        _queries(client, f"/lag/lag/{big['A'].pk}/"),
    )
    assert big_counts == small_counts
    # the team page's 7 (portal.selectors.lag), the matches, the SM semifinal's answers
    # (R-TEAM-SEMI-1) and the sanctions block (issue 22)
    assert small_counts[2] == 10


def test_exactly_one_round_is_in_play(client, live):
    _unplay(live[0].pk, [2, 3])
    cache.clear()
    html = client.get("/lag/final/").content.decode()
    assert html.count(">pågår<") == 1
    assert re.search(r'id="rond-2">\s*<h4[^>]*>Rond 2.*?pågår', html, re.S)
    assert "inte spelad än" in _text(html[html.index('id="rond-3"') :])


class _DownCache:
    def get(self, *args, **kwargs):
        raise ConnectionError("cache down")

    set = get


def test_computed_when_the_cache_is_down(live, monkeypatch):
    """The outlook is kept in the cache; with the cache server down it is computed anyway."""
    competition, teams = live
    monkeypatch.setattr(outlook, "cache", _DownCache())
    needs = outlook.competition_needs(competition)
    title = needs.by_team[teams["A"].pk].chances[0]
    assert (title.key, str(title.needs), str(title.secures)) == ("title", "3.91", "11.48")
