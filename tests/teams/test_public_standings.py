"""/lag/: the public DM Lag page, Swedish first, English on request, constant queries."""

from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from results.models import StandingSnapshot
from results.services.recompute.teams import _fmt_quotient
from teams.models import Lineup, RosterEntry
from tests.factories import MatchFactory, TeamFactory, TeamHeatFactory, UserFactory, member
from ubf.rules.standings import TeamStanding

pytestmark = pytest.mark.django_db


def test_lag_page_is_swedish_by_default_and_lists_heats_and_teams(client):
    team = TeamFactory(name="Ruter Ess")
    response = client.get("/lag/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="sv">' in html
    assert "Kvalheat" in html
    assert team.heat.name in html
    assert "Ruter Ess" in html


def test_lag_page_in_english_with_lang_parameter(client):
    TeamFactory()
    html = client.get("/lag/?lang=en").content.decode()
    assert '<html lang="en">' in html
    assert "Qualifying heats" in html


def test_lag_page_without_a_season_says_so(client):
    response = client.get("/lag/")
    assert response.status_code == 200


def test_lag_page_shows_final_snapshot_marked_provisional(client):
    team = TeamFactory(final_seat=1)
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        competition=team.competition,
        provisional=True,
        rounds_played=7,
        data=[
            {
                "rank": 1,
                "name": team.name,
                "played": 7,
                "imps_won": "300",
                "imps_lost": "200",
                "imp_quotient": "1.500",
                "vp": "95.12",
            }
        ],
    )
    html = client.get("/lag/").content.decode()
    assert "preliminär" in html
    assert "Efter rond 7." in html
    assert "95,12" in html  # Swedish number format on the Swedish page
    assert "95.12" in client.get("/lag/?lang=en").content.decode()


def test_lag_page_before_the_final_lists_the_finalists_without_a_table_of_zeros(client):
    team = TeamFactory(final_seat=1, name="Fyris 1")
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        competition=team.competition,
        provisional=True,
        rounds_played=0,
        data=[{"rank": 1, "name": team.name, "played": 0, "vp": "0.00"}],
    )
    html = client.get("/lag/").content.decode()
    assert "Efter rond 0" not in html
    assert "Finalen spelas" in html and "Fyris 1" in html


def test_query_count_does_not_grow_with_heats_and_teams(client):
    heat = TeamHeatFactory()
    for _ in range(4):
        TeamFactory(heat=heat)
    with CaptureQueriesContext(connection) as small:
        client.get("/lag/")
    for _ in range(3):
        other = TeamHeatFactory(competition=heat.competition)
        for _ in range(5):
            TeamFactory(heat=other)
        StandingSnapshot.objects.create(
            scope="team_heat",
            competition=heat.competition,
            heat=other,
            data=[],
            computed_at=timezone.now(),
        )
    with CaptureQueriesContext(connection) as large:
        client.get("/lag/")
    assert len(large) == len(small)


def test_r_team_sys_1_and_r_team_1_information_is_on_the_page(client):
    TeamFactory()
    html = client.get("/lag/").content.decode()
    assert "B-system" in html  # R-TEAM-SYS-1
    assert "kval till SM Lag" in html  # R-TEAM-1: DM Lag is also the SM Lag qualifier
    en = client.get("/lag/?lang=en").content.decode()
    assert "B system" in en


def test_r_team_1_match_results_published_as_they_come(client):
    from results.services.recompute import recompute_team_competition
    from teams.models import Match

    heat = TeamHeatFactory()
    a, b = TeamFactory(heat=heat, name="Hjärter Dam"), TeamFactory(heat=heat, name="Spader Kung")
    m = Match.objects.create(
        competition=heat.competition, heat=heat, stage="kval", round=1, home=a, away=b, boards=16
    )
    assert "Senaste matcherna" not in client.get("/lag/").content.decode()
    Match.objects.filter(pk=m.pk).update(
        status="played", imps_home=23, imps_away=11, vp_home="13.76", vp_away="6.24"
    )
    recompute_team_competition(heat.competition_id)
    html = client.get("/lag/").content.decode()
    assert "Senaste matcherna" in html
    assert f'{a.name}</a> – <a href="/lag/lag/{b.pk}/">{b.name}' in html
    assert "23–11" in html


def test_pending_recompute_is_shown_and_page_refreshes(client):
    from results.models import RecomputeStatus

    team = TeamFactory()
    RecomputeStatus.objects.create(competition=team.competition, requested_at=timezone.now())
    html = client.get("/lag/").content.decode()
    # Refreshed by htmx polling of the page's content, no longer by <meta refresh> (issue 12).
    assert 'http-equiv="refresh"' not in html
    assert 'hx-get="/lag/"' in html and 'hx-trigger="every 30s"' in html
    assert "räknas in just nu" in html


def test_swedish_even_when_the_browser_asks_for_english_until_the_visitor_switches(client):
    TeamFactory()
    html = client.get("/lag/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="sv">' in html
    client.get("/lag/?lang=en")
    assert '<html lang="en">' in client.get("/lag/").content.decode()  # remembered (cookie)
    client.get("/lag/?lang=sv")
    assert '<html lang="sv">' in client.get("/lag/").content.decode()


def test_team_with_zero_matches_shows_a_dash_not_infinity():
    # R-TEAM-TIE-1: lost = 0 ranks highest, but a team that has played no match has no quotient.
    def standing(played, won, lost):
        return TeamStanding(
            team=1,
            rank=1,
            vp=Decimal("0"),
            imp_quotient=Decimal("Infinity") if lost == 0 else Decimal(won) / Decimal(lost),
            imps_won=Decimal(won),
            imps_lost=Decimal(lost),
            matches_played=played,
            decided_by=None,
            imp_quotient_exact=None if lost == 0 else Fraction(won, lost),
        )

    assert _fmt_quotient(standing(0, 0, 0)) == "–"
    assert _fmt_quotient(standing(1, 40, 0)) == "∞"  # played, lost no IMPs
    assert _fmt_quotient(standing(2, 60, 40)) == "1.500"  # 60 / 40


def test_far_starta_shows_every_reason_the_team_may_lose_its_place(client):
    # The case: a player who has played for another team this season is on the roster.
    team = TeamFactory(name="Ruter Ess", players=4)
    other = TeamFactory(heat=team.heat, name="Spader Kung", players=4)
    roamer = member(season=team.competition.season)
    match = MatchFactory(
        home=other, away=TeamFactory(heat=team.heat, players=4), played_on=date(2016, 11, 5)
    )
    Lineup.objects.create(match=match, team=other, player=roamer, half=1)
    RosterEntry.objects.create(team=team, player=roamer)
    client.force_login(UserFactory(is_superuser=True, is_staff=True))  # TK sees every team
    html = client.get("/mitt-lag/").content.decode()
    section = html.split(f'id="lag-{team.pk}"')[1].split("</section>")[0]
    assert "Får starta, men kan förlora platsen" in section
    assert "har spelat för Spader Kung" in section and "(R-TEAM-RES-2)" in section
    clean = html.split(f'id="lag-{other.pk}"')[1].split("</section>")[0]
    assert 'badge bg-success">Får starta<' in clean


def test_r_team_kval_6_the_heat_card_shows_a_halfs_playing_time(client):
    # 16 boards a match: 8 a half, 8 × 7.5 = 60 minutes; dealt at the table: 60 + 5 = 65
    heat = TeamHeatFactory(boards_per_match=16)
    TeamFactory(heat=heat)
    TeamHeatFactory(competition=heat.competition, boards_per_match=16, dealt_at_table=True)
    html = client.get("/lag/").content.decode()
    assert "60 minuter per halvlek (R-TEAM-KVAL-6)" in html
    assert "65 minuter per halvlek (R-TEAM-KVAL-6)" in html
