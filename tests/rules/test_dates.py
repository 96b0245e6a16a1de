"""Dates moved to the next season (issue 23; the calendar of R-PAIR-CAL-1): the same weekday, a year on; worked by hand on
the calendars of 2016-2019."""

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ubf.rules.dates import next_season_name, same_weekday_next_year


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        # Saturday 22 April 2017 (the pairs final) → Saturday 21 April 2018.
        (date(2017, 4, 22), date(2018, 4, 21)),
        # Saturday 4 March 2017 → Saturday 3 March 2018 (2018 is no leap year: one day back).
        (date(2017, 3, 4), date(2018, 3, 3)),
        # Thursday 1 December 2016 → 1 Dec 2017 is a Friday; the Thursday before: 30 Nov.
        (date(2016, 12, 1), date(2017, 11, 30)),
        # Friday 1 January 2016 → 1 Jan 2017 is a Sunday; the nearest Friday is 30 Dec 2016.
        (date(2016, 1, 1), date(2016, 12, 30)),
        # Monday 29 February 2016 → 28 Feb 2017 is a Tuesday; the nearest Monday: 27 Feb.
        (date(2016, 2, 29), date(2017, 2, 27)),
        # Sunday 31 December 2017 → 31 Dec 2018 is a Monday; the Sunday before: 30 Dec 2018.
        (date(2017, 12, 31), date(2018, 12, 30)),
    ],
)
def test_same_weekday_next_year(day, expected):
    assert same_weekday_next_year(day) == expected
    assert expected.weekday() == day.weekday()


@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31)))
def test_always_the_same_weekday_within_three_days_of_the_anniversary(day):
    moved = same_weekday_next_year(day)
    assert moved.weekday() == day.weekday()
    assert timedelta(days=361) <= moved - day <= timedelta(days=369)


def test_next_season_name():
    assert next_season_name("2016-2017") == ("2017-2018", 2017)
    with pytest.raises(ValueError):
        next_season_name("2016/17")
