"""Fee lists per heat, one row per pair or team (its players and its amount), where the club
marks "inbetald" and "vidarebefordrad till UBF" a row at a time or all at once
(portal.services.fees.mark_fee_rows, R-PAIR-FEE-1, R-TEAM-FEE-1); /avgifter/ is the club's page."""

from datetime import date
from decimal import Decimal

import pytest

from clubs import clock
from clubs.models import Decision
from portal.models import FeeStatus
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairEntryFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def s():
    season = SeasonFactory()
    club = ClubFactory()
    heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=season), clubs=[club], table_fee=Decimal("40")
    )
    entries = [PairEntryFactory(heat=heat), PairEntryFactory(heat=heat)]
    return {
        "heat": heat,
        "entries": entries,
        "official": ClubOfficialFactory(club=club).user,
        "other": ClubOfficialFactory().user,
        "url": f"/avgifter/heat/parkval/{heat.pk}/",
    }


def key(entry):
    return f"pairs.pairentry:{entry.pk}"


def test_r_pair_fee_1_one_row_per_pair_with_players_and_amount(client, s):
    client.force_login(s["official"])
    html = client.get(s["url"]).content.decode()
    assert html.count('class="border rounded p-2 mb-2 fee-row"') == 2
    e = s["entries"][0]
    assert e.player1.full_name in html and e.player2.mid in html
    # 2 players × (DM qualifier fee 50 + table fee 40) = 180 per pair, 360 in all.
    assert html.count("180,00 kr") == 2 and "Totalt: 360,00 kr" in html


def test_r_pair_fee_1_mark_one_pair_collected_then_passed(client, s):
    e = s["entries"][0]
    client.force_login(s["official"])
    with clock.frozen("2017-02-10"):
        response = client.post(s["url"], {"step": "collected", "row": key(e)}, follow=True)
        assert "1 rad markerad som inbetald." in response.content.decode()
        response = client.post(s["url"], {"step": "passed", "row": key(e)}, follow=True)
    assert "1 rad markerad som vidarebefordrad till UBF." in response.content.decode()
    status = FeeStatus.objects.get(object_id=e.pk, kind="pair_heat")
    assert status.collected_on == status.passed_to_ubf_on == date(2017, 2, 10)
    assert not FeeStatus.objects.filter(object_id=s["entries"][1].pk).exists()
    logged = Decision.objects.filter(action__startswith="portal.fee.", object_id=e.pk)
    assert sorted(logged.values_list("action", flat=True)) == [
        "portal.fee.collected",
        "portal.fee.passed",
    ]
    assert Decimal(logged.first().data["amount"]) == Decimal("180")


def test_r_pair_fee_1_mark_all_collected_at_once(client, s):
    client.force_login(s["official"])
    with clock.frozen("2017-02-12"):
        response = client.post(s["url"], {"step": "collected", "on": "2017-02-11"}, follow=True)
    assert "2 rader markerade som inbetalda." in response.content.decode()
    assert (
        list(FeeStatus.objects.filter(kind="pair_heat").values_list("collected_on", flat=True))
        == [date(2017, 2, 11)] * 2
    )


def test_r_pair_fee_1_passed_before_collected_is_refused_and_nothing_saved(client, s):
    client.force_login(s["official"])
    with clock.frozen("2017-02-10"):
        response = client.post(s["url"], {"step": "passed", "row": key(s["entries"][0])})
    html = response.content.decode()
    assert response.status_code == 400 and "R-PAIR-FEE-1" in html and "Inget har sparats" in html
    assert not FeeStatus.objects.exists() and not Decision.objects.exists()


def test_r_pair_fee_1_a_date_in_the_future_is_refused(client, s):
    client.force_login(s["official"])
    with clock.frozen("2017-02-10"):
        response = client.post(s["url"], {"step": "collected", "on": "2017-02-11"})
    assert response.status_code == 400 and "ligger i framtiden" in response.content.decode()
    assert not FeeStatus.objects.exists()


def test_another_clubs_official_gets_403_and_nothing_is_marked(client, s):
    client.force_login(s["other"])
    assert client.get(s["url"]).status_code == 403
    with clock.frozen("2017-02-10"):
        assert client.post(s["url"], {"step": "collected"}).status_code == 403
    assert not FeeStatus.objects.exists() and not Decision.objects.exists()


def test_r_team_fee_1_team_rows_list_the_roster(client):
    season = SeasonFactory()
    club = ClubFactory()
    heat = TeamHeatFactory(competition=TeamCompetitionFactory(season=season), organisers=[club])
    team = TeamFactory(heat=heat, players=4)
    client.force_login(ClubOfficialFactory(club=club).user)
    html = client.get(f"/avgifter/heat/lagkval/{heat.pk}/").content.decode()
    assert team.name in html and team.captain.full_name in html
    # One team alone: the start fee 500, no matches yet.
    assert "500,00 kr" in html


def test_avgifter_redirects_to_the_club_page(client, s):
    client.force_login(s["official"])
    response = client.get("/avgifter/")
    assert response.status_code == 302 and response["Location"] == "/klubb/"


def test_exports_still_group_per_payer(client, s):
    client.force_login(s["official"])
    text = client.get(f"/avgifter/heat/parkval/{s['heat'].pk}.csv").content.decode("utf-8-sig")
    sums = [line for line in text.splitlines() if ";Summa;" in line]
    assert len(sums) == 2 and all(";180;" in line for line in sums)
