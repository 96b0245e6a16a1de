"""Sanctions as the pages show them (R-TEAM-RES-1..4, R-VP-4): each team's VP penalties in
force and its disqualification with what follows from it (results struck, opponents credited
with W.O., masterpoints kept, fees not refunded, the SM semifinal quota). Read side only: the
decisions are taken on /tk/sanktioner/ (portal.views.tk_sanctions) through
teams.services.decisions.sanctions. Three queries whatever the number of teams."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q

from clubs.models import Decided, Decision
from teams.models import Match, Penalty, Team


@dataclass
class Disqualification:
    clause: str
    reason: str
    decided_on: object = None
    #: R-TEAM-RES-2: False when found before the SM semifinal places were settled.
    counts_in_sm_quota: bool | None = None
    #: R-TEAM-RES-4: the opponents deemed to have won by W.O.
    opponents: list[str] = field(default_factory=list)


@dataclass
class TeamSanctions:
    team: Team
    penalties: list[Penalty] = field(default_factory=list)
    disqualification: Disqualification | None = None

    @property
    def penalty_vp(self) -> Decimal:
        return sum((p.vp for p in self.penalties), Decimal("0"))


def sanctions_for(teams) -> list[TeamSanctions]:
    """The sanctions of ``teams`` (Team objects), only the teams that have one, in the given
    order."""
    teams = list(teams)
    ids = [t.pk for t in teams]
    if not ids:
        return []
    penalties: dict[int, list[Penalty]] = defaultdict(list)
    for pen in (
        Penalty.objects.filter(team_id__in=ids, status=Decided.Status.GRANTED)
        .select_related("match__home", "match__away")
        .order_by("match__round", "id")
    ):
        penalties[pen.team_id].append(pen)
    disqualified = {t.pk for t in teams if t.status == Team.Status.DISQUALIFIED}
    decisions: dict[int, Decision] = {}
    opponents: dict[int, list[str]] = defaultdict(list)
    if disqualified:
        for d in Decision.objects.filter(
            action="teams.team.disqualified", object_type="teams.team", object_id__in=disqualified
        ).order_by("decided_at", "id"):
            decisions[d.object_id] = d  # the latest one wins
        for m in (
            Match.objects.filter(Q(home_id__in=disqualified) | Q(away_id__in=disqualified))
            .select_related("home", "away")
            .order_by("stage", "round", "id")
        ):
            if m.home_id in disqualified:
                opponents[m.home_id].append(m.away.name)
            if m.away_id in disqualified:
                opponents[m.away_id].append(m.home.name)
    out = []
    for team in teams:
        disq = None
        if team.pk in disqualified:
            d = decisions.get(team.pk)
            clause, _sep, reason = (team.status_reason or "").partition(": ")
            disq = Disqualification(
                clause=(d.clause if d else clause) or "R-TEAM-RES-4",
                reason=(d.reason if d else reason) or team.status_reason,
                decided_on=d.decided_at.date() if d else None,
                counts_in_sm_quota=(d.data.get("counts_in_sm_quota") if d else None),
                opponents=opponents.get(team.pk, []),
            )
        if penalties.get(team.pk) or disq:
            out.append(TeamSanctions(team, penalties.get(team.pk, []), disq))
    return out
