"""/tk/direktfinal/ (issue 22, R-PAIR-DF-1, R-TEAM-DF-1): TK decides on a direct final with the
clause, the clubs willing to arrange heats and the deadline beside the decision, recorded with a
reason; what it changes is shown on /par/ and /lag/; a refusal saves nothing."""

from __future__ import annotations

import html as html_lib
import re
from datetime import date

import pytest

from clubs import clock
from clubs.models import Decision
from tests.factories import (
    ClubFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamHeatFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def plain(response) -> str:
    body = response.content.decode()
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.fixture
def season():
    return SeasonFactory(is_current=True)


@pytest.fixture
def tk_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def section(page, competition) -> str:
    body = page.content.decode()
    part = body.split(f'id="tavling-{competition.pk}"', 1)[1].split("</section>", 1)[0]
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", part)).split())


def test_r_pair_df_1_the_page_shows_what_the_decision_rests_on(tk_client, season):
    mixed = PairCompetitionFactory(season=season, discipline="mixed")  # period ends 2017-03-31
    PairHeatFactory(competition=mixed, clubs=[ClubFactory(name="BK Fyris")])
    PairHeatFactory(competition=mixed, clubs=[ClubFactory(name="Sala BK")], status="applied")
    teams = TeamCompetitionFactory(season=season)  # period ends 2017-01-31
    TeamHeatFactory(competition=teams, organisers=[ClubFactory(name="Enköpings BK")])
    TeamHeatFactory(competition=teams, organisers=[ClubFactory(name="Tierps BK")])
    dam = PairCompetitionFactory(season=season, discipline="dam", is_direct_final=True)
    with clock.frozen("2017-02-10"):
        page = tk_client.get("/tk/direktfinal/")
    assert page.status_code == 200
    text = section(page, mixed)
    assert "1 klubb arrangerar godkänt kval: BK Fyris." in text
    assert "1 anmält kvalheat väntar på TK." in text
    assert "Beslut senast 31 mar 2017 (kvalperiodens sista dag)." in text
    assert "TK ska senast 2017-03-31 besluta om en direkt DM-final på finalens datum." in text
    assert "Inget beslut ännu." in text and "Besluta (R-PAIR-DF-1)" in text
    text = section(page, teams)
    assert "2 klubbar arrangerar godkända kval: Enköpings BK, Tierps BK." in text
    assert "huvudregeln är att kvalen spelas" in text
    # 2017-02-10 is after DM Lag's 2017-01-31, but two clubs arrange: nothing was needed.
    assert "Tiden har gått ut utan beslut." not in text
    assert "Dam spelas alltid som direktfinal" in section(page, dam)
    with clock.frozen("2017-04-05"):  # Mixed's period ended 2017-03-31 with one club
        late = tk_client.get("/tk/direktfinal/")
    assert "Tiden har gått ut utan beslut." in section(late, mixed)


def test_r_pair_df_1_tk_decides_it_is_recorded_and_par_says_so(tk_client, season, decide):
    mixed = PairCompetitionFactory(season=season, discipline="mixed")
    with clock.frozen("2017-03-20"):
        done = tk_client.post(
            "/tk/direktfinal/",
            {"competition": mixed.pk, "direct": "yes", "reason": ""},
            follow=True,
        )
    assert "Direktfinal beslutad (R-PAIR-DF-1)." in plain(done).replace(
        "direktfinal", "Direktfinal"
    )
    mixed.refresh_from_db()
    assert mixed.is_direct_final
    decision = Decision.objects.get(action="pairs.direct_final.decided")
    assert decision.clause == "R-PAIR-DF-1" and decision.data["arranging_clubs"] == 0
    assert "direkt DM-final" in decision.reason  # the rule's notice when TK gives no reason
    page = plain(tk_client.get("/tk/direktfinal/"))
    assert "Senaste beslut" in page and "direktfinal –" in page
    par = plain(tk_client.get(f"/par/{mixed.pk}/"))
    assert "Direktfinal på TK:s beslut: inga kvalheat, paren anmäls direkt till finalen" in par
    assert "(R-PAIR-DF-1)" in par


def test_r_team_df_1_against_the_rule_needs_a_reason_and_lag_shows_it(tk_client, season):
    teams = TeamCompetitionFactory(season=season)
    TeamHeatFactory(competition=teams)
    TeamHeatFactory(competition=teams)  # two clubs arrange: a direct final is against the rule
    refused = tk_client.post("/tk/direktfinal/", {"competition": teams.pk, "direct": "yes"})
    assert refused.status_code == 400
    assert "beslutet går emot huvudregeln, så ange skälet" in section(refused, teams)
    assert not Decision.objects.exists()
    teams.refresh_from_db()
    assert not teams.is_direct_final
    english = tk_client.post("/tk/direktfinal/?lang=en", {"competition": teams.pk, "direct": "yes"})
    assert "against the main rule" in section(english, teams)
    tk_client.post(
        "/tk/direktfinal/?lang=sv",
        {"competition": teams.pk, "direct": "yes", "reason": "Båda klubbarna drog sig ur"},
    )
    teams.refresh_from_db()
    assert teams.is_direct_final
    assert Decision.objects.get().reason == "Båda klubbarna drog sig ur"
    lag = plain(tk_client.get("/lag/"))
    assert "Direktfinal på TK:s beslut (R-TEAM-DF-1): inga kvalheat spelas" in lag
    assert "4 mar 2017–5 mar 2017" in lag


def test_only_tk_decides_and_dam_has_no_form(client, season):
    dam = PairCompetitionFactory(season=season, discipline="dam", is_direct_final=True)
    client.force_login(UserFactory())
    assert client.get("/tk/direktfinal/").status_code == 403
    assert (
        client.post("/tk/direktfinal/", {"competition": dam.pk, "direct": "no"}).status_code == 403
    )
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    refused = client.post("/tk/direktfinal/", {"competition": dam.pk, "direct": "no"})
    assert refused.status_code == 400 and "Okänd tävling" in plain(refused)
    assert not Decision.objects.exists()
    dam.refresh_from_db()
    assert dam.is_direct_final and dam.final_date != date(2000, 1, 1)
