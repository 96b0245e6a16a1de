"""The public DM Lag pages: /lag/ (final and heats), a team's page, a match's page. Thin: one
selector each (portal.selectors.lag); GET and HEAD only (require_safe)."""

from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.selectors.lag import lag_page, match_page, team_page


@require_safe
def standings(request):
    """/lag/: DM Lag standings (the final if it has started, else the heats)."""
    return render(request, "portal/lag.html", {"page": lag_page()})


@require_safe
def team(request, team_id: int):
    """/lag/lag/<id>/: a team's roster, matches, line-ups, status and masterpoints."""
    return render(request, "portal/lag_team.html", {"page": team_page(team_id)})


@require_safe
def match(request, match_id: int):
    """/lag/match/<id>/: a match's result, boards and line-ups."""
    return render(request, "portal/lag_match.html", {"page": match_page(match_id)})
