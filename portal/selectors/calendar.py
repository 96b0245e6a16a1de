"""Read side of the calendar (/kalender/, its ICS feeds) and the seasons of the archive: every
heat and final of a season, pairs and teams alike, in date order, in a fixed number of queries
(the season's pair and team competitions, their heats: four, whatever the number of heats).

What is shown: approved heats as they are; heats applied for and not yet approved by TK marked
"preliminärt" (TENTATIVE in the feed); cancelled heats kept and marked "inställt" (CANCELLED in
the feed, so a phone that already has the day learns of it); rejected heats not at all. A pair
heat with two sessions is two days (two events in the feed), a team heat and the team final
one span from their first to their last day.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from clubs.models import Competition, HeatStatus, Season
from pairs.models import PairCompetition, PairHeat
from teams.models import TeamCompetition, TeamHeat

HEAT = "heat"
FINAL = "final"
#: A final's status in the calendar (heats carry their HeatStatus).
FINAL_STATUS = "final"


@dataclass
class Event:
    """One heat or final of the calendar: ``sessions`` are its days, each a (first, last) pair
    of dates, both included."""

    uid: str
    kind: str  # HEAT or FINAL
    competition: Competition
    title: str
    venue: str
    sessions: list[tuple[date, date]]
    status: str  # a HeatStatus value, or FINAL_STATUS
    path: str  # the page (and anchor) where it is shown
    heat: PairHeat | TeamHeat | None = None

    @property
    def first(self) -> date:
        return self.sessions[0][0]

    @property
    def last(self) -> date:
        return self.sessions[-1][1]

    @property
    def competition_label(self) -> str:
        return competition_label(self.competition)

    @property
    def tentative(self) -> bool:
        return self.status == HeatStatus.APPLIED

    @property
    def cancelled(self) -> bool:
        return self.status == HeatStatus.CANCELLED


@dataclass
class CalendarPage:
    season: Season | None
    events: list[Event] = field(default_factory=list)
    #: One ICS feed per competition: (competition, its label), by the final's date.
    competitions: list[tuple[Competition, str]] = field(default_factory=list)
    seasons: list[Season] = field(default_factory=list)


def competition_label(competition: Competition) -> str:
    """ "DM Lag", "DM Par Mixed" (in the reader's language)."""
    if competition.discipline == Competition.Discipline.TEAMS:
        return _("DM Lag")
    return _("DM Par %(discipline)s") % {"discipline": competition.get_discipline_display()}


def season_named(name: str | None) -> Season | None:
    """The season a page shows: the one named (``?season=2015-2016``, None if there is no such
    season), else the current one."""
    if not name:
        return Season.current()
    return Season.objects.filter(name=name).first()


def all_seasons() -> list[Season]:
    """Every season, the newest first (the archive's list)."""
    return list(Season.objects.order_by("-start_year"))


def page_path(name: str, season: Season, anchor: str) -> str:
    return f"{reverse(name)}?{urlencode({'season': season.name})}#{anchor}"


def heat_path(kind: str, heat_id: int) -> str:
    """A heat's own page (/par/kval/<id>/, /lag/kval/<id>/)."""
    return reverse("portal:lag_heat" if kind == "teams" else "portal:par_heat", args=[heat_id])


def pair_final_path(competition_id: int) -> str:
    """A DM Par final's own page (/par/final/<id>/)."""
    return reverse("portal:par_final", args=[competition_id])


def season_events(season: Season | None, competition_id: int | None = None) -> list[Event]:
    """The season's heats and finals in date order (of one competition with
    ``competition_id``). Four queries."""
    if season is None:
        return []
    pair_comps = PairCompetition.objects.filter(season=season)
    team_comps = TeamCompetition.objects.filter(season=season)
    pair_heats = PairHeat.objects.filter(competition__season=season)
    team_heats = TeamHeat.objects.filter(competition__season=season)
    if competition_id is not None:
        pair_comps = pair_comps.filter(pk=competition_id)
        team_comps = team_comps.filter(pk=competition_id)
        pair_heats = pair_heats.filter(competition_id=competition_id)
        team_heats = team_heats.filter(competition_id=competition_id)
    pair_comps = {c.pk: c for c in pair_comps.select_related("season")}
    team_comps = {c.pk: c for c in team_comps.select_related("season")}

    events: list[Event] = []
    for c in pair_comps.values():
        title = _("Direktfinal") if c.is_direct_final else _("Final")
        events.append(
            Event(
                uid=f"final-{c.pk}",
                kind=FINAL,
                competition=c,
                title=title,
                venue=c.final_venue,
                sessions=[(c.final_date, c.final_date)],
                status=FINAL_STATUS,
                path=pair_final_path(c.pk),
            )
        )
    for c in team_comps.values():
        events.append(
            Event(
                uid=f"final-{c.pk}",
                kind=FINAL,
                competition=c,
                title=_("Final"),
                venue=c.final_venue,
                sessions=[(c.final_day1, c.final_day2)],
                status=FINAL_STATUS,
                path=page_path("portal:lag", season, "final"),
            )
        )
    shown = [HeatStatus.APPROVED, HeatStatus.APPLIED, HeatStatus.CANCELLED]
    for heat in pair_heats.filter(status__in=shown):
        days = [heat.first_date]
        if heat.last_date and heat.last_date != heat.first_date:
            days.append(heat.last_date)
        events.append(
            Event(
                uid=f"heat-{heat.pk}",
                kind=HEAT,
                competition=pair_comps[heat.competition_id],
                title=heat.name,
                venue=heat.venue,
                sessions=[(d, d) for d in days],
                status=heat.status,
                path=heat_path("pairs", heat.pk),
                heat=heat,
            )
        )
    for heat in team_heats.filter(status__in=shown):
        events.append(
            Event(
                uid=f"heat-{heat.pk}",
                kind=HEAT,
                competition=team_comps[heat.competition_id],
                title=heat.name,
                venue=heat.venue,
                sessions=[(heat.first_date, heat.last_date or heat.first_date)],
                status=heat.status,
                path=heat_path("teams", heat.pk),
                heat=heat,
            )
        )
    # Heats attach their competition by hand (above), so the competitions' rows are read once.
    for e in events:
        if e.heat is not None:
            e.heat.competition = e.competition
    events.sort(key=lambda e: (e.first, e.kind == FINAL, e.title))
    return events


def calendar_page(season: Season | None) -> CalendarPage:
    """/kalender/: the season's events, its competitions (one feed each) and every season
    (the current season for None)."""
    season = season or Season.current()
    events = season_events(season)
    competitions = {
        e.competition.pk: (e.competition, e.competition_label) for e in events if e.kind == FINAL
    }
    return CalendarPage(
        season=season,
        events=events,
        competitions=list(competitions.values()),  # by the final's date
        seasons=all_seasons(),
    )
