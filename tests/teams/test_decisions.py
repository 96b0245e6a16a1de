"""TK decisions in DM Lag: dispensations, W.O., penalties, disqualification, protests and
rulings (R-GEN-3, R-TEAM-3, R-TEAM-5, R-TEAM-WO-1..3, R-TEAM-RES-1..5, R-RULING-1..3).

The decisions that change the standings (a W.O. awarded or revoked, an exclusion, a penalty, a
disqualification) run the real recompute on commit (the ``decide`` fixture: in-process, no
mock) and the tests read the heat's standings it wrote. VP from the WBF 20-0 scale's known
values for 16 boards (R-VP-2, SPEC): margin 20 → 15.00–5.00, 30 → 16.73–3.27. Rulings change no
standings (nothing of them is read by the recompute)."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.models import Decision, District, Membership
from clubs.services.base import ServiceError
from results.models import StandingSnapshot
from teams.models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    Ruling,
    Team,
    WalkOver,
)
from teams.services import decisions
from tests.factories import (
    ClubFactory,
    MatchFactory,
    TeamFactory,
    TeamHeatFactory,
    member,
    users_by_role,
)

pytestmark = [pytest.mark.django_db]


@pytest.fixture
def heat():
    return TeamHeatFactory()


def make_teams(heat, n, players=6):
    return [TeamFactory(heat=heat, players=players) for _ in range(n)]


def standings(heat) -> dict[str, dict]:
    """The heat's standings the recompute wrote, by team name."""
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    return {row["name"]: row for row in snap.data}


def vp(heat) -> dict[str, str]:
    return {name: row["vp"] for name, row in standings(heat).items()}


def counts():
    return {
        "decisions": Decision.objects.count(),
        "roster": RosterEntry.objects.count(),
        "walkovers": WalkOver.objects.filter(status="granted").count(),
        "penalties": Penalty.objects.count(),
        "rulings": Ruling.objects.count(),
    }


def assert_decision(action, obj, user, reason, clause):
    d = Decision.objects.get(action=action, object_id=obj.pk)
    assert d.object_type == obj._meta.label_lower
    assert d.decided_by == user
    assert d.decided_at is not None
    assert d.reason == reason
    assert d.clause == clause
    return d


def lineup(match, team, players, halves=(1, 2)):
    for p in players:
        for h in halves:
            Lineup.objects.create(match=match, team=team, player=p, half=h)


# ---------------------------------------------------------------------------------------------
# Dispensations
# ---------------------------------------------------------------------------------------------


def extra_request(team, player=None, occasion_date=date(2016, 11, 5)):
    player = player or member(season=team.competition.season)
    return Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER,
        team=team,
        player=player,
        occasion="Kval omgång 1",
        occasion_date=occasion_date,
    )


def test_r_team_5_r_gen_3_grant_extra_player_adds_roster_entry_and_records(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team)
    with clock.frozen("2016-11-01 10:00") as now:
        decisions.decide_dispensation(tk, disp, True, "Två spelare sjuka")
    disp.refresh_from_db()
    assert disp.status == "granted"
    assert disp.decided_by == tk and disp.decided_at == now
    assert disp.reason == "Två spelare sjuka"
    assert RosterEntry.objects.get(team=team, player=disp.player).is_extra
    d = assert_decision("teams.dispensation.granted", disp, tk, "Två spelare sjuka", "R-TEAM-5")
    assert d.data["mid"] == disp.player.mid


def test_r_team_5_second_occasion_keeps_the_one_roster_entry(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    first = extra_request(team, occasion_date=date(2016, 11, 5))
    second = extra_request(team, player=first.player, occasion_date=date(2016, 11, 6))
    with clock.frozen("2016-11-01"):
        decisions.decide_dispensation(tk, first, True, "Sjukdom")
        decisions.decide_dispensation(tk, second, True, "Sjukdom dag 2")
    assert RosterEntry.objects.filter(team=team, player=first.player).count() == 1
    assert Decision.objects.filter(action="teams.dispensation.granted").count() == 2


def test_r_team_5_refused_if_player_is_on_another_team(heat, tk):
    team, other = make_teams(heat, 2)
    player = other.roster.first().player
    disp = extra_request(team, player=player)
    before = counts()
    with clock.frozen("2016-11-01"), pytest.raises(ServiceError) as exc:
        decisions.decide_dispensation(tk, disp, True, "Behövs")
    assert "R-TEAM-5" in str(exc.value)
    assert other.name in str(exc.value)
    disp.refresh_from_db()
    assert disp.status == "requested" and disp.decided_by is None
    assert counts() == before


def test_r_team_5_refused_if_player_played_for_a_team_in_another_district(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team)
    ExternalTeamPlay.objects.create(
        player=disp.player,
        season=team.competition.season,
        district="SBDF",
        team_name="Stockholmslaget",
        played_on=date(2016, 10, 20),
    )
    before = counts()
    with clock.frozen("2016-11-01"), pytest.raises(ServiceError) as exc:
        decisions.decide_dispensation(tk, disp, True, "Behövs")
    assert "R-TEAM-5" in str(exc.value) and "Stockholmslaget" in str(exc.value)
    assert counts() == before


def test_r_team_5_refused_beyond_eight_players(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    with clock.frozen("2016-11-01"):
        for _ in range(2):
            decisions.decide_dispensation(tk, extra_request(team), True, "ok")
        ninth = extra_request(team)
        before = counts()
        with pytest.raises(ServiceError) as exc:
            decisions.decide_dispensation(tk, ninth, True, "en till")
    assert "R-TEAM-5" in str(exc.value) and "8" in str(exc.value)
    assert counts() == before
    assert team.roster.count() == 8


def test_r_team_5_refused_after_the_occasion(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team, occasion_date=date(2016, 11, 5))
    with clock.frozen("2016-11-07"), pytest.raises(ServiceError) as exc:
        decisions.decide_dispensation(tk, disp, True, "efteråt")
    assert "R-TEAM-5" in str(exc.value)
    assert not RosterEntry.objects.filter(player=disp.player).exists()


def test_r_gen_3_reject_records_and_adds_nobody(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team)
    with clock.frozen("2016-11-01"):
        decisions.decide_dispensation(tk, disp, False, "Inget skäl angivet")
    disp.refresh_from_db()
    assert disp.status == "rejected" and disp.decided_by == tk
    assert not RosterEntry.objects.filter(player=disp.player).exists()
    assert_decision("teams.dispensation.rejected", disp, tk, "Inget skäl angivet", "R-TEAM-5")


def test_r_gen_3_a_decision_needs_a_reason_and_is_taken_once(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team)
    before = counts()
    with clock.frozen("2016-11-01"):
        with pytest.raises(ServiceError) as exc:
            decisions.decide_dispensation(tk, disp, True, "  ")
        assert "R-GEN-3" in str(exc.value)
        assert counts() == before
        decisions.decide_dispensation(tk, disp, True, "ok")
        with pytest.raises(ServiceError) as exc:
            decisions.decide_dispensation(tk, disp, False, "ångrar")
    assert "R-GEN-3" in str(exc.value)
    disp.refresh_from_db()
    assert disp.status == "granted"


def test_r_team_3_district_balance_granted_before_start_only(heat, tk):
    other = District.objects.create(code="SBDF", name="Stockholms BF")
    away_club = ClubFactory(district=other)
    team = TeamFactory(heat=heat)
    season = team.competition.season
    RosterEntry.objects.create(team=team, player=team.captain)
    for _ in range(3):
        RosterEntry.objects.create(team=team, player=member(season=season, club=away_club))
    disp = Dispensation.objects.create(kind=Dispensation.Kind.DISTRICT_BALANCE, team=team)
    decisions.decide_dispensation(tk, disp, True, "Nystartat lag")
    d = assert_decision("teams.dispensation.granted", disp, tk, "Nystartat lag", "R-TEAM-3")
    assert d.data["district_counts"] == {"UBF": 1, "SBDF": 3}

    late_team = TeamFactory(heat=heat, players=4)
    MatchFactory(home=late_team, status=Match.Status.PLAYED)
    late = Dispensation.objects.create(kind=Dispensation.Kind.DISTRICT_BALANCE, team=late_team)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.decide_dispensation(tk, late, True, "för sent")
    assert "R-TEAM-3" in str(exc.value)
    assert counts() == before
    late.refresh_from_db()
    assert late.status == "requested"


# ---------------------------------------------------------------------------------------------
# W.O.
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["heat_responsible", "captain", "club_official", "anonymous"])
def test_r_team_wo_1_only_tk_awards_a_walkover(heat, role):
    match = MatchFactory(home=TeamFactory(heat=heat))
    users = users_by_role(team=match.home)
    before = counts()
    with pytest.raises(PermissionDenied) as exc:
        decisions.award_walkover(users[role], match, match.away, reason="kom inte")
    assert "R-TEAM-WO-1" in str(exc.value)
    assert counts() == before
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_r_team_wo_2_walkover_scored_by_season_rule_without_masterpoints(heat, tk, decide):
    match = MatchFactory(home=TeamFactory(heat=heat))
    with clock.frozen("2016-11-05 18:00") as now:
        wo = decide(decisions.award_walkover, tk, match, match.away, reason="Laget kom inte")
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER
    assert (match.vp_home, match.vp_away) == (Decimal("12.00"), Decimal("0.00"))
    assert "12.00" in wo.rule_text and "SBF" in wo.rule_text
    assert wo.status == "granted" and wo.decided_by == tk and wo.decided_at == now
    d = assert_decision("teams.walkover.awarded", wo, tk, "Laget kom inte", "R-TEAM-WO-1")
    assert d.data["masterpoints"] == 0 and d.data["score_clause"] == "R-TEAM-WO-2"
    # the standings: 12.00–0.00 (the 2016-2017 default), no masterpoints for a W.O.
    rows = standings(heat)
    home, away = rows[match.home.name], rows[match.away.name]
    assert (home["vp"], away["vp"]) == ("12.00", "0.00")
    assert (home["masterpoints"], away["masterpoints"]) == ("0.00", "0.00")
    assert home["rank"] == 1


def test_r_team_wo_2_score_follows_season_configuration(heat, tk):
    home = TeamFactory(heat=heat)
    season = home.competition.season
    season.wo_winner_vp = Decimal("15.00")
    season.wo_loser_vp = Decimal("2.00")
    season.save()
    match = MatchFactory(home=home)
    wo = decisions.award_walkover(tk, match, match.home, reason="Lämnade")
    match.refresh_from_db()
    assert (match.vp_home, match.vp_away) == (Decimal("2.00"), Decimal("15.00"))
    assert "15.00" in wo.rule_text


def test_r_team_wo_2_average_if_higher(heat, tk):
    a, b, c = make_teams(heat, 3, players=0)
    season = a.competition.season
    season.wo_winner_average_if_higher = True
    season.save()
    MatchFactory(home=a, away=c, status="played", vp_home=Decimal("16.40"), vp_away=Decimal("3.60"))
    match = MatchFactory(home=a, away=b, round=2)
    wo = decisions.award_walkover(tk, match, b, reason="W.O.")
    match.refresh_from_db()
    assert match.vp_home == Decimal("16.40")
    assert "16.40" in wo.rule_text


def test_r_team_wo_3_second_walkover_in_stage_excludes_the_team(heat, tk, decide):
    a, b, c = make_teams(heat, 3, players=0)
    m1 = MatchFactory(home=a, away=b, round=1)
    m2 = MatchFactory(home=c, away=a, round=2)
    MatchFactory(home=b, away=c, round=3, status="played", imps_home=20, imps_away=0)
    decide(decisions.award_walkover, tk, m1, a, reason="Uteblev")
    a.refresh_from_db()
    assert a.status == Team.Status.ENTERED
    # one W.O.: B 12.00 + 15.00 = 27.00, C 5.00, A 0.00
    assert vp(heat) == {b.name: "27.00", c.name: "5.00", a.name: "0.00"}
    decide(decisions.award_walkover, tk, m2, a, reason="Uteblev igen")
    a.refresh_from_db()
    assert a.status == Team.Status.EXCLUDED
    assert "R-TEAM-WO-3" in a.status_reason
    d = assert_decision("teams.team.excluded", a, tk, a.status_reason, "R-TEAM-WO-3")
    assert d.data["walkovers"] == 2
    # excluded: its matches are W.O.s for B and C (12.00 each), B–C as played:
    # B 12.00 + 15.00 = 27.00, C 12.00 + 5.00 = 17.00; A marked and out of the DM order
    rows = standings(heat)
    assert {n: r["vp"] for n, r in rows.items() if n != a.name} == {
        b.name: "27.00",
        c.name: "17.00",
    }
    assert rows[a.name]["status_label"] == "uteslutet" and rows[a.name]["dm_rank"] is None


def test_r_team_wo_3_walkovers_in_different_stages_do_not_exclude(heat, tk):
    a, b = make_teams(heat, 2, players=0)
    kval = MatchFactory(home=a, away=b)
    final = MatchFactory(home=a, away=b, stage="final", heat=None)
    decisions.award_walkover(tk, kval, a, reason="Uteblev")
    decisions.award_walkover(tk, final, a, reason="Uteblev i finalen")
    a.refresh_from_db()
    assert a.status == Team.Status.ENTERED


def test_r_team_wo_1_revoke_restores_match_and_lifts_exclusion(heat, tk, decide):
    a, b, c = make_teams(heat, 3, players=0)
    m1 = MatchFactory(home=a, away=b, round=1)
    m2 = MatchFactory(
        home=c,
        away=a,
        round=2,
        status="played",
        imps_home=Decimal("30"),
        imps_away=Decimal("10"),
        vp_home=Decimal("15.88"),
        vp_away=Decimal("4.12"),
    )
    decide(decisions.award_walkover, tk, m1, a, reason="Uteblev")
    wo2 = decide(decisions.award_walkover, tk, m2, a, reason="Lämnade matchen")
    assert standings(heat)[a.name]["status_label"] == "uteslutet"
    decide(decisions.revoke_walkover, tk, wo2, reason="Felregistrerat, matchen spelades")
    m2.refresh_from_db()
    a.refresh_from_db()
    wo2.refresh_from_db()
    assert m2.status == "played" and m2.vp_home == Decimal("15.88")
    assert wo2.status == "rejected"
    assert a.status == Team.Status.ENTERED
    assert Decision.objects.filter(action="teams.team.exclusion_lifted", object_id=a.pk).exists()
    assert_decision(
        "teams.walkover.revoked", wo2, tk, "Felregistrerat, matchen spelades", "R-TEAM-WO-1"
    )
    # the standings again: B 12.00 for the W.O. still in force; C–A as played, 30–10 on 16
    # boards (margin 20): C 15.00, A 5.00; A no longer excluded
    rows = standings(heat)
    assert {n: r["vp"] for n, r in rows.items()} == {
        b.name: "12.00",
        c.name: "15.00",
        a.name: "5.00",
    }
    assert rows[a.name]["status_label"] == ""


def test_r_team_wo_1_refusals_write_nothing(heat, tk):
    match = MatchFactory(home=TeamFactory(heat=heat))
    stranger = TeamFactory(heat=heat)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.award_walkover(tk, match, stranger, reason="?")
    assert "R-TEAM-WO-1" in str(exc.value)
    assert counts() == before
    decisions.award_walkover(tk, match, match.home, reason="Uteblev")
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.award_walkover(tk, match, match.away, reason="igen")
    assert "R-TEAM-WO-1" in str(exc.value)
    assert counts() == before


# ---------------------------------------------------------------------------------------------
# Penalties and disqualification
# ---------------------------------------------------------------------------------------------


def unpaid_setup(heat, played_on=date(2016, 11, 5)):
    team = TeamFactory(heat=heat, players=4)
    season = team.competition.season
    unpaid = member(season=season, paid=False)
    RosterEntry.objects.create(team=team, player=unpaid)
    match = MatchFactory(home=team, status="played", played_on=played_on)
    players = [e.player for e in team.roster.all()][:3] + [unpaid]
    lineup(match, team, players)
    return team, match, unpaid


def test_r_team_res_1_penalty_five_vp_per_match_with_unpaid_player(heat, tk, decide):
    team, match, unpaid = unpaid_setup(heat)
    Match.objects.filter(pk=match.pk).update(imps_home=Decimal(20), imps_away=Decimal(0))
    with clock.frozen("2016-11-06 09:00") as now:
        penalty = decide(decisions.impose_penalty, tk, team, match, reason="Obetald spelare")
    assert penalty.vp == Decimal("5") and penalty.clause == "R-TEAM-RES-1"
    assert penalty.status == "granted" and penalty.decided_by == tk and penalty.decided_at == now
    assert_decision("teams.penalty.imposed", penalty, tk, "Obetald spelare", "R-TEAM-RES-1")
    # 20–0 on 16 boards: 15.00–5.00; minus 5 VP after the conversion (R-VP-4): 10.00, and the
    # opponent keeps its 5.00 (a penalty takes from the offender only)
    rows = standings(heat)
    assert (rows[team.name]["vp"], rows[team.name]["penalty"]) == ("10.00", "5.00")
    assert rows[match.away.name]["vp"] == "5.00"

    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.impose_penalty(tk, team, match, reason="igen")
    assert "R-TEAM-RES-1" in str(exc.value)
    assert counts() == before


def test_r_team_res_1_penalty_needs_an_unpaid_player_in_the_lineup(heat, tk):
    team = TeamFactory(heat=heat, players=4)
    match = MatchFactory(home=team, status="played", played_on=date(2016, 11, 5))
    lineup(match, team, [e.player for e in team.roster.all()])
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.impose_penalty(tk, team, match, reason="?")
    assert "R-TEAM-RES-1" in str(exc.value)
    assert counts() == before


def test_r_team_res_1_paid_after_the_match_still_counts_as_unpaid(heat, tk):
    team, match, unpaid = unpaid_setup(heat)
    Membership.objects.filter(player=unpaid).update(paid_on=date(2016, 11, 8))
    penalty = decisions.impose_penalty(tk, team, match, vp=Decimal("3"), reason="Betalt för sent")
    assert penalty.vp == Decimal("3")


def test_r_team_res_1_disqualification_only_after_fourteen_days(heat, tk, decide):
    team, match, unpaid = unpaid_setup(heat, played_on=date(2016, 11, 5))
    # the team won 30–0 on 16 boards: 16.73–3.27 (R-VP-2)
    Match.objects.filter(pk=match.pk).update(imps_home=Decimal(30), imps_away=Decimal(0))
    before = counts()
    with clock.frozen("2016-11-19"), pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-1", reason="Obetalt")
    assert "R-TEAM-RES-1" in str(exc.value) and "2016-11-19" in str(exc.value)
    assert counts() == before
    team.refresh_from_db()
    assert team.status == Team.Status.ENTERED

    with clock.frozen("2016-11-20"):
        decide(
            decisions.disqualify_team,
            tk,
            team,
            clause="R-TEAM-RES-1",
            reason="Obetalt efter 14 dagar",
        )
    team.refresh_from_db()
    assert team.status == Team.Status.DISQUALIFIED
    d = assert_decision(
        "teams.team.disqualified", team, tk, "Obetalt efter 14 dagar", "R-TEAM-RES-1"
    )
    assert d.data["mids"] == [unpaid.mid]
    # R-TEAM-RES-4: its result is struck and the opponent is deemed to have won by W.O.
    # (12.00, R-TEAM-WO-2) instead of losing 3.27; the team is out of the DM order
    rows = standings(heat)
    assert rows[match.away.name]["vp"] == "12.00"
    assert rows[team.name]["status_label"] == "diskvalificerat"
    assert rows[team.name]["dm_rank"] is None


def test_r_team_res_1_paid_within_fourteen_days_is_no_disqualification(heat, tk):
    team, match, unpaid = unpaid_setup(heat, played_on=date(2016, 11, 5))
    Membership.objects.filter(player=unpaid).update(paid_on=date(2016, 11, 12))
    with clock.frozen("2016-12-01"), pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-1", reason="?")
    assert "R-TEAM-RES-1" in str(exc.value)


def test_r_team_res_2_player_from_another_team_disqualifies(heat, tk):
    team, other = make_teams(heat, 2, players=4)
    moved = other.roster.last().player
    m_other = MatchFactory(home=other, status="played", played_on=date(2016, 11, 5))
    lineup(m_other, other, [e.player for e in other.roster.all()])
    m_team = MatchFactory(home=team, round=2, status="played", played_on=date(2016, 11, 6))
    lineup(m_team, team, [e.player for e in team.roster.all()][:3] + [moved])
    with clock.frozen("2016-11-10"):
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-2", reason="Spelat för två lag")
    team.refresh_from_db()
    assert team.status == Team.Status.DISQUALIFIED
    d = assert_decision("teams.team.disqualified", team, tk, "Spelat för två lag", "R-TEAM-RES-2")
    # Found before the semifinal places were settled: not in UBF's SM semifinal quota.
    assert d.data["counts_in_sm_quota"] is False
    assert d.data["fees_refunded"] is False


def test_r_team_res_2_nothing_found_is_refused(heat, tk):
    team = TeamFactory(heat=heat, players=4)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-2", reason="misstanke")
    assert "R-TEAM-RES-2" in str(exc.value)
    assert counts() == before


def test_r_team_res_3_seventh_player_without_dispensation(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    seventh = member(season=team.competition.season)
    match = MatchFactory(home=team, status="played", played_on=date(2016, 11, 5))
    lineup(match, team, [e.player for e in team.roster.all()][:3] + [seventh])
    with clock.frozen("2016-11-06"):
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-3", reason="Sjunde spelare")
    team.refresh_from_db()
    assert team.status == Team.Status.DISQUALIFIED
    assert "R-TEAM-RES-3" in team.status_reason


def test_r_team_res_3_dispensation_for_the_occasion_covers_the_player(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team, occasion_date=date(2016, 11, 5))
    with clock.frozen("2016-11-01"):
        decisions.decide_dispensation(tk, disp, True, "Sjukdom")
    match = MatchFactory(home=team, status="played", played_on=date(2016, 11, 5))
    lineup(match, team, [e.player for e in team.roster.all()][:3] + [disp.player])
    before = counts()
    with clock.frozen("2016-11-06"), pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-3", reason="?")
    assert "R-TEAM-RES-3" in str(exc.value)
    assert counts() == before
    # Another day is another occasion: the same player then needs a new dispensation.
    match2 = MatchFactory(home=team, round=2, status="played", played_on=date(2016, 11, 6))
    lineup(match2, team, [e.player for e in team.roster.all()][:3] + [disp.player])
    with clock.frozen("2016-11-07"):
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-3", reason="Ingen dispens dag 2")
    team.refresh_from_db()
    assert team.status == Team.Status.DISQUALIFIED


def test_r_team_res_4_disqualification_is_once_and_on_a_listed_ground(heat, tk):
    team = TeamFactory(heat=heat, players=6)
    seventh = member(season=team.competition.season)
    match = MatchFactory(home=team, status="played", played_on=date(2016, 11, 5))
    lineup(match, team, [seventh])
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-WO-3", reason="fel grund")
    assert "R-TEAM-RES-4" in str(exc.value)
    assert counts() == before
    decisions.disqualify_team(tk, team, clause="R-TEAM-RES-3", reason="Sjunde spelare")
    d = Decision.objects.get(action="teams.team.disqualified")
    assert d.data["consequence"] == "R-TEAM-RES-4"
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, team, clause="R-TEAM-RES-3", reason="igen")
    assert "R-TEAM-RES-4" in str(exc.value)
    assert counts() == before


# ---------------------------------------------------------------------------------------------
# Protests
# ---------------------------------------------------------------------------------------------


def test_r_team_res_5_protest_on_the_deadline_is_filed(heat):
    team = TeamFactory(heat=heat, players=4)
    captain = users_by_role(team=team)["captain"]
    with clock.frozen("2017-03-31"):
        d = decisions.file_protest(
            captain,
            team,
            concerning="sm_semifinal",
            text="Lag X spelade med en otillåten spelare",
            filed_on=date(2017, 3, 31),
        )
    assert d.action == "teams.protest.filed" and d.decided_by == captain
    assert d.clause == "R-TEAM-RES-5" and d.data["deadline"] == "2017-03-31"


def test_r_team_res_5_late_protest_is_refused(heat, tk):
    team = TeamFactory(heat=heat, players=4)
    captain = users_by_role(team=team)["captain"]
    before = counts()
    with clock.frozen("2017-04-01"), pytest.raises(ServiceError) as exc:
        decisions.file_protest(
            captain, team, concerning="sm_semifinal", text="sent", filed_on=date(2017, 4, 1)
        )
    assert "R-TEAM-RES-5" in str(exc.value)
    assert counts() == before
    # The final's deadline is later.
    with clock.frozen("2017-04-01"):
        decisions.file_protest(
            captain, team, concerning="sm_final", text="i tid", filed_on=date(2017, 4, 1)
        )
    # Only TK records a protest received earlier; a captain cannot backdate.
    with clock.frozen("2017-04-02"):
        with pytest.raises(ServiceError):
            decisions.file_protest(
                captain, team, concerning="sm_semifinal", text="x", filed_on=date(2017, 3, 30)
            )
        decisions.file_protest(
            tk, team, concerning="sm_semifinal", text="kom per post", filed_on=date(2017, 3, 30)
        )
    assert Decision.objects.filter(action="teams.protest.filed").count() == 2


def test_r_team_res_5_protest_only_by_the_team_or_tk(heat):
    team = TeamFactory(heat=heat, players=4)
    users = users_by_role(team=team)
    with pytest.raises(PermissionDenied):
        decisions.file_protest(
            users["club_official"], team, concerning="sm_final", text="x", filed_on=clock.today()
        )


# ---------------------------------------------------------------------------------------------
# Rulings
# ---------------------------------------------------------------------------------------------

WRITE_UP = {
    "hands": "♠AK5 ♥... (alla fyra händer)",
    "auction": "1NT - pass - 2♣ (paus) - pass",
    "play": "♠ utspel, ...",
    "why_called": "Oklar paus före pass",
}


def ruling_in(match, tk, **kw):
    args = dict(
        td_names="Ryszard Sliwinski",
        td_category="non_playing",
        board_number=7,
        ruling="Resultatet står sig",
        involved="",
        **WRITE_UP,
    )
    args.update(kw)
    return decisions.record_ruling(tk, match, **args)


def test_r_ruling_1_ruling_recorded_with_decision(heat, tk):
    match = MatchFactory(home=TeamFactory(heat=heat))
    ruling = ruling_in(match, tk)
    assert ruling.stage == Ruling.Stage.RULED and ruling.recorded_by == tk
    assert_decision("teams.ruling.recorded", ruling, tk, "Resultatet står sig", "R-RULING-1")


def test_r_ruling_1_playing_tds_are_three_from_different_teams(heat, tk):
    teams = make_teams(heat, 5, players=0)
    match = MatchFactory(home=teams[0], away=teams[1])
    before = counts()
    with pytest.raises(ServiceError) as exc:
        ruling_in(match, tk, td_category="three_playing", td_names="A Andersson, B Berg")
    assert "R-RULING-1" in str(exc.value)
    assert counts() == before
    ruling = ruling_in(
        match,
        tk,
        td_category="three_playing",
        td_names="A Andersson, B Berg, C Ceder",
        playing_td_teams=teams[2:5],
    )
    assert ruling.playing_td_team == teams[2]


def test_r_ruling_1_the_final_needs_a_non_playing_td(heat, tk):
    a, b = make_teams(heat, 2, players=0)
    final = MatchFactory(home=a, away=b, stage="final", heat=None)
    before = counts()
    for category in ("district", "three_playing"):
        with pytest.raises(ServiceError) as exc:
            ruling_in(final, tk, td_category=category, td_names="A, B, C")
        assert "R-RULING-1" in str(exc.value)
    assert counts() == before
    assert ruling_in(final, tk).td_category == "non_playing"


def test_r_ruling_2_appeal_needs_the_full_write_up(heat, tk):
    match = MatchFactory(home=TeamFactory(heat=heat))
    ruling = ruling_in(match, tk, hands="", play="")
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.appeal_to_jury(
            tk, ruling, appeal_grounds="Pausen gav information", other_side_view="", involved="x"
        )
    text = str(exc.value)
    assert "R-RULING-2" in text
    for missing in ("kortsits", "spelförlopp", "andra sidans synpunkter", "tävlingsledarens namn"):
        assert missing in text
    assert "budgivning" not in text
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.RULED
    assert counts() == before


def test_r_ruling_2_complete_appeal_goes_to_the_jury(heat, tk):
    match = MatchFactory(home=TeamFactory(heat=heat))
    ruling = ruling_in(match, tk)
    decisions.appeal_to_jury(
        tk,
        ruling,
        appeal_grounds="Pausen gav information",
        other_side_view="Ingen paus",
        involved="N/S Ek–Al, Ö/V Berg–Dahl, TL Ryszard Sliwinski",
    )
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.APPEALED
    assert_decision("teams.ruling.appealed", ruling, tk, "Pausen gav information", "R-RULING-2")


def appealed_ruling(match, tk, **kw):
    ruling = ruling_in(match, tk, **kw)
    return decisions.appeal_to_jury(
        tk,
        ruling,
        appeal_grounds="Skäl",
        other_side_view="Syn",
        involved=f"Alla, {ruling.td_names}",
    )


def test_r_ruling_3_jury_from_uninvolved_teams_with_recorded_seed(heat, tk):
    teams = make_teams(heat, 7, players=0)
    match = MatchFactory(home=teams[0], away=teams[1])
    ruling = appealed_ruling(
        match,
        tk,
        td_category="three_playing",
        td_names="A, B, C",
        playing_td_teams=[teams[2], teams[0], teams[1]],
    )
    decisions.draw_jury(tk, ruling, seed="abc123")
    jury = set(ruling.jury_teams.values_list("pk", flat=True))
    assert len(jury) == 3
    assert jury <= {t.pk for t in teams[3:]}
    d = Decision.objects.get(action="teams.ruling.jury_drawn")
    assert d.data["seed"] == "abc123" and sorted(d.data["jury"]) == sorted(jury)
    # The same seed gives the same jury.
    again = appealed_ruling(
        match,
        tk,
        td_category="three_playing",
        td_names="A, B, C",
        playing_td_teams=[teams[2], teams[0], teams[1]],
    )
    decisions.draw_jury(tk, again, seed="abc123")
    assert set(again.jury_teams.values_list("pk", flat=True)) == jury


def test_r_ruling_3_too_few_uninvolved_teams(heat, tk):
    teams = make_teams(heat, 4, players=0)
    match = MatchFactory(home=teams[0], away=teams[1])
    ruling = appealed_ruling(match, tk)
    before = counts()
    with pytest.raises(ServiceError) as exc:
        decisions.draw_jury(tk, ruling, size=3)
    assert "R-RULING-3" in str(exc.value)
    assert not ruling.jury_teams.exists()
    assert counts() == before


def test_r_ruling_3_jury_then_lagkommission_whose_decision_is_final(heat, tk):
    teams = make_teams(heat, 6, players=0)
    match = MatchFactory(home=teams[0], away=teams[1])
    ruling = appealed_ruling(match, tk)
    with pytest.raises(ServiceError) as exc:
        decisions.record_jury_decision(tk, ruling, decision="för tidigt")
    assert "R-RULING-3" in str(exc.value)
    decisions.draw_jury(tk, ruling, seed=1)
    decisions.record_jury_decision(tk, ruling, decision="Justerat till 3NT-1")
    with pytest.raises(ServiceError):
        decisions.record_lagkommission_decision(tk, ruling, decision="hoppar över")
    decisions.appeal_to_lagkommission(tk, ruling, grounds="Juryn tillämpade fel paragraf")
    decisions.record_lagkommission_decision(tk, ruling, decision="Juryns beslut står fast")
    ruling.refresh_from_db()
    assert ruling.stage == Ruling.Stage.FINAL
    assert ruling.jury_decision == "Justerat till 3NT-1"
    assert ruling.lagkommission_decision == "Juryns beslut står fast"
    actions = list(
        Decision.objects.filter(object_type="teams.ruling", object_id=ruling.pk)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "teams.ruling.recorded",
        "teams.ruling.appealed",
        "teams.ruling.jury_drawn",
        "teams.ruling.jury_decided",
        "teams.ruling.appealed_lagkommission",
        "teams.ruling.lagkommission_decided",
    ]
    with pytest.raises(ServiceError) as exc:
        decisions.appeal_to_lagkommission(tk, ruling, grounds="igen")
    assert "slutgiltigt" in str(exc.value)


# ---------------------------------------------------------------------------------------------
# Permission matrix (R-GEN-3: TK decides)
# ---------------------------------------------------------------------------------------------

ROLES = ["anonymous", "club_official", "heat_responsible", "captain", "tk"]


def _dispensation(team, match, user):
    disp = extra_request(team, occasion_date=None)
    return decisions.decide_dispensation(user, disp, True, "Beviljas")


def _walkover(team, match, user):
    return decisions.award_walkover(user, match, match.away, reason="Uteblev")


def _penalty(team, match, user):
    return decisions.impose_penalty(user, team, match, reason="Obetald spelare")


def _disqualify(team, match, user):
    return decisions.disqualify_team(user, team, clause="R-TEAM-RES-1", reason="Obetalt")


ACTIONS = {
    "decide_dispensation": _dispensation,
    "award_walkover": _walkover,
    "impose_penalty": _penalty,
    "disqualify_team": _disqualify,
}


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("role", ROLES)
def test_r_gen_3_permission_matrix(heat, role, action):
    team, match, _ = unpaid_setup(heat, played_on=date(2016, 11, 5))
    users = users_by_role(team=team)
    before = counts()
    with clock.frozen("2016-11-25"):
        if role == "tk":
            ACTIONS[action](team, match, users[role])
            assert Decision.objects.count() > before["decisions"]
        else:
            with pytest.raises(PermissionDenied):
                ACTIONS[action](team, match, users[role])
            assert counts() == before


# ---------------------------------------------------------------------------------------------
# Admin: decisions shown on the objects they concern, actions through the services
# ---------------------------------------------------------------------------------------------


def test_r_gen_3_admin_grant_action_needs_reason_and_uses_the_service(client, heat, tk):
    team = TeamFactory(heat=heat, players=6)
    disp = extra_request(team, occasion_date=None)
    client.force_login(tk)
    changelist = "/admin/teams/dispensation/"
    data = {"action": "grant_dispensations", "_selected_action": [disp.pk], "reason": ""}
    client.post(changelist, data, follow=True)
    disp.refresh_from_db()
    assert disp.status == "requested"
    data["reason"] = "Sjukdom i laget"
    response = client.post(changelist, data, follow=True)
    disp.refresh_from_db()
    assert disp.status == "granted" and disp.decided_by == tk
    assert RosterEntry.objects.filter(player=disp.player, is_extra=True).exists()
    assert "Sjukdom i laget" in response.content.decode()
    page = client.get(f"/admin/teams/dispensation/{disp.pk}/change/").content.decode()
    assert "teams.dispensation.granted" in page


def test_r_team_res_1_admin_adds_penalty_through_the_service(client, heat, tk):
    team, match, _ = unpaid_setup(heat)
    client.force_login(tk)
    data = {"team": team.pk, "match": match.pk, "vp": "5", "clause": "R-TEAM-RES-1", "reason": ""}
    response = client.post("/admin/teams/penalty/add/", data)
    assert response.status_code == 200 and not Penalty.objects.exists()  # reason missing
    data["reason"] = "Obetald spelare"
    client.post("/admin/teams/penalty/add/", data)
    penalty = Penalty.objects.get()
    assert penalty.decided_by == tk and penalty.status == "granted"
    assert Decision.objects.filter(action="teams.penalty.imposed").exists()
    response = client.post("/admin/teams/penalty/add/", data)
    assert "R-TEAM-RES-1" in response.content.decode() and Penalty.objects.count() == 1
    listing = client.get("/admin/teams/penalty/").content.decode()
    assert "Obetald spelare" in listing


def test_r_team_wo_1_admin_walkover_add_and_revoke(client, heat, tk):
    match = MatchFactory(home=TeamFactory(heat=heat))
    client.force_login(tk)
    client.post(
        "/admin/teams/walkover/add/",
        {"match": match.pk, "offender": match.away.pk, "reason": "Uteblev"},
    )
    wo = WalkOver.objects.get()
    assert wo.decided_by == tk and "12.00" in wo.rule_text
    assert "Uteblev" in client.get("/admin/teams/walkover/").content.decode()
    client.post(
        "/admin/teams/walkover/",
        {"action": "revoke_walkovers", "_selected_action": [wo.pk], "reason": "Fel match"},
    )
    wo.refresh_from_db()
    assert wo.status == "rejected"


def test_r_ruling_1_admin_lists_and_records_rulings(client, heat, tk):
    teams = make_teams(heat, 6, players=0)
    match = MatchFactory(home=teams[0], away=teams[1])
    client.force_login(tk)
    client.post(
        "/admin/teams/ruling/add/",
        {
            "match": match.pk,
            "td_names": "Ryszard Sliwinski",
            "td_category": "non_playing",
            "ruling": "Resultatet står sig",
            "stage": "ruled",
        },
    )
    ruling = Ruling.objects.get()
    assert ruling.recorded_by == tk
    assert Decision.objects.filter(action="teams.ruling.recorded").exists()
    listing = client.get("/admin/teams/ruling/").content.decode()
    assert "Resultatet står sig" in listing
    assert client.get(f"/admin/teams/ruling/{ruling.pk}/change/").status_code == 200
