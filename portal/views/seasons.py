"""The archive: a public page shows the current season, or the one named by ``?season=``
(``/lag/?season=2015-2016``): one URL per page and one selector per page, which takes the
season as its argument, whichever season it is."""

import functools

from django.shortcuts import render

from portal.selectors.calendar import all_seasons, season_named


def with_season(view):
    """Call ``view(request, season, ...)`` with the season of ``?season=``, or None without it
    (the selector then finds the current season, with its competition, in its own first query);
    an unknown season gets a 404 page that says so and lists the seasons."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        name = request.GET.get("season", "").strip()
        season = season_named(name) if name else None
        if name and season is None:
            return render(
                request,
                "portal/season_not_found.html",
                {"name": name, "seasons": all_seasons()},
                status=404,
            )
        return view(request, season, *args, **kwargs)

    return wrapper
