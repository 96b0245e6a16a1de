"""Qualifier heats and direct finals (ubf.rules.heats)."""

from dataclasses import replace
from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.heats import (
    PairHeatEntries,
    change_needs_tk_approval,
    direct_final_notice,
    half_minutes,
    heat_registration_violations,
    heat_session_violations,
    invitation_violations,
    needs_direct_final,
    pair_heat_validity,
    qualifying_pairs,
    team_heat_board_violations,
    team_heat_club_violations,
    too_few_teams_at_close,
)
from ubf.rules.season import DEFAULT_RULES
from ubf.rules.types import Discipline, HeatType, MasterpointColour
from ubf.rules.violations import Severity

# --- R-PAIR-KVAL-5 -------------------------------------------------------------------------


def test_r_pair_kval_5_silver_heat_counts_from_24_boards():
    ok = pair_heat_validity(HeatType.SILVER, 24, 8, 0)
    short = pair_heat_validity(HeatType.SILVER, 23, 8, 0)
    assert ok.counts_as_qualifier and not ok.violations
    assert not short.counts_as_qualifier
    assert [v.clause for v in short.violations] == ["R-PAIR-KVAL-5"]
    assert short.violations[0].data == {"boards": 23, "minimum": 24}


def test_r_pair_kval_5_silver_masterpoints_need_12_pairs_and_42_boards():
    assert pair_heat_validity("silver", 42, 12, 0).masterpoint_colour == MasterpointColour.SILVER
    assert pair_heat_validity("silver", 41, 12, 0).masterpoint_colour == MasterpointColour.BRONZE
    assert pair_heat_validity("silver", 42, 11, 0).masterpoint_colour == MasterpointColour.BRONZE
    # A heat that does not count still gives masterpoints (in bronze when it misses).
    assert pair_heat_validity("silver", 20, 30, 0).masterpoint_colour == MasterpointColour.BRONZE


def test_r_pair_kval_5_bronze_heat_needs_four_declared_pairs_and_24_boards():
    assert pair_heat_validity(HeatType.BRONZE, 24, 20, 4).counts_as_qualifier
    three = pair_heat_validity(HeatType.BRONZE, 48, 20, 3)
    assert not three.counts_as_qualifier
    assert three.violations[0].data["declared"] == 3
    both = pair_heat_validity(HeatType.BRONZE, 22, 20, 2)
    assert len(both.violations) == 2
    # Bronze heats always give bronze masterpoints, however large.
    assert pair_heat_validity("bronze", 60, 40, 30).masterpoint_colour == MasterpointColour.BRONZE


def test_r_pair_kval_5_thresholds_come_from_the_season():
    rules = replace(DEFAULT_RULES, heat_min_boards=20, bronze_min_declared_pairs=6)
    assert pair_heat_validity("silver", 20, 8, 0, rules).counts_as_qualifier
    assert not pair_heat_validity("bronze", 30, 8, 5, rules).counts_as_qualifier


def test_r_pair_kval_5_qualifying_pairs_silver_counts_everyone_but_struck():
    # R-PAIR-KVAL-7: struck pairs never count; R-ALLOC-1 and R-PAIR-4 use this count.
    heat = PairHeatEntries(HeatType.SILVER, ("a", "b", "c", "d"), struck=frozenset({"c"}))
    q = qualifying_pairs(heat)
    assert q.pairs == ("a", "b", "d")
    assert q.count == 3
    assert "R-PAIR-KVAL-7" in q.left_out["c"]


def test_r_pair_kval_5_qualifying_pairs_bronze_counts_declared_only():
    heat = PairHeatEntries(
        HeatType.BRONZE,
        ("a", "b", "c", "d", "e", "f"),
        declared=frozenset({"a", "c", "d", "e"}),
        struck=frozenset({"e"}),
        boards_played_max=26,
    )
    q = qualifying_pairs(heat)
    assert q.pairs == ("a", "c", "d")
    assert q.heat_counts
    assert "did not declare" in q.left_out["b"]


def test_r_pair_kval_5_a_heat_that_does_not_count_gives_no_qualifying_pairs():
    heat = PairHeatEntries(
        HeatType.BRONZE, ("a", "b", "c"), declared=frozenset({"a", "b", "c"}), boards_played_max=30
    )
    q = qualifying_pairs(heat)
    assert q.count == 0 and not q.heat_counts
    assert q.validity is not None and not q.validity.counts_as_qualifier
    silver_short = PairHeatEntries(HeatType.SILVER, ("a", "b"), boards_played_max=18)
    assert qualifying_pairs(silver_short).count == 0


@given(
    n=st.integers(0, 30),
    declared=st.sets(st.integers(0, 29)),
    struck=st.sets(st.integers(0, 29)),
    kind=st.sampled_from([HeatType.SILVER, HeatType.BRONZE]),
)
def test_r_pair_kval_5_qualifying_count_is_bounded(n, declared, struck, kind):
    pairs = tuple(range(n))
    heat = PairHeatEntries(kind, pairs, frozenset(declared), frozenset(struck))
    q = qualifying_pairs(heat)
    assert set(q.pairs) | set(q.left_out) == set(pairs)
    assert not set(q.pairs) & set(struck)
    if kind == HeatType.BRONZE:
        assert set(q.pairs) <= declared


# --- R-PAIR-KVAL-6 -------------------------------------------------------------------------


def test_r_pair_kval_6_at_most_two_sessions_and_no_new_pairs():
    assert heat_session_violations([["a", "b"], ["a", "b"]]) == []
    three = heat_session_violations([["a"], ["a"], ["a"]])
    assert [v.clause for v in three] == ["R-PAIR-KVAL-6"]
    new = heat_session_violations([["a", "b"], ["a", "b", "hc"]])
    assert len(new) == 1 and new[0].data["pairs"] == ["hc"]
    # A pair that drops out at the second session is not a new pair.
    assert heat_session_violations([["a", "b", "c"], ["a", "b"]]) == []


# --- R-PAIR-KVAL-1 / -2 / -3 ---------------------------------------------------------------


def test_r_pair_kval_1_dates_inside_period_and_registered_by_deadline():
    start, end, deadline = date(2016, 10, 1), date(2016, 11, 15), date(2016, 9, 15)
    assert heat_registration_violations([date(2016, 10, 1)], start, end, deadline, deadline) == []
    late = heat_registration_violations(
        [date(2016, 11, 16)], start, end, date(2016, 9, 16), deadline
    )
    assert len(late) == 2
    assert all(v.clause == "R-PAIR-KVAL-1" for v in late)
    assert {v.data.get("date") for v in late} >= {date(2016, 11, 16)}
    unregistered = heat_registration_violations([date(2016, 10, 5)], start, end, None, deadline)
    assert len(unregistered) == 1 and "inte anmält" in unregistered[0].message_sv


def test_r_pair_kval_1_dam_has_no_qualifiers():
    d = date(2016, 10, 2)
    out = heat_registration_violations([d], d, d, d, d, discipline=Discipline.DAM)
    assert [v.clause for v in out] == ["R-PAIR-KVAL-1"]
    assert heat_registration_violations([d], d, d, d, d, discipline="mixed") == []


def test_r_pair_kval_2_changes_after_the_deadline_need_tk():
    deadline = date(2016, 9, 15)
    assert not change_needs_tk_approval(date(2016, 9, 15), deadline)
    assert change_needs_tk_approval(date(2016, 9, 16), deadline)


def test_r_pair_kval_3_invitation_28_days_before_and_complete():
    start = date(2017, 1, 29)
    assert invitation_violations(start, date(2017, 1, 1), True, True) == []  # exactly 28 days
    late = invitation_violations(start, date(2017, 1, 2), True, True)
    assert len(late) == 1 and late[0].severity == Severity.WARNING
    assert late[0].data["days_before"] == 27
    missing = invitation_violations(start, None, True, False)
    assert missing[0].data["due_by"] == date(2017, 1, 1)
    incomplete = invitation_violations(
        start, date(2016, 12, 1), False, True, has_pair_limit=True, states_pair_limit=False
    )
    assert len(incomplete) == 2
    assert all(v.clause == "R-PAIR-KVAL-3" and not v.is_error for v in incomplete)
    # Without pre-registration the last registration day is not required.
    assert invitation_violations(start, date(2016, 12, 1), False, False) == []


# --- R-TEAM-KVAL-1 / -2 --------------------------------------------------------------------


def test_r_team_kval_1_one_heat_per_club_joint_heats_allowed():
    assert team_heat_club_violations(["Enköping", "Sala"], [["Uppsala"]]) == []
    twice = team_heat_club_violations(["Uppsala"], [["Uppsala", "Knivsta"]])
    assert len(twice) == 1 and twice[0].data["club"] == "Uppsala"
    unstated = team_heat_club_violations(["A", "B"], joint_heat_stated=False)
    assert len(unstated) == 1 and unstated[0].severity == Severity.WARNING


def test_r_team_kval_2_too_few_teams_at_close_tells_tk_and_offers_moves():
    assert too_few_teams_at_close(4) == []
    notice = too_few_teams_at_close(3, other_heats=["h2", "h3"])
    assert notice[0].clause == "R-TEAM-KVAL-2"
    assert notice[0].data["offer_heats"] == ["h2", "h3"]
    assert "TK" in notice[0].message_sv


# --- R-TEAM-KVAL-5 -------------------------------------------------------------------------


def test_r_team_kval_5_boards_per_match_and_per_team():
    teams = ["A", "B", "C", "D"]
    from ubf.rules.schedule import round_robin

    def plan(boards):
        return [(h, a, boards) for rnd in round_robin(teams) for h, a in rnd]

    # 4 teams play 3 matches each: 24 boards a match gives 72 ≥ 70; 20 gives 60.
    assert team_heat_board_violations(plan(24)) == []
    short = team_heat_board_violations(plan(20))
    assert len(short) == 1 and short[0].data["boards_by_team"] == dict.fromkeys(teams, 60)
    mixed = team_heat_board_violations([("A", "B", 24), ("C", "D", 20)])
    assert any("olika antal brickor" in v.message_sv for v in mixed)
    too_long = team_heat_board_violations([("A", "B", 28)] * 3)
    assert any(v.data.get("boards") == 28 for v in too_long)
    assert all(v.clause == "R-TEAM-KVAL-5" for v in short + mixed + too_long)


def test_r_team_kval_5_byes_are_ignored():
    matches = [("A", "B", 24), ("C", None, 0)] * 3
    out = team_heat_board_violations(matches)
    assert out[0].data["boards_by_team"] == {"C": 0}


# --- R-TEAM-KVAL-6 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "boards, minutes", [(12, 90), (10, 75), (8, 60), (7, 55), (1, 10), (3, 25), (15, 115)]
)
def test_r_team_kval_6_half_time_rounds_up_to_five_minutes(boards, minutes):
    # Worked example: 7 boards = 52.5 minutes → 55.
    assert half_minutes(boards) == minutes
    assert half_minutes(boards, dealt_at_table=True) == minutes + 5


@given(st.integers(1, 40))
def test_r_team_kval_6_half_time_is_the_smallest_multiple_of_five_covering(boards):
    m = half_minutes(boards)
    assert m % 5 == 0
    assert m >= Fraction(15, 2) * boards > m - 5


def test_r_team_kval_6_half_time_is_season_configuration():
    rules = replace(DEFAULT_RULES, minutes_per_board=Fraction(7), half_rounding_minutes=10)
    assert half_minutes(12, rules=rules) == 90  # 84 → 90
    assert half_minutes(10, rules=rules) == 70


# --- R-TEAM-DF-1 / R-PAIR-DF-1 -------------------------------------------------------------


def test_r_pair_df_1_and_r_team_df_1_fewer_than_two_clubs_means_direct_final():
    assert needs_direct_final(0) and needs_direct_final(1)
    assert not needs_direct_final(2)
    assert direct_final_notice(2) is None
    pairs = direct_final_notice(1, decide_by=date(2017, 3, 31))
    assert pairs.clause == "R-PAIR-DF-1" and "2017-03-31" in pairs.message_sv
    teams = direct_final_notice(0, teams=True)
    assert teams.clause == "R-TEAM-DF-1" and "Alla lag" in teams.message_sv
