"""/tk/sasong/ (issue 23): the competitions' own dates edited beside the season's numbers, each
with its clause (R-PAIR-KVAL-1, R-PAIR-CAL-1, R-TEAM-REG-1, R-TEAM-FINAL-1), logged as old →
new (R-GEN-3), the competition recomputed when its qualifying period moves; a refusal changes
nothing; a finished season is read-only."""

from __future__ import annotations

from datetime import date

import pytest

from clubs.models import Decision
from clubs.services.base import ServiceError
from pairs.models import PairCompetition
from results.models import RecomputeStatus
from results.services.competition_dates import configure_competition_dates
from teams.models import TeamCompetition
from tests.factories import PairCompetitionFactory, SeasonFactory, TeamCompetitionFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    season = SeasonFactory()
    PairCompetitionFactory(season=season, discipline="open")
    TeamCompetitionFactory(season=season)
    return season


def form_data(client) -> dict:
    form = client.get("/tk/sasong/").context["dates_form"]
    return {
        name: (form[name].value().isoformat() if form[name].value() else "")
        for name in form.fields
        if name != "dates_reason"
    }


def test_the_dates_are_on_the_season_page_with_their_clauses(client, tk, season):
    client.force_login(tk)
    html = client.get("/tk/sasong/").content.decode()
    assert "Tävlingarnas datum" in html
    for clause in ("R-PAIR-KVAL-1", "R-PAIR-CAL-1", "R-TEAM-REG-1", "R-TEAM-FINAL-1"):
        assert clause in html
    assert 'value="2017-04-22"' in html  # the Open final (R-PAIR-CAL-1)


def test_tk_moves_the_open_final_and_the_qualifying_end(
    client, tk, season, django_capture_on_commit_callbacks
):
    client.force_login(tk)
    open_ = PairCompetition.objects.get(season=season)
    data = form_data(client)
    data.update(
        {
            f"{open_.pk}-final_date": "2017-04-29",
            f"{open_.pk}-qualifying_end": "2017-04-07",
            "dates_reason": "Bridgens hus upptaget 22/4",
            "competition_dates": "1",
        }
    )
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post("/tk/sasong/", data, follow=True).content.decode()
    open_.refresh_from_db()
    assert (open_.final_date, open_.qualifying_end) == (date(2017, 4, 29), date(2017, 4, 7))
    assert "2017-04-22 → 2017-04-29" in page
    entry = Decision.objects.get(action="competitions.dates.configured")
    assert entry.data["changes"] == {
        "qualifying_end": ["2017-03-31", "2017-04-07"],
        "final_date": ["2017-04-22", "2017-04-29"],
    }
    assert entry.data["clauses"] == {
        "qualifying_end": "R-PAIR-KVAL-1",
        "final_date": "R-PAIR-CAL-1",
    }
    assert entry.reason == "Bridgens hus upptaget 22/4"
    # The real recompute ran (the qualifying period decides which heats count).
    status = RecomputeStatus.objects.get(competition_id=open_.pk)
    assert status.finished_at is not None and status.finished_at >= status.requested_at
    assert not RecomputeStatus.objects.filter(
        competition_id=TeamCompetition.objects.get(season=season).pk
    ).exists()


def test_a_final_before_the_qualifying_end_is_refused_and_nothing_saved(client, tk, season):
    client.force_login(tk)
    teams = TeamCompetition.objects.get(season=season)
    data = form_data(client)
    data.update(
        {
            f"{teams.pk}-final_day1": "2017-01-14",  # the qualifying period ends 31 January
            f"{teams.pk}-final_day2": "2017-01-13",
            "dates_reason": "test",
            "competition_dates": "1",
        }
    )
    response = client.post("/tk/sasong/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "finalen ligger före kvalperiodens slut" in html
    assert "centraldag 2 ligger före centraldag 1" in html
    teams.refresh_from_db()
    assert teams.final_day1 == date(2017, 3, 4)
    assert not Decision.objects.filter(action="competitions.dates.configured").exists()


def test_a_reason_is_required_and_a_finished_season_is_read_only(tk, season):
    open_ = PairCompetition.objects.get(season=season)
    with pytest.raises(ServiceError):
        configure_competition_dates(
            tk, season, {open_.pk: {"final_date": date(2017, 4, 29)}}, reason=""
        )
    assert configure_competition_dates(tk, season, {}, reason="") == {}
    season.is_finished = True
    season.save()
    with pytest.raises(ServiceError) as caught:
        configure_competition_dates(
            tk, season, {open_.pk: {"final_date": date(2017, 4, 29)}}, reason="x"
        )
    assert "avslutad" in str(caught.value)
