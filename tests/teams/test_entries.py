"""DM Lag entries, rosters, dispensations, the direct team and line-ups
(teams/services/entries)."""

from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.models import Decision, Membership
from clubs.services.base import ServiceError
from teams.models import Dispensation, ExternalTeamPlay, Lineup, RosterEntry, Team
from teams.selectors import team_dm_status, team_may_start
from teams.services.entries import (
    enter_team,
    extra_player_allowed,
    record_lineup,
    register_direct_team,
    request_extra_player,
    update_roster,
)
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    entry_world,
)
from tests.factories import world_member as p
from ubf.rules.violations import Severity

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2016-10-20 10:00"):
        yield


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = TeamCompetitionFactory(season=season)
    responsible = UserFactory()
    heat = TeamHeatFactory(competition=comp, organisers=[club], responsible_user=responsible)
    return entry_world(season, club, comp=comp, heat=heat, responsible=responsible)


def mids(w, n, **kw):
    return [p(w, **kw).mid for _ in range(n)]


def team_fields(w, players, **over):
    data = {
        "name": "Uppsala 1",
        "captain_mid": players[0],
        "address": "Storgatan 1, 753 20 Uppsala",
        "phone": "070-123 45 67",
        "email": "kapten@example.se",
        "player_mids": players,
    }
    data.update(over)
    return data


def snapshot():
    return (
        Team.objects.count(),
        sorted(RosterEntry.objects.values_list("team_id", "player_id", "is_extra")),
        Dispensation.objects.count(),
        sorted(Lineup.objects.values_list("match_id", "team_id", "player_id", "half")),
        Decision.objects.count(),
    )


def refused(fn, *args, **kwargs) -> str:
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        fn(*args, **kwargs)
    assert snapshot() == before, "a refusal must not save anything"
    return str(exc.value)


# --- entering a team -----------------------------------------------------------------------


def test_enter_team_numbers_teams_in_the_heat(w, recompute_calls):
    first = enter_team(w.responsible, w.heat, **team_fields(w, mids(w, 4)))
    second = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6), name="Uppsala 2"))
    assert (first.team.number, second.team.number) == (1, 2)
    assert first.team.roster.count() == 4 and second.team.roster.count() == 6
    assert first.warnings == [] and first.dispensation is None
    assert team_may_start(first.team) == (True, [])
    recompute_calls.assert_called_with(competition_id=w.comp.pk)


def test_r_team_reg_2_every_field_is_required(w):
    players = mids(w, 4)
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, players, phone="", email=" "))
    assert "R-TEAM-REG-2" in msg and "telefon" in msg and "e-post" in msg
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, players, email="inte-en-adress"))
    assert "R-TEAM-REG-2" in msg
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, players, captain_mid="999999"))
    assert "R-TEAM-REG-2" in msg and "999999" in msg


def test_r_team_reg_2_unknown_member_mid_is_refused(w):
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, mids(w, 3) + ["999999"]))
    assert "999999" in msg and "R-TEAM-REG-2" in msg


def test_r_team_2_three_players_is_refused(w):
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, mids(w, 3)))
    assert "R-TEAM-2" in msg and "4–6" in msg


def test_r_team_2_seven_players_is_refused_a_7th_needs_a_dispensation(w):
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, mids(w, 7)))
    assert "R-TEAM-2" in msg and "R-TEAM-5" in msg


def test_r_team_2_duplicate_player_is_refused(w):
    players = mids(w, 4)
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, players + [players[1]]))
    assert "R-TEAM-2" in msg and players[1] in msg


def test_r_team_2_player_without_representation_club_is_refused(w):
    from tests.factories import PlayerFactory

    loose = PlayerFactory()
    msg = refused(enter_team, w.official, w.heat, **team_fields(w, mids(w, 3) + [loose.mid]))
    assert "R-TEAM-2" in msg and "representationsklubb" in msg


def test_r_gen_2_unpaid_team_member_is_flagged_not_refused(w):
    unpaid = p(w, paid=False)
    out = enter_team(w.official, w.heat, **team_fields(w, mids(w, 3) + [unpaid.mid]))
    assert out.team.pk
    gen2 = [v for v in out.warnings if v.clause == "R-GEN-2"]
    assert len(gen2) == 1 and unpaid.mid in gen2[0].message_sv
    assert gen2[0].severity == Severity.WARNING
    assert "R-TEAM-RES-1" in gen2[0].message_sv  # fielding the player is what is punished
    assert Decision.objects.filter(action="teams.team.flagged", object_id=out.team.pk).exists()


def test_r_team_3_district_balance_entered_with_dispensation_requested(w):
    players = mids(w, 2) + mids(w, 3, club=w.sth)
    out = enter_team(w.official, w.heat, **team_fields(w, players))
    assert out.team.pk and out.dispensation is not None
    d = out.dispensation
    assert (d.kind, d.status, d.requested_by) == (
        Dispensation.Kind.DISTRICT_BALANCE,
        Dispensation.Status.REQUESTED,
        w.official,
    )
    assert "R-TEAM-3" in [v.clause for v in out.warnings]
    ok, reasons = team_may_start(out.team)
    assert not ok and [v.clause for v in reasons] == ["R-TEAM-3"]
    d.status = Dispensation.Status.GRANTED
    d.save()
    assert team_may_start(out.team) == (True, [])


def test_r_team_3_equal_numbers_need_no_dispensation(w):
    out = enter_team(w.official, w.heat, **team_fields(w, mids(w, 2) + mids(w, 2, club=w.sth)))
    assert out.dispensation is None and Dispensation.objects.count() == 0


def test_r_team_res_2_player_on_another_roster_is_refused_unless_tk_gives_a_reason(w):
    players = mids(w, 4)
    enter_team(w.official, w.heat, **team_fields(w, players))
    other_heat = w.heat
    fields = team_fields(w, [players[0]] + mids(w, 3), name="Andra laget")
    before = snapshot()
    for user, reason in ((w.official, "Vi vill"), (w.tk, "")):
        with pytest.raises(ServiceError) as exc:
            enter_team(user, other_heat, reason=reason, **fields)
        assert "(R-TEAM-RES-2)" in " ".join(exc.value.messages("sv"))
        assert "Uppsala 1" in " ".join(exc.value.messages("sv"))
        assert snapshot() == before
    tk_out = enter_team(w.tk, other_heat, reason="Flyttad efter beslut", **fields)
    res2 = [v for v in tk_out.warnings if v.clause == "R-TEAM-RES-2"]
    assert len(res2) == 1 and players[0] in res2[0].message_sv and "Uppsala 1" in res2[0].message_sv
    assert res2[0].severity == Severity.WARNING
    allowed = Decision.objects.get(action="teams.other_team.allowed")
    assert (allowed.decided_by, allowed.reason) == (w.tk, "Flyttad efter beslut")
    assert allowed.data["mids"] == [players[0]] and allowed.clause == "R-TEAM-RES-2"


def test_r_team_res_2_external_team_play_is_refused(w):
    x = p(w)
    ExternalTeamPlay.objects.create(
        player=x,
        season=w.season,
        district="STH",
        team_name="Sthlm Lag",
        played_on=date(2016, 10, 2),
    )
    with pytest.raises(ServiceError) as exc:
        enter_team(w.official, w.heat, **team_fields(w, [x.mid] + mids(w, 3)))
    assert "Sthlm Lag" in str(exc.value) and "R-TEAM-RES-2" in str(exc.value)
    assert Team.objects.count() == 0


# --- rosters ---------------------------------------------------------------------------


def test_update_roster_keeps_4_to_6(w, recompute_calls):
    players = mids(w, 4)
    team = enter_team(w.official, w.heat, **team_fields(w, players)).team
    out = update_roster(w.official, team, add_mids=mids(w, 2))
    assert team.roster.count() == 6 and out.warnings == []
    msg = refused(update_roster, w.official, team, add_mids=mids(w, 1))
    assert "R-TEAM-2" in msg and "R-TEAM-5" in msg  # a 7th: refused, needs a dispensation
    msg = refused(update_roster, w.official, team, remove_mids=players[:3])
    assert "R-TEAM-2" in msg  # 3 players
    msg = refused(update_roster, w.official, team, remove_mids=["123123"])
    assert "R-TEAM-2" in msg
    update_roster(w.official, team, add_mids=[p(w).mid], remove_mids=[players[0]])
    assert players[0] not in set(team.roster.values_list("player__mid", flat=True))
    recompute_calls.assert_called_with(competition_id=w.comp.pk)


def test_update_roster_rechecks_district_balance(w):
    team = enter_team(
        w.official, w.heat, **team_fields(w, mids(w, 2) + mids(w, 2, club=w.sth))
    ).team
    out = update_roster(w.official, team, add_mids=mids(w, 1, club=w.sth))
    assert out.dispensation is not None
    assert out.dispensation.kind == Dispensation.Kind.DISTRICT_BALANCE
    assert team_may_start(team)[0] is False
    update_roster(w.official, team, add_mids=mids(w, 1))
    assert team_may_start(team) == (True, [])


# --- extra players (R-TEAM-5) ------------------------------------------------------------


def test_r_team_5_extra_player_dispensation_per_occasion(w):
    team = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6))).team
    x = p(w)
    d = request_extra_player(
        w.official, team, x.mid, occasion="Rond 3", occasion_date=date(2016, 11, 5)
    )
    assert (d.kind, d.status, d.player) == (
        Dispensation.Kind.EXTRA_PLAYER,
        Dispensation.Status.REQUESTED,
        x,
    )
    assert not extra_player_allowed(team, x, date(2016, 11, 5))
    d.status = Dispensation.Status.GRANTED
    d.save()
    assert extra_player_allowed(team, x, date(2016, 11, 5))
    assert not extra_player_allowed(team, x, date(2016, 11, 6))  # per occasion
    msg = refused(
        request_extra_player,
        w.official,
        team,
        x.mid,
        occasion="Rond 3",
        occasion_date=date(2016, 11, 5),
    )
    assert "R-TEAM-5" in msg


def test_r_team_5_extra_player_refusals(w):
    small = enter_team(w.official, w.heat, **team_fields(w, mids(w, 5))).team
    msg = refused(
        request_extra_player,
        w.official,
        small,
        p(w).mid,
        occasion="R1",
        occasion_date=date(2016, 11, 5),
    )
    assert "R-TEAM-5" in msg  # still room on the roster
    team = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6), name="Fullt lag")).team
    msg = refused(
        request_extra_player,
        w.official,
        team,
        p(w).mid,
        occasion="R1",
        occasion_date=date(2016, 10, 1),
    )
    assert "R-TEAM-5" in msg  # the occasion has passed
    played = p(w)
    ExternalTeamPlay.objects.create(
        player=played,
        season=w.season,
        district="STH",
        team_name="Sthlm",
        played_on=date(2016, 10, 2),
    )
    msg = refused(
        request_extra_player,
        w.official,
        team,
        played.mid,
        occasion="R1",
        occasion_date=date(2016, 11, 5),
    )
    assert "R-TEAM-5" in msg and "annat lag" in msg


# --- direct qualifier team ---------------------------------------------------------------


def test_r_team_direct_1_two_thirds_remain(w):
    champions = mids(w, 6)
    new = champions[:4] + mids(w, 2)
    out = register_direct_team(
        w.tk, w.comp, **team_fields(w, new, name="Mästarna"), last_season_roster_mids=champions
    )
    assert out.team.is_direct_qualifier and out.team.is_finalist and out.team.heat is None
    d = Decision.objects.get(action="teams.direct_qualifier.registered")
    assert d.clause == "R-TEAM-DIRECT-1" and len(d.data["remaining"]) == 4


def test_r_team_direct_1_refusals(w):
    champions = mids(w, 6)
    with pytest.raises(PermissionDenied):
        register_direct_team(
            w.official, w.comp, **team_fields(w, champions), last_season_roster_mids=champions
        )
    new = champions[:3] + mids(w, 3)
    msg = refused(
        register_direct_team, w.tk, w.comp, **team_fields(w, new), last_season_roster_mids=champions
    )
    assert "R-TEAM-DIRECT-1" in msg and "4" in msg
    with clock.frozen("2017-02-01"):
        msg = refused(
            register_direct_team,
            w.tk,
            w.comp,
            **team_fields(w, champions),
            last_season_roster_mids=champions,
        )
    assert "R-TEAM-DIRECT-1" in msg and "2017-01-31" in msg


# --- line-ups ----------------------------------------------------------------------------


@pytest.fixture
def m(w):
    home = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6), name="Hemma")).team
    away = enter_team(w.official, w.heat, **team_fields(w, mids(w, 4), name="Borta")).team
    match = MatchFactory(home=home, away=away, played_on=date(2016, 11, 5))
    roster = list(home.roster.order_by("id").values_list("player__mid", flat=True))
    return SimpleNamespace(home=home, away=away, match=match, roster=roster)


def test_record_lineup_replaces_the_earlier_one(w, m, recompute_calls):
    out = record_lineup(
        w.official, m.match, m.home, half1_mids=m.roster[:4], half2_mids=m.roster[2:]
    )
    assert len(out.lineups) == 8 and out.warnings == []
    recompute_calls.assert_called_with(competition_id=w.comp.pk)
    record_lineup(w.official, m.match, m.home, half1_mids=m.roster[2:], half2_mids=m.roster[2:])
    rows = Lineup.objects.filter(match=m.match, team=m.home)
    assert rows.count() == 8
    assert set(rows.values_list("player__mid", flat=True)) == set(m.roster[2:])


def test_lineup_needs_four_players_per_half_and_one_segment_has_one_half(w, m):
    msg = refused(
        record_lineup, w.official, m.match, m.home, half1_mids=m.roster[:3], half2_mids=m.roster[:4]
    )
    assert "R-TEAM-2" in msg
    m.match.halves = 1
    m.match.boards = 12
    m.match.save()
    msg = refused(
        record_lineup, w.official, m.match, m.home, half1_mids=m.roster[:4], half2_mids=m.roster[:4]
    )
    assert "R-TEAM-KVAL-5" in msg
    out = record_lineup(w.official, m.match, m.home, half1_mids=m.roster[:4])
    assert {lu.half for lu in out.lineups} == {1}


def test_r_team_res_3_ungranted_extra_player_is_refused(w, m):
    x = p(w)
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        record_lineup(
            w.official, m.match, m.home, half1_mids=m.roster[:3] + [x.mid], half2_mids=m.roster[:4]
        )
    assert snapshot() == before
    msg = str(exc.value)
    assert "R-TEAM-RES-3" in msg and "diskvalificera" in msg and "R-TEAM-5" in msg
    # A requested but not granted dispensation is no better.
    d = request_extra_player(
        w.tk, m.home, x.mid, occasion="Rond 1", occasion_date=date(2016, 11, 5)
    )
    assert "R-TEAM-RES-3" in refused(
        record_lineup,
        w.official,
        m.match,
        m.home,
        half1_mids=m.roster[:3] + [x.mid],
        half2_mids=m.roster[:4],
    )
    d.status = Dispensation.Status.GRANTED
    d.save()
    out = record_lineup(
        w.official, m.match, m.home, half1_mids=m.roster[:3] + [x.mid], half2_mids=m.roster[:4]
    )
    assert len(out.lineups) == 8
    assert RosterEntry.objects.get(team=m.home, player=x).is_extra is True


def test_lineup_player_not_on_a_roster_with_room_is_refused(w, m):
    x = p(w)
    msg = refused(
        record_lineup,
        w.official,
        m.match,
        m.away,
        half1_mids=list(m.away.roster.values_list("player__mid", flat=True))[:3] + [x.mid],
        half2_mids=list(m.away.roster.values_list("player__mid", flat=True)),
    )
    assert "R-TEAM-2" in msg and x.mid in msg


def test_r_team_res_1_unpaid_player_fielded_is_flagged_with_the_penalty(w, m):
    unpaid = m.roster[0]
    Membership.objects.filter(player__mid=unpaid).update(paid_on=None)
    out = record_lineup(
        w.official, m.match, m.home, half1_mids=m.roster[:4], half2_mids=m.roster[:4]
    )
    res1 = [v for v in out.warnings if v.clause == "R-TEAM-RES-1"]
    assert len(res1) == 1 and unpaid in res1[0].message_sv
    assert res1[0].data["penalty_vp"] == Decimal("5")
    assert res1[0].severity == Severity.WARNING
    assert Lineup.objects.filter(match=m.match, team=m.home).count() == 8
    assert Decision.objects.filter(action="teams.lineup.flagged", object_id=m.match.pk).exists()


def test_r_team_res_1_fee_paid_after_the_match_still_counts_for_that_match(w, m):
    late = m.roster[1]
    Membership.objects.filter(player__mid=late).update(paid_on=date(2016, 11, 10))
    out = record_lineup(
        w.official, m.match, m.home, half1_mids=m.roster[:4], half2_mids=m.roster[:4]
    )
    assert [v.data["mid"] for v in out.warnings if v.clause == "R-TEAM-RES-1"] == [late]


def test_r_team_res_2_player_who_played_for_another_team_is_flagged(w, m):
    roamer = p(w)
    other = TeamFactory(heat=TeamHeatFactory(competition=w.comp), players=4)
    other_match = MatchFactory(
        home=other, away=TeamFactory(heat=other.heat, players=4), played_on=date(2016, 10, 29)
    )
    Lineup.objects.create(match=other_match, team=other, player=roamer, half=1)
    # Already on the roster (added before he played elsewhere): fielding him is flagged.
    RosterEntry.objects.create(team=m.away, player=roamer)
    away = list(m.away.roster.values_list("player__mid", flat=True))
    out = record_lineup(w.official, m.match, m.away, half1_mids=away[-4:], half2_mids=away[:4])
    res2 = [v for v in out.warnings if v.clause == "R-TEAM-RES-2"]
    assert len(res2) == 1 and roamer.mid in res2[0].message_sv
    assert res2[0].data["disqualified"] is True


def test_r_team_res_2_player_who_played_for_another_team_cannot_be_added(w, m):
    roamer = p(w)
    other = TeamFactory(heat=TeamHeatFactory(competition=w.comp), players=4, name="Roslagen")
    other_match = MatchFactory(
        home=other, away=TeamFactory(heat=other.heat, players=4), played_on=date(2016, 10, 19)
    )
    Lineup.objects.create(match=other_match, team=other, player=roamer, half=1)
    before = sorted(m.away.roster.values_list("player__mid", flat=True))
    for user, reason in ((w.official, "Vi vill"), (w.tk, "")):
        with pytest.raises(ServiceError) as exc:
            update_roster(user, m.away, add_mids=[roamer.mid], reason=reason)
        assert any("Roslagen" in t and "(R-TEAM-RES-2)" in t for t in exc.value.messages("sv"))
    assert sorted(m.away.roster.values_list("player__mid", flat=True)) == before
    # TK, with a reason, may (the decision is recorded; fielding him stays TK's matter).
    out = update_roster(w.tk, m.away, add_mids=[roamer.mid], reason="Felregistrerad match")
    assert [v.clause for v in out.warnings if v.data.get("mid") == roamer.mid] == ["R-TEAM-RES-2"]
    allowed = Decision.objects.get(action="teams.other_team.allowed")
    assert allowed.reason == "Felregistrerad match" and allowed.data["mids"] == [roamer.mid]


def test_r_team_4_non_ubf_player_fielded_leaves_the_dm_race(w):
    players = mids(w, 3) + mids(w, 1, club=w.sth)
    home = enter_team(w.official, w.heat, **team_fields(w, players, name="Blandat")).team
    away = enter_team(w.official, w.heat, **team_fields(w, mids(w, 4), name="Borta")).team
    match = MatchFactory(home=home, away=away, played_on=date(2016, 11, 5))
    status = team_dm_status(home)
    assert status.competes_for_dm and not status.bonus_eligible and status.label == "DM/SM"
    out = record_lineup(w.official, match, home, half1_mids=players, half2_mids=players)
    assert "R-TEAM-4" in [v.clause for v in out.warnings]
    status = team_dm_status(home)
    assert not status.competes_for_dm and status.label == "SM"
    assert [v.clause for v in status.reasons] == ["R-TEAM-4"]
    assert team_dm_status(away).competes_for_dm and team_dm_status(away).bonus_eligible


# --- permissions -------------------------------------------------------------------------

ROLES = ["anonymous", "other_official", "heat_official", "heat_responsible", "captain", "tk"]
EXPECTED = {
    "enter_team": {"heat_official", "heat_responsible", "tk"},
    "update_roster": {"heat_official", "heat_responsible", "captain", "tk"},
    "record_lineup": {"heat_official", "heat_responsible", "captain", "tk"},
}


@pytest.fixture
def perm(w):
    home = TeamFactory(heat=w.heat, players=5)
    away = TeamFactory(heat=w.heat, players=4)
    captain = UserFactory()
    home.captain_user = captain
    home.save()
    match = MatchFactory(home=home, away=away, played_on=date(2016, 11, 5))
    return SimpleNamespace(home=home, match=match, captain=captain)


def user_for(role, w, perm):
    return {
        "anonymous": lambda: AnonymousUser(),
        "other_official": lambda: ClubOfficialFactory(club=ClubFactory()).user,
        "heat_official": lambda: w.official,
        "heat_responsible": lambda: w.responsible,
        "captain": lambda: perm.captain,
        "tk": lambda: w.tk,
    }[role]()


def act(action, user, w, perm):
    roster = list(perm.home.roster.values_list("player__mid", flat=True))
    if action == "enter_team":
        return enter_team(user, w.heat, **team_fields(w, mids(w, 4), name="Nytt lag"))
    if action == "update_roster":
        return update_roster(user, perm.home, add_mids=[p(w).mid])
    return record_lineup(user, perm.match, perm.home, half1_mids=roster[:4], half2_mids=roster[1:])


@pytest.mark.parametrize("action", sorted(EXPECTED))
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(w, perm, role, action):
    user = user_for(role, w, perm)
    before = snapshot()
    if role in EXPECTED[action]:
        assert act(action, user, w, perm) is not None
    else:
        with pytest.raises(PermissionDenied):
            act(action, user, w, perm)
        assert snapshot() == before


# --- admin -----------------------------------------------------------------------------


def test_team_admin_shows_roster_size_and_dm_sm_status(w, client):
    from django.urls import reverse

    players = mids(w, 4) + mids(w, 1, club=w.sth)
    mixed = enter_team(w.official, w.heat, **team_fields(w, players, name="Blandat")).team
    pure = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6), name="Rent")).team
    match = MatchFactory(home=mixed, away=pure, played_on=date(2016, 11, 5))
    record_lineup(w.tk, match, mixed, half1_mids=players[1:], half2_mids=players[:4])

    from teams.services.entries import with_roster_and_dm_columns

    rows = {t.pk: t for t in with_roster_and_dm_columns(Team.objects.all())}
    assert (rows[mixed.pk].roster_size, rows[mixed.pk].fielded_outside_ubf) == (5, True)
    assert (rows[pure.pk].roster_size, rows[pure.pk].fielded_outside_ubf) == (6, False)
    # the list column agrees with team_dm_status (R-TEAM-4)
    assert team_dm_status(mixed).label == "SM" and team_dm_status(pure).label == "DM/SM"

    client.force_login(w.tk)
    html = client.get(reverse("admin:teams_team_changelist")).content.decode()
    assert "DM/SM" in html and ">SM<" in html


def test_r_team_5_dispensation_occasion_is_one_of_the_teams_own_days(w):
    # The case: a 7th player "for 2030-01-01", typed as free text.
    team = enter_team(w.official, w.heat, **team_fields(w, mids(w, 6))).team
    x = p(w)
    msg = refused(
        request_extra_player,
        w.official,
        team,
        x.mid,
        occasion="Nyår",
        occasion_date=date(2030, 1, 1),
    )
    assert "R-TEAM-5" in msg and "2016-11-05, 2016-11-06" in msg
    # One of its own days (TeamHeatFactory plays 5-6 Nov 2016), named by the system.
    d = request_extra_player(w.official, team, x.mid, occasion="", occasion_date=date(2016, 11, 6))
    assert d.occasion == f"{w.heat.name}, dag 2"
    # After the day it is too late, for TK too (it is sought before the occasion).
    with clock.frozen("2016-11-07"):
        msg = refused(
            request_extra_player, w.tk, team, p(w).mid, occasion="", occasion_date=date(2016, 11, 6)
        )
    assert "har redan varit" in msg
