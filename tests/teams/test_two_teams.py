"""A player of two teams (R-TEAM-RES-2, R-TEAM-RES-4, R-TEAM-5): only the team that fielded
him AFTER he had taken part (played, in a line-up) for another team is at fault; the team he
played for first, and a team whose player was only listed elsewhere, are not. A player of
another team is refused on every path unless TK gives a reason, and TK's flags wait in the
/tk/ queue. A 7th player without dispensation is recorded by TK and sanctioned (R-TEAM-RES-3).
Through the real services and the real recompute (no mocks)."""

from datetime import date

import pytest

from clubs import clock
from clubs.models import Decision, Membership
from clubs.services.base import ServiceError
from clubs.services.flags import decide_flag
from portal.selectors.tk_queue import tk_queue
from results.models import StandingSnapshot
from teams.models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    RosterEntry,
    Team,
    TeamEntryRequest,
    TeamHeat,
)
from teams.services import decisions
from teams.services.entries import (
    enter_team,
    extra_player_allowed,
    record_lineup,
    request_extra_player,
    update_roster,
)
from teams.services.entry_requests import confirm_team_entry, request_team_entry
from tests.factories import (
    ClubFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
    member,
    world_member,
)
from ubf.rules import eligibility as el
from ubf.rules.people import UBF, PlayerInfo
from ubf.rules.types import Gender

pytestmark = pytest.mark.django_db

DAY1, DAY2 = date(2016, 11, 5), date(2016, 11, 6)


def play(home, away, imps_home, imps_away, on, rnd):
    return Match.objects.create(
        competition=home.competition,
        heat=home.heat,
        stage="kval",
        round=rnd,
        home=home,
        away=away,
        boards=16,
        status="played",
        imps_home=imps_home,
        imps_away=imps_away,
        played_on=on,
    )


def lineup(match, team, players):
    for p in players:
        for half in (1, 2):
            Lineup.objects.create(match=match, team=team, player=p, half=half)


def regulars(team, n=3):
    return [e.player for e in team.roster.order_by("id")][:n]


@pytest.fixture
def heat():
    """Alfa, Beta, Gamma, Delta (4 players each) and Kalle, listed on Alfa and on Beta."""
    heat = TeamHeatFactory()
    teams = [TeamFactory(heat=heat, name=n, players=4) for n in ("Alfa", "Beta", "Gamma", "Delta")]
    kalle = regulars(teams[0], 4)[3]
    RosterEntry.objects.create(team=teams[1], player=kalle)
    return heat, teams, kalle


def snapshot_rows(heat):
    snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
    return {r["name"]: r for r in snap.data}


# --- the rule itself ------------------------------------------------------------------------


def test_r_team_res_2_rule_only_earlier_play_elsewhere_counts():
    kalle = PlayerInfo(mid="1", name="Kalle", gender=Gender.MAN, birth_year=1970, district=UBF)
    plays = [el.TeamPlay("Alfa", UBF, DAY1)]
    # Fielded by Beta on day 2, after Alfa on day 1: Beta is at fault.
    out = el.check_played_for_two_teams(kalle, "Beta", [DAY2], plays, found_on=DAY2)
    assert [(v.clause, v.is_error) for v in out] == [("R-TEAM-RES-2", True)]
    assert out[0].data["earlier_play_on"] == "2016-11-05"
    # Alfa fielded him on day 1, before he played for Beta on day 2: Alfa is not.
    out = el.check_played_for_two_teams(
        kalle, "Alfa", [DAY1], [el.TeamPlay("Beta", UBF, DAY2)], found_on=DAY2
    )
    assert out == []
    # Same day for both teams: the order is unknown, a warning for TK, not a ground.
    out = el.check_played_for_two_teams(kalle, "Beta", [DAY1], plays, found_on=DAY2)
    assert [(v.clause, v.is_error) for v in out] == [("R-TEAM-RES-2", False)]
    # Undated play elsewhere proves nothing; no days of the team's own: nothing to judge.
    assert el.check_played_for_two_teams(kalle, "Beta", [DAY2], [el.TeamPlay("A", UBF, None)]) == []
    assert el.check_played_for_two_teams(kalle, "Beta", [], plays) == []


# --- through the service and the recompute --------------------------------------------------


def test_r_team_res_2_played_for_a_then_b_only_b_is_disqualified(
    heat, tk, django_capture_on_commit_callbacks
):
    heat, (a, b, c, d), kalle = heat
    # Day 1: Kalle plays for Alfa (Alfa–Gamma 20–10). Day 2: Kalle plays for Beta, who beat
    # Delta 40–0.
    m1 = play(a, c, 20, 10, DAY1, 1)
    lineup(m1, a, regulars(a, 3) + [kalle])
    lineup(m1, c, regulars(c, 4))
    m2 = play(b, d, 40, 0, DAY2, 2)
    lineup(m2, b, regulars(b, 3) + [kalle])
    lineup(m2, d, regulars(d, 4))

    with clock.frozen("2016-11-10"):
        # Alfa fielded him first: no ground against Alfa.
        with pytest.raises(ServiceError) as exc:
            decisions.disqualify_team(tk, a, clause="R-TEAM-RES-2", reason="Spelat i två lag")
        assert "R-TEAM-RES-2" in str(exc.value)
        a.refresh_from_db()
        assert a.status == Team.Status.ENTERED
        with django_capture_on_commit_callbacks(execute=True):
            decisions.disqualify_team(tk, b, clause="R-TEAM-RES-2", reason="Spelat i två lag")
    b.refresh_from_db()
    assert b.status == Team.Status.DISQUALIFIED
    rows = snapshot_rows(heat)
    # R-TEAM-RES-4: Beta's 40–0 win is struck and Delta is deemed to have won by W.O.: 12.00 VP
    # (the season's W.O. score, R-TEAM-WO-2) instead of the 16-board loser's 1.91 for 0–40.
    assert rows["Beta"]["status_label"] == "diskvalificerat"
    assert rows["Delta"]["vp"] == "12.00"
    # Alfa keeps its 20–10 win: 16 boards, margin 10, X = 60: τ^(3·10/60) = τ^0.5 = 0.786151;
    # 10 + 10·(1 − 0.786151)/0.763932 = 12.80.
    assert rows["Alfa"]["vp"] == "12.80"


def test_r_team_res_2_listed_on_a_never_played_for_a_neither_is_at_fault(heat, tk):
    heat, (a, b, c, d), kalle = heat
    # Alfa plays on day 1 without Kalle; Kalle plays for Beta on day 2.
    m1 = play(a, c, 20, 10, DAY1, 1)
    lineup(m1, a, regulars(a, 3) + [member(season=a.competition.season)])
    m2 = play(b, d, 40, 0, DAY2, 2)
    lineup(m2, b, regulars(b, 3) + [kalle])
    with clock.frozen("2016-11-10"):
        for team in (a, b):
            with pytest.raises(ServiceError) as exc:
                decisions.disqualify_team(tk, team, clause="R-TEAM-RES-2", reason="Två lag")
            assert "R-TEAM-RES-2" in str(exc.value)
    assert set(Team.objects.values_list("status", flat=True)) == {Team.Status.ENTERED}


def test_r_team_res_2_same_day_is_shown_to_tk_not_a_ground(heat, tk):
    heat, (a, b, c, d), kalle = heat
    m1 = play(a, c, 20, 10, DAY1, 1)
    lineup(m1, a, regulars(a, 3) + [kalle])
    m2 = play(b, d, 40, 0, DAY1, 1)
    lineup(m2, b, regulars(b, 3) + [kalle])
    with clock.frozen("2016-11-10"), pytest.raises(ServiceError) as exc:
        decisions.disqualify_team(tk, b, clause="R-TEAM-RES-2", reason="Två lag")
    assert "samma dag" in str(exc.value)


def test_r_team_res_2_play_in_another_district_counts_only_if_earlier(heat, tk):
    heat, (a, b, c, d), kalle = heat
    m2 = play(b, d, 40, 0, DAY2, 2)
    lineup(m2, b, regulars(b, 3) + [kalle])
    later = ExternalTeamPlay.objects.create(
        player=kalle,
        season=b.competition.season,
        district="SBDF",
        team_name="Stockholmslaget",
        played_on=date(2016, 11, 20),
    )
    with clock.frozen("2016-11-25"), pytest.raises(ServiceError):
        decisions.disqualify_team(tk, b, clause="R-TEAM-RES-2", reason="Två distrikt")
    later.played_on = date(2016, 10, 20)
    later.save()
    with clock.frozen("2016-11-25"):
        decisions.disqualify_team(tk, b, clause="R-TEAM-RES-2", reason="Två distrikt")
    b.refresh_from_db()
    assert b.status == Team.Status.DISQUALIFIED


# --- R-TEAM-RES-2 on every path that puts a player on a team --------------------------------


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    responsible = UserFactory()
    heat = TeamHeatFactory(competition=comp, organisers=[club], responsible_user=responsible)
    w = entry_world(season, club, comp=comp, heat=heat, responsible=responsible)
    with clock.frozen("2016-10-20 10:00"):
        w.fyris = enter_team(
            w.official, heat, **fields(w, [world_member(w).mid for _ in range(6)], "Fyris")
        ).team
    w.fyris_mids = list(w.fyris.roster.order_by("id").values_list("player__mid", flat=True))
    return w


def fields(w, player_mids, name):
    return {
        "name": name,
        "captain_mid": player_mids[0],
        "address": "Storgatan 1, 753 20 Uppsala",
        "phone": "070-123 45 67",
        "email": "kapten@example.se",
        "player_mids": player_mids,
    }


def test_r_team_res_2_entry_request_with_a_player_of_another_team_is_refused(w):
    captain = UserFactory()
    players = w.fyris_mids[:2] + [world_member(w).mid for _ in range(2)]
    with clock.frozen("2016-10-21"), pytest.raises(ServiceError) as exc:
        request_team_entry(captain, w.heat, **fields(w, players, "Fyris 2"))
    shown = exc.value.messages("sv")
    assert sum("Fyris" in t and "(R-TEAM-RES-2)" in t for t in shown) == 2
    assert TeamEntryRequest.objects.count() == 0


def test_r_team_res_2_confirmation_refused_for_the_heat_responsible_allowed_for_tk(w):
    # "Fyris 2" asked with four free players; two of them are then put on Fyris's roster.
    captain = UserFactory()
    newcomers = [world_member(w).mid for _ in range(4)]
    with clock.frozen("2016-10-21"):
        asked = request_team_entry(captain, w.heat, **fields(w, newcomers, "Fyris 2"))
        update_roster(w.official, w.fyris, add_mids=[], remove_mids=w.fyris_mids[4:])
        update_roster(w.official, w.fyris, add_mids=newcomers[:2])
        with pytest.raises(ServiceError) as exc:
            confirm_team_entry(w.responsible, asked)
        assert sum("(R-TEAM-RES-2)" in t for t in exc.value.messages("sv")) == 2
        assert not Team.objects.filter(name="Fyris 2").exists()
        outcome = confirm_team_entry(w.tk, asked, reason="Spelarna lämnar Fyris, enligt mejl")
    assert outcome.team.name == "Fyris 2"
    allowed = Decision.objects.get(action="teams.other_team.allowed")
    assert sorted(allowed.data["mids"]) == sorted(newcomers[:2])


def test_r_team_5_extra_player_request_for_a_player_on_another_roster_is_refused_at_once(w):
    # The team has 6 players (R-TEAM-2 full), so a 7th needs a dispensation (R-TEAM-5); the one
    # asked for is on Fyris's roster: refused when asked, not only when TK would grant it.
    with clock.frozen("2016-10-21"):
        team = enter_team(
            w.official, w.heat, **fields(w, [world_member(w).mid for _ in range(6)], "Gamla")
        ).team
        day = w.heat.first_date
        with pytest.raises(ServiceError) as exc:
            request_extra_player(
                w.official, team, w.fyris_mids[5], occasion="Dag 1", occasion_date=day
            )
    assert "(R-TEAM-RES-2)" in " ".join(exc.value.messages("sv"))
    assert Dispensation.objects.count() == 0


def test_every_flag_for_tk_is_an_item_in_the_queue_until_handled(w):
    # R-GEN-2 (unpaid) flags are raised at entry: one flag row, one item on /tk/, counted.
    unpaid = world_member(w)
    Membership.objects.filter(player=unpaid).update(paid_on=None)
    with clock.frozen("2016-10-21"):
        team = enter_team(
            w.official,
            w.heat,
            **fields(w, [unpaid.mid] + [world_member(w).mid for _ in range(3)], "Obetalt"),
        ).team
    flag = Decision.objects.get(action="teams.team.flagged", object_id=team.pk)
    groups = {g.key: g for g in tk_queue(w.season)}
    assert [i.pk for i in groups["flags"].items] == [flag.pk]
    assert groups["flags"].waiting is True
    with pytest.raises(ServiceError):
        decide_flag(w.tk, flag, False, "")  # R-GEN-3: a reason
    decide_flag(w.tk, flag, True, "Avdrag prövas när laget spelat")
    assert [g.items for g in tk_queue(w.season) if g.key == "flags"] == [[]]
    with pytest.raises(ServiceError):
        decide_flag(w.tk, flag, True, "igen")


# --- R-TEAM-RES-3: a 7th player without dispensation, recorded by TK and sanctioned ---------


def seventh_setup():
    heat = TeamHeatFactory()
    six = TeamFactory(heat=heat, name="Sexan", players=6)
    other = TeamFactory(heat=heat, name="Motstånd", players=4)
    # Sexan beat Motstånd 30–10 on 5 Nov with a 7th player in the first half.
    match = play(six, other, 30, 10, DAY1, 1)
    lineup(match, other, regulars(other, 4))
    return heat, six, other, match, member(season=six.competition.season)


def test_r_team_res_3_seventh_player_recorded_by_tk_with_a_reason_then_disqualified(
    tk, django_capture_on_commit_callbacks
):
    heat, six, other, match, seventh = seventh_setup()
    half1 = [p.mid for p in regulars(six, 3)] + [seventh.mid]
    half2 = [p.mid for p in regulars(six, 4)]
    captain = UserFactory()
    Team.objects.filter(pk=six.pk).update(captain_user=captain)
    with clock.frozen("2016-11-05 18:00"), pytest.raises(ServiceError) as exc:
        record_lineup(captain, match, six, half1_mids=half1, half2_mids=half2)
    assert "(R-TEAM-RES-3)" in " ".join(exc.value.messages("sv"))
    with clock.frozen("2016-11-06"):
        with pytest.raises(ServiceError):
            record_lineup(tk, match, six, half1_mids=half1, half2_mids=half2)  # no reason
        assert not Lineup.objects.filter(team=six).exists()
        out = record_lineup(
            tk, match, six, half1_mids=half1, half2_mids=half2, reason="Protokollet visar X"
        )
        assert [v.clause for v in out.warnings if v.data.get("violation")] == ["R-TEAM-RES-3"]
        assert Lineup.objects.filter(team=six, player=seventh, half=1).exists()
        assert not RosterEntry.objects.filter(team=six, player=seventh).exists()
        fact = Decision.objects.get(action="teams.lineup.violation_recorded")
        assert fact.decided_by == tk and fact.data["mids"] == [seventh.mid]
        with django_capture_on_commit_callbacks(execute=True):
            decisions.disqualify_team(tk, six, clause="R-TEAM-RES-3", reason="Sjunde spelare")
    six.refresh_from_db()
    assert six.status == Team.Status.DISQUALIFIED
    rows = snapshot_rows(heat)
    # R-TEAM-RES-4: Sexan's 30–10 win is struck; Motstånd is deemed to have won by W.O.:
    # 12.00 VP (R-TEAM-WO-2, the season's W.O. score), not the loser's 16-board VP for −20
    # (τ^(3·20/60) = τ = 0.618034; 10 + 10·0.381966/0.763932 = 15.00 → 5.00).
    assert rows["Motstånd"]["vp"] == "12.00"
    assert rows["Sexan"]["status_label"] == "diskvalificerat"


def test_r_team_5_a_dispensation_without_a_day_covers_no_occasion_everywhere(tk):
    heat, six, other, match, seventh = seventh_setup()
    Dispensation.objects.create(
        kind=Dispensation.Kind.EXTRA_PLAYER,
        team=six,
        player=seventh,
        occasion="",
        occasion_date=None,
        status=Dispensation.Status.GRANTED,
    )
    assert el.dispensation_covers(None, DAY1) is False
    assert el.dispensation_covers(DAY1, DAY1) is True
    half1 = [p.mid for p in regulars(six, 3)] + [seventh.mid]
    with clock.frozen("2016-11-05 18:00"):
        # The line-up reads it as no dispensation (refused for the heat's people) ...
        responsible = UserFactory()
        TeamHeat.objects.filter(pk=heat.pk).update(responsible_user=responsible)
        with pytest.raises(ServiceError) as exc:
            record_lineup(responsible, match, six, half1_mids=half1, half2_mids=half1)
        assert "(R-TEAM-RES-3)" in " ".join(exc.value.messages("sv"))
        assert extra_player_allowed(six, seventh, DAY1) is False
    # ... and so does the sanction: TK recorded what was played, the team is disqualified.
    with clock.frozen("2016-11-06"):
        record_lineup(tk, match, six, half1_mids=half1, half2_mids=half1, reason="Protokoll")
        decisions.disqualify_team(tk, six, clause="R-TEAM-RES-3", reason="Dispens utan dag")
    six.refresh_from_db()
    assert six.status == Team.Status.DISQUALIFIED
