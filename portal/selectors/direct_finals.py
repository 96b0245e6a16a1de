"""TK's direct-final page (/tk/direktfinal/, issue 22): per competition of the season what the
decision rests on (R-PAIR-DF-1, R-TEAM-DF-1): the clubs arranging approved heats, the heats
still waiting for TK, the day the decision must be taken by (the end of the qualifying period),
the rule's notice when fewer than two clubs arrange, and TK's last decision (who, when, why).
Read only; a handful of queries per competition (a season has five)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from clubs import clock
from clubs.models import Club, Decision, HeatStatus, Season
from clubs.services.heats import HeatKind, direct_final_needed
from pairs.models import PairCompetition, PairHeat
from pairs.services.heats import PAIR_HEATS
from teams.models import TeamCompetition, TeamHeat
from teams.services.heats import TEAM_HEATS
from ubf.rules.types import Discipline
from ubf.rules.violations import Violation


@dataclass
class DirectFinalRow:
    competition: PairCompetition | TeamCompetition
    kind: HeatKind
    #: The clubs arranging an approved heat (R-PAIR-DF-1, R-TEAM-DF-1).
    clubs: list[str]
    #: Heats applied for and not yet decided by TK.
    waiting: int
    notice: Violation | None
    decision: Decision | None
    today: date

    @property
    def clause(self) -> str:
        return self.kind.direct_final_clause

    @property
    def is_dam(self) -> bool:
        """Dam is a direct final by the regulations (R-PAIR-KVAL-1): nothing to decide."""
        return getattr(self.competition, "discipline", "") == Discipline.DAM

    @property
    def deadline(self) -> date | None:
        return self.competition.qualifying_end

    @property
    def late(self) -> bool:
        """A decision is needed (fewer than two clubs arrange), the qualifying period is over
        and TK has not decided."""
        return bool(
            self.notice and self.deadline and self.today > self.deadline and self.decision is None
        )


def _clubs(kind: HeatKind, competition) -> list[str]:
    if kind is TEAM_HEATS:
        qs = Club.objects.filter(
            team_heats__competition=competition, team_heats__status=HeatStatus.APPROVED
        )
    else:
        qs = Club.objects.filter(
            pair_heats__competition=competition, pair_heats__status=HeatStatus.APPROVED
        )
    return list(qs.distinct().order_by("name").values_list("name", flat=True))


def _waiting(kind: HeatKind, competition) -> int:
    model = TeamHeat if kind is TEAM_HEATS else PairHeat
    return model.objects.filter(competition=competition, status=HeatStatus.APPLIED).count()


def last_decision(competition) -> Decision | None:
    """TK's latest direct-final decision for ``competition`` (with who took it)."""
    return (
        Decision.objects.filter(
            action__endswith=".direct_final.decided",
            object_type=competition._meta.label_lower,
            object_id=competition.pk,
        )
        .select_related("decided_by")
        .order_by("-id")
        .first()
    )


def direct_final_rows(season: Season | None = None) -> list[DirectFinalRow]:
    """One row per competition of ``season`` (the current one by default): DM Par's
    disciplines by their final's date, then DM Lag."""
    season = season or Season.current()
    if season is None:
        return []
    today = clock.today()
    rows = []
    competitions = [
        (PAIR_HEATS, c)
        for c in PairCompetition.objects.filter(season=season).select_related("season")
    ] + [
        (TEAM_HEATS, c)
        for c in TeamCompetition.objects.filter(season=season).select_related("season")
    ]
    for kind, competition in competitions:
        dam = getattr(competition, "discipline", "") == Discipline.DAM
        rows.append(
            DirectFinalRow(
                competition=competition,
                kind=kind,
                clubs=[] if dam else _clubs(kind, competition),
                waiting=0 if dam else _waiting(kind, competition),
                notice=None if dam else direct_final_needed(kind, competition),
                decision=last_decision(competition),
                today=today,
            )
        )
    return rows
