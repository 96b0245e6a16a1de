"""One competition and one heat idea for pairs and teams (multi-table inheritance): what the
results side keys on (uploads, standings, allocation, lots, recompute status)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Competition, Heat
from results.models import RecomputeStatus
from tests.factories import (
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamHeatFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_pairs_and_teams_competitions_are_competitions_of_their_season():
    season = SeasonFactory()
    open_ = PairCompetitionFactory(season=season, discipline="open")
    lag = TeamCompetitionFactory(season=season)
    rows = {c.pk: (c.discipline, c.kind) for c in Competition.objects.filter(season=season)}
    assert rows == {open_.pk: ("open", "pairs"), lag.pk: ("teams", "teams")}
    assert str(Competition.objects.get(pk=lag.pk)) == f"DM Lag {season}"
    assert str(Competition.objects.get(pk=open_.pk)) == f"DM Par Open {season}"


def test_one_competition_per_discipline_and_season():
    season = SeasonFactory()
    TeamCompetitionFactory(season=season)
    with pytest.raises(IntegrityError), transaction.atomic():
        Competition.objects.create(season=season, discipline="teams")


def test_a_pair_competition_cannot_be_dm_lag():
    with pytest.raises(ValueError):
        PairCompetitionFactory(discipline="teams")


def test_heats_of_both_kinds_share_status_and_dates():
    pair_heat = PairHeatFactory(first_date=date(2017, 2, 10), last_date=None)
    team_heat = TeamHeatFactory(first_date=date(2016, 11, 5), last_date=None)
    kinds = dict(Heat.objects.values_list("pk", "kind"))
    assert kinds == {pair_heat.pk: "pairs", team_heat.pk: "teams"}
    team_heat.refresh_from_db()
    assert team_heat.last_date == date(2016, 11, 5)  # a one-day team heat ends on its day
    assert Heat.objects.get(pk=pair_heat.pk).last_date is None  # one session


def test_one_recompute_status_per_competition_whatever_its_kind():
    pairs, teams = PairCompetitionFactory(), TeamCompetitionFactory()
    RecomputeStatus.objects.create(competition=pairs)
    RecomputeStatus.objects.create(competition=teams)
    with pytest.raises(IntegrityError), transaction.atomic():
        RecomputeStatus.objects.create(competition=teams)


def test_admin_forms_offer_only_the_disciplines_of_their_kind(client):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    pairs_form = client.get("/admin/pairs/paircompetition/add/").content.decode()
    assert 'value="dam"' in pairs_form and 'value="teams"' not in pairs_form
    teams_form = client.get("/admin/teams/teamcompetition/add/").content.decode()
    assert 'name="discipline"' not in teams_form and 'name="final_day1"' in teams_form
