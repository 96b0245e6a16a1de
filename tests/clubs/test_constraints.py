"""What the database itself refuses: the model constraints of the season data."""

from datetime import date

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Decision, Membership, Player, Representation, Season
from pairs.models import PairEntry
from teams.models import Match, TeamHeatOrganiser
from tests.factories import (
    ClubFactory,
    PairEntryFactory,
    PlayerFactory,
    SeasonFactory,
    TeamFactory,
    TeamHeatFactory,
)

pytestmark = pytest.mark.django_db


def refused(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


def test_mid_is_unique():
    PlayerFactory(mid="123456")
    refused(lambda: PlayerFactory(mid="123456"))


def test_one_representation_per_player_and_season():
    season, player = SeasonFactory(), PlayerFactory()
    Representation.objects.create(player=player, season=season, club=ClubFactory())
    refused(lambda: Representation.objects.create(player=player, season=season, club=ClubFactory()))
    other = Season.objects.create(name="2017-2018", start_year=2017)
    Representation.objects.create(player=player, season=other, club=ClubFactory())
    assert Representation.objects.filter(player=player).count() == 2


def test_one_membership_per_player_and_season():
    season, player = SeasonFactory(), PlayerFactory()
    Membership.objects.create(player=player, season=season, paid_on=date(2016, 8, 1))
    refused(lambda: Membership.objects.create(player=player, season=season))


def test_one_team_heat_per_club_and_competition():
    # R-TEAM-KVAL-1: a club may arrange only one heat per season (joint heats allowed)
    club = ClubFactory()
    heat = TeamHeatFactory(organisers=[club])
    other_heat = TeamHeatFactory(competition=heat.competition, organisers=[ClubFactory()])
    refused(lambda: TeamHeatOrganiser.objects.create(heat=other_heat, club=club))
    TeamHeatOrganiser.objects.create(heat=other_heat, club=ClubFactory())  # a joint heat is fine
    assert other_heat.organisers.count() == 2


def test_only_one_current_season():
    SeasonFactory()
    refused(lambda: Season.objects.create(name="2017-2018", start_year=2017, is_current=True))


def test_pair_of_two_different_players():
    entry = PairEntryFactory()
    refused(
        lambda: PairEntry.objects.create(
            heat=entry.heat, player1=entry.player1, player2=entry.player1
        )
    )


def test_teams_meet_once_per_stage_and_never_themselves():
    home = TeamFactory()
    away = TeamFactory(heat=home.heat)
    kwargs = dict(competition=home.competition, heat=home.heat, stage="kval", round=1, boards=16)
    Match.objects.create(home=home, away=away, **kwargs)
    refused(lambda: Match.objects.create(home=home, away=away, **{**kwargs, "round": 2}))
    refused(lambda: Match.objects.create(home=home, away=home, **{**kwargs, "round": 3}))


def test_decisions_are_append_only():
    d = Decision.objects.create(
        action="teams.dispensation.granted",
        object_type="teams.dispensation",
        object_id=1,
        object_repr="x",
        reason="ok",
    )
    d.reason = "changed"
    with pytest.raises(ValueError):
        d.save()
    with pytest.raises(ValueError):
        d.delete()
    assert Decision.objects.get(pk=d.pk).reason == "ok"


def test_season_rules_follow_the_season_fields():
    season = SeasonFactory()
    season.veteran_born_on_or_before = 1958
    season.tables = {"team_bonus": [50, 35, 25]}
    season.save()
    rules = season.rules()
    assert rules.veteran_born_on_or_before == 1958
    assert rules.team_bonus == (50, 35, 25)
    assert rules.season == "2016-2017"


def test_player_mid_must_be_digits():
    from django.core.exceptions import ValidationError

    player = Player(mid="12a45", first_name="A", last_name="B", gender="F")
    with pytest.raises(ValidationError):
        player.full_clean()
