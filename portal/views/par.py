from django.shortcuts import render

from portal.caching import public_page
from portal.selectors.par import par_page
from portal.views.seasons import with_season
from ubf.rules.info import system_rules


@public_page
@with_season
def competitions(request, season):
    """/par/: DM Par of the current season (an earlier one with ``?season=2015-2016``): heats,
    standings and final places, and the system category and alert rules of its stages
    (R-PAIR-SYS-1: C in every DM pairs stage)."""
    season, views = par_page(season)
    return render(
        request,
        "portal/par.html",
        {"season": season, "competitions": views, "system": system_rules("pairs", "final")},
    )
