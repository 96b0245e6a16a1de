"""Read side of the home page (/): the current season at a glance, on the one clock's day
(``clubs.clock.today()``): what is open for entry now (each heat's entries window from
``clubs.windows``, with its label "Anmälan stänger 5 nov"), where clubs may still register a
heat, the next heats and finals, the latest results read in, and every season of the archive.
A fixed number of queries: the season, the seasons, the calendar's four, the uploads."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.utils.translation import gettext as _

from clubs import clock, windows
from clubs.models import Competition, HeatStatus, Season
from portal.selectors.calendar import (
    FINAL,
    Event,
    all_seasons,
    competition_label,
    heat_path,
    page_path,
    pair_final_path,
    season_events,
)
from results.models import ResultUpload
from ubf.rules.windows import ENTRIES, HEAT_REGISTRATION

NEXT_EVENTS = 6
LATEST_RESULTS = 6
#: Heats open for entry listed on the home page, the soonest played first; the rest are
#: counted and linked to the calendar (a national season has 250 heats, many open at once).
OPEN_ENTRIES = 8


@dataclass
class OpenWindow:
    """Something open today: a heat's entries, or a competition's heat registration."""

    event: Event | None
    competition: Competition
    label: str  # "Anmälan stänger 5 nov"

    @property
    def competition_label(self) -> str:
        return competition_label(self.competition)


@dataclass
class LatestResult:
    upload: ResultUpload
    title: str  # the heat's name, or "Final" (with its round)
    competition_label: str
    played_on: date | None
    path: str


@dataclass
class HomePage:
    season: Season | None
    today: date
    open_entries: list[OpenWindow] = field(default_factory=list)
    open_registration: list[OpenWindow] = field(default_factory=list)
    #: Heats open for entry beyond the OPEN_ENTRIES listed.
    open_entries_more: int = 0
    upcoming: list[Event] = field(default_factory=list)
    latest: list[LatestResult] = field(default_factory=list)
    seasons: list[Season] = field(default_factory=list)


def home_page() -> HomePage:
    today = clock.today()
    season = Season.current()
    page = HomePage(season=season, today=today, seasons=all_seasons())
    if season is None:
        return page
    events = season_events(season)
    finals_of = {e.competition.pk: e for e in events if e.kind == FINAL}
    for e in events:
        if e.heat is None or e.status != HeatStatus.APPROVED:
            continue
        window = windows.heat_windows(e.heat)[ENTRIES]
        if window.is_open(today):
            page.open_entries.append(
                OpenWindow(e, e.competition, windows.label(window, today=today))
            )
    for final in finals_of.values():
        c = final.competition
        if getattr(c, "is_direct_final", False):
            continue  # no heats to register (R-PAIR-DF-1, R-TEAM-DF-1)
        window = windows.competition_windows(c)[HEAT_REGISTRATION]
        if window.closes is not None and window.is_open(today):
            page.open_registration.append(OpenWindow(None, c, windows.label(window, today=today)))
    page.open_entries_more = max(0, len(page.open_entries) - OPEN_ENTRIES)
    page.open_entries = page.open_entries[:OPEN_ENTRIES]
    page.upcoming = [e for e in events if e.last >= today and not e.cancelled][:NEXT_EVENTS]

    uploads = (
        ResultUpload.objects.filter(competition__season=season, status=ResultUpload.Status.ACCEPTED)
        .select_related("competition", "heat")
        .order_by("-uploaded_at", "-id")[:LATEST_RESULTS]
    )
    for u in uploads:
        c = u.competition
        final = finals_of.get(c.pk)
        if u.heat_id:
            title = u.heat.name
            played = u.heat.last_date or u.heat.first_date
            anchor = ""
        else:
            title = _final_title(u)
            played = final.last if final else None
            anchor = "final" if c.kind == Competition.Kind.TEAMS else c.discipline
        teams = c.kind == Competition.Kind.TEAMS
        if u.heat_id:
            path = heat_path("teams" if teams else "pairs", u.heat_id)
        elif teams:
            path = page_path("portal:lag", season, anchor)
        else:
            path = pair_final_path(c.pk)
        page.latest.append(LatestResult(u, title, competition_label(c), played, path))
    return page


def _final_title(upload: ResultUpload) -> str:
    if upload.round:
        return _("Final, rond %(round)s") % {"round": upload.round}
    return _("Final")
