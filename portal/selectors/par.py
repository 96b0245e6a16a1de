"""Read side of the public DM Par pages, in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from clubs.models import HeatStatus, Season
from pairs.models import PairCompetition, PairHeat
from results.models import AllocationRun, RecomputeStatus, StandingSnapshot


@dataclass
class CompetitionView:
    competition: PairCompetition
    heats: list[tuple[PairHeat, StandingSnapshot | None]] = field(default_factory=list)
    allocation: AllocationRun | None = None
    final: StandingSnapshot | None = None
    pending: bool = False


def par_page(season: Season | None = None) -> tuple[Season | None, list[CompetitionView]]:
    season = season or Season.current()
    if season is None:
        return None, []
    competitions = list(
        PairCompetition.objects.filter(season=season)
        .prefetch_related(
            Prefetch(
                "heats",
                queryset=PairHeat.objects.exclude(
                    status__in=[HeatStatus.REJECTED, HeatStatus.CANCELLED]
                )
                .prefetch_related("clubs")
                .order_by("first_date", "name"),
            )
        )
        .order_by("final_date")
    )
    # Heat standings and the finals' standings in one query.
    snapshots, finals = {}, {}
    for s in StandingSnapshot.objects.filter(
        competition__season=season,
        scope__in=[StandingSnapshot.Scope.PAIR_HEAT, StandingSnapshot.Scope.PAIR_FINAL],
    ):
        if s.scope == StandingSnapshot.Scope.PAIR_FINAL:
            finals[s.competition_id] = s
        else:
            snapshots[s.heat_id] = s
    runs = {r.competition_id: r for r in AllocationRun.objects.filter(competition__season=season)}
    pending = {
        s.competition_id
        for s in RecomputeStatus.objects.filter(competition__season=season)
        if s.pending
    }
    views = []
    for c in competitions:
        views.append(
            CompetitionView(
                competition=c,
                heats=[(h, snapshots.get(h.id)) for h in c.heats.all()],
                allocation=runs.get(c.id),
                final=finals.get(c.id),
                pending=c.id in pending,
            )
        )
    return season, views
