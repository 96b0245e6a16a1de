"""Dates from one season to the next (issue 23): a season made from the last one keeps each
date on the same weekday, a year on. Pure: no Django."""

from __future__ import annotations

import re
from datetime import date, timedelta


def same_weekday_next_year(day: date) -> date:
    """The day of the next year on the same weekday as ``day``, nearest to its anniversary
    (at most three days before or after it): a Saturday final stays a Saturday. The 29th of
    February counts from the 28th."""
    try:
        anniversary = day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        anniversary = date(day.year + 1, 2, 28)
    shift = (day.weekday() - anniversary.weekday()) % 7
    if shift > 3:
        shift -= 7
    return anniversary + timedelta(days=shift)


def next_season_name(name: str) -> tuple[str, int]:
    """``"2016-2017"`` → ``("2017-2018", 2017)``. Raises ValueError for another form."""
    match = re.fullmatch(r"(\d{4})-(\d{4})", name.strip())
    if not match or int(match.group(2)) != int(match.group(1)) + 1:
        raise ValueError(f"Not a season name like 2016-2017: {name!r}")
    start = int(match.group(1)) + 1
    return f"{start}-{start + 1}", start
