"""Masterpoints and bonus (ubf.rules.masterpoints)."""

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.masterpoints import (
    pair_bonus,
    pair_final_masterpoints,
    share_team_points,
    team_bonus,
    team_match_masterpoints,
)
from ubf.rules.season import DEFAULT_RULES
from ubf.rules.types import Discipline

# --- R-TEAM-MP-1 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "vp_home, vp_away, home, away",
    [
        ("13.00", "7.00", 24, 0),  # 13 VP is a win
        ("12.99", "7.01", 12, 12),  # just a draw
        ("10.00", "10.00", 12, 12),
        ("7.00", "13.00", 0, 24),
        ("20.00", "0.00", 24, 0),
        ("7.01", "12.99", 12, 12),
    ],
)
def test_r_team_mp_1_win_draw_loss(vp_home, vp_away, home, away):
    mp = team_match_masterpoints(Decimal(vp_home), Decimal(vp_away), 24)
    assert (mp.home, mp.away) == (home, away)
    assert mp.reason.message_sv.startswith("R-TEAM-MP-1")


def test_r_team_mp_1_odd_boards_draw_gives_halves_and_wo_gives_nothing():
    mp = team_match_masterpoints("11.00", "9.00", 9)
    assert mp.home == mp.away == Fraction(9, 2)
    wo = team_match_masterpoints("12.00", "0.00", 24, walkover=True)
    assert (wo.home, wo.away) == (0, 0) and "W.O." in wo.reason.message_sv
    # 9 boards shared in a draw: 9 / 2 = 4.5 each (R-TEAM-MP-1: 7 < VP < 13)
    assert mp.reason.message_sv == "R-TEAM-MP-1: oavgjort (7 < VP < 13): 4,5 silverpoäng var"
    assert mp.reason.message_en == "R-TEAM-MP-1: draw (7 < VP < 13): 4.5 silver points each"


def test_r_team_mp_1_thresholds_are_season_configuration():
    rules = replace(DEFAULT_RULES, team_mp_win_vp=Decimal("12"))
    assert team_match_masterpoints("12.00", "8.00", 20, rules=rules).home == 20
    assert team_match_masterpoints("12.00", "8.00", 20).home == 10


# --- R-TEAM-MP-2 ---------------------------------------------------------------------------


def test_r_team_mp_2_four_players_whole_24_board_win_get_6_each():
    # Worked example of the regulations.
    team_points = team_match_masterpoints("16.50", "3.50", 24).home
    shares = share_team_points(team_points, {"p1": 2, "p2": 2, "p3": 2, "p4": 2})
    assert shares == dict.fromkeys(["p1", "p2", "p3", "p4"], Fraction(6))


def test_r_team_mp_2_one_half_is_half_of_a_whole_match():
    # Six players: four whole matches (2 halves) and two one half each: 10 halves in all.
    halves = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1, "f": 0}
    shares = share_team_points(24, halves)
    assert shares["a"] == Fraction(24 * 2, 8) and shares["d"] == Fraction(24, 8)
    assert shares["d"] * 2 == shares["a"]
    assert shares["f"] == 0
    assert sum(shares.values()) == 24


@given(
    points=st.integers(0, 48),
    halves=st.dictionaries(st.integers(0, 7), st.integers(0, 2), min_size=1, max_size=8),
)
def test_r_team_mp_2_shares_add_up_to_the_team_points(points, halves):
    shares = share_team_points(points, halves)
    if any(h > 0 for h in halves.values()):
        assert sum(shares.values()) == points
    else:
        assert all(s == 0 for s in shares.values())


# --- R-TEAM-MP-3 ---------------------------------------------------------------------------


def test_r_team_mp_3_bonus_42_30_21_to_players_with_a_third_of_the_halves():
    dm_order = ["A", "B", "C", "D"]
    # 8-team final: 7 rounds × 2 halves = 14; one third is 4⅔ → 5 halves needed.
    halves = {
        "A": {"a1": 14, "a2": 5, "a3": 4},
        "B": {"b1": 10},
        "C": {"c1": 14},
        "D": {"d1": 14},
    }
    result = team_bonus(dm_order, dict.fromkeys(dm_order, True), halves, 14)
    assert result.places == ((1, "A"), (2, "B"), (3, "C"))
    assert result.bonus["a1"] == 42 and result.bonus["a2"] == 42 and result.bonus["a3"] == 0
    assert result.bonus["b1"] == 30 and result.bonus["c1"] == 21
    assert "d1" not in result.bonus
    assert result.plaque_players["A"] == ("a1", "a2")
    # a3 played 4 of 14 halves; a third of 14 is 14/3 (4.67)
    assert result.reasons["a3"].message_sv == (
        "R-TEAM-MP-3: spelade 4 av 14 halvlekar, färre än 14/3 (en tredjedel): ingen bonus, "
        "plakett eller titel"
    )
    assert result.reasons["a1"].message_en == "R-TEAM-MP-3: place 1: 42 silver points"


def test_r_team_mp_3_no_bonus_unless_every_roster_member_represents_ubf():
    # R-TEAM-4: a roster member from another district (even one who never played) stops the
    # bonus; the team keeps its place and its players their plaques.
    halves = {"A": {"a1": 14}, "B": {"b1": 14}}
    result = team_bonus(["A", "B"], {"A": False, "B": True}, halves, 14)
    assert result.bonus == {"a1": 0, "b1": 30}
    assert result.plaque_players["A"] == ("a1",)
    assert "R-TEAM-4" in result.reasons["a1"].message_sv


def test_r_team_mp_3_a_roster_player_who_never_played_is_listed_without_bonus():
    # 10-team final: 9 matches × 2 = 18 halves; a third is 6. a1 18, a2 6 (exactly a third:
    # enough), a3 5 (not enough), a4 on the roster but never played (0).
    halves = {"A": {"a1": 18, "a2": 6, "a3": 5}}
    result = team_bonus(["A"], {"A": True}, halves, 18, rosters={"A": ["a1", "a2", "a3", "a4"]})
    assert result.bonus == {"a1": 42, "a2": 42, "a3": 0, "a4": 0}
    assert result.plaque_players["A"] == ("a1", "a2")
    assert result.reasons["a4"].message_sv == (
        "R-TEAM-MP-3: spelade 0 av 18 halvlekar, färre än 6 (en tredjedel): ingen bonus, "
        "plakett eller titel"
    )


# --- R-PAIR-MP-1 ---------------------------------------------------------------------------

TABLE = {(6, 1): 30, (6, 2): 20, (6, 3): 14, (6, 4): 10, (6, 5): 6, (6, 6): 0}


def test_r_pair_mp_1_applies_the_sbf_table():
    places = {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}
    result = pair_final_masterpoints(places, TABLE)
    assert result.points == {"a": 30, "b": 20, "c": 14, "d": 10, "e": 6, "f": 0}
    assert result.reasons["a"].message_sv == "R-PAIR-MP-1: plats 1 av 6"


def test_r_pair_mp_1_tied_places_share_by_averaging():
    # b and c tied on 2nd share places 2 and 3: (20 + 14) / 2 = 17.
    places = {"a": 1, "b": 2, "c": 2, "d": 4, "e": 5, "f": 6}
    result = pair_final_masterpoints(places, TABLE)
    assert result.points["b"] == result.points["c"] == 17
    assert result.points["d"] == 10
    # Dense numbering (1-2-2-3) gives the same answer.
    dense = {"a": 1, "b": 2, "c": 2, "d": 3, "e": 4, "f": 5}
    assert pair_final_masterpoints(dense, TABLE).points == result.points
    three = pair_final_masterpoints({"a": 1, "b": 1, "c": 1, "d": 4, "e": 5, "f": 6}, TABLE)
    assert three.points["a"] == Fraction(64, 3)


def test_r_pair_mp_1_table_may_be_a_callable_and_missing_places_give_zero():
    result = pair_final_masterpoints({"a": 1, "b": 2}, lambda n, place: Decimal("2.5") * place)
    assert result.points == {"a": Fraction(5, 2), "b": Fraction(5)}
    assert pair_final_masterpoints({"x": 1}, {}, number_of_pairs=28).points == {"x": 0}


# --- R-PAIR-MP-2 / R-PAIR-MP-3 -------------------------------------------------------------


def test_r_pair_mp_2_bonus_per_discipline():
    ranking = ["p1", "p2", "p3", "p4"]
    ubf = dict.fromkeys(ranking, True)
    assert pair_bonus(ranking, ubf, Discipline.OPEN).points == {"p1": 60, "p2": 40, "p3": 30}
    for discipline in (Discipline.DAM, Discipline.MIXED, Discipline.VETERAN):
        assert pair_bonus(ranking, ubf, discipline).points == {"p1": 10, "p2": 5, "p3": 3}


def test_r_pair_mp_3_bonus_only_when_both_players_represent_ubf_and_passes_on():
    ranking = ["out", "p2", "p3", "p4"]
    ubf = {"out": False, "p2": True, "p3": True, "p4": True}
    result = pair_bonus(ranking, ubf, "open")
    assert result.points == {"p2": 60, "p3": 40, "p4": 30}
    assert result.awards.champion == "p2"
    assert [p for p, _ in result.awards.passed_over] == ["out"]
