"""DM Par entries by MID, reserves, direct qualifiers and SM partners (pairs/services/entries)."""

from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from clubs import clock
from clubs.models import Decision, FinalSeat
from clubs.services.base import ServiceError
from pairs.models import (
    ExternalQualifier,
    PairEntry,
    ReserveNotice,
    SmPartnerDeclaration,
)
from pairs.selectors import final_seat_holders
from pairs.services.entries import (
    FINAL_SESSION,
    declare_sm_partner,
    enter_pair,
    notify_reserve,
    players_with_several_partners,
    register_direct_qualifier,
    restrike_discipline,
    sm_partner_of,
    withdraw_pair,
)
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    UserFactory,
    entry_world,
)
from tests.factories import world_member as p
from ubf.rules.violations import Severity

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _today():
    with clock.frozen("2017-01-10 10:00"):
        yield


@pytest.fixture
def w():
    season = SeasonFactory()
    club = ClubFactory(name="BK Uppsala")
    comp = PairCompetitionFactory(season=season, discipline="open")
    heat = PairHeatFactory(
        competition=comp, clubs=[club], name="Kval Uppsala", first_date=date(2017, 2, 10)
    )
    early = PairHeatFactory(
        competition=comp, clubs=[club], name="Kval Enköping", first_date=date(2017, 1, 20)
    )
    return entry_world(season, club, comp=comp, heat=heat, early=early)


def snapshot():
    return (
        PairEntry.objects.count(),
        ReserveNotice.objects.count(),
        SmPartnerDeclaration.objects.count(),
        list(PairEntry.objects.filter(entered_as="direct").values_list("status", flat=True)),
        Decision.objects.count(),
    )


def refused(fn, *args, **kwargs) -> str:
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        fn(*args, **kwargs)
    assert snapshot() == before, "a refusal must not save anything"
    return str(exc.value)


# --- entering a pair ---------------------------------------------------------------------


def test_enter_pair_by_mid_numbers_pairs_in_the_heat(w, recompute_calls):
    a, b, c, d = p(w), p(w), p(w), p(w)
    first = enter_pair(w.official, w.heat, a.mid, b.mid)
    second = enter_pair(w.official, w.heat, c.mid, d.mid)
    assert (first.entry.player1, first.entry.player2) == (a, b)
    assert (first.entry.pair_number, second.entry.pair_number) == ("1", "2")
    assert first.entry.status == PairEntry.Status.ENTERED and first.warnings == []
    assert not first.struck
    recompute_calls.assert_called_with(competition_id=w.comp.pk)


def test_unknown_mids_are_refused_naming_them(w):
    a = p(w)
    msg = refused(enter_pair, w.official, w.heat, a.mid, "999999")
    assert "999999" in msg and "R-GEN-2" in msg
    msg = refused(enter_pair, w.official, w.heat, "777777", "888888")
    assert "777777" in msg and "888888" in msg


def test_r_pair_1_same_player_twice_is_refused(w):
    a = p(w)
    msg = refused(enter_pair, w.official, w.heat, a.mid, a.mid)
    assert "R-PAIR-1" in msg


def test_r_pair_1_player_already_entered_in_the_heat_is_refused(w):
    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.heat, a.mid, b.mid)
    msg = refused(enter_pair, w.official, w.heat, c.mid, a.mid)
    assert "R-PAIR-1" in msg and a.mid in msg


def test_r_gen_2_unpaid_pair_player_is_refused(w):
    a, b = p(w), p(w, paid=False)
    msg = refused(enter_pair, w.official, w.heat, a.mid, b.mid)
    assert "R-GEN-2" in msg and b.mid in msg and "medlemsavgift" in msg


def test_r_pair_3_veteran_born_too_late_is_refused(w):
    vet = PairCompetitionFactory(season=w.season, discipline="veteran")
    heat = PairHeatFactory(competition=vet, clubs=[w.club])
    old, young = p(w, birth_year=1950), p(w, birth_year=1958)
    msg = refused(enter_pair, w.official, heat, old.mid, young.mid)
    assert "R-PAIR-3" in msg and "1958" in msg and "1957" in msg
    ok = enter_pair(w.official, heat, old.mid, p(w, birth_year=1957).mid)
    assert ok.entry.pk


def test_r_pair_3_dam_needs_two_women_and_mixed_one_of_each(w):
    dam_heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=w.season, discipline="dam"), clubs=[w.club]
    )
    mixed_heat = PairHeatFactory(
        competition=PairCompetitionFactory(season=w.season, discipline="mixed"), clubs=[w.club]
    )
    woman, man, man2 = p(w, gender="F"), p(w, gender="M"), p(w, gender="M")
    assert "R-PAIR-3" in refused(enter_pair, w.official, dam_heat, woman.mid, man.mid)
    assert "R-PAIR-3" in refused(enter_pair, w.official, mixed_heat, man.mid, man2.mid)
    assert enter_pair(w.official, mixed_heat, woman.mid, man.mid).entry.pk
    assert enter_pair(w.official, dam_heat, p(w, gender="F").mid, p(w, gender="F").mid).entry.pk


def test_r_pair_1_out_of_district_pair_is_entered_but_flagged(w):
    a, b = p(w, club=w.sth), p(w, club=w.sth)
    out = enter_pair(w.official, w.heat, a.mid, b.mid)
    assert out.entry.status == PairEntry.Status.ENTERED
    assert [v.clause for v in out.warnings] == ["R-PAIR-1"]
    assert out.warnings[0].severity == Severity.WARNING
    flag = Decision.objects.get(action="pairs.entry.flagged")
    assert flag.object_id == out.entry.pk and "R-PAIR-1" in flag.reason


def test_r_pair_kval_4_full_heat_still_takes_a_ubf_pair_but_may_refuse_others(w):
    w.heat.pair_limit = 1
    w.heat.save()
    enter_pair(w.official, w.heat, p(w).mid, p(w).mid)
    # One UBF player is enough: the organiser may not refuse the pair; it goes beyond the limit.
    mixed = enter_pair(w.official, w.heat, p(w).mid, p(w, club=w.sth).mid)
    assert mixed.entry.pk
    assert "R-PAIR-KVAL-4" in [v.clause for v in mixed.warnings]
    msg = refused(enter_pair, w.official, w.heat, p(w, club=w.sth).mid, p(w, club=w.sth).mid)
    assert "R-PAIR-KVAL-4" in msg


def test_r_pair_kval_4_after_last_registration_day(w):
    w.heat.last_registration_day = date(2017, 1, 5)
    w.heat.save()
    assert enter_pair(w.official, w.heat, p(w).mid, p(w).mid).entry.pk
    msg = refused(enter_pair, w.official, w.heat, p(w, club=w.sth).mid, p(w, club=w.sth).mid)
    assert "R-PAIR-KVAL-4" in msg and "2017-01-05" in msg


def test_r_pair_kval_5_silver_heat_every_pair_takes_part(w):
    msg = refused(enter_pair, w.official, w.heat, p(w).mid, p(w).mid, takes_part_in_qualifier=False)
    assert "R-PAIR-KVAL-5" in msg


def test_r_pair_kval_5_bronze_declaration_is_stored_and_undeclared_play_is_no_qualifier(w):
    w.early.heat_type = "bronze"
    w.early.save()
    a, b, c = p(w), p(w), p(w)
    out = enter_pair(w.official, w.early, a.mid, b.mid, takes_part_in_qualifier=False)
    assert out.entry.takes_part_in_qualifier is False
    # Not a qualifier for a: a later heat with another partner is not struck (R-PAIR-KVAL-7).
    later = enter_pair(w.official, w.heat, a.mid, c.mid)
    assert not later.struck


def test_r_pair_kval_6_no_new_pair_at_the_second_session(w):
    w.heat.last_date = date(2017, 2, 17)
    w.heat.save()
    msg = refused(enter_pair, w.official, w.heat, p(w).mid, p(w).mid, session=2)
    assert "R-PAIR-KVAL-6" in msg


def test_r_pair_kval_7_second_qualifier_is_accepted_but_struck(w):
    a, b, c = p(w), p(w), p(w)
    first = enter_pair(w.official, w.early, a.mid, b.mid)
    second = enter_pair(w.official, w.heat, a.mid, c.mid)
    assert not first.struck
    assert second.struck
    assert second.entry.status == PairEntry.Status.STRUCK
    assert "Kval Enköping" in second.entry.status_reason
    assert second.entry.status_reason.startswith("R-PAIR-KVAL-7")
    assert "R-PAIR-KVAL-7" in [v.clause for v in second.warnings]
    flagged = Decision.objects.get(action="pairs.entry.struck")
    assert flagged.object_id == second.entry.pk and flagged.clause == "R-PAIR-KVAL-7"


def test_r_pair_kval_7_external_qualifier_counts(w):
    a, b = p(w), p(w)
    ExternalQualifier.objects.create(
        player=a, season=w.season, discipline="open", district="STH", played_on=date(2017, 1, 8)
    )
    out = enter_pair(w.official, w.heat, a.mid, b.mid)
    assert out.struck and "STH" in out.entry.status_reason


def test_r_pair_kval_7_restrike_after_dates_change(w):
    a, b, c = p(w), p(w), p(w)
    early = enter_pair(w.official, w.early, a.mid, b.mid).entry
    late = enter_pair(w.official, w.heat, a.mid, c.mid).entry
    w.early.first_date = date(2017, 3, 1)  # now the later heat
    w.early.save()
    changes = restrike_discipline(w.comp)
    early.refresh_from_db()
    late.refresh_from_db()
    assert early.status == PairEntry.Status.STRUCK and "Kval Uppsala" in early.status_reason
    assert late.status == PairEntry.Status.ENTERED and late.status_reason == ""
    assert {(c.entry.pk, c.struck) for c in changes} == {(early.pk, True), (late.pk, False)}
    assert restrike_discipline(w.comp) == []  # idempotent


# --- direct qualifiers ------------------------------------------------------------------


def test_r_direct_1_tk_registers_last_seasons_champions(w, recompute_calls):
    a, b = p(w), p(w)
    dq = register_direct_qualifier(w.tk, w.comp, a.mid, b.mid)
    assert dq.status == PairEntry.Status.ENTERED
    assert dq.registered_on == date(2017, 1, 10)
    assert Decision.objects.filter(action="pairs.direct_qualifier.registered").count() == 1
    recompute_calls.assert_called_with(competition_id=w.comp.pk)


def test_r_direct_1_refusals(w):
    a, b, c = p(w, gender="F"), p(w, gender="F"), p(w)
    with pytest.raises(PermissionDenied):
        register_direct_qualifier(w.official, w.comp, a.mid, b.mid)
    dam = PairCompetitionFactory(season=w.season, discipline="dam")
    assert "R-DIRECT-1" in refused(register_direct_qualifier, w.tk, dam, a.mid, b.mid)
    # not intact: last season's gold was a and c
    msg = refused(
        register_direct_qualifier, w.tk, w.comp, a.mid, b.mid, champion_mids=[a.mid, c.mid]
    )
    assert "R-DIRECT-1" in msg and "intakt" in msg
    with clock.frozen("2017-04-01"):
        msg = refused(register_direct_qualifier, w.tk, w.comp, a.mid, b.mid)
    assert "R-DIRECT-1" in msg and "2017-03-31" in msg


def test_r_direct_2_playing_with_another_partner_forfeits_the_direct_place(w, decide):
    """Through the real recompute: the champions hold the final's direct seat once TK has
    registered them (R-DIRECT-1); when one of them enters a qualifier with another partner the
    place is forfeited and the seat is gone from the final (R-DIRECT-2)."""
    a, b, c = p(w), p(w), p(w)
    dq = decide(register_direct_qualifier, w.tk, w.comp, a.mid, b.mid)
    assert [h.holder for h in final_seat_holders(w.comp)] == [dq]
    assert FinalSeat.objects.get(holder=dq).source == FinalSeat.Source.DIRECT
    out = decide(enter_pair, w.official, w.heat, a.mid, c.mid)
    dq.refresh_from_db()
    assert dq.status == PairEntry.Status.FORFEITED
    assert "R-DIRECT-2" in dq.status_reason and "Kval Uppsala" in dq.status_reason
    assert out.forfeited == [dq]
    assert "R-DIRECT-2" in [v.clause for v in out.warnings]
    assert Decision.objects.filter(action="pairs.direct_qualifier.forfeited").count() == 1
    assert final_seat_holders(w.comp) == []
    assert not FinalSeat.objects.filter(holder=dq).exists()


def test_r_direct_2_playing_together_keeps_the_direct_place(w):
    a, b = p(w), p(w)
    dq = register_direct_qualifier(w.tk, w.comp, a.mid, b.mid)
    out = enter_pair(w.official, w.heat, a.mid, b.mid)
    dq.refresh_from_db()
    assert dq.status == PairEntry.Status.ENTERED and out.forfeited == []


def test_r_direct_2_even_as_a_reserve(w):
    a, b, c, d = p(w), p(w), p(w), p(w)
    dq = register_direct_qualifier(w.tk, w.comp, a.mid, b.mid)
    entry = enter_pair(w.official, w.heat, c.mid, d.mid).entry
    notify_reserve(w.official, entry, session=1, replaced_mid=d.mid, reserve_mid=a.mid)
    dq.refresh_from_db()
    assert dq.status == PairEntry.Status.FORFEITED


# --- reserves --------------------------------------------------------------------------


def test_r_pair_res_1_reserve_notified_in_advance(w):
    a, b, r = p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    out = notify_reserve(w.official, entry, session=1, replaced_mid=b.mid, reserve_mid=r.mid)
    assert out.notice.reserve == r and out.notice.replaced_player == b
    assert out.notice.notified_by == w.official


def test_r_pair_res_1_reserve_not_notified_in_advance_is_refused(w):
    a, b, r = p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    with clock.frozen("2017-02-10 08:00"):  # the session's own day: too late
        msg = refused(
            notify_reserve, w.official, entry, session=1, replaced_mid=b.mid, reserve_mid=r.mid
        )
    assert "R-PAIR-RES-1" in msg and "i förväg" in msg


def test_r_pair_res_1_one_regular_must_play_every_session(w):
    w.heat.last_date = date(2017, 2, 17)
    w.heat.save()
    a, b, r, s = p(w), p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    notify_reserve(w.official, entry, session=1, replaced_mid=b.mid, reserve_mid=r.mid)
    # Replacing a in session 2 too would leave no regular who played both sessions.
    msg = refused(
        notify_reserve, w.official, entry, session=2, replaced_mid=a.mid, reserve_mid=s.mid
    )
    assert "R-PAIR-RES-1" in msg
    msg = refused(
        notify_reserve, w.official, entry, session=1, replaced_mid=r.mid, reserve_mid=s.mid
    )
    assert "R-PAIR-RES-1" in msg  # r is not a regular
    # replacing b again in session 2 is fine: a plays both
    assert notify_reserve(w.official, entry, session=2, replaced_mid=b.mid, reserve_mid=s.mid)


def test_r_pair_res_1_unpaid_reserve_is_refused(w):
    a, b, r = p(w), p(w), p(w, paid=False)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    msg = refused(
        notify_reserve, w.official, entry, session=1, replaced_mid=b.mid, reserve_mid=r.mid
    )
    assert "R-GEN-2" in msg


def test_r_pair_res_3_regular_of_another_pair_cannot_be_reserve(w):
    a, b, c, d = p(w), p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    enter_pair(w.official, w.early, c.mid, d.mid)
    msg = refused(
        notify_reserve, w.official, entry, session=1, replaced_mid=b.mid, reserve_mid=c.mid
    )
    assert "R-PAIR-RES-3" in msg


def test_r_pair_res_2_final_reserve_must_not_have_played_a_qualifier(w):
    a, b, c, d, fresh = p(w), p(w), p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    enter_pair(w.official, w.early, c.mid, d.mid)
    FinalSeat.objects.create(competition=w.comp, holder=entry, source="allocation")
    with pytest.raises(PermissionDenied):  # an official of a club neither player represents
        notify_reserve(
            ClubOfficialFactory().user,
            entry,
            session=FINAL_SESSION,
            replaced_mid=b.mid,
            reserve_mid=fresh.mid,
        )
    ExternalQualifier.objects.create(
        player=fresh,
        season=w.season,
        discipline="mixed",
        district="STH",
        played_on=date(2017, 1, 2),
    )  # another discipline does not matter
    out = notify_reserve(
        w.tk, entry, session=FINAL_SESSION, replaced_mid=b.mid, reserve_mid=fresh.mid
    )
    assert out.notice.session == FINAL_SESSION
    # The pair's club official (a and b represent w.club) notifies it too, for TK (R-GEN-3).
    again = notify_reserve(
        w.official, entry, session=FINAL_SESSION, replaced_mid=b.mid, reserve_mid=fresh.mid
    )
    assert again.notice.pk == out.notice.pk and again.notice.notified_by == w.official
    e, f = p(w), p(w)
    ExternalQualifier.objects.create(
        player=e, season=w.season, discipline="open", district="STH", played_on=date(2017, 1, 2)
    )
    msg = refused(
        notify_reserve, w.tk, entry, session=FINAL_SESSION, replaced_mid=b.mid, reserve_mid=e.mid
    )
    assert "R-PAIR-RES-2" in msg
    other = enter_pair(w.official, w.early, f.mid, p(w).mid).entry
    assert other.pk
    msg = refused(
        notify_reserve, w.tk, entry, session=FINAL_SESSION, replaced_mid=b.mid, reserve_mid=f.mid
    )
    assert "R-PAIR-RES-2" in msg


# --- SM partner ------------------------------------------------------------------------


def test_r_pair_res_4_sm_partner_declaration(w):
    a, b, c, stranger = p(w), p(w), p(w), p(w)
    first = enter_pair(w.official, w.early, a.mid, b.mid).entry
    enter_pair(w.official, w.heat, a.mid, c.mid)  # struck, but a played it with c
    FinalSeat.objects.create(competition=w.comp, holder=first, source="allocation")
    # No declaration: the DM final line-up goes on.
    choice = sm_partner_of(w.comp, a)
    assert (choice.partner, choice.reason) == (b.mid, "dm_final")
    msg = refused(declare_sm_partner, w.tk, w.comp, a.mid, stranger.mid)
    assert "R-PAIR-RES-4" in msg
    with pytest.raises(PermissionDenied):  # an official of a club a does not represent
        declare_sm_partner(ClubOfficialFactory().user, w.comp, a.mid, c.mid)
    decl = declare_sm_partner(w.tk, w.comp, a.mid, c.mid)
    assert decl.partner == c
    choice = sm_partner_of(w.comp, a)
    assert (choice.partner, choice.reason) == (c.mid, "declared")


def test_r_pair_res_4_the_players_club_official_declares(w):
    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.early, a.mid, b.mid)
    enter_pair(w.official, w.heat, a.mid, c.mid)
    decl = declare_sm_partner(w.official, w.comp, a.mid, c.mid)
    assert decl.partner == c and decl.recorded_by == w.official
    assert Decision.objects.filter(action="pairs.sm_partner.declared").count() == 1


def test_r_pair_res_4_players_with_several_partners_are_listed(w):
    a, b, c, d, e = p(w), p(w), p(w), p(w), p(w)
    enter_pair(w.official, w.early, a.mid, b.mid)
    enter_pair(w.official, w.heat, a.mid, c.mid)
    enter_pair(w.official, w.heat, d.mid, e.mid)  # one partner only: not listed
    rows = players_with_several_partners(w.comp)
    assert [r.player for r in rows] == [a]
    assert {x.mid for x in rows[0].partners} == {b.mid, c.mid}
    assert rows[0].choice.reason == "none"  # no declaration, no final seat
    assert players_with_several_partners(w.comp, club_ids=[w.sth.pk]) == []


def test_r_pair_res_4_declaration_after_the_final_is_refused(w):
    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.early, a.mid, b.mid)
    enter_pair(w.official, w.heat, a.mid, c.mid)
    with clock.frozen("2017-04-23"):
        msg = refused(declare_sm_partner, w.tk, w.comp, a.mid, c.mid)
    assert "R-PAIR-RES-4" in msg


# --- permissions -------------------------------------------------------------------------

ROLES = ["anonymous", "other_official", "heat_official", "captain", "tk"]


def user_for(role, w):
    if role == "anonymous":
        return AnonymousUser()
    if role == "other_official":
        return ClubOfficialFactory(club=ClubFactory()).user
    if role == "heat_official":
        return w.official
    if role == "captain":  # a team captain has no say over a pair heat
        return UserFactory()
    return w.tk


@pytest.mark.parametrize(
    "role,allowed",
    [
        ("anonymous", False),
        ("other_official", False),
        ("heat_official", True),
        ("captain", False),
        ("tk", True),
    ],
)
def test_permission_matrix_enter_pair(w, role, allowed):
    a, b = p(w), p(w)
    user = user_for(role, w)
    before = snapshot()
    if allowed:
        assert enter_pair(user, w.heat, a.mid, b.mid).entry.pk
    else:
        with pytest.raises(PermissionDenied):
            enter_pair(user, w.heat, a.mid, b.mid)
        assert snapshot() == before


def test_pair_entry_admin_shows_the_struck_reason(w, client):
    from django.urls import reverse

    a, b, c = p(w), p(w), p(w)
    enter_pair(w.official, w.early, a.mid, b.mid)
    enter_pair(w.official, w.heat, a.mid, c.mid)
    client.force_login(w.tk)
    html = client.get(reverse("admin:pairs_pairentry_changelist")).content.decode()
    assert "R-PAIR-KVAL-7" in html and "Kval Enköping" in html


def test_r_pair_res_5_no_reserve_can_be_notified_for_an_sm_stage(w):
    """R-PAIR-RES-5 governs reserves in the SM final and semifinal, which are SBF's events: this
    system records reserves only for a heat's sessions (R-PAIR-RES-1) and the DM final
    (R-PAIR-RES-2), so a notice for any other session is refused and nothing is saved."""
    a, b, fresh = p(w), p(w), p(w)
    entry = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    FinalSeat.objects.create(competition=w.comp, holder=entry, source="allocation")
    with clock.frozen("2017-01-10 10:00"):
        msg = refused(
            notify_reserve, w.tk, entry, session=3, replaced_mid=b.mid, reserve_mid=fresh.mid
        )
    assert "speltillfälle 3" in msg


def test_pair_numbers_sort_as_numbers_not_as_text():
    """Issue 13: pair numbers are text; 2 comes before 10 in every list of a heat's pairs."""
    from tests.factories import PairEntryFactory, PairHeatFactory

    heat = PairHeatFactory()
    for number in ("10", "2", "11", "1"):
        PairEntryFactory(heat=heat, pair_number=number)
    assert [e.pair_number for e in PairEntry.objects.filter(heat=heat)] == ["1", "2", "10", "11"]


# --- a finished season (issue 23) ----------------------------------------------------------


def test_a_finished_season_takes_no_pair_entry_nor_withdrawal_even_from_tk(w):
    """R-GEN-3, issue 23: once the next season is made from it, a season is read-only; the
    entry window says so to everyone, TK with a reason too, and nothing is saved."""
    a, b, c, d = p(w), p(w), p(w), p(w)
    entered = enter_pair(w.official, w.heat, a.mid, b.mid).entry
    w.season.is_finished = True
    w.season.save()
    assert "avslutad" in refused(enter_pair, w.official, w.heat, c.mid, d.mid)
    msg = refused(enter_pair, w.tk, w.heat, c.mid, d.mid, reason="Sen anmälan")
    assert "avslutad" in msg and "R-GEN-3" in msg
    assert "avslutad" in refused(withdraw_pair, w.tk, entered, reason="Återtaget")
    entered.refresh_from_db()
    assert entered.status == PairEntry.Status.ENTERED
