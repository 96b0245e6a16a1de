from django.shortcuts import render
from django.views.decorators.http import require_GET

from portal.selectors.par import par_page


@require_GET
def competitions(request):
    """/par/: DM Par of the current season: heats, standings and final places."""
    season, views = par_page()
    return render(request, "portal/par.html", {"season": season, "competitions": views})
