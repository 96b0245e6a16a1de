"""R-TEAM-3: the captain of a team without a UBF majority asks TK for the dispensation before
the team starts (``teams.services.entries.request_balance_dispensation``), one model with the
7th/8th player's dispensation; TK grants or rejects with a reason (``decide_dispensation``).

The team: 1 player from a UBF club and 3 from BK Stockholm (district STH): 1 < 3, so it needs
the dispensation. Its heat plays 5–6 Nov 2016, its first match on the 5th."""

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.services.base import ServiceError
from teams.models import Dispensation, Match
from teams.selectors import team_may_start
from teams.services.decisions import decide_dispensation
from teams.services.entries import enter_team, request_balance_dispensation
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
from tests.factories import world_member as p

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

REASON = "Tre av oss flyttade till Stockholm i somras men spelar kvar i Uppsala varje vecka."


def balance_world():
    """The season, the heat and the team "Blandlaget", entered by TK on 20 Oct 2016 (its
    district-balance dispensation asked then, without a reason), with its captain's account."""
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    heat = TeamHeatFactory(competition=comp, organisers=[club])
    world = entry_world(season, club, comp=comp, heat=heat)
    world.captain = UserFactory()
    with clock.frozen("2016-10-20 10:00"):
        out = enter_team(
            world.tk,
            heat,
            name="Blandlaget",
            captain_mid=p(world).mid,
            address="Gatan 1, Uppsala",
            phone="070-1",
            email="k@example.se",
            player_mids=[p(world).mid] + [p(world, club=world.sth).mid for _ in range(3)],
        )
    world.team = out.team
    world.team.captain_user = world.captain
    world.team.save()
    return world


@pytest.fixture
def w():
    return balance_world()


def refused(call) -> str:
    with pytest.raises(ServiceError) as exc:
        call()
    return " ".join(exc.value.messages("sv"))


def test_r_team_3_the_captain_completes_the_request_made_at_entry_with_the_reason(w):
    made = Dispensation.objects.get(team=w.team)  # asked when the team was entered
    assert made.kind == "district_balance" and made.request_reason == ""
    with clock.frozen("2016-10-25 10:00"):
        assert "Skriv varför laget ska få dispens" in refused(
            lambda: request_balance_dispensation(w.captain, w.team, "  ")
        )
        d = request_balance_dispensation(w.captain, w.team, REASON)
    assert d.pk == made.pk and Dispensation.objects.filter(team=w.team).count() == 1
    d.refresh_from_db()
    assert (d.status, d.request_reason) == ("requested", REASON)
    # Asked once: a second request is refused while TK has not answered.
    with clock.frozen("2016-10-26 10:00"):
        assert "Dispens är redan begärd och väntar på TK:s beslut" in refused(
            lambda: request_balance_dispensation(w.captain, w.team, REASON)
        )
    assert team_may_start(w.team)[0] is False


def test_r_team_3_rejected_then_asked_again_then_granted(w):
    with clock.frozen("2016-10-25 10:00"):
        d = request_balance_dispensation(w.captain, w.team, REASON)
        decide_dispensation(w.tk, d, False, "Skälet räcker inte")
        again = request_balance_dispensation(w.captain, w.team, "Två av tre är juniorer i UBF")
        assert again.pk != d.pk and again.status == "requested"
        decide_dispensation(w.tk, again, True, "Juniorerna spelar i UBF")
        assert team_may_start(w.team) == (True, [])
        assert "TK har redan beviljat laget dispens" in refused(
            lambda: request_balance_dispensation(w.captain, w.team, REASON)
        )


def test_r_team_3_refused_once_the_first_match_day_has_passed_or_a_match_is_played(w):
    other = TeamFactory(heat=w.heat, number=20, players=4)
    match = MatchFactory(
        home=w.team, away=other, heat=w.heat, played_on=date(2016, 11, 5), status="scheduled"
    )
    with clock.frozen("2016-11-06 10:00"):
        text = refused(lambda: request_balance_dispensation(w.captain, w.team, REASON))
        assert "Ansökan om dispens för distriktsbalansen stängde 2016-11-05" in text
        assert "R-TEAM-3" in text
    # On the first match day it is open, until a match of the team has been played.
    Match.objects.filter(pk=match.pk).update(status="played", imps_home=10, imps_away=5)
    with clock.frozen("2016-11-05 10:00"):
        assert "Blandlaget har redan spelat" in refused(
            lambda: request_balance_dispensation(w.captain, w.team, REASON)
        )
    assert Dispensation.objects.get(team=w.team).request_reason == ""


def test_r_team_3_a_team_with_the_balance_needs_no_dispensation_and_others_may_not_ask(w):
    fine = TeamFactory(heat=w.heat, number=21, players=4)  # four UBF members
    with clock.frozen("2016-10-25 10:00"):
        assert "behöver ingen dispens" in refused(
            lambda: request_balance_dispensation(w.tk, fine, REASON)
        )
        with pytest.raises(PermissionDenied):
            request_balance_dispensation(UserFactory(), w.team, REASON)
    assert not Dispensation.objects.filter(team=fine).exists()
