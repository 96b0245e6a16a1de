"""Eligibility rules: membership, pairs, direct qualifiers, team rosters, illegal players."""

from dataclasses import replace
from datetime import date
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ubf.rules import eligibility as el
from ubf.rules.people import UBF, HeatPlayed, PlayerInfo, QualifierEntry
from ubf.rules.season import DEFAULT_RULES, SeasonRules
from ubf.rules.types import Discipline, Gender, Pin
from ubf.rules.violations import Severity, errors, warnings

F, M = Gender.WOMAN, Gender.MAN


def player(mid, gender=M, born=1970, district=UBF, paid=True, pin=Pin.NONE):
    return PlayerInfo(
        mid=mid,
        name=f"Spelare {mid}",
        gender=gender,
        birth_year=born,
        max_pin=pin,
        district=district,
        membership_paid=paid,
    )


def clauses(violations):
    return sorted(v.clause for v in violations)


# --- R-GEN-2 ---------------------------------------------------------------------------------


def test_r_gen_2_unpaid_pair_player_is_refused():
    pair = [player("1"), player("2", paid=False)]
    out = el.check_pair_entry(pair, Discipline.OPEN)
    assert clauses(errors(out)) == ["R-GEN-2"]
    assert errors(out)[0].data["mid"] == "2"
    assert "medlemsavgift" in errors(out)[0].message_sv


def test_r_gen_2_unpaid_team_player_is_only_flagged():
    roster = [player(str(i)) for i in range(4)] + [player("9", paid=False)]
    out = el.check_team_roster(roster)
    assert errors(out) == []
    flagged = [v for v in out if v.clause == "R-GEN-2"]
    assert len(flagged) == 1 and flagged[0].severity == Severity.WARNING
    assert flagged[0].data["mid"] == "9"
    assert "14 dagar" in flagged[0].message_sv


def test_r_gen_2_paid_players_pass():
    assert el.check_membership([player("1"), player("2")]) == []


# --- R-PAIR-1 / R-PAIR-KVAL-4 ----------------------------------------------------------------


def test_r_pair_1_one_ubf_player_is_enough():
    pair = [player("1"), player("2", district="SBF-STH")]
    assert not el.is_out_of_district(pair)
    assert el.check_pair_entry(pair, Discipline.OPEN) == []


def test_r_pair_1_out_of_district_pair_enters_with_a_warning():
    pair = [player("1", district="STH"), player("2", district="VMD")]
    out = el.check_pair_entry(pair, Discipline.OPEN)
    assert el.is_out_of_district(pair)
    assert errors(out) == []
    assert clauses(warnings(out)) == ["R-PAIR-1"]
    assert warnings(out)[0].data["out_of_district"] is True


def test_r_pair_1_player_without_representation_club_counts_as_outside():
    pair = [player("1", district=None), player("2", district="")]
    assert el.is_out_of_district(pair)


def test_r_pair_1_a_pair_is_two_different_players():
    assert clauses(el.check_pair_entry([player("1")], Discipline.OPEN)) == ["R-PAIR-1"]
    same = el.check_pair_entry([player("1"), player("1")], Discipline.OPEN)
    assert clauses(same) == ["R-PAIR-1"] and same[0].is_error


def test_r_pair_kval_4_organiser_may_not_refuse_pair_with_ubf_player():
    pair = [player("1", district="STH"), player("2")]
    assert el.may_organiser_refuse(pair) is False


def test_r_pair_kval_4_out_of_district_pair_may_be_refused():
    pair = [player("1", district="STH"), player("2", district="STH")]
    assert el.may_organiser_refuse(pair) is True


# --- R-PAIR-3 --------------------------------------------------------------------------------


def test_r_pair_3_veteran_limit_year_is_inclusive():
    ok = [player("1", born=1957), player("2", born=1940)]
    assert el.check_discipline(ok, Discipline.VETERAN) == []
    young = [player("1", born=1957), player("2", born=1958)]
    out = el.check_discipline(young, Discipline.VETERAN)
    assert clauses(out) == ["R-PAIR-3"] and out[0].data["mid"] == "2"


def test_r_pair_3_veteran_limit_comes_from_season_rules():
    rules = replace(DEFAULT_RULES, veteran_born_on_or_before=1958)
    pair = [player("1", born=1958), player("2", born=1950)]
    assert el.check_discipline(pair, Discipline.VETERAN, rules=rules) == []
    assert el.check_discipline(pair, Discipline.VETERAN) != []


def test_r_pair_3_veteran_unknown_birth_year_asks_for_it():
    out = el.check_discipline([player("1", born=None), player("2", born=1950)], "veteran")
    assert clauses(out) == ["R-PAIR-3"]
    assert out[0].data["missing"] == "birth_year"
    assert "Födelseår saknas" in out[0].message_sv


def test_r_pair_3_dam_both_women():
    assert el.check_discipline([player("1", F), player("2", F)], Discipline.DAM) == []
    out = el.check_discipline([player("1", F), player("2", M)], Discipline.DAM)
    assert clauses(out) == ["R-PAIR-3"] and out[0].data["mid"] == "2"


def test_r_pair_3_mixed_one_woman_one_man():
    assert el.check_discipline([player("1", F), player("2", M)], Discipline.MIXED) == []
    assert clauses(el.check_discipline([player("1", M), player("2", M)], "mixed")) == ["R-PAIR-3"]
    assert clauses(el.check_discipline([player("1", F), player("2", F)], "mixed")) == ["R-PAIR-3"]


def test_r_pair_3_missing_gender_asks_for_it():
    out = el.check_discipline([player("1", None), player("2", F)], Discipline.DAM)
    assert [v.data["missing"] for v in out] == ["gender"]


def test_r_pair_3_open_takes_anyone_and_unknown_discipline_is_a_violation():
    anyone = [player("1", None, born=None), player("2", F, born=2005)]
    assert el.check_discipline(anyone, Discipline.OPEN) == []
    out = el.check_discipline(anyone, "bogus")
    assert clauses(out) == ["R-PAIR-3"] and out[0].is_error


# --- R-PAIR-KVAL-6 ---------------------------------------------------------------------------


def test_r_pair_kval_6_no_new_pair_at_second_session():
    assert el.check_session_entry("A", 1, set()) == []
    assert el.check_session_entry("A", 2, {"A", "B"}) == []
    out = el.check_session_entry("C", 2, {"A", "B"})
    assert clauses(out) == ["R-PAIR-KVAL-6"] and out[0].is_error
    assert "utom tävlan" in out[0].message_sv


def test_r_pair_kval_6_at_most_two_sessions():
    out = el.check_session_entry("A", 3, {"A"})
    assert clauses(out) == ["R-PAIR-KVAL-6"] and out[0].data["max_sessions"] == 2


# --- R-PAIR-KVAL-7 ---------------------------------------------------------------------------


def test_r_pair_kval_7_player_who_already_played_the_discipline_is_struck():
    earlier = {"2": [("H-STH-1", date(2016, 10, 5), "mixed", "STH")]}
    out = el.earlier_qualifier_conflicts(
        ["1", "2"], Discipline.MIXED, earlier, heat_id="H-UBF-3", heat_date=date(2016, 10, 20)
    )
    assert clauses(out) == ["R-PAIR-KVAL-7"]
    v = out[0]
    assert v.is_error and v.data["struck"] is True
    assert v.data["mid"] == "2" and v.data["earlier_heat_id"] == "H-STH-1"
    assert v.data["earlier_district"] == "STH"


def test_r_pair_kval_7_other_discipline_same_heat_and_later_heats_do_not_count():
    earlier = {
        "1": [
            HeatPlayed("H-O", date(2016, 10, 1), "open"),
            HeatPlayed("H-THIS", date(2016, 10, 20), "mixed"),
            HeatPlayed("H-LATER", date(2016, 11, 1), "mixed"),
        ]
    }
    out = el.earlier_qualifier_conflicts(
        ["1", "2"], "mixed", earlier, heat_id="H-THIS", heat_date=date(2016, 10, 20)
    )
    assert out == []


def test_r_pair_kval_7_check_pair_entry_includes_earlier_heats():
    pair = [player("1"), player("2")]
    earlier = {"1": [("H1", date(2017, 1, 10), "open", UBF)]}
    out = el.check_pair_entry(
        pair, "open", earlier_heats_played=earlier, heat_id="H2", heat_date=date(2017, 2, 1)
    )
    assert clauses(out) == ["R-PAIR-KVAL-7"]


def test_r_pair_kval_7_struck_pairs_marks_later_entries_only():
    entries = [
        QualifierEntry("e1", "H1", date(2016, 10, 3), "mixed", {"A", "B"}),
        QualifierEntry("e2", "H2", date(2016, 10, 10), "mixed", {"A", "C"}, "STH"),
        QualifierEntry("e3", "H3", date(2016, 10, 17), "open", {"A", "B"}),
        QualifierEntry("e4", "H4", date(2016, 10, 24), "mixed", {"C", "D"}),
        QualifierEntry("e5", "H5", date(2016, 10, 30), "mixed", {"B", "E"}),
    ]
    struck = el.struck_pairs(entries)
    # e2: A played H1 in Mixed; e3 is Open; e4: C's only earlier entry (e2) was struck, hors
    # concours, so it used up no qualifier; e5: B played H1.
    assert set(struck) == {"e2", "e5"}
    assert struck["e2"][0].data["mid"] == "A"
    assert struck["e2"][0].data["earlier_heat_id"] == "H1"
    assert struck["e5"][0].data["mid"] == "B"


def test_r_pair_kval_7_struck_pairs_sorts_by_date():
    late = QualifierEntry("late", "H2", date(2016, 11, 1), "open", ("A", "B"))
    early = QualifierEntry("early", "H1", date(2016, 10, 1), "open", ("A", "C"))
    assert set(el.struck_pairs([late, early])) == {"late"}


_entry = st.builds(
    QualifierEntry,
    entry_id=st.uuids().map(str),
    heat_id=st.sampled_from(["H1", "H2", "H3", "H4"]),
    date=st.dates(min_value=date(2016, 10, 1), max_value=date(2017, 3, 31)),
    discipline=st.sampled_from(["open", "mixed"]),
    mids=st.sets(st.sampled_from("ABCDEF"), min_size=2, max_size=2),
)


@given(st.lists(_entry, max_size=12))
def test_r_pair_kval_7_property_each_player_keeps_at_most_one_heat_per_discipline(entries):
    struck = el.struck_pairs(entries)
    heats = {}
    for e in entries:
        if e.entry_id in struck:
            continue
        for mid in e.mids:
            heats.setdefault((mid, e.discipline), set()).add(e.heat_id)
    assert all(len(h) == 1 for h in heats.values())
    # and the earliest entry of the season is never struck
    if entries:
        first = min(entries, key=lambda e: e.date)
        firsts = [e for e in entries if e.date == first.date]
        assert firsts[0].entry_id not in struck


# --- R-PAIR-RES-1..5 ---------------------------------------------------------------------------


def test_r_pair_res_1_notified_reserve_with_a_steady_regular_is_fine():
    sessions = [{"A", "B"}, {"A", "R"}]
    assert el.check_qualifier_reserve({"A", "B"}, sessions, notified_reserves={"R"}) == []


def test_r_pair_res_1_reserve_not_notified_is_flagged():
    out = el.check_qualifier_reserve({"A", "B"}, [{"A", "B"}, {"A", "R"}])
    assert clauses(out) == ["R-PAIR-RES-1"]
    assert out[0].severity == Severity.WARNING and out[0].data["mid"] == "R"


def test_r_pair_res_1_a_regular_must_play_every_session():
    sessions = [{"A", "R"}, {"B", "R"}]
    out = el.check_qualifier_reserve({"A", "B"}, sessions, notified_reserves={"R"})
    assert clauses(errors(out)) == ["R-PAIR-RES-1"]


def test_r_pair_res_2_final_reserve_must_not_have_played_a_qualifier_in_discipline():
    played = [("H9", date(2016, 10, 9), "open", UBF), ("H4", date(2016, 10, 4), "mixed", "STH")]
    out = el.check_final_reserve("R", Discipline.MIXED, played)
    assert clauses(out) == ["R-PAIR-RES-2"] and out[0].data["heat_id"] == "H4"
    assert el.check_final_reserve("R", Discipline.VETERAN, played) == []


def test_r_pair_res_3_regulars_of_two_pairs_never_play_together():
    regulars = {"A": "p1", "B": "p1", "C": "p2", "D": "p2"}
    out = el.check_regulars_together(["A", "C"], regulars)
    assert clauses(out) == ["R-PAIR-RES-3"] and out[0].data["pairs"] == ["p1", "p2"]
    assert el.check_regulars_together(["A", "B"], regulars) == []
    assert el.check_regulars_together(["A", "X"], regulars) == []  # X is a reserve


def test_r_pair_res_4_declared_partner_goes_on():
    choice = el.sm_partner_for("A", ["B", "C"], "C", "B")
    assert (choice.partner, choice.reason, choice.violations) == ("C", "declared", ())


def test_r_pair_res_4_without_declaration_the_dm_final_line_up_goes_on():
    choice = el.sm_partner_for("A", ["B", "C"], None, "B")
    assert (choice.partner, choice.reason) == ("B", "dm_final")
    assert "DM-finalen" in choice.reason_sv


def test_r_pair_res_4_invalid_or_late_declaration_is_set_aside():
    wrong = el.sm_partner_for("A", ["B", "C"], "Z", "B")
    assert wrong.partner == "B" and clauses(wrong.violations) == ["R-PAIR-RES-4"]
    late = el.sm_partner_for("A", ["B", "C"], "C", "B", declared_in_time=False)
    assert late.partner == "B" and clauses(late.violations) == ["R-PAIR-RES-4"]


def test_r_pair_res_4_single_partner_needs_no_declaration():
    choice = el.sm_partner_for("A", ["B", "B"], None, None)
    assert (choice.partner, choice.reason) == ("B", "only_partner")


# --- R-DIRECT-1 / R-DIRECT-2 -------------------------------------------------------------------

END = date(2017, 3, 31)


def test_r_direct_1_intact_registered_champions_qualify():
    assert el.check_direct_qualifier("open", {"A", "B"}, ["B", "A"], END, END) == []


def test_r_direct_1_dam_has_no_direct_qualifiers():
    out = el.check_direct_qualifier(Discipline.DAM, {"A", "B"}, {"A", "B"}, date(2016, 9, 1), END)
    assert clauses(out) == ["R-DIRECT-1"] and out[0].data["discipline"] == "dam"


def test_r_direct_1_broken_pair_or_late_registration_fails():
    broken = el.check_direct_qualifier("mixed", {"A", "B"}, {"A", "C"}, END, END)
    assert clauses(broken) == ["R-DIRECT-1"] and broken[0].data["entry"] == ["A", "C"]
    late = el.check_direct_qualifier("mixed", {"A", "B"}, {"A", "B"}, date(2017, 4, 1), END)
    assert clauses(late) == ["R-DIRECT-1"] and late[0].data["deadline"] == END
    missing = el.check_direct_qualifier("mixed", {"A", "B"}, {"A", "B"}, None, END)
    assert clauses(missing) == ["R-DIRECT-1"]


def test_r_direct_2_playing_with_another_partner_forfeits_the_place():
    entries = [
        QualifierEntry("e1", "H1", date(2017, 1, 10), "open", {"A", "X"}),
        QualifierEntry("e2", "H2", date(2017, 1, 12), "mixed", {"B", "Y"}),
    ]
    status = el.direct_place_status({"A", "B"}, "open", entries)
    assert status.forfeited and not status.played_together
    assert clauses(status.violations) == ["R-DIRECT-2"]
    assert status.violations[0].data["partner"] == ["X"]


def test_r_direct_2_playing_together_keeps_the_place():
    entries = [QualifierEntry("e1", "H1", date(2017, 1, 10), "open", {"A", "B"})]
    status = el.direct_place_status({"A", "B"}, Discipline.OPEN, entries)
    assert status.played_together and not status.forfeited and status.violations == ()


# --- R-TEAM-2 / R-TEAM-3 / R-TEAM-4 --------------------------------------------------------------


def roster(n, district=UBF, start=0):
    return [player(str(i), district=district) for i in range(start, start + n)]


def test_r_team_2_roster_size_four_to_six():
    assert el.check_roster(roster(4)) == []
    assert el.check_roster(roster(6)) == []
    assert clauses(el.check_roster(roster(3))) == ["R-TEAM-2"]
    too_many = el.check_roster(roster(7))
    assert clauses(too_many) == ["R-TEAM-2"] and too_many[0].data["size"] == 7


def test_r_team_2_duplicates_and_missing_club_refused():
    dup = roster(4) + [player("0")]
    assert [v.data.get("mid") for v in el.check_roster(dup)] == ["0"]
    no_club = roster(3) + [player("9", district=None)]
    out = el.check_roster(no_club)
    assert clauses(out) == ["R-TEAM-2"] and out[0].data["mid"] == "9"
    foreign = roster(3) + [player("9", district="NOR")]
    assert el.check_roster(foreign) == []
    assert clauses(el.check_roster(foreign, sbf_districts={UBF, "STH"})) == ["R-TEAM-2"]


def test_r_team_3_ubf_not_fewer_than_any_other_dfb():
    even = roster(2) + roster(2, "STH", start=10)
    assert el.check_district_balance(even) == []
    spread = roster(2) + roster(1, "STH", 10) + roster(1, "VMD", 20) + roster(1, "GBG", 30)
    assert el.check_district_balance(spread) == []


def test_r_team_3_needs_dispensation_when_another_dfb_outnumbers_ubf():
    team = roster(1) + roster(2, "STH", start=10) + roster(1, "VMD", start=20)
    out = el.check_district_balance(team)
    assert clauses(out) == ["R-TEAM-3"] and out[0].is_error
    assert out[0].data["largest_other"] == "STH" and out[0].data["ubf"] == 1
    assert el.check_district_balance(team, has_dispensation=True) == []
    assert "R-TEAM-3" in clauses(el.check_team_roster(team))
    assert "R-TEAM-3" not in clauses(el.check_team_roster(team, has_dispensation=True))


def test_r_team_4_fielding_a_player_from_outside_ubf_loses_the_dm_title():
    team = roster(4) + [player("9", district="STH")]
    assert el.team_competes_for_dm(team[:4]) is True
    assert el.team_competes_for_dm(team[:3] + [team[4]]) is False
    out = el.check_team_dm_status(team, fielded := team[1:])
    assert clauses(out) == ["R-TEAM-4"] and out[0].data["competes_for_dm"] is False
    assert fielded[-1].mid in out[0].data["mids"]


def test_r_team_4_bonus_looks_at_every_roster_member_even_one_who_never_played():
    team = roster(4) + [player("9", district="STH")]
    assert el.team_bonus_eligible(team, team[:4]) is False
    assert el.team_bonus_eligible(roster(5), roster(4)) is True
    out = el.check_team_dm_status(team, team[:4])
    assert out[0].data == {"competes_for_dm": True, "bonus_eligible": False, "mids": ["9"]}


# --- R-TEAM-5 / R-TEAM-RES-3 -----------------------------------------------------------------------


def test_r_team_5_extra_player_needs_dispensation_and_a_clean_record():
    six, seventh = roster(6), player("7")
    assert el.check_extra_players(six, [seventh], dispensations={"7"}) == []
    assert clauses(el.check_extra_players(six, [seventh])) == ["R-TEAM-5"]
    other = el.check_extra_players(six, [seventh], dispensations={"7"}, played_for_other_team={"7"})
    assert clauses(other) == ["R-TEAM-5"]


def test_r_team_5_extra_player_may_not_play_sm_and_eight_is_the_ceiling():
    six = roster(6)
    sm = el.check_extra_players(six, [player("7")], dispensations={"7"}, stage="sm_final")
    assert clauses(sm) == ["R-TEAM-5"] and sm[0].data["stage"] == "sm_final"
    nine = el.check_extra_players(six, roster(3, start=6), dispensations={"6", "7", "8"})
    assert clauses(nine) == ["R-TEAM-5"] and nine[0].data["total"] == 9


def test_r_team_res_3_seventh_player_without_dispensation_disqualifies():
    six = roster(6)
    out = el.check_fielded_extra_players(six, six[:3] + [player("7")])
    assert clauses(out) == ["R-TEAM-RES-3"] and out[0].data["disqualified"] is True
    assert el.check_fielded_extra_players(six, [player("7")], dispensations={"7"}) == []
    # a team of five that fields a new player has simply a sixth member: flagged, not DQ
    five = el.check_fielded_extra_players(roster(5), [player("7")])
    assert clauses(five) == ["R-TEAM-2"] and not five[0].is_error


# --- R-TEAM-DIRECT-1 -------------------------------------------------------------------------------


def test_r_team_direct_1_two_thirds_of_the_roster_rounded_up():
    assert el.team_direct_needed(6) == 4
    assert el.team_direct_needed(5) == 4  # ceil(10/3)
    assert el.team_direct_needed(4) == 3  # ceil(8/3)
    rules = replace(DEFAULT_RULES, team_direct_min_share_remaining=Fraction(1, 2))
    assert el.team_direct_needed(5, rules=rules) == 3


def test_r_team_direct_1_qualification_before_the_final():
    champs = ["A", "B", "C", "D", "E"]
    ok = el.check_team_direct_qualifier(champs, ["A", "B", "C", "D", "X"], END, END)
    assert ok == []
    few = el.check_team_direct_qualifier(champs, ["A", "B", "C", "X", "Y"], END, END)
    assert clauses(few) == ["R-TEAM-DIRECT-1"]
    assert few[0].data["needed"] == 4 and few[0].data["remaining"] == ["A", "B", "C"]
    late = el.check_team_direct_qualifier(champs, champs, date(2017, 4, 1), END)
    assert clauses(late) == ["R-TEAM-DIRECT-1"] and late[0].data["deadline"] == END


def test_r_team_direct_1_remaining_players_must_play_in_the_final():
    champs = ["A", "B", "C", "D", "E", "F"]
    halves = {"A": 2, "B": 1, "C": 4, "D": 1, "X": 6}
    assert el.check_team_direct_final_play(champs, halves) == []
    halves["D"] = 0
    out = el.check_team_direct_final_play(champs, halves)
    assert clauses(out) == ["R-TEAM-DIRECT-1"] and out[0].data["played"] == ["A", "B", "C"]


def test_r_team_direct_1_a_remaining_champion_who_played_no_half_is_a_warning():
    # 6 champions, 5 remain (A-E); ceil(2/3 × 6) = 4 needed. A-D played, E played no half:
    # the count holds (4 ≥ 4), so not an error, but TK is told that E did not play.
    champs = ["A", "B", "C", "D", "E", "F"]
    halves = {"A": 14, "B": 10, "C": 1, "D": 3, "E": 0}
    out = el.check_team_direct_final_play(
        champs, halves, remaining_mids=["A", "B", "C", "D", "E"], names={"E": "Eva Ek"}
    )
    assert [(v.clause, v.severity) for v in out] == [("R-TEAM-DIRECT-1", el.WARNING)]
    assert out[0].data["idle"] == ["E"]
    assert out[0].message_sv == (
        "1 av mästarlagets kvarvarande spelare spelade ingen halvlek i finalen (Eva Ek); "
        "4 gjorde det, minst 4 krävs."
    )
    # All five played: nothing to say.
    halves["E"] = 2
    assert el.check_team_direct_final_play(champs, halves, remaining_mids=list("ABCDE")) == []
    # Only 3 of them played: the error (the direct place does not hold), not the warning.
    halves["D"] = halves["E"] = 0
    out = el.check_team_direct_final_play(champs, halves, remaining_mids=list("ABCDE"))
    assert [(v.clause, v.severity) for v in out] == [("R-TEAM-DIRECT-1", el.ERROR)]


# --- R-TEAM-RES-1 / R-TEAM-RES-2 -----------------------------------------------------------------


def test_r_team_res_1_deadline_is_first_offence_plus_grace_days():
    assert el.unpaid_deadline(date(2017, 1, 20)) == date(2017, 2, 3)
    rules = replace(DEFAULT_RULES, unpaid_fee_grace_days=7)
    assert el.unpaid_deadline(date(2017, 1, 20), rules) == date(2017, 1, 27)


def test_r_team_res_1_deadline_day_itself_is_in_time():
    first = date(2017, 1, 20)
    assert el.unpaid_deadline_passed(first, date(2017, 2, 3)) is False
    assert el.unpaid_deadline_passed(first, date(2017, 2, 4)) is True
    late_fee = date(2017, 2, 4)
    assert el.unpaid_deadline_passed(first, date(2017, 3, 1), fee_received_on=late_fee) is True
    on_time = date(2017, 2, 3)
    assert el.unpaid_deadline_passed(first, date(2017, 3, 1), fee_received_on=on_time) is False


def test_r_team_res_1_unpaid_fielded_player_warning_then_disqualification():
    p = player("5", paid=False)
    first = date(2017, 1, 20)
    running = el.check_unpaid_fielded(p, first, date(2017, 1, 25), matches_played=2)
    assert clauses(running) == ["R-TEAM-RES-1"] and not running[0].is_error
    assert running[0].data["deadline"] == date(2017, 2, 3)
    assert running[0].data["penalty_vp"] == 2 * DEFAULT_RULES.unpaid_player_penalty_vp
    over = el.check_unpaid_fielded(p, first, date(2017, 2, 4))
    assert over[0].is_error and over[0].data["disqualified"] is True
    paid = el.check_unpaid_fielded(
        replace(p, membership_paid=True), first, date(2017, 3, 1), fee_received_on=date(2017, 2, 1)
    )
    assert not paid[0].is_error and paid[0].data["disqualified"] is False


def test_r_team_res_2_player_from_another_team_disqualifies():
    p = player("5")
    out = el.check_other_team_player(
        p,
        "T1",
        [("T9", "STH")],
        found_on=date(2017, 3, 1),
        semifinal_places_settled_on=None,
    )
    assert clauses(out) == ["R-TEAM-RES-2"] and out[0].is_error
    assert out[0].data["other_team"] == "T9" and out[0].data["counts_in_sm_quota"] is False
    assert "kvot" in out[0].message_sv
    assert el.check_other_team_player(p, "T1", [("T1", UBF)]) == []


def test_r_team_res_2_found_after_semifinal_places_settled_still_counts_in_quota():
    out = el.check_other_team_player(
        player("5"),
        "T1",
        [("T2", UBF)],
        found_on=date(2017, 4, 10),
        semifinal_places_settled_on=date(2017, 4, 2),
    )
    assert out[0].data["counts_in_sm_quota"] is True and out[0].data["disqualified"] is True
    assert el.counts_in_sm_semifinal_quota(date(2017, 4, 1), date(2017, 4, 2)) is False


# --- R-TEAM-RES-5 ----------------------------------------------------------------------------------


def test_r_team_res_5_protest_on_the_deadline_day_is_allowed():
    assert el.check_protest(date(2017, 3, 31), "sm_semifinal") == []
    assert el.check_protest(date(2017, 4, 30), "sm_final") == []


def test_r_team_res_5_later_protest_is_refused():
    assert clauses(el.check_protest(date(2017, 4, 1), "sm_semifinal")) == ["R-TEAM-RES-5"]
    assert el.check_protest(date(2017, 4, 1), "sm_final") == []
    out = el.check_protest(date(2017, 5, 1), "sm_final")
    assert clauses(out) == ["R-TEAM-RES-5"] and out[0].data["deadline"] == date(2017, 4, 30)


def test_r_team_res_5_deadlines_are_season_configuration_and_bad_kind_is_a_violation():
    rules = SeasonRules.from_mapping({"protest_deadline_sm_semifinal": "2018-03-31"})
    assert el.check_protest(date(2017, 4, 15), "sm_semifinal", rules) == []
    out = el.check_protest(date(2017, 1, 1), "quarterfinal")
    assert clauses(out) == ["R-TEAM-RES-5"] and out[0].is_error


def test_r_pair_kval_7_malformed_rows_are_skipped_not_raised_on():
    earlier = {"1": [("H1", date(2017, 1, 1)), None, ("H2", date(2017, 1, 2), "open", UBF)]}
    out = el.earlier_qualifier_conflicts(["1"], "open", earlier, heat_id="H3")
    assert [v.data["earlier_heat_id"] for v in out] == ["H2"]
    assert clauses(el.earlier_qualifier_conflicts(["1"], "bridge", earlier)) == ["R-PAIR-KVAL-7"]


def test_r_team_4_fielded_players_counts_line_ups_and_the_roster_where_none_is_recorded():
    fielded = el.fielded_players(
        ["m1", "m2"], {"m1": {"a", "b", "c", "d"}}, ["a", "b", "c", "d", "x"]
    )
    # m2 was played without a line-up: the whole roster (x included) counts, preliminarily
    assert fielded.players == frozenset("abcdx") and fielded.without_lineup == ("m2",)
    assert fielded.provisional
    complete = el.fielded_players(["m1"], {"m1": {"a", "b", "c", "d"}}, ["a", "b", "c", "d", "x"])
    assert complete.players == frozenset("abcd") and not complete.provisional
    # a line-up recorded for a match not yet marked played counts too
    early = el.fielded_players([], {"m3": {"x", "a"}}, ["a", "b", "c", "d", "x"])
    assert early.players == frozenset({"a", "x"}) and early.without_lineup == ()
