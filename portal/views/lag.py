from django.shortcuts import render

from portal.caching import public_page
from portal.selectors.lag import lag_page
from portal.views.seasons import with_season


@public_page
@with_season
def standings(request, season):
    """/lag/: DM Lag standings (the final if it has started, else the heats); an earlier
    season's with ``?season=2015-2016``."""
    return render(request, "portal/lag.html", {"page": lag_page(season)})
