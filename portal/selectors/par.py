"""Read side of the public DM Par pages, in a fixed number of queries.

* :func:`par_page` – ``/par/``: an overview per competition (its heats as one row each: date,
  venue, pairs, final seats, status, linked to the heat's page; the final linked);
* :func:`competition_page` – ``/par/<competition_id>/``: one competition: the final's
  standings, the allocation of the final's seats with its reasons, and the heats' rows.

A heat's standings are on its own page (``/par/kval/<id>/``, portal.selectors.heats), not
inlined here: a national season has 200 heats (issue 12, the pages' speed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q
from django.http import Http404

from clubs.models import HeatStatus, Season
from pairs.models import PairCompetition, PairEntry, PairHeat
from results.models import AllocationRun, RecomputeStatus, StandingSnapshot
from results.seat_states import annotate_explanation


@dataclass
class HeatView:
    """A heat and its standing. For a heat of two sessions (R-PAIR-KVAL-6) uploaded one file
    per session: ``sessions`` [(1, date), (2, date)], and ``sessions_in`` the sessions whose
    file is in (from the snapshot's rows), so the page can say "efter speltillfälle 1 av 2"."""

    heat: PairHeat
    snap: StandingSnapshot | None
    sessions: list[tuple[int, object]] = field(default_factory=list)
    sessions_in: list[int] = field(default_factory=list)
    #: Pairs entered (withdrawn ones not counted).
    pairs: int = 0
    #: The heat's final seats in the allocation (None before there is one, or when the heat
    #: does not count in it yet).
    seats: int | None = None

    @property
    def by_session(self) -> bool:
        return bool(self.sessions and self.snap and self.snap.rounds_played)

    @property
    def waiting_for_session(self) -> bool:
        """A two-session heat with only its first session's file in."""
        return self.by_session and bool(self.snap.provisional)


def _heat_view(
    heat: PairHeat, snap: StandingSnapshot | None, seats: dict[str, int] | None = None
) -> HeatView:
    sessions = list(heat.session_dates.items()) if heat.last_date else []
    sessions_in = []
    if sessions and snap and snap.data:
        sessions_in = [
            n
            for n, _d in sessions
            if any((r.get("sessions") or [None] * 2)[n - 1] for r in snap.data)
        ]
    return HeatView(
        heat,
        snap,
        sessions,
        sessions_in,
        pairs=getattr(heat, "pairs_entered", 0),
        seats=(seats or {}).get(heat.name),
    )


@dataclass
class CompetitionView:
    competition: PairCompetition
    heats: list[HeatView] = field(default_factory=list)
    allocation: AllocationRun | None = None
    final: StandingSnapshot | None = None
    pending: bool = False

    @property
    def pairs(self) -> int:
        return sum(hv.pairs for hv in self.heats)

    @property
    def champions(self) -> list[dict]:
        rows = (self.final.data or {}).get("rows", []) if self.final else []
        return [r for r in rows if r.get("title")]


def _competitions(season: Season, competition_id: int | None = None) -> list[CompetitionView]:
    """The season's competitions (or the one), each with its heats (entered pairs counted,
    final seats from the allocation), their standings, its allocation and its final, in six
    queries however many heats and entries."""
    competitions = PairCompetition.objects.filter(season=season)
    if competition_id is not None:
        competitions = competitions.filter(pk=competition_id)
    competitions = list(
        competitions.prefetch_related(
            Prefetch(
                "heats",
                queryset=PairHeat.objects.exclude(
                    status__in=[HeatStatus.REJECTED, HeatStatus.CANCELLED]
                )
                .annotate(
                    pairs_entered=Count(
                        "entries", filter=~Q(entries__status=PairEntry.Status.WITHDRAWN)
                    )
                )
                .prefetch_related("clubs")
                .order_by("first_date", "name"),
            )
        ).order_by("final_date")
    )
    scope = {"competition__season": season}
    if competition_id is not None:
        scope = {"competition_id": competition_id}
    # Heat standings and the finals' standings in one query.
    snapshots, finals = {}, {}
    for s in StandingSnapshot.objects.filter(
        **scope,
        scope__in=[StandingSnapshot.Scope.PAIR_HEAT, StandingSnapshot.Scope.PAIR_FINAL],
    ):
        if s.scope == StandingSnapshot.Scope.PAIR_FINAL:
            finals[s.competition_id] = s
        else:
            snapshots[s.heat_id] = s
    runs = {r.competition_id: r for r in AllocationRun.objects.filter(**scope)}
    pending = {s.competition_id for s in RecomputeStatus.objects.filter(**scope) if s.pending}
    views = []
    for c in competitions:
        run = runs.get(c.id)
        # The allocation names each venue by its heat's name (as the heat page reads it).
        seats = {
            v.get("label"): v.get("seats")
            for v in ((run.explanation or {}).get("venues", []) if run else [])
        }
        views.append(
            CompetitionView(
                competition=c,
                heats=[_heat_view(h, snapshots.get(h.id), seats) for h in c.heats.all()],
                allocation=run,
                final=finals.get(c.id),
                pending=c.id in pending,
            )
        )
    return views


def par_page(season: Season | None = None) -> tuple[Season | None, list[CompetitionView]]:
    season = season or Season.current()
    if season is None:
        return None, []
    return season, _competitions(season)


def competition_page(competition_id: int) -> CompetitionView:
    """``/par/<competition_id>/``; 404 for a competition that does not exist."""
    found = PairCompetition.objects.select_related("season").filter(pk=competition_id).first()
    if found is None:
        raise Http404
    view = _competitions(found.season, competition_id)[0]
    view.competition.season = found.season
    # Issue 21: each final seat in words ("preliminärt, X heat kvar" until every heat is in).
    annotate_explanation(view.allocation, view.competition)
    return view
