from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.selectors.lag import lag_page
from portal.views.seasons import with_season


@require_safe
@with_season
def standings(request, season):
    """/lag/: DM Lag standings (the final if it has started, else the heats); an earlier
    season's with ``?season=2015-2016``."""
    return render(request, "portal/lag.html", {"page": lag_page(season)})
