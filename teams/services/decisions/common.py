"""What the DM Lag decisions share: TK-only checks, the Decided fields, a match's date and
stage, and the matches of a team."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal

from django.db.models import Q

from clubs import clock
from clubs.permissions import is_tk
from clubs.services.base import (
    require,
)
from teams.models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    RosterEntry,
    Team,
    WalkOver,
)
from ubf.rules import eligibility, sanctions
from ubf.rules.i18n import gettext_noop
from ubf.rules.vp import victory_points

GRANTED = Dispensation.Status.GRANTED
REJECTED = Dispensation.Status.REJECTED
REQUESTED = Dispensation.Status.REQUESTED

DISQUALIFYING_CLAUSES = ("R-TEAM-RES-1", "R-TEAM-RES-2", "R-TEAM-RES-3")


def _require_tk(user, clause: str = "R-GEN-3") -> None:
    require(
        is_tk(user),
        gettext_noop("Endast UBF TK kan fatta detta beslut (%(clause)s)."),
        params={"clause": clause},
    )


def _decide(record, user, status: str, reason: str) -> None:
    """Set the ``Decided`` fields of ``record`` (not saved)."""
    record.status = status
    record.decided_by = user
    record.decided_at = clock.now()
    record.reason = reason.strip()
    if record.requested_by_id is None:
        record.requested_by = user


def _match_date(match: Match) -> date | None:
    if match.played_on:
        return match.played_on
    if match.stage == Match.Stage.KVAL and match.heat_id:
        return match.heat.first_date
    return match.competition.final_day1


def _stage_matches(match: Match):
    """The matches of ``match``'s stage: its heat (kval) or the final."""
    qs = Match.objects.filter(competition_id=match.competition_id, stage=match.stage)
    if match.stage == Match.Stage.KVAL:
        qs = qs.filter(heat_id=match.heat_id)
    return qs


def _as_rule_matches(matches: Iterable[Match]) -> list[sanctions.Match]:
    """R-TEAM-WO-*: the stage's matches as the rulebook sees them (TK's W.O.s marked). A played
    match's VP come from its IMPs (R-VP-1), as in the recompute, not from the stored figures."""
    matches = list(matches)
    offenders = dict(
        WalkOver.objects.filter(match__in=matches, status=GRANTED).values_list(
            "match_id", "offender_id"
        )
    )
    out = []
    for m in matches:
        vp_home, vp_away = m.vp_home or Decimal(0), m.vp_away or Decimal(0)
        if m.status == Match.Status.PLAYED and m.imps_home is not None and m.imps_away is not None:
            vp_home, vp_away = victory_points(m.imps_home, m.imps_away, m.boards)
        out.append(
            sanctions.Match(
                home=m.home_id,
                away=m.away_id,
                imps_home=m.imps_home or 0,
                imps_away=m.imps_away or 0,
                vp_home=vp_home,
                vp_away=vp_away,
                boards=m.boards,
                walkover_by=offenders.get(m.pk),
            )
        )
    return out


def _team_matches(team: Team):
    return Match.objects.filter(Q(home=team) | Q(away=team))


def _has_started(team: Team) -> bool:
    return _team_matches(team).filter(status=Match.Status.PLAYED).exists() or (
        Lineup.objects.filter(team=team).exists()
    )


def _other_teams_of(player, team: Team) -> list[tuple[str, str]]:
    """R-TEAM-5: the other teams ``player`` is on or played for this season (this system's
    teams, and play recorded from other districts): (team name, district)."""
    season = team.competition.season
    out: dict[str, str] = {}
    rosters = RosterEntry.objects.filter(player=player, team__competition__season=season).exclude(
        team=team
    )
    for other in rosters.select_related("team"):
        out.setdefault(other.team.name, "UBF")
    for play in _plays_elsewhere(player, team):
        out.setdefault(play.team, play.district)
    return sorted(out.items())


def _plays_elsewhere(player, team: Team) -> list[eligibility.TeamPlay]:
    """R-TEAM-RES-2: the days ``player`` took part for another team this season: his line-ups
    for other teams (the match's day, :func:`_match_date`) and play recorded from other
    districts. A roster place alone is not play."""
    season = team.competition.season
    out = [
        eligibility.TeamPlay(lineup.team.name, "UBF", _match_date(lineup.match))
        for lineup in Lineup.objects.filter(player=player, match__competition__season=season)
        .exclude(team=team)
        .select_related("team", "match__heat", "match__competition")
    ]
    out += [
        eligibility.TeamPlay(ext.team_name, ext.district, ext.played_on)
        for ext in ExternalTeamPlay.objects.filter(player=player, season=season)
    ]
    return out
