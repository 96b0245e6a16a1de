"""The public home page (/), the calendar (/kalender/) and its ICS feeds (/kalender.ics, one
for the season, and /kalender/<competition_id>.ics, one per competition)."""

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from clubs.models import Competition, Season
from portal import calendar_feed
from portal.caching import public_page, shows
from portal.selectors.calendar import calendar_page, competition_label, season_events
from portal.selectors.home import home_page
from portal.views.seasons import with_season


@public_page
def home(request):
    """/: the current season at a glance (it lists everything of the season)."""
    page = home_page()
    shows(request, lists=[page.season and page.season.pk])
    return render(request, "portal/home.html", {"page": page})


@public_page
@with_season
def calendar(request, season):
    """/kalender/: every heat and final of the season (``?season=2015-2016`` for another)."""
    page = calendar_page(season)
    shows(request, lists=[page.season and page.season.pk])
    return render(request, "portal/calendar.html", {"page": page})


def _ics(request, events, name: str) -> HttpResponse:
    body = calendar_feed.feed(events, name=name, absolute=request.build_absolute_uri)
    response = HttpResponse(body, content_type=calendar_feed.CONTENT_TYPE)
    response["Content-Disposition"] = 'inline; filename="ubf-dm.ics"'
    return response


@public_page
@with_season
def calendar_ics(request, season):
    """/kalender.ics: the season's heats and finals, for a phone to subscribe to."""
    season = season or Season.current()
    if season is None:
        raise Http404(_("Ingen säsong är upplagd ännu."))
    shows(request, lists=[season.pk])
    return _ics(request, season_events(season), f"UBF DM {season}")


@public_page
def competition_ics(request, competition_id: int):
    """/kalender/<competition_id>.ics: one competition's heats and final."""
    competition = get_object_or_404(Competition.objects.select_related("season"), pk=competition_id)
    events = season_events(competition.season, competition_id=competition.pk)
    shows(request, competitions=[competition])
    name = f"{competition_label(competition)} {competition.season}"
    return _ics(request, events, name)
