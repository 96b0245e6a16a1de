"""The captain's team page (/mitt-lag/<id>/, issue 13 item 4): the team's status, what it
still needs (each linked), its dispensations with TK's answers, the request for a 7th/8th
player with a pick of the match; another team's captain is refused with the site's page."""

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse

from clubs import clock
from teams.models import Dispensation, Lineup
from teams.services.decisions.dispensations import decide_dispensation
from tests.factories import (
    ClubFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
    seat_in_final,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2016-10-20 10:00"):
        yield


@pytest.fixture
def world():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=season), organisers=[club])
    captain = UserFactory()
    team = TeamFactory(heat=heat, players=6, captain_user=captain, name="Uppsala 1")
    opponent = TeamFactory(heat=heat, players=4, name="Uppsala 2")
    match = MatchFactory(home=team, away=opponent, played_on=date(2016, 11, 5), round=1)
    return season, club, heat, captain, team, opponent, match


def _page(client, team):
    return client.get(reverse("portal:captain_team", args=[team.pk]))


def test_the_page_says_the_status_and_what_the_team_needs(client, world):
    season, club, heat, captain, team, opponent, match = world
    client.force_login(captain)
    response = _page(client, team)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Lagets status" in html and "Anmälan: <strong>anmält</strong>" in html
    assert "Får starta" in html
    assert "Kvalet har inte börjat." in html
    # the next match has no line-up yet: linked to its line-up page
    assert "Laguppställningen saknas för nästa match: rond 1 mot Uppsala 2 (5 nov 2016)." in html
    assert reverse("teams:lineup", args=[team.pk, match.pk]) in html
    # the heat's fees are not marked as paid
    # R-TEAM-FEE-1: the start fee, 500 kr, collected by the heat responsible
    assert "Avgiften 500,00 kr är inte markerad som betald till arrangören." in html
    assert 'href="#avgifter"' in html


def test_a_recorded_line_up_is_no_longer_a_need(client, world):
    season, club, heat, captain, team, opponent, match = world
    for half in (1, 2):
        for entry in team.roster.all()[:4]:
            Lineup.objects.create(match=match, team=team, player=entry.player, half=half)
    client.force_login(captain)
    assert "Laguppställningen saknas" not in _page(client, team).content.decode()


def test_a_short_roster_is_a_need_linked_to_the_roster_page(client, world):
    season, club, heat, captain, team, opponent, match = world
    team.roster.filter(pk__in=list(team.roster.values_list("pk", flat=True)[:3])).delete()
    client.force_login(captain)
    html = _page(client, team).content.decode()
    assert "Får inte starta" in html
    assert "R-TEAM-2" in html and reverse("teams:roster", args=[team.pk]) in html


def test_in_the_final(client, world):
    season, club, heat, captain, team, opponent, match = world
    seat_in_final(team)
    client.force_login(captain)
    # Issue 21, R-ALLOC-5: the competition's one heat has no standing yet, so the seat is
    # provisional with 1 heat to go, never "I finalen (R-TEAM-ADV-1)."
    html = _page(client, team).content.decode()
    assert "Inom finalplatserna just nu (R-TEAM-ADV-1): preliminärt, 1 heat kvar." in html
    assert "I finalen (R-TEAM-ADV-1)" not in html


def test_a_dispensation_is_asked_with_a_pick_of_the_match_and_tks_answer_shown(client, world, tk):
    season, club, heat, captain, team, opponent, match = world
    client.force_login(captain)
    html = _page(client, team).content.decode()
    assert "Rond 1: Uppsala 1 – Uppsala 2" in html  # the match to pick
    seventh = member(season, club, first_name="Sjunde", last_name="Spelare")
    response = client.post(
        reverse("portal:captain_team", args=[team.pk]),
        {"mid": seventh.mid, "occasion_date": "2016-11-05"},
        follow=True,
    )
    html = response.content.decode()
    assert "Dispens för Sjunde Spelare" in html and "är begärd hos TK" in html
    assert "Väntar på TK:s beslut." in html
    assert "1 begäran väntar på TK:s beslut." in html
    dispensation = Dispensation.objects.get(team=team, player=seventh)
    assert dispensation.occasion_date == date(2016, 11, 5)
    decide_dispensation(tk, dispensation, grant=False, reason="Laget har sex spelare tillgängliga.")
    html = _page(client, team).content.decode()
    assert "Avslagen" in html and "TK:s skäl: Laget har sex spelare tillgängliga." in html
    assert "väntar på TK:s beslut." not in html


def test_a_refused_dispensation_request_saves_nothing(client, world):
    season, club, heat, captain, team, opponent, match = world
    client.force_login(captain)
    response = client.post(
        reverse("portal:captain_team", args=[team.pk]),
        {"mid": team.captain.mid, "occasion_date": "2016-11-05"},
    )
    assert response.status_code == 400
    assert "Det gick inte att spara. Inget har ändrats." in response.content.decode()
    assert not Dispensation.objects.exists()


def test_another_teams_captain_gets_the_sites_403_page(client, world):
    season, club, heat, captain, team, opponent, match = world
    other = UserFactory()
    TeamFactory(heat=heat, players=4, captain_user=other, name="Uppsala 3")
    client.force_login(other)
    response = _page(client, team)
    html = response.content.decode()
    assert response.status_code == 403
    assert "Ingen behörighet" in html and "Forbidden" not in html
    response = client.post(
        reverse("portal:captain_team", args=[team.pk]),
        {"mid": "100001", "occasion_date": "2016-11-05"},
    )
    assert response.status_code == 403 and not Dispensation.objects.exists()


def test_a_line_up_saved_unchanged_says_nothing_changed(client, world):
    season, club, heat, captain, team, opponent, match = world
    four = [e.player.mid for e in team.roster.order_by("id")[:4]]
    client.force_login(captain)
    url = reverse("teams:lineup", args=[team.pk, match.pk])
    first = client.post(url, {"half1": four, "half2": four}, follow=True)
    assert "Laguppställningen för matchen är sparad." in first.content.decode()
    again = client.post(url, {"half1": four, "half2": four}, follow=True)
    assert "Inget har ändrats: laguppställningen var redan sparad så." in again.content.decode()
    assert Lineup.objects.filter(match=match, team=team).count() == 8


def test_a_form_without_its_token_gets_the_sites_403_page_not_djangos(world):
    season, club, heat, captain, team, opponent, match = world
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(captain)
    response = strict.post(
        reverse("teams:enter", args=[heat.pk]), {"name": "X"}, HTTP_ACCEPT_LANGUAGE="sv"
    )
    html = response.content.decode()
    assert response.status_code == 403
    assert "Ingen behörighet" in html and "Ladda om sidan" in html
    assert "Forbidden" not in html


def test_a_match_whose_day_has_passed_is_not_the_next_one(client, world):
    season, club, heat, captain, team, opponent, match = world
    client.force_login(captain)
    with clock.frozen("2016-11-10 10:00"):  # the match of 5 Nov is behind us
        html = _page(client, team).content.decode()
    assert "Laguppställningen saknas" not in html
