from django.shortcuts import render

from portal.caching import public_page
from portal.selectors.lag import lag_page


@public_page
def standings(request):
    """/lag/: DM Lag standings (the final if it has started, else the heats)."""
    return render(request, "portal/lag.html", {"page": lag_page()})
