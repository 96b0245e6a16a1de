"""Deadline reminders (portal.services.reminders): the schedule of offsets, each sent once,
recipients, Swedish plain-text bodies, the moved clock, and the daily Celery task."""

from datetime import date
from unittest.mock import patch

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import Group

from clubs import clock
from clubs.models import FinalSeat, Membership
from clubs.services.heats import decide_direct_final
from pairs.models import PairEntry, ReserveNotice, SmPartnerDeclaration
from pairs.services.heats import PAIR_HEATS
from portal.models import ReminderLog
from portal.services.reminders import send_due_reminders
from teams.models import Lineup
from tests.factories import (
    ClubFactory,
    ClubOfficialFactory,
    DistrictFactory,
    MatchFactory,
    PairCompetitionFactory,
    PairHeatFactory,
    SeasonFactory,
    TeamCompetitionFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    member,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("recompute")]


@pytest.fixture
def season():
    return SeasonFactory()


@pytest.fixture
def tk():
    chair = UserFactory(username="ordf", email="ordf@ubf.se", is_superuser=True, is_staff=True)
    member_of_tk = UserFactory(username="dtl", email="dtl@ubf.se")
    member_of_tk.groups.add(Group.objects.get_or_create(name="TK")[0])
    UserFactory(username="old", email="old@ubf.se", is_superuser=True, is_active=False)
    return chair


TK_EMAILS = ["ordf@ubf.se", "dtl@ubf.se"]


@pytest.fixture
def club_a():
    return ClubFactory(name="BK Uppsala")


@pytest.fixture
def official_a(club_a):
    return ClubOfficialFactory(club=club_a, user=UserFactory(email="ordf@bkuppsala.se")).user


def run(day: str) -> dict:
    with clock.frozen(day):
        return send_due_reminders()


def sent(summary: dict) -> int:
    return sum(v for k, v in summary.items() if k not in ("failed", "no_recipients"))


# --- Heat registration deadline (R-PAIR-KVAL-1, R-TEAM-REG-1) --------------------------------


def test_r_pair_kval_1_registration_deadline_reminders_14_and_3_days_before(
    season, tk, official_a, mailoutbox
):
    PairCompetitionFactory(season=season)  # deadline 2016-12-01
    other_district = ClubFactory(district=DistrictFactory(code="SBD", name="Stockholms BF"))
    outsider = ClubOfficialFactory(club=other_district, user=UserFactory(email="x@sbd.se"))

    assert run("2016-11-16")["heat_registration_deadline"] == 0
    assert run("2016-11-17")["heat_registration_deadline"] == 1
    message = mailoutbox[0]
    assert message.subject.startswith("[UBF DM] Sista dag att anmäla kvalheat")
    assert "1 december 2016" in message.body
    assert "R-PAIR-KVAL-1" in message.body
    assert message.to == TK_EMAILS
    assert message.bcc == ["ordf@bkuppsala.se"]
    assert outsider.user.email not in message.bcc + message.to
    assert "old@ubf.se" not in message.to

    assert sent(run("2016-11-17")) == 0  # the same day again: nothing more
    assert sent(run("2016-11-20")) == 0
    assert run("2016-11-28")["heat_registration_deadline"] == 1
    assert "om 3 dagar" in mailoutbox[1].body
    assert sent(run("2016-11-30")) == 0
    assert sent(run("2016-12-02")) == 0
    assert len(mailoutbox) == 2
    assert set(ReminderLog.objects.values_list("offset", flat=True)) == {"-14d", "-3d"}


def test_a_missed_day_sends_only_the_latest_step(season, tk, official_a, mailoutbox):
    PairCompetitionFactory(season=season)
    assert run("2016-11-29")["heat_registration_deadline"] == 1
    assert sent(run("2016-11-30")) == 0
    assert list(ReminderLog.objects.values_list("offset", flat=True)) == ["-3d"]
    assert len(mailoutbox) == 1


def test_r_team_reg_1_team_heat_registration_reminder(season, tk, official_a, mailoutbox):
    TeamCompetitionFactory(season=season)  # deadline 2016-09-15
    PairCompetitionFactory(
        season=season,
        discipline="dam",
        qualifying_start=None,
        qualifying_end=None,
        heat_registration_deadline=date(2016, 9, 15),
        final_date=date(2016, 10, 2),
    )  # Dam: no heats, no reminder
    assert run("2016-09-01")["heat_registration_deadline"] == 1
    assert "DM Lag" in mailoutbox[0].subject
    assert "R-TEAM-REG-1" in mailoutbox[0].body


# --- Invitation (R-PAIR-KVAL-3) ---------------------------------------------------------------


@pytest.fixture
def heat(season, club_a):
    competition = PairCompetitionFactory(season=season)
    return PairHeatFactory(
        competition=competition,
        clubs=[club_a],
        name="Uppsala kval",
        first_date=date(2017, 2, 10),
    )


def test_r_pair_kval_3_invitation_due_35_days_before(heat, tk, official_a, mailoutbox):
    assert run("2017-01-05")["invitation_due"] == 0
    assert run("2017-01-06")["invitation_due"] == 1
    message = mailoutbox[0]
    assert message.to == ["ordf@bkuppsala.se"]
    assert message.subject == "[UBF DM] Skicka inbjudan till Uppsala kval senast 2017-01-13"
    assert "13 januari 2017" in message.body
    assert sent(run("2017-01-06")) == 0
    assert sent(run("2017-01-13")) == 0


def test_r_pair_kval_3_overdue_invitation_flagged_to_tk_and_club(heat, tk, official_a, mailoutbox):
    assert run("2017-01-13")["invitation_overdue"] == 0
    assert run("2017-01-14")["invitation_overdue"] == 1
    message = mailoutbox[-1]
    assert message.to == [*TK_EMAILS, "ordf@bkuppsala.se"]
    assert "inte skickats" in message.body
    assert "R-PAIR-KVAL-3" in message.body
    assert sent(run("2017-01-15")) == 0


def test_r_pair_kval_3_invitation_sent_in_time_is_not_flagged(heat, tk, official_a, mailoutbox):
    heat.invitation_sent_on = date(2017, 1, 2)
    heat.invitation_url = "https://bkuppsala.se/kval"
    heat.save()
    assert sent(run("2017-01-06")) == 0
    assert sent(run("2017-01-14")) == 0
    heat.requires_preregistration = True  # incomplete: no last registration day
    heat.save()
    assert run("2017-01-15")["invitation_overdue"] == 1
    assert "sista anmälningsdag" in mailoutbox[0].body


def test_r_pair_kval_3_invitation_reminder_follows_season_configuration(
    season, heat, tk, official_a, mailoutbox
):
    season.invitation_days_before = 21
    season.save()
    assert sent(run("2017-01-06")) == 0
    assert run("2017-01-13")["invitation_due"] == 1  # 28 = 21 + 7 days before


def test_no_recipient_means_not_logged_until_there_is_one(heat, tk, mailoutbox, club_a):
    summary = run("2017-01-06")
    assert summary["no_recipients"] == 1 and summary["invitation_due"] == 0
    assert ReminderLog.objects.count() == 0
    ClubOfficialFactory(club=club_a, user=UserFactory(email="kassor@bkuppsala.se"))
    assert run("2017-01-07")["invitation_due"] == 1


# --- Team heats: entries closing and too few teams (R-TEAM-KVAL-2) -----------------------------


def test_r_team_kval_2_entries_closing_and_too_few_teams(
    season, tk, official_a, club_a, mailoutbox
):
    competition = TeamCompetitionFactory(season=season)
    small = TeamHeatFactory(
        competition=competition,
        organisers=[club_a],
        name="Lilla kvalet",
        responsible_email="eva@bkuppsala.se",
        entries_close=date(2016, 10, 29),
    )
    TeamHeatFactory(
        competition=competition,
        name="Stora kvalet",
        first_date=date(2016, 11, 19),
        last_date=date(2016, 11, 20),
    )
    for _ in range(3):
        TeamFactory(heat=small)

    assert sent(run("2016-10-25")) == 0
    assert run("2016-10-26")["team_entries_closing"] == 1
    assert mailoutbox[0].to == ["eva@bkuppsala.se"]
    assert "3 lag" in mailoutbox[0].body and "29 oktober 2016" in mailoutbox[0].body
    assert sent(run("2016-10-29")) == 0
    assert run("2016-10-30")["team_heat_too_few"] == 1
    notice = mailoutbox[1]
    assert notice.to == [*TK_EMAILS, "eva@bkuppsala.se", "ordf@bkuppsala.se"]
    assert "Stora kvalet" in notice.body and "R-TEAM-KVAL-2" in notice.body
    assert sent(run("2016-10-31")) == 0


def test_r_team_reg_2_entries_reminder_follows_the_entries_window(season, tk, club_a, mailoutbox):
    # An invitation's last entry day after play began (20 Nov for a heat on 5-6 Nov): entries
    # close the day before play (clubs.windows), 4 Nov, so the reminder 3 days before goes on
    # 1 Nov, not on 17 Nov.
    competition = TeamCompetitionFactory(season=season)
    TeamHeatFactory(
        competition=competition,
        organisers=[club_a],
        name="Sena kvalet",
        responsible_email="eva@bkuppsala.se",
        entries_close=date(2016, 11, 20),
    )
    assert sent(run("2016-10-31")) == 0
    assert run("2016-11-01")["team_entries_closing"] == 1
    assert "4 november 2016" in mailoutbox[0].body
    assert sent(run("2016-11-17")) == 0


def test_r_team_kval_2_no_notice_with_four_teams(season, tk, club_a, mailoutbox):
    heat = TeamHeatFactory(
        competition=TeamCompetitionFactory(season=season),
        organisers=[club_a],
        entries_close=date(2016, 10, 29),
    )
    for _ in range(4):
        TeamFactory(heat=heat)
    assert run("2016-10-30")["team_heat_too_few"] == 0


# --- Unpaid membership of a fielded player (R-TEAM-RES-1) ----------------------------------------


@pytest.fixture
def fielded(season):
    """A team that fielded an unpaid player (both halves) and a paid one on 2016-11-05."""
    TeamCompetitionFactory(season=season)
    team = TeamFactory(players=4, email="kapten@lag.se", name="Lag Gran")
    match = MatchFactory(home=team, played_on=date(2016, 11, 5), status="played")
    unpaid = member(season=season, paid=False, first_name="Olle", last_name="Obetald")
    paid = team.roster.first().player
    for half in (1, 2):
        Lineup.objects.create(match=match, team=team, player=unpaid, half=half)
        Lineup.objects.create(match=match, team=team, player=paid, half=half)
    return team, unpaid


def test_r_team_res_1_unpaid_clock_reminders(fielded, tk, mailoutbox):
    team, player = fielded
    assert run("2016-11-05")["unpaid_member"] == 1
    first = mailoutbox[0]
    assert first.to == ["kapten@lag.se", *TK_EMAILS]
    assert "Olle Obetald" in first.subject
    assert "19 november 2016" in first.body  # 14 days after the first offence
    assert "R-TEAM-RES-1" in first.body
    assert sent(run("2016-11-06")) == 0
    assert run("2016-11-12")["unpaid_member"] == 1  # day 7
    assert "Påminnelse" in mailoutbox[1].body and "Påminnelse" not in first.body
    assert sent(run("2016-11-19")) == 0  # the deadline day itself is still in time
    assert run("2016-11-20")["unpaid_member"] == 1  # day 15: TK is told
    passed = mailoutbox[2]
    assert passed.to == TK_EMAILS
    assert "tidsfristen" in passed.subject
    assert "diskvalificeras" in passed.body
    assert sent(run("2016-11-21")) == 0
    assert len(mailoutbox) == 3


def test_r_team_res_1_paid_in_time_stops_the_reminders(fielded, season, tk, mailoutbox):
    team, player = fielded
    assert run("2016-11-05")["unpaid_member"] == 1
    Membership.objects.filter(player=player, season=season).update(paid_on=date(2016, 11, 10))
    assert sent(run("2016-11-12")) == 0
    assert sent(run("2016-11-20")) == 0


def test_r_team_res_1_paid_after_the_deadline_still_tells_tk(fielded, season, tk, mailoutbox):
    team, player = fielded
    Membership.objects.filter(player=player, season=season).update(paid_on=date(2016, 11, 25))
    assert run("2016-11-26")["unpaid_member"] == 1
    assert mailoutbox[0].to == TK_EMAILS
    assert "25 november 2016" in mailoutbox[0].body


# --- Protest deadlines (R-TEAM-RES-5) ---------------------------------------------------------


@pytest.fixture
def final_teams(season):
    competition = TeamCompetitionFactory(season=season)
    heat = TeamHeatFactory(competition=competition)
    TeamFactory(heat=heat, final_seat=True, email="k1@lag.se")
    TeamFactory(heat=heat, final_seat=True, email="k2@lag.se")
    TeamFactory(heat=heat, email="ute@lag.se")
    return competition


def test_r_team_res_5_protest_deadline_reminders(final_teams, tk, mailoutbox):
    assert sent(run("2017-03-23")) == 0
    assert run("2017-03-24")["protest_deadline"] == 1  # 7 days before 31 March
    message = mailoutbox[0]
    assert message.to == TK_EMAILS
    assert sorted(message.bcc) == ["k1@lag.se", "k2@lag.se"]
    assert "31 mars 2017" in message.body and "SM-semifinalplatser" in message.body
    assert "R-TEAM-RES-5" in message.body
    assert run("2017-03-30")["protest_deadline"] == 1
    assert sent(run("2017-04-01")) == 0
    assert run("2017-04-23")["protest_deadline"] == 1  # 7 days before 30 April
    assert "SM-finalplatser" in mailoutbox[2].body
    assert run("2017-04-29")["protest_deadline"] == 1
    assert sent(run("2017-04-29")) == 0


def test_r_team_res_5_protest_deadline_is_season_configuration(final_teams, season, tk, mailoutbox):
    season.protest_deadline_sm_semifinal = date(2017, 3, 20)
    season.save()
    assert run("2017-03-13")["protest_deadline"] == 1
    assert "20 mars 2017" in mailoutbox[0].body


# --- SM partner declaration (R-PAIR-RES-4) ----------------------------------------------------


@pytest.fixture
def pairs_final(season):
    competition = PairCompetitionFactory(season=season)  # final 2017-04-22
    h1 = PairHeatFactory(competition=competition)
    h2 = PairHeatFactory(competition=competition, first_date=date(2017, 3, 1))

    def player(name, email):
        return member(season=season, first_name=name, last_name="Spelare", email=email)

    p, q, r = player("Per", "per@x.se"), player("Quinn", "q@x.se"), player("Rut", "r@x.se")
    s, t, u = player("Siv", ""), player("Tor", "t@x.se"), player("Ulf", "u@x.se")
    final_entry = PairEntry.objects.create(heat=h1, player1=p, player2=q, pair_number="1")
    PairEntry.objects.create(heat=h2, player1=p, player2=r, pair_number="1")
    other = PairEntry.objects.create(heat=h1, player1=s, player2=t, pair_number="2")
    ReserveNotice.objects.create(
        entry=other, replaced_player=t, reserve=u, notified_at="2017-02-09T12:00:00Z"
    )
    FinalSeat.objects.create(competition=competition, holder=final_entry, source="allocation")
    FinalSeat.objects.create(competition=competition, holder=other, source="allocation")
    return competition, p, s


def test_r_pair_res_4_partner_declaration_reminders(pairs_final, tk, mailoutbox):
    competition, per, siv = pairs_final
    assert sent(run("2017-04-14")) == 0
    summary = run("2017-04-15")
    assert summary["sm_partner_declaration"] == 2  # Per (two partners), Siv (a reserve)
    by_to = {tuple(m.to): m for m in mailoutbox}
    per_mail = by_to[("per@x.se",)]
    assert "Quinn Spelare" in per_mail.body and "Rut Spelare" in per_mail.body
    assert "R-PAIR-RES-4" in per_mail.body
    assert "22 april 2017" in per_mail.body
    siv_mail = by_to[tuple(TK_EMAILS)]  # Siv has no e-mail: TK is asked to pass it on
    assert "saknar e-postadress" in siv_mail.body and "Ulf Spelare" in siv_mail.body
    assert sent(run("2017-04-15")) == 0


def test_r_pair_res_4_declared_players_are_not_reminded(pairs_final, tk, mailoutbox):
    competition, per, siv = pairs_final
    SmPartnerDeclaration.objects.create(
        competition=competition, player=per, partner=per, declared_at="2017-04-10T12:00:00Z"
    )
    SmPartnerDeclaration.objects.create(
        competition=competition, player=siv, partner=siv, declared_at="2017-04-10T12:00:00Z"
    )
    assert run("2017-04-21")["sm_partner_declaration"] == 0


# --- Direct final decision (R-PAIR-DF-1, R-TEAM-DF-1) -----------------------------------------


def test_r_pair_df_1_tk_reminded_to_decide_on_a_direct_final(season, tk, mailoutbox):
    competition = PairCompetitionFactory(season=season)  # no heats; period ends 2017-03-31
    assert run("2017-03-24")["direct_final_decision"] == 1
    assert mailoutbox[0].to == TK_EMAILS
    assert "R-PAIR-DF-1" in mailoutbox[0].body
    ReminderLog.objects.all().delete()
    decide_direct_final(PAIR_HEATS, tk, competition, True)
    assert run("2017-03-25")["direct_final_decision"] == 0


def test_r_team_df_1_no_reminder_when_two_clubs_arrange(season, tk, mailoutbox):
    competition = TeamCompetitionFactory(season=season)  # period ends 2017-01-31
    assert run("2017-01-24")["direct_final_decision"] == 1
    assert "R-TEAM-DF-1" in mailoutbox[0].body
    ReminderLog.objects.all().delete()
    TeamHeatFactory(competition=competition)
    TeamHeatFactory(competition=competition)
    assert run("2017-01-25")["direct_final_decision"] == 0


# --- Sending: once, failures, the clock, the task ---------------------------------------------


def test_a_failed_mail_is_not_logged_and_goes_on_the_next_run(season, tk, official_a, mailoutbox):
    PairCompetitionFactory(season=season)
    with patch("portal.services.reminders.EmailMessage.send", side_effect=OSError("smtp down")):
        summary = run("2016-11-17")
    assert summary["failed"] == 1 and summary["heat_registration_deadline"] == 0
    assert ReminderLog.objects.count() == 0
    assert run("2016-11-18")["heat_registration_deadline"] == 1
    assert len(mailoutbox) == 1


def test_the_log_keeps_who_got_what(season, tk, official_a, mailoutbox):
    competition = PairCompetitionFactory(season=season)
    run("2016-11-17")
    log = ReminderLog.objects.get()
    assert (log.kind, log.object_type, log.object_id, log.offset) == (
        "heat_registration_deadline",
        "pairs.paircompetition",
        competition.pk,
        "-14d",
    )
    assert log.recipients == [*TK_EMAILS, "ordf@bkuppsala.se"]
    assert log.subject == mailoutbox[0].subject


def test_explicit_day_overrides_the_clock(season, tk, official_a, mailoutbox):
    PairCompetitionFactory(season=season)
    with clock.frozen("2016-06-01"):
        assert send_due_reminders(date(2016, 11, 17))["heat_registration_deadline"] == 1


def test_without_a_season_nothing_is_sent(mailoutbox):
    summary = run("2016-11-17")
    assert sent(summary) == 0 and summary["failed"] == 0
    assert mailoutbox == []


def test_the_daily_task_runs_the_service(season, tk, official_a, mailoutbox):
    from portal.tasks import send_due_reminders as task

    PairCompetitionFactory(season=season)
    assert task.delay("2016-11-17").get(timeout=5)["heat_registration_deadline"] == 1
    assert task.delay("2016-11-17").get(timeout=5)["heat_registration_deadline"] == 0
    assert len(mailoutbox) == 1


def test_the_daily_task_fails_loudly_when_mail_fails(season, tk, official_a, mailoutbox):
    from portal.tasks import RemindersFailed
    from portal.tasks import send_due_reminders as task

    PairCompetitionFactory(season=season)
    failing = patch("portal.services.reminders.EmailMessage.send", side_effect=OSError("down"))
    with failing, pytest.raises(RemindersFailed):
        task.apply(args=["2016-11-17"], retries=task.max_retries).get()
    assert ReminderLog.objects.count() == 0


def test_beat_runs_the_reminders_daily_at_seven_stockholm_time():
    from ubf.celery import app

    entry = django_settings.CELERY_BEAT_SCHEDULE["send-due-reminders"]
    assert entry["task"] == "portal.tasks.send_due_reminders"
    # As a worker and beat do when they start: autodiscovery imports every app's tasks module
    # (alone, or first in a random order, no earlier test has imported portal.tasks).
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
    schedule = entry["schedule"]
    assert schedule.hour == {7} and schedule.minute == {0}
    assert django_settings.CELERY_TIMEZONE == "Europe/Stockholm"
