"""/lag/: the public DM Lag page, Swedish first, English on request, constant queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from results.models import StandingSnapshot
from tests.factories import TeamFactory, TeamHeatFactory

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
    team = TeamFactory(in_final=True, final_number=1)
    StandingSnapshot.objects.create(
        scope=StandingSnapshot.Scope.TEAM_FINAL,
        team_competition=team.competition,
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
    assert "95.12" in html


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
            scope="team_heat", team_heat=other, data=[], computed_at=timezone.now()
        )
    with CaptureQueriesContext(connection) as large:
        client.get("/lag/")
    assert len(large) == len(small)
