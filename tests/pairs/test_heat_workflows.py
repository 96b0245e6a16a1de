"""Pair qualifier heats: registration, TK's decision, changes before/after the deadline,
invitations and the direct final (pairs.services.heats), and the TK admin actions."""

from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs import clock
from clubs.models import ClubOfficial, Decision
from clubs.services.base import ServiceError
from clubs.services.heats import decide_direct_final, direct_final_needed
from pairs.models import PairHeat, PairHeatChangeRequest
from pairs.services.heats import (
    PAIR_HEATS,
    cancel_pair_heat,
    decide_heat_change,
    decide_pair_heat,
    invitation_problems,
    move_pair_heat,
    record_invitation,
    register_pair_heat,
    request_heat_change,
)
from tests.factories import (
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    official,
    tk_group_member,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]

BEFORE_DEADLINE = "2016-11-15"  # the Open heat registration deadline is 2016-12-01
AFTER_DEADLINE = "2016-12-10"


@pytest.fixture
def season():
    return SeasonFactory()


@pytest.fixture
def competition(season):
    return PairCompetitionFactory(season=season)  # Open: kval 2017-01-01..2017-03-31


def register(user, competition, clubs, **overrides):
    kwargs = dict(
        name="Uppsala kval",
        heat_type="silver",
        first_date=date(2017, 2, 10),
        venue="Bridgens hus",
        table_fee=40,
    )
    kwargs.update(overrides)
    return register_pair_heat(user, competition, clubs, **kwargs)


def refused(call, *clauses) -> ServiceError:
    """Run ``call``; it must raise ServiceError naming every clause given, writing nothing."""
    counts = (
        PairHeat.objects.count(),
        PairHeatChangeRequest.objects.count(),
        Decision.objects.count(),
    )
    with pytest.raises(ServiceError) as info:
        call()
    after = (
        PairHeat.objects.count(),
        PairHeatChangeRequest.objects.count(),
        Decision.objects.count(),
    )
    assert after == counts
    found = {v.clause for v in info.value.violations}
    for clause in clauses:
        assert clause in found, (clause, str(info.value))
        assert clause in str(info.value)
    return info.value


# --- Registration (R-PAIR-KVAL-1, -3, -5, -6) ------------------------------------------------


def test_r_pair_kval_1_official_registers_heat_applied_today(competition, club_a):
    user = official(club_a)
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(user, competition, [club_a], last_date=date(2017, 2, 17))
    heat.refresh_from_db()
    assert heat.status == "applied"
    assert heat.registered_on == date(2016, 11, 15)
    assert list(heat.clubs.all()) == [club_a]
    assert heat.invitation_sent_on is None
    assert heat.last_date == date(2017, 2, 17)


def test_r_pair_kval_1_joint_heat_needs_an_official_of_every_club(competition, club_a, club_b):
    user = official(club_a)
    with clock.frozen(BEFORE_DEADLINE):
        with pytest.raises(PermissionDenied):
            register(user, competition, [club_a, club_b])
        assert PairHeat.objects.count() == 0
        ClubOfficial.objects.create(user=user, club=club_b, role=ClubOfficial.Role.CONTACT)
        heat = register(user, competition, [club_a, club_b])
    assert set(heat.clubs.all()) == {club_a, club_b}


def test_r_pair_kval_1_play_date_outside_the_period_is_refused(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        error = refused(
            lambda: register(
                official(club_a), competition, [club_a], first_date=date(2016, 12, 20)
            ),
            "R-PAIR-KVAL-1",
        )
    assert "kvalperioden" in str(error)


def test_r_pair_kval_1_registration_after_the_deadline_is_refused(competition, club_a):
    with clock.frozen("2016-12-02"):
        error = refused(lambda: register(official(club_a), competition, [club_a]), "R-PAIR-KVAL-1")
    assert "efter sista anmälningsdag" in str(error)


def test_r_pair_kval_1_deadline_day_itself_is_in_time(competition, club_a):
    with clock.frozen("2016-12-01"):
        heat = register(official(club_a), competition, [club_a])
    assert heat.registered_on == date(2016, 12, 1)


def test_r_pair_kval_1_dam_has_no_qualifier_heats(season, club_a, tk):
    dam = PairCompetitionFactory(
        season=season,
        discipline="dam",
        qualifying_start=None,
        qualifying_end=None,
        heat_registration_deadline=None,
        final_date=date(2016, 10, 2),
    )
    with clock.frozen("2016-09-01"):
        error = refused(
            lambda: register(tk, dam, [club_a], first_date=date(2016, 9, 20)), "R-PAIR-KVAL-1"
        )
    assert "Dam" in str(error)


def test_r_pair_kval_6_second_session_must_come_after_the_first(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(
                official(club_a),
                competition,
                [club_a],
                first_date=date(2017, 2, 10),
                last_date=date(2017, 2, 10),
            ),
            "R-PAIR-KVAL-6",
        )


def test_r_pair_kval_6_session_limit_is_season_configuration(season, competition, club_a):
    season.tables = {"heat_max_sessions": 1}
    season.save()
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(official(club_a), competition, [club_a], last_date=date(2017, 2, 17)),
            "R-PAIR-KVAL-6",
        )
        assert register(official(club_a), competition, [club_a]).last_date is None


def test_r_pair_kval_5_heat_type_must_be_declared(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(official(club_a), competition, [club_a], heat_type=""),
            "R-PAIR-KVAL-5",
        )
        heat = register(official(club_a), competition, [club_a], heat_type="bronze")
    assert heat.heat_type == "bronze"


def test_r_pair_kval_3_preregistration_needs_a_last_registration_day(competition, club_a):
    user = official(club_a)
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: register(user, competition, [club_a], requires_preregistration=True),
            "R-PAIR-KVAL-3",
        )
        refused(
            lambda: register(
                user,
                competition,
                [club_a],
                requires_preregistration=True,
                last_registration_day=date(2017, 2, 11),
            ),
            "R-PAIR-KVAL-3",
        )
        heat = register(
            user,
            competition,
            [club_a],
            requires_preregistration=True,
            last_registration_day=date(2017, 2, 8),
            pair_limit=None,  # a pair limit is optional
        )
    assert heat.last_registration_day == date(2017, 2, 8)
    assert heat.pair_limit is None


def test_r_pair_kval_3_invitation_given_at_registration_counts_as_sent(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(
            official(club_a),
            competition,
            [club_a],
            invitation_file=SimpleUploadedFile("inbjudan.pdf", b"%PDF-1.4 inbjudan"),
        )
    assert heat.invitation_sent_on == date(2016, 11, 15)
    assert heat.invitation_file.name.endswith(".pdf")


def test_every_problem_is_reported_at_once(competition, club_a):
    with clock.frozen("2016-12-05"):
        error = refused(
            lambda: register(
                official(club_a),
                competition,
                [club_a],
                heat_type="gold",
                venue="",
                first_date=date(2017, 5, 1),
                table_fee=-5,
            ),
            "R-PAIR-KVAL-1",
            "R-PAIR-KVAL-3",
            "R-PAIR-KVAL-5",
            "R-PAIR-FEE-1",
        )
    assert len(error.violations) >= 5  # date, deadline, venue, type, fee


def test_r_pair_df_1_no_heats_after_a_direct_final_decision(competition, club_a):
    competition.is_direct_final = True
    competition.save()
    with clock.frozen(BEFORE_DEADLINE):
        refused(lambda: register(official(club_a), competition, [club_a]), "R-PAIR-DF-1")


# --- TK's decision (R-GEN-3) ------------------------------------------------------------------


@pytest.fixture
def applied_heat(competition, club_a):
    with clock.frozen(BEFORE_DEADLINE):
        return register(official(club_a), competition, [club_a])


def test_r_gen_3_tk_approves_and_the_decision_is_recorded(applied_heat, tk, recompute):
    with clock.frozen("2016-11-20 10:00"):
        decide_pair_heat(tk, applied_heat, True, "Ser bra ut")
    applied_heat.refresh_from_db()
    assert applied_heat.status == "approved"
    decision = Decision.objects.get()
    assert decision.action == "pairs.heat.approved"
    assert decision.decided_by == tk
    assert decision.reason == "Ser bra ut"
    assert decision.clause == "R-PAIR-KVAL-1"
    assert decision.object_id == applied_heat.pk
    assert decision.data["clubs"] == ["BK Uppsala"]
    recompute.assert_called_once_with(competition_id=applied_heat.competition_id)


def test_r_gen_3_rejection_needs_a_reason(applied_heat, tk):
    refused(lambda: decide_pair_heat(tk, applied_heat, False, "  "), "R-GEN-3")
    applied_heat.refresh_from_db()
    assert applied_heat.status == "applied"
    decide_pair_heat(tk, applied_heat, False, "Krockar med DM-finalen")
    applied_heat.refresh_from_db()
    assert applied_heat.status == "rejected"
    assert Decision.objects.get().reason == "Krockar med DM-finalen"


def test_r_pair_kval_1_approval_checks_the_dates_again(applied_heat, competition, tk):
    competition.qualifying_start = date(2017, 2, 15)  # TK shortened the period
    competition.save()
    refused(lambda: decide_pair_heat(tk, applied_heat, True), "R-PAIR-KVAL-1")


def test_a_decided_heat_cannot_be_approved_twice(applied_heat, tk):
    decide_pair_heat(tk, applied_heat, True)
    refused(lambda: decide_pair_heat(tk, applied_heat, True), "R-GEN-3")


# --- Changes (R-PAIR-KVAL-2) ------------------------------------------------------------------


def test_r_pair_kval_2_club_moves_its_heat_before_the_deadline(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(BEFORE_DEADLINE):
        move_pair_heat(user, applied_heat, first_date=date(2017, 3, 3))
    applied_heat.refresh_from_db()
    assert applied_heat.first_date == date(2017, 3, 3)
    assert Decision.objects.count() == 0  # a club's own change is no TK decision


def test_r_pair_kval_2_club_may_not_move_or_cancel_after_the_deadline(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(AFTER_DEADLINE):
        error = refused(
            lambda: move_pair_heat(user, applied_heat, first_date=date(2017, 3, 3)),
            "R-PAIR-KVAL-2",
        )
        assert "ändringsbegäran" in str(error)
        refused(lambda: cancel_pair_heat(user, applied_heat), "R-PAIR-KVAL-2")
    applied_heat.refresh_from_db()
    assert (applied_heat.first_date, applied_heat.status) == (date(2017, 2, 10), "applied")


def test_r_pair_kval_2_moved_dates_must_stay_in_the_period(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(BEFORE_DEADLINE):
        refused(
            lambda: move_pair_heat(user, applied_heat, first_date=date(2017, 4, 2)),
            "R-PAIR-KVAL-1",
        )


def test_r_pair_kval_2_tk_may_move_after_the_deadline_and_it_is_recorded(applied_heat, tk):
    with clock.frozen(AFTER_DEADLINE):
        move_pair_heat(tk, applied_heat, first_date=date(2017, 3, 3), reason="Lokalen")
    decision = Decision.objects.get()
    assert (decision.action, decision.clause) == ("pairs.heat.moved", "R-PAIR-KVAL-2")
    assert decision.data["old_dates"] == ["2017-02-10", None]


def test_r_pair_kval_2_club_cancels_before_the_deadline(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(BEFORE_DEADLINE):
        cancel_pair_heat(user, applied_heat)
    applied_heat.refresh_from_db()
    assert applied_heat.status == "cancelled"


def test_r_pair_kval_2_request_after_the_deadline_and_tk_approves(applied_heat, club_a, tk):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(
            user, applied_heat, "move", date(2017, 3, 3), reason="Lokalen är upptagen"
        )
    assert request.status == "requested"
    assert request.requested_by == user
    applied_heat.refresh_from_db()
    assert applied_heat.first_date == date(2017, 2, 10)  # nothing changes before TK decides
    with clock.frozen("2016-12-11 09:30"):
        decide_heat_change(tk, request, True, "OK")
    request.refresh_from_db()
    applied_heat.refresh_from_db()
    assert applied_heat.first_date == date(2017, 3, 3)
    assert request.status == "granted"
    assert request.decided_by == tk
    assert request.decided_at is not None
    decision = Decision.objects.get()
    assert decision.action == "pairs.heat_change.granted"
    assert decision.clause == "R-PAIR-KVAL-2"


def test_r_pair_kval_2_a_move_keeps_the_gap_to_session_two(competition, club_a, tk):
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(official(club_a), competition, [club_a], last_date=date(2017, 2, 17))
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(tk, heat, "move", date(2017, 3, 3))
    assert (request.new_first_date, request.new_second_date) == (
        date(2017, 3, 3),
        date(2017, 3, 10),
    )


def test_r_pair_kval_2_requested_dates_are_checked(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen(AFTER_DEADLINE):
        refused(
            lambda: request_heat_change(user, applied_heat, "move", date(2017, 4, 20)),
            "R-PAIR-KVAL-1",
        )
        refused(lambda: request_heat_change(user, applied_heat, "move"), "R-PAIR-KVAL-2")
        request_heat_change(user, applied_heat, "cancel", reason="För få anmälda")
        error = refused(lambda: request_heat_change(user, applied_heat, "cancel"), "R-PAIR-KVAL-2")
    assert "obesvarad" in str(error)


def test_r_pair_kval_2_approval_checks_the_dates_again(applied_heat, competition, tk):
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(tk, applied_heat, "move", date(2017, 3, 25))
    competition.qualifying_end = date(2017, 3, 20)
    competition.save()
    refused(lambda: decide_heat_change(tk, request, True), "R-PAIR-KVAL-1")
    request.refresh_from_db()
    assert request.status == "requested"


def test_r_pair_kval_2_rejected_request_keeps_the_heat_and_needs_a_reason(applied_heat, tk):
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(tk, applied_heat, "cancel")
    refused(lambda: decide_heat_change(tk, request, False, ""), "R-GEN-3")
    decide_heat_change(tk, request, False, "Heatet behövs")
    applied_heat.refresh_from_db()
    request.refresh_from_db()
    assert applied_heat.status == "applied"
    assert (request.status, request.reason) == ("rejected", "Heatet behövs")
    assert Decision.objects.get().action == "pairs.heat_change.rejected"


def test_r_pair_kval_2_approved_cancellation_cancels(applied_heat, tk, recompute):
    decide_pair_heat(tk, applied_heat, True)
    recompute.reset_mock()
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(tk, applied_heat, "cancel")
        decide_heat_change(tk, request, True)
    applied_heat.refresh_from_db()
    assert applied_heat.status == "cancelled"
    recompute.assert_called_once_with(competition_id=applied_heat.competition_id)


# --- Invitation (R-PAIR-KVAL-3) ---------------------------------------------------------------


def test_r_pair_kval_3_record_invitation(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen("2017-01-05"):
        record_invitation(
            user,
            applied_heat,
            url="https://bkuppsala.se/kval",
            last_registration_day=date(2017, 2, 8),
            pair_limit=30,
        )
    applied_heat.refresh_from_db()
    assert applied_heat.invitation_sent_on == date(2017, 1, 5)
    assert applied_heat.invitation_url == "https://bkuppsala.se/kval"
    assert (applied_heat.last_registration_day, applied_heat.pair_limit) == (date(2017, 2, 8), 30)
    assert invitation_problems(applied_heat, date(2017, 2, 1)) == []


def test_r_pair_kval_3_invitation_needs_a_file_or_link_and_a_past_date(applied_heat, club_a):
    user = ClubOfficial.objects.get(club=club_a).user
    with clock.frozen("2017-01-05"):
        refused(lambda: record_invitation(user, applied_heat), "R-PAIR-KVAL-3")
        refused(
            lambda: record_invitation(
                user, applied_heat, url="https://x.se/k", sent_on=date(2017, 1, 9)
            ),
            "R-PAIR-KVAL-3",
        )
    applied_heat.refresh_from_db()
    assert applied_heat.invitation_sent_on is None


def test_r_pair_kval_3_invitation_flags(competition):
    heat = PairHeatFactory(competition=competition, first_date=date(2017, 2, 10))
    # Due by 2017-01-13 (28 days before): nothing to flag before that.
    assert invitation_problems(heat, date(2017, 1, 13)) == []
    late = invitation_problems(heat, date(2017, 1, 14))
    assert [p.clause for p in late] == ["R-PAIR-KVAL-3"]
    assert "inte skickats" in late[0].message_sv
    heat.invitation_sent_on = date(2017, 1, 20)
    heat.requires_preregistration = True
    heat.save()
    flags = invitation_problems(heat, date(2017, 1, 20))
    assert len(flags) == 2  # sent late, no last registration day
    assert any("sista anmälningsdag" in p.message_sv for p in flags)
    heat.status = "rejected"
    heat.save()
    assert invitation_problems(heat, date(2017, 1, 20)) == []


def test_r_pair_kval_3_invitation_days_are_season_configuration(season, competition):
    season.invitation_days_before = 21
    season.save()
    heat = PairHeatFactory(competition=competition, first_date=date(2017, 2, 10))
    assert invitation_problems(heat, date(2017, 1, 20)) == []  # due by 2017-01-20
    assert invitation_problems(heat, date(2017, 1, 21))


# --- Direct final (R-PAIR-DF-1) ---------------------------------------------------------------


def test_r_pair_df_1_direct_final_needed_with_fewer_than_two_arranging_clubs(
    competition, club_a, club_b
):
    notice = direct_final_needed(PAIR_HEATS, competition)
    assert notice is not None and notice.clause == "R-PAIR-DF-1"
    PairHeatFactory(competition=competition, clubs=[club_a])
    PairHeatFactory(competition=competition, clubs=[club_a], first_date=date(2017, 3, 1))
    PairHeatFactory(competition=competition, clubs=[club_b], status="applied")
    assert direct_final_needed(PAIR_HEATS, competition).data["arranging_clubs"] == 1
    PairHeatFactory(competition=competition, clubs=[club_b], first_date=date(2017, 3, 10))
    assert direct_final_needed(PAIR_HEATS, competition) is None


def test_r_pair_df_1_joint_heat_of_two_clubs_is_enough(competition, club_a, club_b):
    PairHeatFactory(competition=competition, clubs=[club_a, club_b])
    assert direct_final_needed(PAIR_HEATS, competition) is None


def test_r_pair_df_1_tk_decides_and_the_decision_is_recorded(competition, tk, recompute):
    with clock.frozen("2017-03-30"):
        decide_direct_final(PAIR_HEATS, tk, competition, True)
    competition.refresh_from_db()
    assert competition.is_direct_final is True
    decision = Decision.objects.get()
    assert (decision.action, decision.clause) == ("pairs.direct_final.decided", "R-PAIR-DF-1")
    assert decision.data["direct"] is True and decision.data["arranging_clubs"] == 0
    assert "direkt DM-final" in decision.reason  # the rule's reason when TK gives none
    recompute.assert_called_once_with(competition_id=competition.pk)


def test_r_pair_df_1_deciding_against_the_rule_needs_a_reason(competition, tk):
    refused(lambda: decide_direct_final(PAIR_HEATS, tk, competition, False), "R-PAIR-DF-1")
    competition.refresh_from_db()
    assert competition.is_direct_final is False
    decide_direct_final(PAIR_HEATS, tk, competition, False, "Två klubbar har lovat kval i mars")
    assert Decision.objects.get().reason == "Två klubbar har lovat kval i mars"


def test_r_pair_df_1_only_tk_decides(competition, club_a):
    with pytest.raises(PermissionDenied):
        decide_direct_final(PAIR_HEATS, official(club_a), competition, True, "x")
    assert Decision.objects.count() == 0


# --- Permission matrix ------------------------------------------------------------------------

ROLES = ["anonymous", "other_official", "own_official", "heat_responsible", "tk"]
ALLOWED = {
    "register": {"own_official", "heat_responsible", "tk"},
    "decide": {"tk"},
    "move": {"own_official", "heat_responsible", "tk"},
    "request": {"own_official", "heat_responsible", "tk"},
    "decide_change": {"tk"},
}


@pytest.fixture
def world(competition, club_a, club_b):
    tk_user = tk_group_member()
    users = {
        "anonymous": AnonymousUser(),
        "other_official": official(club_b),
        "own_official": official(club_a),
        "heat_responsible": official(club_a, ClubOfficial.Role.HEAT_RESPONSIBLE),
        "tk": tk_user,
    }
    with clock.frozen(BEFORE_DEADLINE):
        heat = register(users["own_official"], competition, [club_a])
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(users["own_official"], heat, "cancel")
    return users, heat, request


def act(action, user, competition, heat, request, club):
    if action == "register":
        with clock.frozen(BEFORE_DEADLINE):
            return register(user, competition, [club], first_date=date(2017, 3, 1))
    if action == "decide":
        return decide_pair_heat(user, heat, True)
    if action == "move":
        with clock.frozen(BEFORE_DEADLINE):
            return move_pair_heat(user, heat, first_date=date(2017, 3, 3))
    if action == "request":
        request.status = "rejected"  # let a new request in
        request.save()
        with clock.frozen(AFTER_DEADLINE):
            return request_heat_change(user, heat, "move", date(2017, 3, 3))
    return decide_heat_change(user, request, False, "Nej")


@pytest.mark.parametrize("action", list(ALLOWED))
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(world, competition, club_a, role, action):
    users, heat, request = world
    before = (
        PairHeat.objects.count(),
        PairHeatChangeRequest.objects.count(),
        Decision.objects.count(),
        PairHeat.objects.get(pk=heat.pk).first_date,
    )
    if role in ALLOWED[action]:
        assert act(action, users[role], competition, heat, request, club_a) is not None
    else:
        with pytest.raises(PermissionDenied):
            act(action, users[role], competition, heat, request, club_a)
        after = (
            PairHeat.objects.count(),
            PairHeatChangeRequest.objects.count(),
            Decision.objects.count(),
            PairHeat.objects.get(pk=heat.pk).first_date,
        )
        assert after == before


# --- TK admin ---------------------------------------------------------------------------------


@pytest.fixture
def tk_client(client, tk):
    client.force_login(tk)
    return client


def test_admin_approve_and_reject_actions(tk_client, applied_heat):
    url = reverse("admin:pairs_pairheat_changelist")
    other = PairHeatFactory(competition=applied_heat.competition, status="applied")
    response = tk_client.post(
        url, {"action": "approve_heats", "_selected_action": [applied_heat.pk]}, follow=True
    )
    assert response.status_code == 200
    applied_heat.refresh_from_db()
    assert applied_heat.status == "approved"
    response = tk_client.post(
        url, {"action": "reject_heats", "_selected_action": [other.pk], "reason": ""}, follow=True
    )
    other.refresh_from_db()
    assert other.status == "applied"
    assert "R-GEN-3" in response.content.decode()
    tk_client.post(
        url, {"action": "reject_heats", "_selected_action": [other.pk], "reason": "Dubblett"}
    )
    other.refresh_from_db()
    assert other.status == "rejected"
    assert Decision.objects.filter(action="pairs.heat.rejected", reason="Dubblett").exists()


def test_admin_invitation_column_flags_missing_invitation(tk_client, competition):
    PairHeatFactory(competition=competition, name="Sent kval", first_date=date(2017, 1, 20))
    with clock.frozen("2017-01-10"):
        response = tk_client.get(reverse("admin:pairs_pairheat_changelist"))
    body = response.content.decode()
    assert "Inbjudan" in body
    assert "⚠" in body and "inte skickats" in body


def test_admin_change_request_actions(tk_client, applied_heat, tk):
    with clock.frozen(AFTER_DEADLINE):
        request = request_heat_change(tk, applied_heat, "move", date(2017, 3, 3))
    url = reverse("admin:pairs_pairheatchangerequest_changelist")
    tk_client.post(url, {"action": "approve_requests", "_selected_action": [request.pk]})
    request.refresh_from_db()
    applied_heat.refresh_from_db()
    assert request.status == "granted"
    assert applied_heat.first_date == date(2017, 3, 3)


def test_admin_actions_refuse_non_tk_staff(client, applied_heat, club_a):
    staff = ClubOfficial.objects.get(club=club_a).user
    staff.is_staff = True
    staff.save()
    from django.contrib.auth.models import Permission

    staff.user_permissions.add(*Permission.objects.filter(codename__endswith="pairheat"))
    client.force_login(staff)
    response = client.post(
        reverse("admin:pairs_pairheat_changelist"),
        {"action": "approve_heats", "_selected_action": [applied_heat.pk]},
        follow=True,
    )
    assert "UBF TK" in response.content.decode()
    applied_heat.refresh_from_db()
    assert applied_heat.status == "applied"


def test_a_finished_season_takes_no_new_heat_even_from_tk(competition, club_a):
    """Issue 23: a finished season is read-only; heat registration is refused to the club
    and to TK with a reason, and nothing is saved."""
    competition.season.is_finished = True
    competition.season.save()
    with clock.frozen(BEFORE_DEADLINE):
        err = refused(lambda: register(official(club_a), competition, [club_a]), "R-GEN-3")
        assert "avslutad" in str(err)
        tk = tk_group_member()
        refused(lambda: register(tk, competition, [club_a], reason="Sent"), "R-GEN-3")
