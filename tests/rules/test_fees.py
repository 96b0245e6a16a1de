"""Fees, line by line with reasons (R-PAIR-FEE-*, R-TEAM-FEE-*)."""

from dataclasses import replace
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ubf.rules import fees
from ubf.rules.people import UBF, PlayerInfo
from ubf.rules.season import DEFAULT_RULES
from ubf.rules.types import Discipline, Gender, Pin

D = Decimal


def player(mid, born=1970, pin=Pin.NONE):
    return PlayerInfo(mid, f"Spelare {mid}", Gender.WOMAN, born, pin, UBF, True)


PAIR = [player("1"), player("2")]


# --- R-PAIR-FEE-1 ------------------------------------------------------------------------------


def test_r_pair_fee_1_qualifier_is_50_per_player_plus_table_fee():
    lines = fees.pair_heat_fees(PAIR, table_fee_per_player=D("40"))
    assert fees.total(lines) == D("180")
    assert fees.total(lines, payer="1") == D("90")
    kval = [x for x in lines if x.payee != "organiser"]
    assert [x.amount for x in kval] == [D("50"), D("50")]
    assert {x.clause for x in lines} == {"R-PAIR-FEE-1"}
    assert any("bordsavgift" in x.description_sv for x in lines)


def test_r_pair_fee_1_no_table_fee_no_table_line_and_negative_is_read_as_none():
    assert fees.total(fees.pair_heat_fees(PAIR)) == D("100")
    assert len(fees.pair_heat_fees(PAIR)) == 2
    assert fees.total(fees.pair_heat_fees(PAIR, table_fee_per_player=D("-30"))) == D("100")


def test_r_pair_fee_1_final_is_200_per_player_in_every_discipline():
    for discipline in (Discipline.OPEN, Discipline.MIXED, Discipline.VETERAN):
        lines = fees.pair_final_fees(PAIR, discipline)
        assert fees.total(lines) == D("400")
        assert all(x.clause == "R-PAIR-FEE-1" for x in lines)


def test_r_pair_fee_1_dam_direct_final_start_fee_is_200_per_player():
    spader = [player("1", pin=Pin.SPADER), player("2", pin=Pin.HJARTER)]
    lines = fees.pair_final_fees(spader, Discipline.DAM)
    assert fees.total(lines) == D("400")
    assert [x.clause for x in lines] == ["R-PAIR-FEE-1", "R-PAIR-FEE-1"]


def test_r_pair_fee_1_amounts_come_from_season_rules():
    rules = replace(DEFAULT_RULES, pair_kval_fee_per_player=D("60"))
    assert fees.total(fees.pair_heat_fees(PAIR, rules=rules)) == D("120")


# --- R-PAIR-FEE-2 ------------------------------------------------------------------------------


def test_r_pair_fee_2_dam_subsidy_by_highest_pin():
    assert fees.dam_subsidy(Pin.NONE) == D("100")
    assert fees.dam_subsidy(Pin.KLOVER) == D("100")
    assert fees.dam_subsidy(Pin.RUTER) == D("50")
    assert fees.dam_subsidy(Pin.HJARTER) == D("0")
    assert fees.dam_subsidy(Pin.STORMASTARE) == D("0")


def test_r_pair_fee_2_subsidy_shows_as_negative_ubf_line():
    pair = [player("1", pin=Pin.KLOVER), player("2", pin=Pin.RUTER)]
    lines = fees.pair_final_fees(pair, "dam")
    subsidies = [x for x in lines if x.clause == "R-PAIR-FEE-2"]
    assert [(x.payer, x.amount) for x in subsidies] == [("1", D("-100")), ("2", D("-50"))]
    assert all(x.description_sv.startswith("UBF betalar") for x in subsidies)
    assert "klöver" in subsidies[0].description_sv
    assert fees.total(lines, payer="1") == D("100")
    assert fees.total(lines, payer="2") == D("150")


def test_r_pair_fee_2_no_subsidy_outside_dam():
    pair = [player("1", pin=Pin.NONE), player("2", pin=Pin.NONE)]
    assert all(x.clause != "R-PAIR-FEE-2" for x in fees.pair_final_fees(pair, "mixed"))


def test_r_pair_fee_2_subsidy_never_more_than_the_fee():
    rules = replace(DEFAULT_RULES, pair_final_fee_per_player=D("80"))
    lines = fees.pair_final_fees([player("1"), player("2", pin=Pin.RUTER)], "dam", rules=rules)
    assert fees.total(lines, payer="1") == D("0")
    assert fees.total(lines, payer="2") == D("30")


@given(st.sampled_from(list(Pin)), st.sampled_from(list(Pin)))
def test_r_pair_fee_2_property_dam_fees_never_negative_and_fall_with_lower_pins(pin_a, pin_b):
    lines = fees.pair_final_fees([player("1", pin=pin_a), player("2", pin=pin_b)], "dam")
    for mid, pin in (("1", pin_a), ("2", pin_b)):
        paid = fees.total(lines, payer=mid)
        assert D("0") <= paid <= DEFAULT_RULES.pair_final_fee_per_player
        # a higher pin never pays less
        higher = fees.pair_final_fees([player("x", pin=Pin(min(pin + 1, 7)))], "dam")
        assert fees.total(higher) >= paid


# --- R-TEAM-FEE-1 / R-TEAM-FEE-2 -----------------------------------------------------------------


def test_r_team_fee_1_start_fee_500_collected_for_ubf():
    lines = fees.team_heat_fees("T1", [player(str(i)) for i in range(4)])
    assert [(x.clause, x.amount, x.payee) for x in lines] == [("R-TEAM-FEE-1", D("500"), "UBF")]
    assert "heatansvarig" in lines[0].description_sv


def test_r_team_fee_2_heat_table_fee_per_match():
    lines = fees.team_heat_fees("T1", (), matches=7, table_fee_per_match=D("120"))
    table = [x for x in lines if x.clause == "R-TEAM-FEE-2"]
    assert len(table) == 1 and table[0].amount == D("840") and table[0].payee == "organiser"
    assert fees.total(lines) == D("1340")


def test_r_team_fee_2_final_table_fee_200_per_round():
    rounds = [[player(str(i)) for i in range(4)]] * 7
    lines = fees.team_final_fees("T1", rounds)
    assert len(lines) == 7 and fees.total(lines) == D("1400")
    assert {x.clause for x in lines} == {"R-TEAM-FEE-2"}
    assert "rond 7" in lines[-1].description_sv


# --- R-TEAM-FEE-3 ------------------------------------------------------------------------------


def test_r_team_fee_3_junior_means_born_on_or_after_the_season_limit():
    assert player("j", born=1991).is_junior() and not player("s", born=1990).is_junior()
    assert not player("u", born=None).is_junior()


def test_r_team_fee_3_qualifier_discount_100_per_junior():
    team = [player("1", 1995), player("2", 1991), player("3", 1990), player("4", 1960)]
    lines = fees.team_heat_fees("T1", team + [team[0]])  # a junior listed twice counts once
    discount = [x for x in lines if x.clause == "R-TEAM-FEE-3"]
    assert len(discount) == 1 and discount[0].amount == D("-200")
    assert fees.total(lines) == D("300")


def test_r_team_fee_3_qualifier_discount_never_below_zero():
    team = [player(str(i), born=1996) for i in range(6)]
    lines = fees.team_heat_fees("T1", team, matches=5, table_fee_per_match=D("100"))
    start = [x for x in lines if x.clause in ("R-TEAM-FEE-1", "R-TEAM-FEE-3")]
    assert fees.total(start) == D("0")  # 6 juniors x 100 > 500: capped at the start fee
    assert fees.total(lines) == D("500")  # the organiser's table fee is untouched


def test_r_team_fee_3_final_juniors_play_free_per_round():
    j1, j2 = player("j1", 1994), player("j2", 1998)
    seniors = [player(str(i)) for i in range(4)]
    rounds = [seniors, [j1] + seniors[:3], [j1, j2] + seniors[:2]]
    lines = fees.team_final_fees("T1", rounds)
    assert fees.total(lines) == D("200") + D("150") + D("100")
    reductions = [x for x in lines if x.clause == "R-TEAM-FEE-3"]
    assert [x.amount for x in reductions] == [D("-50"), D("-100")]
    assert "rond 3" in reductions[1].description_sv


def test_r_team_fee_3_final_round_never_below_zero():
    rules = replace(DEFAULT_RULES, team_final_junior_reduction_per_round=D("80"))
    juniors = [player(str(i), 1999) for i in range(4)]
    lines = fees.team_final_fees("T1", [juniors], rules=rules)
    assert fees.total(lines) == D("0")


@given(
    st.lists(st.integers(min_value=1940, max_value=2008), min_size=4, max_size=8),
    st.integers(min_value=0, max_value=12),
    st.decimals(min_value=-100, max_value=500, places=2),
)
def test_r_team_fee_3_property_start_fee_part_never_negative(births, matches, table_fee):
    team = [player(str(i), born) for i, born in enumerate(births)]
    lines = fees.team_heat_fees("T", team, matches=matches, table_fee_per_match=table_fee)
    start_part = fees.total(x for x in lines if x.clause != "R-TEAM-FEE-2")
    juniors = sum(b >= DEFAULT_RULES.junior_born_on_or_after for b in births)
    expected = max(D("500") - 100 * juniors, D("0"))
    assert start_part == expected
    assert fees.total(lines) >= start_part
