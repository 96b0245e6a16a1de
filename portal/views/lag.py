"""The public DM Lag pages: /lag/ (final and heats), a team's page, a match's page. Thin: one
selector each (portal.selectors.lag); GET and HEAD only, served from the public pages'
cache (portal.caching.public_page)."""

from django.conf import settings
from django.shortcuts import render

from clubs import clock
from portal import pdf
from portal.caching import public_page, shows
from portal.selectors.heats import team_heat_page
from portal.selectors.lag import lag_page, match_page, team_page
from portal.selectors.sanctions import sanctions_for
from portal.views.seasons import with_season


@public_page
@with_season
def standings(request, season):
    """/lag/: DM Lag standings (the final if it has started, else the heats); an earlier
    season's with ``?season=2015-2016``."""
    return render(request, "portal/lag.html", _context(request, lag_page(season)))


@public_page
@with_season
def final(request, season):
    """/lag/final/: only the final's block of /lag/ (standings, cross table, rounds), which the
    page polls with htmx while the final is being played (issue 12); cached and answered 304
    with the ETag like the page itself."""
    return render(
        request, "portal/_final.html", _context(request, lag_page(season, final_only=True))
    )


def _shows(request, page) -> None:
    """What a DM Lag page shows: its season's DM Lag (or, without one, the season itself)."""
    shows(
        request,
        competitions=[page.competition],
        seasons=[page.season and page.season.pk],
    )


def _context(request, page) -> dict:
    _shows(request, page)
    return {
        "page": page,
        "updated_at": clock.now(),
        "poll_seconds": max(1, int(getattr(settings, "UBF_LIVE_POLL_SECONDS", 30))),
    }


@public_page
def team(request, team_id: int):
    """/lag/lag/<id>/: a team's roster, matches, line-ups, status and masterpoints."""
    page = team_page(team_id)
    shows(request, competitions=[page.team.competition])
    return render(
        request, "portal/lag_team.html", {"page": page, "sanctions": sanctions_for([page.team])}
    )


@public_page
def match(request, match_id: int):
    """/lag/match/<id>/: a match's result, boards and line-ups."""
    page = match_page(match_id)
    shows(request, competitions=[page.match.competition])
    sanctions = sanctions_for([page.match.home, page.match.away])
    return render(request, "portal/lag_match.html", {"page": page, "sanctions": sanctions})


@public_page
def heat(request, heat_id: int):
    """/lag/kval/<id>/: a team heat's results, the teams that went to the final and why, its
    reserves and the replacement chain (R-TEAM-ADV-1, R-TEAM-REPL-1)."""
    page = team_heat_page(heat_id)
    shows(request, competitions=[page.competition])
    sanctions = sanctions_for(page.heat.teams.order_by("number", "name"))
    return render(request, "portal/heat.html", {"page": page, "sanctions": sanctions})


@public_page
def heat_pdf(request, heat_id: int):
    """/lag/kval/<id>/resultat.pdf: the team heat's result list as a PDF."""
    page = team_heat_page(heat_id)
    shows(request, competitions=[page.competition])
    return pdf.pdf_response(pdf.heat_pdf(page), pdf.heat_filename(page))


@public_page
@with_season
def final_pdf(request, season):
    """/lag/final/resultat.pdf: the DM Lag final's standings as a PDF (``?season=`` as /lag/)."""
    page = lag_page(season)
    _shows(request, page)
    return pdf.pdf_response(pdf.lag_final_pdf(page), pdf.lag_final_filename(page))
