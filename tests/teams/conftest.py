"""The portal tests' world (test_portal.py, test_entry_requests.py): a heat of BK Uppsala with
its heat responsible, the captain's team "Uppsala 1" (6 players) and "Uppsala 2", a match on
5 Nov 2016, and another heat (Enköpings BK) with another captain's team. Test modules with a
``w`` of their own keep theirs."""

from datetime import date

import pytest

from tests.factories import (
    ClubFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
)


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    responsible = UserFactory()
    heat = TeamHeatFactory(competition=comp, organisers=[club], responsible_user=responsible)
    other_heat = TeamHeatFactory(competition=comp, organisers=[ClubFactory(name="Enköpings BK")])
    w = entry_world(season, club, comp=comp, heat=heat, other_heat=other_heat)
    w.responsible = responsible
    w.captain = UserFactory()
    w.team = TeamFactory(heat=heat, players=6, captain_user=w.captain, name="Uppsala 1")
    w.opponent = TeamFactory(heat=heat, players=4, name="Uppsala 2")
    w.match = MatchFactory(home=w.team, away=w.opponent, played_on=date(2016, 11, 5))
    w.other_captain = UserFactory()
    w.other_team = TeamFactory(
        heat=other_heat, players=4, captain_user=w.other_captain, name="Enköping 1"
    )
    return w
