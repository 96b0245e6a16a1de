from django.shortcuts import render

from portal.caching import public_page
from portal.selectors.par import par_page
from ubf.rules.info import system_rules


@public_page
def competitions(request):
    """/par/: DM Par of the current season: heats, standings and final places, and the system
    category and alert rules of its stages (R-PAIR-SYS-1: C in every DM pairs stage)."""
    season, views = par_page()
    return render(
        request,
        "portal/par.html",
        {"season": season, "competitions": views, "system": system_rules("pairs", "final")},
    )
