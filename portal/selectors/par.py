"""Read side of the public DM Par pages, in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from clubs.models import HeatStatus, Season
from pairs.models import PairCompetition, PairHeat
from results.models import AllocationRun, RecomputeStatus, StandingSnapshot


@dataclass
class HeatView:
    """A heat and its standing. For a heat of two sessions (R-PAIR-KVAL-6) uploaded one file
    per session: ``sessions`` [(1, date), (2, date)], and ``sessions_in`` the sessions whose
    file is in (from the snapshot's rows), so the page can say "efter speltillfälle 1 av 2"."""

    heat: PairHeat
    snap: StandingSnapshot | None
    sessions: list[tuple[int, object]] = field(default_factory=list)
    sessions_in: list[int] = field(default_factory=list)

    @property
    def by_session(self) -> bool:
        return bool(self.sessions and self.snap and self.snap.rounds_played)


def _heat_view(heat: PairHeat, snap: StandingSnapshot | None) -> HeatView:
    sessions = list(heat.session_dates.items()) if heat.last_date else []
    sessions_in = []
    if sessions and snap and snap.data:
        sessions_in = [
            n
            for n, _d in sessions
            if any((r.get("sessions") or [None] * 2)[n - 1] for r in snap.data)
        ]
    return HeatView(heat, snap, sessions, sessions_in)


@dataclass
class CompetitionView:
    competition: PairCompetition
    heats: list[HeatView] = field(default_factory=list)
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
                heats=[_heat_view(h, snapshots.get(h.id)) for h in c.heats.all()],
                allocation=runs.get(c.id),
                final=finals.get(c.id),
                pending=c.id in pending,
            )
        )
    return season, views
