"""TK's work queue (/tk/): staff only; a read of ``portal.selectors.tk_queue``."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from clubs import clock
from clubs.permissions import is_tk
from portal.selectors.tk_queue import tk_queue


@login_required
def queue(request):
    if not is_tk(request.user):
        return render(request, "portal/denied.html", {"message": ""}, status=403)
    groups = tk_queue()
    return render(
        request,
        "portal/tk_queue.html",
        {
            "groups": groups,
            "total": sum(len(g.items) for g in groups),
            "today": clock.today(),
        },
    )
