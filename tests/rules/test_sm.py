"""SM places, SM quota basis, DM/full orders, titles and plaques (ubf.rules.sm, ubf.rules.pairs)."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.heats import PairHeatEntries
from ubf.rules.pairs import sm_cap_out_of_district
from ubf.rules.season import DEFAULT_RULES
from ubf.rules.sm import (
    dm_and_sm_order,
    semifinal_choice_order,
    semifinal_turns,
    sm_places,
    sm_quota_basis,
    title_and_plaques,
)
from ubf.rules.types import HeatType

# --- R-PAIR-2 ------------------------------------------------------------------------------

# Worked example: the SM cap table of the regulations, 1 → 0; 2–3 → 1; 4–6 → 2; 7–10 → 3;
# 11–14 → 4; 15+ → 5.
CAP_TABLE = {
    0: 0,
    1: 0,
    2: 1,
    3: 1,
    4: 2,
    5: 2,
    6: 2,
    7: 3,
    8: 3,
    9: 3,
    10: 3,
    11: 4,
    12: 4,
    13: 4,
    14: 4,
    15: 5,
    16: 5,
    30: 5,
}


@pytest.mark.parametrize("places, cap", sorted(CAP_TABLE.items()))
def test_r_pair_2_sm_cap_table(places, cap):
    assert sm_cap_out_of_district(places) == cap


@given(st.integers(0, 100))
def test_r_pair_2_cap_never_decreases_and_never_exceeds_half(places):
    assert sm_cap_out_of_district(places) <= sm_cap_out_of_district(places + 1)
    assert 2 * sm_cap_out_of_district(places) <= places


def test_r_pair_2_cap_table_is_season_configuration():
    rules = replace(DEFAULT_RULES, sm_cap_table=((1, 1), (5, 3)))
    assert sm_cap_out_of_district(1, rules) == 1
    assert sm_cap_out_of_district(4, rules) == 1
    assert sm_cap_out_of_district(5, rules) == 3


def test_r_pair_2_sm_places_pass_over_out_of_district_pairs_beyond_the_cap():
    ranking = ["X1", "U1", "X2", "X3", "U2", "U3", "U4"]
    outside = {"X1", "X2", "X3"}
    # 4 places → cap 2: X1, U1, X2 take three; X3 is passed over; U2 takes the fourth.
    result = sm_places(ranking, outside, 4)
    assert result.cap == 2
    assert result.qualified == ("X1", "U1", "X2", "U2")
    assert [p for p, _ in result.passed_over] == ["X3"]
    why = result.passed_over[0][1].message_sv
    assert "R-PAIR-2" in why and "plats 4" in why
    assert "utomdistriktspar 2 av högst 2" in result.reasons["X2"].message_sv


def test_r_pair_2_one_place_never_goes_out_of_district():
    result = sm_places(["X1", "X2", "U1"], {"X1", "X2"}, 1)
    assert result.qualified == ("U1",)
    assert len(result.passed_over) == 2


def test_r_pair_2_short_ranking_leaves_places_unfilled():
    result = sm_places(["U1", "X1"], {"X1"}, 3)
    assert result.qualified == ("U1", "X1") and result.unfilled == 1


@given(
    ranking=st.lists(st.integers(0, 50), unique=True, max_size=30),
    outside=st.sets(st.integers(0, 50)),
    places=st.integers(0, 20),
)
def test_r_pair_2_property_cap_and_order(ranking, outside, places):
    result = sm_places(ranking, outside, places)
    assert len(result.qualified) <= places
    assert sum(1 for p in result.qualified if p in outside) <= sm_cap_out_of_district(places)
    # Qualified pairs keep their ranking order and no UBF pair is ever passed over.
    assert list(result.qualified) == [p for p in ranking if p in result.qualified]
    assert all(p in outside for p, _ in result.passed_over)


# --- R-PAIR-4 ------------------------------------------------------------------------------


def test_r_pair_4_quota_basis_counts_silver_all_bronze_declared_not_struck():
    silver = PairHeatEntries(HeatType.SILVER, ("a", "b", "c", "d", "e"), struck=frozenset({"e"}))
    bronze = PairHeatEntries(
        HeatType.BRONZE,
        ("f", "g", "h", "i", "j", "k"),
        declared=frozenset({"f", "g", "h", "i"}),
        key="Enköping",
    )
    basis = sm_quota_basis([silver, bronze])
    assert basis.from_heats == 4 + 4
    assert basis.per_heat == ((1, 4), ("Enköping", 4))
    assert basis.total == 8


def test_r_pair_4_champion_free_place_and_direct_final():
    silver = PairHeatEntries(HeatType.SILVER, ("a", "b", "champ"))
    assert sm_quota_basis([silver], reigning_champion_free_place=True).total == 4
    # The champions played a heat too: counted once.
    both = sm_quota_basis([silver], reigning_champion_free_place=True, champion_pair="champ")
    assert both.total == 3 and both.champion_free_place == 0
    direct = sm_quota_basis(direct_final_pairs=22, reigning_champion_free_place=True)
    assert (direct.total, direct.from_direct_final) == (23, 22)


def test_r_pair_4_heats_counted_already_by_the_recompute():
    # Two heats of 5 and 3 counted pairs, the champions (4th pair of the first) among them.
    counted = [("Uppsala", ["a", "b", "c", "champ", "d"]), ("Enköping", ["e", "f", "g"])]
    basis = sm_quota_basis(
        counted_heats=counted, reigning_champion_free_place=True, champion_pair="champ"
    )
    assert (basis.total, basis.from_heats, basis.champion_free_place) == (8, 8, 0)
    assert basis.per_heat == (("Uppsala", 5), ("Enköping", 3))
    elsewhere = sm_quota_basis(counted_heats=counted, reigning_champion_free_place=True)
    assert elsewhere.total == 5 + 3 + 1


def test_r_pair_4_heat_that_does_not_count_adds_nothing():
    short = PairHeatEntries(HeatType.SILVER, ("a", "b", "c"), boards_played_max=20)
    assert sm_quota_basis([short]).total == 0


# --- R-TEAM-4 / R-TEAM-SEMI-1 --------------------------------------------------------------


def test_r_team_4_dm_order_and_full_order():
    full = ["Mixed", "Uppsala", "Sala", "Guest", "Enköping"]
    orders = dm_and_sm_order(full, {"Mixed": False, "Guest": False, "Uppsala": True})
    assert orders.dm_order == ("Uppsala", "Sala", "Enköping")
    assert orders.full_order == tuple(full)
    assert orders.not_competing_for_dm == ("Mixed", "Guest")


def test_r_team_semi_1_choice_order_follows_full_ranking_not_dm_order():
    full = ["Mixed", "Uppsala", "Sala", "Enköping"]
    orders = dm_and_sm_order(full, {"Mixed": False})
    choice = semifinal_choice_order(orders.full_order, 2)
    assert choice.order == ("Mixed", "Uppsala")  # the DM order would give Uppsala, Sala


def test_r_team_semi_1_disqualified_teams_do_not_count():
    # R-TEAM-RES-2: disqualified before the places are settled.
    choice = semifinal_choice_order(["A", "B", "C", "D"], 2, excluded={"B"})
    assert choice.order == ("A", "C")
    assert choice.passed_over[0][0] == "B"
    reason = choice.passed_over[0][1]
    assert reason.message_sv == "R-TEAM-RES-2: diskvalificerat innan platserna var fördelade"
    assert reason.message_en == "R-TEAM-RES-2: disqualified before the places were settled"
    reasons = semifinal_choice_order(["A", "B", "C"], 2, excluded={"A": "egen orsak"})
    assert reasons.order == ("B", "C") and reasons.passed_over == (("A", "egen orsak"),)


def test_r_team_semi_1_turns_one_team_at_a_time_from_the_winners():
    # Three places, final ranked A B C D E: A chooses first; then B; C waits.
    turns = semifinal_turns(["A", "B", "C", "D", "E"], 3)
    assert [(t.team, t.number, t.state) for t in turns.turns] == [
        ("A", 1, "turn"),
        ("B", 2, "waiting"),
        ("C", 3, "waiting"),
    ]
    assert turns.current == "A"
    turns = semifinal_turns(["A", "B", "C", "D", "E"], 3, chosen={"A": "Örebro"})
    assert [(t.team, t.state, t.venue) for t in turns.turns] == [
        ("A", "chosen", "Örebro"),
        ("B", "turn", None),
        ("C", "waiting", None),
    ]
    assert turns.of("C").number == 3 and turns.of("D") is None


def test_r_team_semi_1_a_team_that_declines_lets_the_next_of_the_full_order_up():
    # B declines its place: D (4th in the full order) moves up and chooses last, as number 3.
    turns = semifinal_turns(["A", "B", "C", "D", "E"], 3, declined=["B"], chosen={"A": "Örebro"})
    assert [(t.team, t.number, t.state) for t in turns.turns] == [
        ("A", 1, "chosen"),
        ("C", 2, "turn"),
        ("D", 3, "waiting"),
    ]
    assert turns.declined == ("B",) and turns.passed_over == ()
    # With C disqualified as well (R-TEAM-RES-2), E is next: A, D, E.
    turns = semifinal_turns(["A", "B", "C", "D", "E"], 3, excluded={"C"}, declined=["B"])
    assert [t.team for t in turns.turns] == ["A", "D", "E"]
    assert [t for t, _ in turns.passed_over] == ["C"]
    # Every place chosen: nobody's turn.
    done = semifinal_turns(["A", "B"], 2, chosen={"A": 1, "B": 2})
    assert done.current is None


# --- R-PAIR-MP-3 / R-TEAM-MP-3 titles and plaques -----------------------------------------


def test_r_pair_mp_3_title_and_plaques_pass_to_next_eligible():
    ranking = ["P1", "P2", "P3", "P4", "P5"]
    awards = title_and_plaques(ranking, {"P1": False, "P2": True, "P3": False, "P4": True})
    # P5 missing from the mapping: not eligible.
    assert awards.placed == ((1, "P2"), (2, "P4"))
    assert awards.champion == "P2"
    assert [e for e, _ in awards.passed_over] == ["P1", "P3", "P5"]
    assert awards.place_of("P4") == 2 and awards.place_of("P1") is None


def test_r_team_mp_3_title_and_plaques_with_dm_eligibility_and_places():
    ranking = ["A", "B", "C", "D"]
    eligible = dict.fromkeys(ranking, True) | {"A": False}
    awards = title_and_plaques(ranking, eligible, places=2)
    assert awards.placed == ((1, "B"), (2, "C"))
