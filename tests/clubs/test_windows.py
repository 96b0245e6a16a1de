"""clubs.windows: the windows read from the models, the labels pages show, and the one check
the services ask (TK may act outside a window with a reason)."""

from datetime import date

import pytest

from clubs import clock, windows
from clubs.services.base import ServiceError
from tests.factories import (
    PairHeatFactory,
    TeamFactory,
    TeamHeatFactory,
    UserFactory,
    seat_in_final,
    tk_group_member,
)

pytestmark = pytest.mark.django_db


def test_team_heat_windows_from_its_dates():
    # TeamHeatFactory: play 5-6 Nov 2016; competition deadline 15 Sep 2016.
    heat = TeamHeatFactory(entries_close=date(2016, 10, 29))
    ws = windows.heat_windows(heat)
    assert ws["entries"].closes == date(2016, 10, 29)
    assert ws["heat_registration"].closes == date(2016, 9, 15)
    assert ws["heat_registration"].clause == "R-TEAM-REG-1"
    assert ws["results_upload"].opens == date(2016, 11, 5)


def test_pair_heat_windows_from_its_dates():
    # PairHeatFactory: 10 Feb 2017; 28 days before = 13 Jan 2017.
    heat = PairHeatFactory()
    ws = windows.heat_windows(heat)
    assert ws["invitation"].closes == date(2017, 1, 13)
    assert ws["entries"].closes == date(2017, 2, 10)
    assert ws["reserves"].closes == date(2017, 2, 9)
    assert ws["heat_registration"].clause == "R-PAIR-KVAL-1"


def test_roster_window_ends_with_the_heat_and_moves_to_the_final():
    team = TeamFactory()
    assert windows.roster_window(team).closes == date(2016, 11, 6)
    seat_in_final(team)  # R-TEAM-ADV-1: the team now holds a seat in the final
    assert windows.roster_window(team).closes == date(2017, 3, 5)


def test_labels():
    heat = TeamHeatFactory(entries_close=date(2016, 11, 4))
    win = windows.heat_windows(heat)["entries"]
    assert windows.label(win, date(2016, 10, 1)) == "Anmälan stänger 4 nov"
    assert windows.label(win, date(2016, 11, 5)) == "Stängt sedan 4 nov"
    upload = windows.heat_windows(heat)["results_upload"]
    assert windows.label(upload, date(2016, 11, 1)) == "Öppnar 5 nov"


def test_enforce_refuses_everyone_but_tk_and_tk_needs_a_reason():
    heat = TeamHeatFactory()
    win = windows.heat_windows(heat)["entries"]  # closes 4 Nov 2016
    with clock.frozen("2016-11-04"):
        assert windows.enforce(win, UserFactory()) is None
    with clock.frozen("2016-11-05"):
        with pytest.raises(ServiceError) as exc:
            windows.enforce(win, UserFactory())
        assert exc.value.violations[0].clause == "R-TEAM-REG-2"
        assert "2016-11-04" in exc.value.messages("sv")[0]
        tk = tk_group_member()
        with pytest.raises(ServiceError) as exc:
            windows.enforce(win, tk)
        assert exc.value.violations[0].clause == "R-GEN-3"
        late = windows.enforce(win, tk, reason="Laget anmälde sig i tid per e-post.")
        assert late is not None and late.today == date(2016, 11, 5)


def test_swedish_day():
    """The Swedish way of writing a day: "5 nov" in the deadline labels, "19 november 2016"
    in the demo's banner (was ubf.rules.windows.day_sv, which no page called any more)."""
    from datetime import date as _date

    from django.utils import translation
    from django.utils.formats import date_format

    from clubs.templatetags.formats_i18n import day_short

    with translation.override("sv"):
        assert day_short(_date(2016, 11, 5)) == "5 nov"
        assert date_format(_date(2016, 11, 19), "j F Y") == "19 november 2016"
