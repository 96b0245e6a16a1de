"""Where a user lands after logging in (``LOGIN_REDIRECT_URL``): their workplace by role
(:func:`clubs.permissions.workplace`). A login with ``?next=`` goes there instead (Django's
``LoginView`` uses this URL only without one)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from clubs.models import Season
from clubs.permissions import CAPTAIN_WORKPLACE, CLUB_WORKPLACE, TK_WORKPLACE, workplace


def captain_landing(user) -> str:
    """A captain of one team this season lands on its roster page; of several, on the list."""
    season = Season.current()
    teams = list(
        user.captained_teams.filter(competition__season=season).values_list("pk", flat=True)[:2]
    )
    if len(teams) == 1:
        return reverse("teams:roster", args=[teams[0]])
    return reverse("teams:index")


@require_safe
@login_required
def landing(request):
    """/konto/start/: TK → /tk/, a club official → /klubb/, a captain → /mitt-lag/…, others → /."""
    where = workplace(request.user)
    if where == TK_WORKPLACE:
        return redirect("portal:tk_queue")
    if where == CLUB_WORKPLACE:
        return redirect("portal:dashboard")
    if where == CAPTAIN_WORKPLACE:
        return redirect(captain_landing(request.user))
    return redirect("portal:home")
