from django.shortcuts import render
from django.views.decorators.http import require_GET

from portal.selectors.lag import lag_page


@require_GET
def standings(request):
    """/lag/: DM Lag standings (the final if it has started, else the heats)."""
    return render(request, "portal/lag.html", {"page": lag_page()})
