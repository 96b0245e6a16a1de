"""The season's windows as pure date arithmetic (ubf.rules.windows); every date worked out by
hand from the 2016-2017 regulations."""

from datetime import date

from ubf.rules import windows as w
from ubf.rules.season import SeasonRules


def test_r_pair_kval_3_invitation_28_days_before_the_heat():
    # 6 Nov 2016 minus 28 days: 6 Nov -> 30 Oct -> 23 Oct -> 16 Oct -> 9 Oct.
    win = w.invitation(date(2016, 11, 6))
    assert (win.opens, win.closes, win.clause) == (None, date(2016, 10, 9), "R-PAIR-KVAL-3")
    assert win.state(date(2016, 10, 9)) == w.OPEN
    assert win.state(date(2016, 10, 10)) == w.CLOSED


def test_invitation_follows_the_season_configuration():
    win = w.invitation(date(2016, 11, 6), SeasonRules(invitation_days_before=14))
    assert win.closes == date(2016, 10, 23)


def test_r_pair_kval_6_entries_close_with_the_first_session():
    win = w.pair_entries(date(2016, 11, 6))
    assert win.state(date(2016, 11, 6)) == w.OPEN  # at the venue, before play
    assert win.state(date(2016, 11, 7)) == w.CLOSED  # second session: no new pair
    assert win.clause == "R-PAIR-KVAL-6"


def test_r_team_reg_2_entries_close_on_the_invitations_day_or_before_play():
    # Invitation's last entry day 2016-10-29, play 2016-11-05: closes 29 Oct.
    assert w.team_entries(date(2016, 11, 5), date(2016, 10, 29)).closes == date(2016, 10, 29)
    # No last entry day: the day before play.
    assert w.team_entries(date(2016, 11, 5), None).closes == date(2016, 11, 4)
    # A last entry day after play began does not keep entries open into the heat.
    late = w.team_entries(date(2016, 11, 5), date(2016, 11, 20))
    assert late.closes == date(2016, 11, 4)
    assert late.state(date(2016, 11, 5)) == w.CLOSED
    assert late.clause == "R-TEAM-REG-2"


def test_r_pair_res_1_reserve_notified_the_day_before():
    win = w.reserves(date(2016, 11, 1))
    assert win.closes == date(2016, 10, 31)


def test_results_upload_opens_on_the_first_day_of_play():
    win = w.results_upload(date(2016, 11, 5), clause="R-TEAM-1")
    assert win.state(date(2016, 11, 4)) == w.BEFORE
    assert win.state(date(2016, 11, 5)) == w.OPEN
    assert win.state(date(2027, 1, 1)) == w.OPEN


def test_r_team_res_5_protest_deadlines():
    semi = w.protests("sm_semifinal")
    final = w.protests("sm_final")
    assert semi.closes == date(2017, 3, 31)
    assert final.closes == date(2017, 4, 30)
    assert semi.state(date(2017, 4, 1)) == w.CLOSED
    assert final.state(date(2017, 4, 30)) == w.OPEN


def test_r_team_2_roster_and_lineup_until_the_match_day():
    assert w.roster(date(2016, 11, 6)).state(date(2016, 11, 6)) == w.OPEN
    assert w.roster(date(2016, 11, 6)).state(date(2016, 11, 7)) == w.CLOSED
    assert w.roster(None).state(date(2030, 1, 1)) == w.OPEN
    assert w.lineup(date(2016, 11, 5)).state(date(2016, 11, 6)) == w.CLOSED


def test_r_team_5_dispensation_before_the_occasion():
    win = w.dispensation(date(2017, 3, 4))
    assert win.state(date(2017, 3, 4)) == w.OPEN
    assert win.state(date(2017, 3, 5)) == w.CLOSED


def test_r_repl_5_seat_answers_until_the_final():
    win = w.seat_answers(date(2017, 3, 4))
    assert win.state(date(2017, 3, 5)) == w.CLOSED
    assert win.clause == "R-REPL-5"


def test_heat_registration_deadline_day_included():
    win = w.heat_registration(date(2016, 9, 15), clause="R-TEAM-REG-1")
    assert win.state(date(2016, 9, 15)) == w.OPEN
    assert win.state(date(2016, 9, 16)) == w.CLOSED


def test_direct_final_entries_open_up_to_the_final_day():
    """R-PAIR-DF-1: the final's day included."""
    win = w.direct_final_entries(date(2017, 4, 22))
    assert win.state(date(2017, 4, 22)) == w.OPEN
    assert win.state(date(2017, 4, 23)) == w.CLOSED
    assert win.clause == "R-PAIR-DF-1"


def test_r_team_3_balance_dispensation_asked_up_to_the_first_match_day():
    # A heat whose first match is on Sat 5 Nov 2016: open that day (before play), closed the 6th.
    win = w.balance_dispensation(date(2016, 11, 5))
    assert (win.opens, win.closes, win.clause) == (None, date(2016, 11, 5), "R-TEAM-3")
    assert win.state(date(2016, 11, 5)) == w.OPEN
    assert win.state(date(2016, 11, 6)) == w.CLOSED
