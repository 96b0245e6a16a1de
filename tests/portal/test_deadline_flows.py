"""The two flows of issue 11, on the demo as ``make demo`` starts it (its DEMO_DATE, read from the
Makefile), through Django's test client (the same flows in Chromium: tests/browser/): a club
official registers a pair heat and a captain changes a roster for a match not yet played; both
see the deadline that applies. The clock is the demo's (clubs.clock); nothing sleeps."""

import re
from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from clubs import clock
from clubs.models import Club, Decision, DemoClock
from pairs.models import PairCompetition, PairHeat
from teams.models import Team

pytestmark = pytest.mark.django_db

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"


def make_demo_date() -> str:
    return re.search(r"^DEMO_DATE \?= (\S+)$", MAKEFILE.read_text(), re.M).group(1)


@pytest.fixture
def demo(settings, django_user_model):
    settings.UBF_DEMO_DATE = make_demo_date()
    call_command("load_demo", stdout=StringIO())
    return django_user_model.objects


def test_make_demo_starts_inside_the_season():
    # 2016-11-18: after the Mixed heats (16 Oct, 6 Nov), before the Open heat registration
    # deadline (1 Dec 2016) and before the last day of Lagkval Uppsala BK (19 Nov).
    assert make_demo_date() == "2016-11-18"


def test_club_official_registers_a_pair_heat_and_sees_the_deadline(demo, client):
    assert clock.today() == date(2016, 11, 18)
    client.force_login(demo.get(username="klubb"))  # heat responsible, Enköpings BK
    url = reverse("portal:register_pair_heat")
    html = client.get(url).content.decode()
    assert "Demo: datum 18 november 2016" in html
    # Open: deadline 1 Dec 2016 (R-PAIR-KVAL-1); Mixed and Veteran closed on 15 Sep.
    assert "DM Par Open 2016-2017</strong>: Anmälan av kvalheat stänger 1 dec" in html
    assert "DM Par Mixed 2016-2017</strong>: Stängt sedan 15 sep" in html
    open_ = PairCompetition.objects.get(discipline="open")
    club = Club.objects.get(name="Enköpings BK")
    response = client.post(
        url,
        {
            "competition": open_.pk,
            "clubs": [club.pk],
            "name": "Enköpings vårkval",
            "heat_type": "silver",
            "first_date": "2017-02-26",
            "venue": "Enköpings bridgelokal",
            "table_fee": "40",
            "invitation_url": "https://example.se/inbjudan.pdf",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    heat = PairHeat.objects.get(name="Enköpings vårkval")
    assert heat.registered_on == date(2016, 11, 18)  # the demo's "today"


def test_after_the_deadline_the_official_is_refused_with_the_clause(demo, client):
    DemoClock.objects.filter(pk=1).update(on=date(2016, 12, 2))  # TK moved the demo clock
    client.force_login(demo.get(username="klubb"))
    open_ = PairCompetition.objects.get(discipline="open")
    club = Club.objects.get(name="Enköpings BK")
    url = reverse("portal:register_pair_heat")
    assert "Stängt sedan 1 dec" in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "competition": open_.pk,
            "clubs": [club.pk],
            "name": "För sent kval",
            "heat_type": "silver",
            "first_date": "2017-02-26",
            "venue": "Enköping",
            "table_fee": "40",
        },
    )
    assert response.status_code == 400
    assert "(R-PAIR-KVAL-1)" in response.content.decode()
    assert not PairHeat.objects.filter(name="För sent kval").exists()


def test_captain_changes_a_roster_for_an_unplayed_match_and_sees_the_deadline(demo, client):
    captain = demo.get(username="kapten")  # Fyris, Lagkval Uppsala BK: last day 19 Nov 2016
    team = Team.objects.get(captain_user=captain)
    client.force_login(captain)
    url = reverse("teams:roster", args=[team.pk])
    html = client.get(url).content.decode()
    assert "Ändring av spelartruppen stänger 19 nov" in html
    assert team.roster.filter(is_extra=False).count() == 6  # the demo's Fyris
    leaving = team.roster.exclude(player=team.captain).filter(is_extra=False).first().player
    response = client.post(url, {"action": "roster", "remove_mids": leaving.mid}, follow=True)
    assert "Spelartruppen är ändrad." in response.content.decode()
    assert not team.roster.filter(player=leaving).exists()
    # The day after the heat the roster is closed for the captain, with the clause.
    DemoClock.objects.filter(pk=1).update(on=date(2016, 11, 20))
    html = client.get(url).content.decode()
    assert "Stängt sedan 19 nov" in html
    other = team.roster.exclude(player=team.captain).filter(is_extra=False).first().player
    response = client.post(url, {"action": "roster", "remove_mids": other.mid})
    assert response.status_code == 400
    assert "(R-TEAM-2)" in response.content.decode()
    assert team.roster.filter(player=other).exists()


def test_tk_changes_a_closed_roster_with_a_reason_that_is_recorded(demo, client):
    DemoClock.objects.filter(pk=1).update(on=date(2016, 11, 20))
    team = Team.objects.get(captain_user__username="kapten")
    client.force_login(demo.get(username="tk"))
    url = reverse("teams:roster", args=[team.pk])
    leaving = team.roster.exclude(player=team.captain).filter(is_extra=False).first().player
    refused = client.post(url, {"action": "roster", "remove_mids": leaving.mid})
    assert refused.status_code == 400 and "(R-GEN-3)" in refused.content.decode()
    reason = "Spelaren flyttade före sista matchen; anmält till TK i tid."
    response = client.post(url, {"action": "roster", "remove_mids": leaving.mid, "reason": reason})
    assert response.status_code == 302
    decision = Decision.objects.get(action="teams.roster.outside_window", object_id=team.pk)
    assert (decision.reason, decision.clause) == (reason, "R-TEAM-2")
    assert decision.data["closes"] == "2016-11-19"
