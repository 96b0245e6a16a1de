"""Adapters from the models to the rulebook's PlayerInfo, and MID lookups."""

from datetime import date

import pytest

from clubs.models import Membership
from clubs.selectors import (
    lookup_players,
    membership_paid_on,
    player_info,
    player_infos,
    resolve_players,
)
from clubs.services.base import ServiceError
from tests.factories import ClubFactory, DistrictFactory, PlayerFactory, SeasonFactory, member
from ubf.rules.people import UBF
from ubf.rules.types import Gender, Pin

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    return SeasonFactory()


def test_player_infos_builds_playerinfo_from_representation_and_membership(season):
    # R-GEN-2, R-PAIR-1, R-PAIR-3: the facts the rules need, for this season.
    club = ClubFactory(name="BK Skäggetorp Uppsala")
    p = member(season, club, paid=True, gender="M", birth_year=1950, max_pin=Pin.RUTER)
    info = player_infos(season, [p.mid])[p.mid]
    assert info.mid == p.mid
    assert info.name == p.full_name
    assert info.gender == Gender.MAN
    assert info.birth_year == 1950
    assert info.max_pin == Pin.RUTER
    assert info.district == UBF and info.is_ubf
    assert info.membership_paid is True
    assert info.club == "BK Skäggetorp Uppsala"


def test_other_district_unpaid_and_unrepresented(season):
    sth = ClubFactory(district=DistrictFactory(code="STH", name="Stockholms BF"))
    away = member(season, sth, paid=False)
    loose = PlayerFactory()  # no representation, no membership this season
    infos = player_infos(season, [away.mid, loose.mid])
    assert infos[away.mid].district == "STH" and not infos[away.mid].is_ubf
    assert infos[away.mid].membership_paid is False
    assert infos[loose.mid].district is None
    assert not infos[loose.mid].has_representation_club
    assert infos[loose.mid].membership_paid is False


def test_representation_of_another_season_does_not_count(season):
    other = SeasonFactory(name="2015-2016", start_year=2015, is_current=False)
    p = member(other, ClubFactory())
    info = player_info(season, p)
    assert info.district is None and not info.membership_paid


def test_player_infos_runs_a_constant_number_of_queries(season, django_assert_num_queries):
    club = ClubFactory()
    few = [member(season, club).mid for _ in range(2)]
    many = few + [member(season, club).mid for _ in range(18)]
    with django_assert_num_queries(3):
        assert len(player_infos(season, few)) == 2
    with django_assert_num_queries(3):
        assert len(player_infos(season, many)) == 20


def test_paid_by_counts_only_fees_paid_on_or_before_the_date(season):
    # R-TEAM-RES-1 needs "paid at the match date".
    p = member(season, ClubFactory(), paid=False)
    Membership.objects.filter(player=p).update(paid_on=date(2016, 11, 20))
    assert player_infos(season, [p.mid], paid_by=date(2016, 11, 19))[p.mid].membership_paid is False
    assert player_infos(season, [p.mid], paid_by=date(2016, 11, 20))[p.mid].membership_paid is True
    assert player_infos(season, [p.mid])[p.mid].membership_paid is True
    assert membership_paid_on(season, [p]) == {p.mid: date(2016, 11, 20)}


def test_unknown_mids_are_left_out_of_infos_and_named_by_lookup(season):
    p = member(season, ClubFactory())
    assert set(player_infos(season, [p.mid, "999999"])) == {p.mid}
    players, violations = lookup_players([p.mid, " 999999 ", "888888", p.mid], clause="R-GEN-2")
    assert list(players) == [p.mid]
    assert len(violations) == 1
    v = violations[0]
    assert v.clause == "R-GEN-2"
    assert "999999" in v.message_sv and "888888" in v.message_sv
    assert "Okänt MID" in v.message_sv
    assert v.data["unknown"] == ["999999", "888888"]


def test_malformed_mid_is_named(season):
    _, violations = lookup_players(["12a4"], clause="R-TEAM-REG-2")
    assert [v.clause for v in violations] == ["R-TEAM-REG-2"]
    assert "12a4" in violations[0].message_sv


def test_resolve_players_raises_naming_the_unknown(season):
    p = member(season, ClubFactory())
    assert resolve_players([p.mid])[p.mid] == p
    with pytest.raises(ServiceError) as exc:
        resolve_players([p.mid, "4242"], clause="R-TEAM-REG-2")
    assert "4242" in str(exc.value)
    assert "R-TEAM-REG-2" in str(exc.value)
