"""Read side of the public DM Lag pages: everything a page needs in a fixed number of queries.

Standings are computed by the recompute task and stored as snapshots
(:class:`results.models.StandingSnapshot`); pages only read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from clubs.models import HeatStatus, Season
from results.models import AllocationRun, RecomputeStatus, StandingSnapshot
from teams.models import Match, Team, TeamCompetition, TeamHeat
from ubf.rules.heats import half_minutes
from ubf.rules.i18n import Message
from ubf.rules.info import TEAM_STAGES, system_rules


@dataclass
class HeatView:
    heat: TeamHeat
    teams: list[Team]
    snapshot: StandingSnapshot | None
    organisers: list[str] = field(default_factory=list)
    #: R-TEAM-KVAL-6: the playing time of one half of the heat's matches, in minutes.
    half_minutes: int = 0


@dataclass
class LagPage:
    season: Season | None
    competition: TeamCompetition | None
    final_snapshot: StandingSnapshot | None = None
    final_teams: list[Team] = field(default_factory=list)
    final_started: bool = False
    heats: list[HeatView] = field(default_factory=list)
    recompute_pending: bool = False
    allocation: AllocationRun | None = None
    recent_matches: list[Match] = field(default_factory=list)
    system: Message = system_rules("teams", "final").text
    stages: str = TEAM_STAGES


def lag_page(season: Season | None = None) -> LagPage:
    """The current season's DM Lag: the final if it has started, else the heats."""
    season = season or Season.current()
    if season is None:
        return LagPage(season=None, competition=None)
    competition = TeamCompetition.objects.filter(season=season).select_related("season").first()
    if competition is None:
        return LagPage(season=season, competition=None)

    snapshots = {
        (s.scope, s.heat_id): s for s in StandingSnapshot.objects.filter(competition=competition)
    }
    final_snapshot = snapshots.get((StandingSnapshot.Scope.TEAM_FINAL, None))
    final_started = Match.objects.filter(
        competition=competition,
        stage=Match.Stage.FINAL,
        status__in=[Match.Status.PLAYED, Match.Status.WALKOVER],
    ).exists()

    status = RecomputeStatus.objects.filter(competition=competition).first()
    page = LagPage(
        season=season,
        competition=competition,
        final_snapshot=final_snapshot,
        final_started=final_started,
        recompute_pending=bool(status and status.pending),
        allocation=AllocationRun.objects.filter(competition=competition).first(),
    )
    page.recent_matches = list(
        Match.objects.filter(
            competition=competition, status__in=[Match.Status.PLAYED, Match.Status.WALKOVER]
        )
        .select_related("home", "away", "heat")
        .order_by("-played_on", "-round", "-id")[:12]
    )
    page.final_teams = list(
        Team.objects.filter(competition=competition, in_final=True).order_by("final_number", "name")
    )
    heats = (
        TeamHeat.objects.filter(competition=competition)
        .exclude(status__in=[HeatStatus.REJECTED, HeatStatus.CANCELLED])
        .prefetch_related(
            Prefetch("teams", queryset=Team.objects.order_by("number", "name")),
            "organisers__club",
        )
        .order_by("first_date", "name")
    )
    rules = season.rules()
    for heat in heats:
        page.heats.append(
            HeatView(
                heat=heat,
                teams=list(heat.teams.all()),
                snapshot=snapshots.get((StandingSnapshot.Scope.TEAM_HEAT, heat.id)),
                organisers=[o.club.name for o in heat.organisers.all()],
                half_minutes=half_minutes(
                    heat.boards_per_match // 2, dealt_at_table=heat.dealt_at_table, rules=rules
                ),
            )
        )
    return page
