"""Walk-overs, unpaid players, disqualification (ubf.rules.sanctions)."""

from dataclasses import replace
from decimal import Decimal

from ubf.rules.masterpoints import team_match_masterpoints
from ubf.rules.sanctions import (
    Match,
    apply_disqualification,
    apply_wo_exclusions,
    average_vp,
    can_award_wo,
    unpaid_penalties,
    walkover_match,
    wo_award_refusal,
    wo_award_score,
    wo_exclusions,
    wo_score,
)
from ubf.rules.season import DEFAULT_RULES

D = Decimal


def m(home, away, vp_home, imps_home=30, imps_away=20, boards=24, **kw):
    vp_home = D(vp_home)
    return Match(home, away, imps_home, imps_away, vp_home, D("20.00") - vp_home, boards, **kw)


# --- R-TEAM-WO-2 ---------------------------------------------------------------------------


def test_r_team_wo_2_default_score_and_rule_text():
    score = wo_score()
    assert (score.non_offender_vp, score.offender_vp) == (D("12.00"), D("0.00"))
    assert tuple(score) == (D("12.00"), D("0.00"))
    assert "12.00" in score.rule_sv and "SBF" in score.rule_sv
    assert not score.used_average


def test_r_team_wo_2_average_if_higher_only_when_configured():
    assert wo_score(DEFAULT_RULES, D("15.50")).non_offender_vp == D("12.00")
    rules = replace(DEFAULT_RULES, wo_winner_average_if_higher=True)
    higher = wo_score(rules, D("15.504"))
    assert higher.non_offender_vp == D("15.50") and higher.used_average
    assert "15.50" in higher.rule_sv
    lower = wo_score(rules, D("9.00"))
    assert lower.non_offender_vp == D("12.00") and not lower.used_average
    custom = replace(DEFAULT_RULES, wo_winner_vp=D("18"), wo_loser_vp=D("-3"))
    assert tuple(wo_score(custom)) == (D("18.00"), D("-3.00"))


def test_r_team_wo_2_award_score_averages_the_non_offenders_other_matches():
    # A played 16.40 against C and 13.60 against D; its W.O. against B in between.
    # Average (16.40 + 13.60) / 2 = 15.00 > 12.00; B's own matches do not count for A.
    others = [m("A", "C", "16.40"), m("D", "A", "6.40"), m("B", "C", "19.00")]
    rules = replace(DEFAULT_RULES, wo_winner_average_if_higher=True)
    score = wo_award_score(rules, others, "A")
    assert tuple(score) == (D("15.00"), D("0.00")) and score.used_average
    # off: the fixed 12.00 whatever A played
    assert tuple(wo_award_score(DEFAULT_RULES, others, "A")) == (D("12.00"), D("0.00"))
    # on, but no other match played yet: the fixed 12.00
    assert tuple(wo_award_score(rules, [], "A")) == (D("12.00"), D("0.00"))
    # an earlier W.O. is left out of the average: only 16.40 counts
    earlier = walkover_match(m("A", "E", "10.00"), offender="E")
    assert wo_award_score(rules, [others[0], earlier], "A").non_offender_vp == D("16.40")


def test_r_team_wo_2_walkover_match_scores_the_right_side_and_gives_no_masterpoints():
    wo = walkover_match(m("A", "B", "10.00"), offender="A")
    assert (wo.vp_home, wo.vp_away) == (D("0.00"), D("12.00"))
    assert (wo.imps_home, wo.imps_away) == (0, 0) and wo.walkover_by == "A"
    assert wo.wo_score is not None
    mp = team_match_masterpoints(wo.vp_home, wo.vp_away, wo.boards, walkover=wo.is_walkover)
    assert (mp.home, mp.away) == (0, 0)


# --- R-TEAM-WO-1 ---------------------------------------------------------------------------


def test_r_team_wo_1_only_tk_awards_a_walkover():
    assert can_award_wo("tk") and can_award_wo("TK_CHAIR")
    for role in ("heat_responsible", "captain", "club_admin", None, ""):
        assert not can_award_wo(role)
    refusal = wo_award_refusal("captain")
    assert refusal.clause == "R-TEAM-WO-1" and refusal.is_error
    assert wo_award_refusal("tk") is None


# --- R-TEAM-WO-3 ---------------------------------------------------------------------------


def _stage():
    return [
        m("A", "B", "15.00"),
        m("C", "D", "11.00"),
        walkover_match(m("A", "C", "0"), offender="A"),
        m("B", "D", "9.00"),
        walkover_match(m("D", "A", "0"), offender="A"),
        m("B", "C", "14.00"),
    ]


def test_r_team_wo_3_one_walkover_is_not_an_exclusion():
    matches = _stage()[:4]
    assert wo_exclusions(matches) == {}
    assert apply_wo_exclusions(matches).matches == tuple(matches)


def test_r_team_wo_3_two_walkovers_exclude_the_team_and_strike_its_results():
    result = apply_wo_exclusions(_stage())
    assert list(result.excluded) == ["A"]
    assert "R-TEAM-WO-3" in result.excluded["A"]
    a_matches = [x for x in result.matches if x.involves("A")]
    assert all(x.walkover_by == "A" for x in a_matches)
    # The match A won 15–5 against B is now B's W.O. win: 12.00 to B.
    ab = result.matches[0]
    assert ab.struck and (ab.vp_home, ab.vp_away) == (D("0.00"), D("12.00"))
    # Matches not involving A are untouched.
    assert result.matches[1] == _stage()[1]
    # The played A–B match still gives masterpoints by its real result.
    assert _stage()[0] in result.masterpoint_matches
    assert all(not x.is_walkover for x in result.masterpoint_matches)


# --- R-TEAM-RES-4 --------------------------------------------------------------------------


def test_r_team_res_4_disqualification_turns_results_into_walkovers():
    stage = [m("A", "B", "15.00"), m("C", "A", "4.00"), m("B", "C", "10.00")]
    result = apply_disqualification(stage, "A")
    ab, ca, bc = result.matches
    assert (ab.vp_home, ab.vp_away) == (D("0.00"), D("12.00"))
    assert (ca.vp_home, ca.vp_away) == (D("12.00"), D("0.00"))
    assert ab.struck and ca.struck and ab.walkover_by == ca.walkover_by == "A"
    assert bc == stage[2]
    assert result.excluded == {"A": "R-TEAM-RES-4: disqualified"}
    # Masterpoints for matches played keep the actual results: A won 15–5 against B.
    assert result.masterpoint_matches == tuple(stage)
    mp = team_match_masterpoints(stage[0].vp_home, stage[0].vp_away, stage[0].boards)
    assert mp.home == 24
    # The input was not changed.
    assert stage[0].vp_home == D("15.00")


def test_r_team_res_4_with_average_if_higher():
    rules = replace(DEFAULT_RULES, wo_winner_average_if_higher=True)
    stage = [m("A", "B", "5.00"), m("B", "C", "17.00"), m("B", "D", "15.00"), m("C", "A", "9.0")]
    result = apply_disqualification(stage, "A", rules)
    assert average_vp(stage, "B", leave_out={"A"}) == D("16.00")
    assert result.matches[0].vp_away == D("16.00")
    assert result.matches[0].wo_score.used_average
    # C's other match is a 3.00 loss: 12.00 is higher.
    assert result.matches[3].vp_home == D("12.00")


# --- R-TEAM-RES-1 --------------------------------------------------------------------------


def test_r_team_res_1_five_vp_per_match_with_an_unpaid_player():
    m1, m2, m3 = m("A", "B", "10"), m("A", "C", "10"), m("B", "C", "10")
    lineups = [
        (m1, {"A": {"u1": 2, "a2": 2}, "B": {"b1": 2}}),
        (m2, {"A": {"u1": 1, "u2": 1}, "C": ["c1", "u3"]}),
        (m3, {"B": {"u1": 0}, "C": {"c1": 2}}),  # u1 listed but played no half
    ]
    result = unpaid_penalties(lineups, {"u1", "u2", "u3"})
    # A: two matches (once per match, even with two unpaid players); C: one match.
    assert result.penalties == {"A": D("10"), "C": D("5")}
    assert [(team, players) for _, team, players in result.offences] == [
        ("A", ("u1",)),
        ("A", ("u1", "u2")),
        ("C", ("u3",)),
    ]
