"""The club portal (/klubb/): club officials (not staff) register heats and enter pairs through
the existing services; refusals are listed in Swedish with the clause and nothing is saved."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs import clock
from pairs.models import PairEntry, PairHeat
from teams.models import TeamHeat, TeamHeatOrganiser
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    DistrictFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_recompute(recompute):
    return recompute


@pytest.fixture
def setup():
    season = SeasonFactory()
    competition = PairCompetitionFactory(season=season)
    team_competition = TeamCompetitionFactory(season=season)
    club = ClubFactory()
    heat = PairHeatFactory(competition=competition, clubs=[club])
    official = ClubOfficialFactory(club=club).user
    other_official = ClubOfficialFactory().user
    return {
        "season": season,
        "competition": competition,
        "team_competition": team_competition,
        "club": club,
        "heat": heat,
        "official": official,
        "other": other_official,
    }


def pages(s):
    return [
        "/klubb/",
        "/klubb/parkval/ny/",
        "/klubb/lagkval/ny/",
        f"/klubb/parkval/{s['heat'].pk}/anmal/",
    ]


# ---------------------------------------------------------------------------------------------
# Access
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(4))
def test_anonymous_is_sent_to_login(client, setup, index):
    response = client.get(pages(setup)[index])
    assert response.status_code == 302 and "/konto/login/" in response["Location"]


@pytest.mark.parametrize("index", range(4))
def test_own_club_official_gets_page(client, setup, index):
    client.force_login(setup["official"])
    response = client.get(pages(setup)[index])
    assert response.status_code == 200
    assert "Min klubb" in response.content.decode()  # the nav link


def test_tk_gets_every_page(client, setup):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    for url in pages(setup):
        assert client.get(url).status_code == 200, url


def test_other_club_official_gets_403_on_heat_page(client, setup):
    client.force_login(setup["other"])
    response = client.get(f"/klubb/parkval/{setup['heat'].pk}/anmal/")
    assert response.status_code == 403
    assert "Ingen behörighet" in response.content.decode()


def test_other_club_official_cannot_enter_pair(client, setup):
    s = setup
    a, b = (member(season=s["season"]) for _ in range(2))
    client.force_login(s["other"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{s['heat'].pk}/anmal/", {"mid1": a.mid, "mid2": b.mid}
        )
    assert response.status_code == 403
    assert PairEntry.objects.count() == 0


@pytest.mark.parametrize("url", ["/klubb/parkval/ny/", "/klubb/lagkval/ny/"])
def test_user_without_club_gets_403_on_registration(client, setup, url):
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403


def test_other_club_official_dashboard_does_not_show_our_heats(client, setup):
    client.force_login(setup["other"])
    response = client.get("/klubb/")
    assert response.status_code == 200
    assert setup["heat"].name not in response.content.decode()


def test_other_club_official_cannot_register_heat_for_our_club(client, setup):
    s = setup
    client.force_login(s["other"])
    with clock.frozen("2016-09-01"):
        response = client.post("/klubb/parkval/ny/", _pair_heat_data(s))
    assert response.status_code == 400  # our club is not among the choices offered
    assert PairHeat.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# Dashboard
# ---------------------------------------------------------------------------------------------


def test_dashboard_lists_heats_with_links_and_counts(client, setup):
    s = setup
    PairEntryFactory(heat=s["heat"])
    PairEntryFactory(heat=s["heat"])
    team_heat = TeamHeatFactory(competition=s["team_competition"], organisers=[s["club"]])
    TeamFactory(heat=team_heat)
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        html = client.get("/klubb/").content.decode()
    assert s["club"].name in html and s["heat"].name in html and team_heat.name in html
    assert f"/klubb/parkval/{s['heat'].pk}/anmal/" in html
    assert f"/resultat/par/{s['heat'].pk}/" in html
    assert f"/resultat/lag/{team_heat.pk}/" in html
    assert f"/avgifter/heat/parkval/{s['heat'].pk}/" in html
    assert f"/avgifter/heat/lagkval/{team_heat.pk}/" in html
    assert "/klubb/parkval/ny/" in html and "/klubb/lagkval/ny/" in html
    assert "Anmäl kvalheat (par)" in html and "Anmäl kvalheat (lag)" in html
    assert "table-responsive" in html
    assert ">2<" in html.replace(" ", "").replace("\n", "")  # two pairs entered


def test_dashboard_shows_invitation_problem(client, setup):
    """R-PAIR-KVAL-3: an invitation not sent although the heat starts within the notice."""
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2017-02-05"):
        html = client.get("/klubb/").content.decode()
    assert "R-PAIR-KVAL-3" in html


def test_tk_sees_every_ubf_club(client, setup):
    client.force_login(UserFactory(is_superuser=True, is_staff=True))
    html = client.get("/klubb/").content.decode()
    assert setup["club"].name in html and setup["heat"].name in html


def test_dashboard_query_count_is_constant(client, setup):
    s = setup
    # One heat of each kind to start with: an empty list skips its prefetch query.
    TeamFactory(heat=TeamHeatFactory(competition=s["team_competition"], organisers=[s["club"]]))
    client.force_login(s["official"])
    client.get("/klubb/")  # warm up (session, content types)
    with clock.frozen("2016-09-01"):
        with CaptureQueriesContext(connection) as few:
            assert client.get("/klubb/").status_code == 200
        for _n in range(4):
            heat = PairHeatFactory(competition=s["competition"], clubs=[s["club"]])
            PairEntryFactory(heat=heat)
        second_club = ClubFactory()
        ClubOfficialFactory(user=s["official"], club=second_club)
        team_heat = TeamHeatFactory(competition=s["team_competition"], organisers=[second_club])
        TeamFactory(heat=team_heat)
        with CaptureQueriesContext(connection) as many:
            html = client.get("/klubb/").content.decode()
    assert team_heat.name in html
    assert len(many.captured_queries) == len(few.captured_queries)


# ---------------------------------------------------------------------------------------------
# Registering a pair heat
# ---------------------------------------------------------------------------------------------


def _pair_heat_data(s, **over):
    data = {
        "competition": s["competition"].pk,
        "clubs": [s["club"].pk],
        "name": "Vårkvalet",
        "heat_type": "silver",
        "venue": "Bridgens hus",
        "first_date": "2017-02-20",
        "table_fee": "60",
        "invitation_url": "https://example.se/inbjudan",
    }
    data.update(over)
    return data


def test_pair_heat_form_offers_no_dam_or_direct_final(client, setup):
    s = setup
    PairCompetitionFactory(season=s["season"], discipline="dam")
    PairCompetitionFactory(season=s["season"], discipline="mixed", is_direct_final=True)
    client.force_login(s["official"])
    form = client.get("/klubb/parkval/ny/").context["form"]
    assert list(form.fields["competition"].queryset) == [s["competition"]]


def test_register_pair_heat_creates_heat(client, setup):
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post("/klubb/parkval/ny/", _pair_heat_data(s), follow=True)
    assert response.status_code == 200
    heat = PairHeat.objects.get(name="Vårkvalet")
    assert heat.status == "applied" and list(heat.clubs.all()) == [s["club"]]
    assert heat.first_date == date(2017, 2, 20) and heat.invitation_sent_on == date(2016, 9, 1)
    assert "är anmält till UBF TK" in response.content.decode()


def test_pair_heat_outside_qualifying_period_is_refused(client, setup):
    """R-PAIR-KVAL-1: a play date outside the qualifying period; nothing saved."""
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post("/klubb/parkval/ny/", _pair_heat_data(s, first_date="2016-11-01"))
    html = response.content.decode()
    assert response.status_code == 400
    assert "R-PAIR-KVAL-1" in html and "Inget har sparats" in html
    assert PairHeat.objects.count() == 1


def test_pair_heat_after_deadline_is_refused(client, setup):
    """R-PAIR-KVAL-1: registered after the registration deadline."""
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2016-12-15"):
        response = client.post("/klubb/parkval/ny/", _pair_heat_data(s))
    assert response.status_code == 400 and "R-PAIR-KVAL-1" in response.content.decode()
    assert PairHeat.objects.count() == 1


# ---------------------------------------------------------------------------------------------
# Registering a team heat
# ---------------------------------------------------------------------------------------------


def _team_heat_data(s, **over):
    data = {
        "competition": s["team_competition"].pk,
        "clubs": [s["club"].pk],
        "name": "Lagkval Uppsala",
        "venue": "Bridgens hus",
        "responsible_name": "Karin Ansvarig",
        "responsible_email": "karin@example.se",
        "boards_per_match": "16",
        "first_date": "2016-11-05",
        "last_date": "2016-11-06",
        "entries_close": "2016-10-25",
        "start_fee": "500",
        "table_fee_per_match": "0",
        "invitation_url": "https://example.se/lag",
    }
    data.update(over)
    return data


def test_register_team_heat_creates_heat(client, setup):
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post("/klubb/lagkval/ny/", _team_heat_data(s))
    assert response.status_code == 302
    heat = TeamHeat.objects.get(name="Lagkval Uppsala")
    assert heat.status == "applied" and heat.boards_per_match == 16
    assert list(TeamHeatOrganiser.objects.filter(heat=heat).values_list("club", flat=True)) == [
        s["club"].pk
    ]


def test_team_heat_with_too_few_boards_and_no_invitation_is_refused(client, setup):
    """R-TEAM-KVAL-5 (8–24 boards) and R-TEAM-REG-1 (invitation): every reason listed."""
    s = setup
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            "/klubb/lagkval/ny/", _team_heat_data(s, boards_per_match="4", invitation_url="")
        )
    html = response.content.decode()
    assert response.status_code == 400
    assert "R-TEAM-KVAL-5" in html and "R-TEAM-REG-1" in html and "inbjudan" in html.lower()
    assert TeamHeat.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# Entering a pair
# ---------------------------------------------------------------------------------------------


def test_enter_pair_creates_entry_and_lists_it(client, setup):
    s = setup
    a, b = (member(season=s["season"]) for _ in range(2))
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{s['heat'].pk}/anmal/",
            {"mid1": a.mid, "mid2": b.mid, "pair_number": "7", "takes_part_in_qualifier": "on"},
            follow=True,
        )
    entry = PairEntry.objects.get(heat=s["heat"])
    assert {entry.player1, entry.player2} == {a, b} and entry.pair_number == "7"
    html = response.content.decode()
    assert "är anmält" in html and a.full_name in html


def test_enter_pair_unknown_mid_is_refused(client, setup):
    s = setup
    a = member(season=s["season"])
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{s['heat'].pk}/anmal/", {"mid1": a.mid, "mid2": "9999999"}
        )
    html = response.content.decode()
    assert response.status_code == 400
    assert "9999999" in html and "R-GEN-2" in html and "Inget har sparats" in html
    assert PairEntry.objects.count() == 0


def test_enter_out_of_district_pair_shows_warning(client, setup):
    """R-PAIR-1: an out-of-district pair is entered, with a warning shown."""
    s = setup
    away = ClubFactory(district=DistrictFactory(code="SBD", name="Stockholms BF"))
    a, b = (member(season=s["season"], club=away) for _ in range(2))
    client.force_login(s["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{s['heat'].pk}/anmal/",
            {"mid1": a.mid, "mid2": b.mid, "takes_part_in_qualifier": "on"},
            follow=True,
        )
    assert PairEntry.objects.filter(heat=s["heat"]).count() == 1
    html = response.content.decode()
    assert "alert-warning" in html and "R-PAIR-1" in html
