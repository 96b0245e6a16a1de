"""The player look-up (/klubb/spelare/?q=) by name or MID, and the MID fields that use it:
names case-insensitively (å, ä, ö too), MIDs without their leading zeros (SBF MIDs are numbers:
"00123" is 123), this season's club and the season's SBF membership (R-GEN-2)."""

from datetime import date

import pytest

from clubs import clock
from clubs.models import Membership, Player, Representation
from clubs.selectors import normalise_mid
from pairs.models import PairEntry
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def world():
    season = SeasonFactory()
    club = ClubFactory(name="BK Lyx")
    heat = PairHeatFactory(competition=PairCompetitionFactory(season=season), clubs=[club])
    official = ClubOfficialFactory(club=club).user
    asa = PlayerFactory(mid="123", first_name="Åsa", last_name="Öberg")
    bo = PlayerFactory(mid="4567", first_name="Bo", last_name="Ärlig")
    Representation.objects.create(player=asa, season=season, club=club)
    Membership.objects.create(player=asa, season=season, paid_on=date(2016, 8, 1))
    Representation.objects.create(player=bo, season=season, club=club)
    Membership.objects.create(player=bo, season=season, paid_on=date(2016, 8, 1))
    return {
        "season": season,
        "club": club,
        "heat": heat,
        "official": official,
        "asa": asa,
        "bo": bo,
    }


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("00123", "123"), (" 0123 ", "123"), (123, "123"), ("000", "0"), ("12a", "12a"), (None, "")],
)
def test_r_gen_2_mid_normalised_without_leading_zeros(typed, stored):
    assert normalise_mid(typed) == stored


def test_r_gen_2_player_saved_with_leading_zeros_is_stored_without():
    assert PlayerFactory(mid="000789").mid == "789"
    assert Player.objects.filter(mid="789").exists()


def test_lookup_by_lower_case_swedish_name_as_json(client, world):
    client.force_login(world["official"])
    data = client.get("/klubb/spelare/", {"q": "öberg", "format": "json"}).json()
    assert data["players"] == [
        {"mid": "123", "name": "Åsa Öberg", "club": "BK Lyx", "membership_paid": True}
    ]
    data = client.get("/klubb/spelare/", {"q": "ÅSA", "format": "json"}).json()
    assert [p["mid"] for p in data["players"]] == ["123"]


def test_lookup_by_mid_with_leading_zeros(client, world):
    client.force_login(world["official"])
    data = client.get("/klubb/spelare/", {"q": "0004567", "format": "json"}).json()
    assert [p["name"] for p in data["players"]] == ["Bo Ärlig"]


def test_lookup_shows_unpaid_membership(client, world):
    Membership.objects.filter(player=world["bo"]).update(paid_on=None)
    client.force_login(world["official"])
    html = client.get("/klubb/spelare/", {"q": "Bo"}).content.decode()
    assert "Bo Ärlig" in html and "4567" in html and "medlemsavgift ej betald" in html


def test_lookup_options_for_a_mid_field(client, world):
    client.force_login(world["official"])
    html = client.get("/klubb/spelare/", {"format": "options", "mid1": "ärl"}).content.decode()
    assert html.count("<option") == 1 and 'value="4567"' in html and "Bo Ärlig" in html


def test_lookup_refuses_users_without_a_workplace(client, world):
    assert client.get("/klubb/spelare/?q=Bo").status_code == 302  # to the login
    client.force_login(UserFactory())
    assert client.get("/klubb/spelare/?q=Bo").status_code == 403


def test_enter_pair_by_names(client, world):
    client.force_login(world["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{world['heat'].pk}/anmal/",
            {"mid1": "Åsa Öberg", "mid2": "ärlig", "takes_part_in_qualifier": "on"},
            follow=True,
        )
    entry = PairEntry.objects.get(heat=world["heat"])
    assert {entry.player1, entry.player2} == {world["asa"], world["bo"]}
    assert "är anmält" in response.content.decode()


def test_enter_pair_by_mid_with_leading_zeros(client, world):
    client.force_login(world["official"])
    with clock.frozen("2016-09-01"):
        client.post(
            f"/klubb/parkval/{world['heat'].pk}/anmal/",
            {"mid1": "00123", "mid2": "04567", "takes_part_in_qualifier": "on"},
        )
    entry = PairEntry.objects.get(heat=world["heat"])
    assert {entry.player1.mid, entry.player2.mid} == {"123", "4567"}


def test_ambiguous_name_is_an_error_next_to_the_field_and_keeps_the_input(client, world):
    PlayerFactory(mid="999", first_name="Åsa", last_name="Berg")
    client.force_login(world["official"])
    with clock.frozen("2016-09-01"):
        response = client.post(
            f"/klubb/parkval/{world['heat'].pk}/anmal/",
            {"mid1": "åsa", "mid2": "4567", "takes_part_in_qualifier": "on"},
        )
    html = response.content.decode()
    assert response.status_code == 400
    assert "Flera spelare passar in på åsa" in html and "Åsa Berg (999)" in html
    assert 'id="id_mid1"' in html and 'value="åsa"' in html and 'value="4567"' in html
    assert "invalid-feedback" in html  # crispy puts the error under the field
    assert PairEntry.objects.count() == 0


def test_mid_field_has_a_datalist_filled_by_htmx(client, world):
    client.force_login(world["official"])
    html = client.get(f"/klubb/parkval/{world['heat'].pk}/anmal/").content.decode()
    assert 'list="id_mid1-players"' in html and '<datalist id="id_mid1-players">' in html
    assert 'hx-get="/klubb/spelare/?format=options"' in html
    assert "vendor/htmx/htmx.min.js" in html
