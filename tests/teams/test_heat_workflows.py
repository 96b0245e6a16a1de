"""Team qualifier heats: registration, TK's decision, changes, entries at close, moving a team
and the direct final (teams.services.heats), and the TK admin actions."""

from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from clubs import clock
from clubs.models import ClubOfficial, Decision
from clubs.services.base import ServiceError
from clubs.services.heats import decide_direct_final, direct_final_needed
from results.models import AllocationRun
from teams.models import Team, TeamHeat, TeamHeatChangeRequest, TeamHeatOrganiser
from teams.services.heats import (
    TEAM_HEATS,
    cancel_team_heat,
    decide_heat_change,
    decide_team_heat,
    move_team_heat,
    move_team_to_heat,
    register_team_heat,
    request_heat_change,
    team_heat_entry_check,
)
from tests.factories import (
    ClubFactory,
    MatchFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    official,
    tk_group_member,
)

pytestmark = [pytest.mark.django_db]

BEFORE_DEADLINE = "2016-09-01"  # the team heat registration deadline is 2016-09-15
AFTER_DEADLINE = "2016-09-20"


@pytest.fixture
def competition():
    return TeamCompetitionFactory(season=SeasonFactory())  # kval 2016-10-01..2017-01-31


def register(user, competition, clubs, **overrides):
    kwargs = dict(
        name="Uppsalakvalet",
        venue="Bridgens hus, Uppsala",
        responsible_name="Eva Heatansvarig",
        responsible_email="eva@bkuppsala.se",
        responsible_phone="070-111 22 33",
        boards_per_match=16,
        dealt_at_table=False,
        first_date=date(2016, 11, 5),
        last_date=date(2016, 11, 6),
        entries_close=date(2016, 10, 29),
        start_fee=500,
        table_fee_per_match=100,
        invitation_url="https://bkuppsala.se/dm-lag",
    )
    kwargs.update(overrides)
    return register_team_heat(user, competition, clubs, **kwargs)


def refused(call, *clauses) -> ServiceError:
    """``call`` must raise ServiceError naming every clause given, and write nothing."""

    def counts():
        return (
            TeamHeat.objects.count(),
            TeamHeatOrganiser.objects.count(),
            TeamHeatChangeRequest.objects.count(),
            Decision.objects.count(),
            list(Team.objects.values_list("heat_id", "number")),
        )

    before = counts()
    with pytest.raises(ServiceError) as info:
        call()
    assert counts() == before
    found = {v.clause for v in info.value.violations}
    for clause in clauses:
        assert clause in found, (clause, str(info.value))
        assert clause in str(info.value)
    return info.value


# --- Registration (R-TEAM-REG-1, R-TEAM-KVAL-1, -3, -5) ---------------------------------------


def test_r_team_reg_1_official_registers_a_heat(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(official(club_a), competition, [club_a])
    heat.refresh_from_db()
    assert heat.status == "applied"
    assert heat.registered_on == date(2016, 9, 1)
    assert [o.club for o in heat.organisers.all()] == [club_a]
    assert (heat.start_fee, heat.table_fee_per_match) == (500, 100)
    assert heat.responsible_email == "eva@bkuppsala.se"


def test_r_team_reg_1_registration_needs_the_invitation_and_venue(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        error = refused(
            lambda: register(official(club_a), competition, [club_a], invitation_url="", venue=""),
            "R-TEAM-REG-1",
        )
    assert "inbjudan" in str(error)
    assert "spelplats" in str(error)


def test_r_team_reg_1_registration_after_the_date_ubf_set_is_refused(competition, club_a):
    with clock.frozen("2016-09-16"):
        refused(lambda: register(official(club_a), competition, [club_a]), "R-TEAM-REG-1")


def test_r_team_kval_1_play_days_inside_the_period(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(
                official(club_a),
                competition,
                [club_a],
                first_date=date(2017, 1, 31),
                last_date=date(2017, 2, 1),
            ),
            "R-TEAM-KVAL-1",
        )


def test_r_team_kval_1_second_heat_of_the_same_club_is_refused(competition, club_a, club_b):
    user = official(club_a)
    with clock.frozen(BEFORE_DEADLINE):
        register(user, competition, [club_a])
        error = refused(
            lambda: register(user, competition, [club_a], name="Andra kvalet"), "R-TEAM-KVAL-1"
        )
    assert "BK Uppsala" in str(error)
    assert "bara arrangera ett heat" in str(error)


def test_r_team_kval_1_joint_heat_counts_for_each_club(competition, club_a, club_b, tk):
    with clock.frozen(BEFORE_DEADLINE):
        joint = register(tk, competition, [club_a, club_b], name="Regionkval")
        assert {o.club for o in joint.organisers.all()} == {club_a, club_b}
        error = refused(lambda: register(tk, competition, [club_b]), "R-TEAM-KVAL-1")
    assert "Enköpings BK" in str(error)


def test_r_team_kval_1_club_on_a_rejected_heat_gets_a_clear_message(competition, club_a, tk):
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(tk, competition, [club_a])
        decide_team_heat(tk, heat, False, "Fel datum")
        error = refused(lambda: register(tk, competition, [club_a]), "R-TEAM-KVAL-1")
    assert "avslaget" in str(error) and "UBF TK" in str(error)


def test_r_team_kval_3_a_named_heat_responsible(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(
                official(club_a), competition, [club_a], responsible_name=" ", responsible_email="x"
            ),
            "R-TEAM-KVAL-3",
        )


@pytest.mark.parametrize("boards", [7, 25, None])
def test_r_team_kval_5_boards_per_match_outside_8_to_24_are_refused(competition, club_a, boards):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(official(club_a), competition, [club_a], boards_per_match=boards),
            "R-TEAM-KVAL-5",
        )


@pytest.mark.parametrize("boards", [8, 24])
def test_r_team_kval_5_8_and_24_boards_are_allowed(competition, club_a, boards):
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(official(club_a), competition, [club_a], boards_per_match=boards)
    assert heat.boards_per_match == boards


def test_r_team_fee_1_start_fee_is_the_seasons(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(official(club_a), competition, [club_a], start_fee=400),
            "R-TEAM-FEE-1",
        )


def test_r_team_kval_2_entries_close_by_the_first_day(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(
                official(club_a), competition, [club_a], entries_close=date(2016, 11, 6)
            ),
            "R-TEAM-KVAL-2",
        )


def test_r_team_df_1_no_heats_after_a_direct_final_decision(competition, club_a):
    competition.is_direct_final = True
    competition.save()
    with clock.frozen(BEFORE_DEADLINE):
        refused(lambda: register(official(club_a), competition, [club_a]), "R-TEAM-DF-1")


def test_non_official_may_not_register(competition, club_a, club_b):
    with clock.frozen(BEFORE_DEADLINE):
        with pytest.raises(PermissionDenied):
            register(official(club_b), competition, [club_a])
        with pytest.raises(PermissionDenied):
            register(UserFactory(), competition, [club_a])
    assert TeamHeat.objects.count() == TeamHeatOrganiser.objects.count() == 0


# --- TK's decision (R-GEN-3) ------------------------------------------------------------------


@pytest.fixture
def heat(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        return register(official(club_a), competition, [club_a])


def test_r_gen_3_tk_approves_a_team_heat_and_it_is_recorded(heat, tk, recompute):
    decide_team_heat(tk, heat, True, "")
    heat.refresh_from_db()
    assert heat.status == "approved"
    decision = Decision.objects.get()
    assert (decision.action, decision.clause, decision.decided_by) == (
        "teams.heat.approved",
        "R-TEAM-REG-1",
        tk,
    )
    assert decision.data["boards_per_match"] == 16
    recompute.assert_called_once_with(competition_id=heat.competition_id)


def test_r_gen_3_team_heat_rejection_needs_a_reason(heat, tk):
    refused(lambda: decide_team_heat(tk, heat, False), "R-GEN-3")
    decide_team_heat(tk, heat, False, "Krockar med finalen")
    heat.refresh_from_db()
    assert heat.status == "rejected"


# --- Changes ----------------------------------------------------------------------------------


def test_team_heat_moves_before_the_deadline_keeping_its_length(heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(BEFORE_DEADLINE):
        move_team_heat(user, heat, first_date=date(2016, 11, 12))
    heat.refresh_from_db()
    assert (heat.first_date, heat.last_date) == (date(2016, 11, 12), date(2016, 11, 13))


def test_r_pair_kval_2_team_heat_change_after_the_deadline_is_a_request(heat, club_a, tk):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(AFTER_DEADLINE):
        refused(lambda: move_team_heat(user, heat, first_date=date(2016, 11, 12)), "R-PAIR-KVAL-2")
        refused(lambda: cancel_team_heat(user, heat), "R-PAIR-KVAL-2")
        request = request_heat_change(user, heat, "move", date(2016, 11, 12))
    assert (request.heat, request.new_second_date) == (heat, date(2016, 11, 13))
    decide_heat_change(tk, request, True, "")
    heat.refresh_from_db()
    assert (heat.first_date, heat.last_date) == (date(2016, 11, 12), date(2016, 11, 13))
    assert Decision.objects.get().action == "teams.heat_change.granted"


def test_team_heat_change_request_dates_are_checked(heat, tk):
    with clock.frozen(AFTER_DEADLINE):
        refused(
            lambda: request_heat_change(tk, heat, "move", date(2017, 1, 31), date(2017, 2, 1)),
            "R-TEAM-KVAL-1",
        )


# --- Entries at close and moving teams (R-TEAM-KVAL-2) ----------------------------------------


@pytest.fixture
def two_heats(competition, club_a, club_b):
    small = TeamHeatFactory(
        competition=competition,
        organisers=[club_a],
        name="Lilla kvalet",
        entries_close=date(2016, 10, 29),
    )
    big = TeamHeatFactory(
        competition=competition,
        organisers=[club_b],
        name="Stora kvalet",
        first_date=date(2016, 11, 19),
        last_date=date(2016, 11, 20),
    )
    for _ in range(3):
        TeamFactory(heat=small)
    for _ in range(5):
        TeamFactory(heat=big)
    return small, big


def test_r_team_kval_2_three_teams_at_close_gives_a_notice(two_heats, competition):
    small, big = two_heats
    started = TeamHeatFactory(
        competition=competition, name="Redan igång", first_date=date(2016, 10, 1)
    )
    assert team_heat_entry_check(small, date(2016, 10, 29)) == []  # the closing day itself
    before = list(TeamHeat.objects.values_list("pk", "status")), Decision.objects.count()
    notices = team_heat_entry_check(small, date(2016, 10, 30))
    assert (list(TeamHeat.objects.values_list("pk", "status")), Decision.objects.count()) == before
    assert "Meddela UBF TK" in notices[0].message_sv  # the organiser tells TK at once
    assert [n.clause for n in notices] == ["R-TEAM-KVAL-2"]
    assert notices[0].data["teams"] == 3
    assert notices[0].data["offer_heats"] == ["Stora kvalet"]
    assert started.name not in notices[0].data["offer_heats"]
    TeamFactory(heat=small)
    assert team_heat_entry_check(small, date(2016, 10, 30)) == []


def test_r_team_kval_2_tk_moves_a_team_to_another_heat(two_heats, tk, decide):
    small, big = two_heats
    team = small.teams.first()
    decide(move_team_to_heat, tk, team, big, "Heatet fick för få lag")
    team.refresh_from_db()
    assert team.heat == big
    assert team.number == max(t.number for t in big.teams.exclude(pk=team.pk)) + 1
    decision = Decision.objects.get()
    assert (decision.action, decision.clause) == ("teams.team.heat_moved", "R-TEAM-KVAL-2")
    assert decision.data["to_heat"] == "Stora kvalet"
    # the real recompute (no mock): the final's allocation counts the team in the big heat,
    # 5 + 1 = 6 entries, and the small heat 3 − 1 = 2 (R-ALLOC-2: seats by entries per heat)
    run = AllocationRun.objects.get(competition=team.competition)
    entries = {v["label"]: v["entries"] for v in run.explanation["venues"]}
    assert entries == {"Stora kvalet": 6, "Lilla kvalet": 2}


def test_r_team_kval_2_moving_a_team_needs_both_heats(two_heats, club_a, club_b):
    small, big = two_heats
    team = small.teams.first()
    only_old = official(club_a)
    with pytest.raises(PermissionDenied):
        move_team_to_heat(only_old, team, big)
    team.refresh_from_db()
    assert team.heat == small
    big.responsible_user = only_old
    big.save()
    move_team_to_heat(only_old, team, big)
    team.refresh_from_db()
    assert team.heat == big


def test_r_team_kval_2_a_team_that_has_played_is_not_moved(two_heats, tk):
    small, big = two_heats
    home, away = small.teams.all()[:2]
    MatchFactory(home=home, away=away)
    refused(lambda: move_team_to_heat(tk, home, big), "R-TEAM-KVAL-2")


def test_r_team_kval_2_no_move_to_a_cancelled_heat(two_heats, tk):
    small, big = two_heats
    big.status = "cancelled"
    big.save()
    refused(lambda: move_team_to_heat(tk, small.teams.first(), big), "R-TEAM-KVAL-2")


# --- Direct final (R-TEAM-DF-1) ---------------------------------------------------------------


def test_r_team_df_1_direct_final_needed(competition, club_a, club_b):
    TeamHeatFactory(competition=competition, organisers=[club_a])
    notice = direct_final_needed(TEAM_HEATS, competition)
    assert notice.clause == "R-TEAM-DF-1"
    assert notice.data["arranging_clubs"] == 1
    TeamHeatFactory(competition=competition, organisers=[club_b], status="applied")
    assert direct_final_needed(TEAM_HEATS, competition) is not None  # not approved yet
    TeamHeat.objects.filter(organisers__club=club_b).update(status="approved")
    assert direct_final_needed(TEAM_HEATS, competition) is None


def test_r_team_df_1_tk_decides_direct_final(competition, tk, club_a, recompute):
    with clock.frozen("2017-01-25"):
        decide_direct_final(TEAM_HEATS, tk, competition, True)
    competition.refresh_from_db()
    assert competition.is_direct_final
    decision = Decision.objects.get()
    assert (decision.action, decision.clause) == ("teams.direct_final.decided", "R-TEAM-DF-1")
    assert "Alla lag ska mötas" in decision.reason
    with pytest.raises(PermissionDenied):
        decide_direct_final(TEAM_HEATS, official(club_a), competition, False, "x")


# --- Permission matrix ------------------------------------------------------------------------

ROLES = ["anonymous", "other_official", "own_official", "heat_responsible", "tk"]
ALLOWED = {
    "register": {"own_official", "tk"},  # the heat responsible is no club official here
    "decide": {"tk"},
    "move": {"own_official", "heat_responsible", "tk"},
    "request": {"own_official", "heat_responsible", "tk"},
    "decide_change": {"tk"},
}


@pytest.fixture
def world(competition, club_a, club_b):
    tk_user = tk_group_member()
    responsible = UserFactory()
    users = {
        "anonymous": AnonymousUser(),
        "other_official": official(club_b),
        "own_official": official(club_a),
        "heat_responsible": responsible,
        "tk": tk_user,
    }
    # The own official also acts for a club without a heat yet (registering for club_a again
    # would meet R-TEAM-KVAL-1).
    club_c = ClubFactory(name="Tierps BK")
    ClubOfficial.objects.create(user=users["own_official"], club=club_c, role="chair")
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(users["own_official"], competition, [club_a], responsible_user=responsible)
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(users["own_official"], heat, "cancel")
    return users, heat, request, club_c


def act(action, user, competition, heat, request, club_c):
    if action == "register":
        with clock.frozen(BEFORE_DEADLINE):
            return register(user, competition, [club_c], name="Tierpskvalet")
    if action == "decide":
        return decide_team_heat(user, heat, True)
    if action == "move":
        with clock.frozen(BEFORE_DEADLINE):
            return move_team_heat(user, heat, first_date=date(2016, 11, 12))
    if action == "request":
        request.status = "rejected"  # let a new request in
        request.save()
        with clock.frozen(AFTER_DEADLINE):
            return request_heat_change(user, heat, "move", date(2016, 11, 12))
    return decide_heat_change(user, request, False, "Nej")


@pytest.mark.parametrize("action", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(world, competition, role, action):
    users, heat, request, club_c = world

    def state():
        fresh = TeamHeat.objects.get(pk=heat.pk)
        return (
            TeamHeat.objects.count(),
            TeamHeatOrganiser.objects.count(),
            TeamHeatChangeRequest.objects.count(),
            Decision.objects.count(),
            fresh.first_date,
            fresh.status,
        )

    if role in ALLOWED[action]:
        assert act(action, users[role], competition, heat, request, club_c) is not None
    else:
        before = state()
        with pytest.raises(PermissionDenied):
            act(action, users[role], competition, heat, request, club_c)
        assert state() == before


# --- TK admin ---------------------------------------------------------------------------------


def test_admin_team_heat_actions(client, tk, heat):
    client.force_login(tk)
    url = reverse("admin:teams_teamheat_changelist")
    client.post(url, {"action": "reject_heats", "_selected_action": [heat.pk], "reason": ""})
    heat.refresh_from_db()
    assert heat.status == "applied"
    client.post(url, {"action": "approve_heats", "_selected_action": [heat.pk]})
    heat.refresh_from_db()
    assert heat.status == "approved"
    assert Decision.objects.get().action == "teams.heat.approved"
