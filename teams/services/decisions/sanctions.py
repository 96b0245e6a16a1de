"""Penalties, disqualification and protests (R-TEAM-RES-1..5): VP penalties, a team
disqualified for an unpaid member, another team's player or an ineligible extra player, and a
protest filed in time."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from datetime import date
from decimal import Decimal

from django.db import transaction

from clubs import clock
from clubs.locks import lock_row
from clubs.models import Membership, Player
from clubs.permissions import can_manage_team, is_tk
from clubs.recompute import request_recompute
from clubs.selectors import player_infos, player_infos_for
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
)
from teams.models import (
    Dispensation,
    Lineup,
    Match,
    Penalty,
    Team,
)
from teams.services.decisions.common import (
    DISQUALIFYING_CLAUSES,
    GRANTED,
    REJECTED,
    _as_rule_matches,
    _decide,
    _match_date,
    _plays_elsewhere,
    _require_tk,
)
from ubf.rules import eligibility, sanctions
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Severity, Violation


def _paid_on(season, players) -> dict[int, date | None]:
    return dict(
        Membership.objects.filter(season=season, player__in=list(players)).values_list(
            "player_id", "paid_on"
        )
    )


def _unpaid_when(paid_on: date | None, on: date | None) -> bool:
    """R-GEN-2: the fee had not been paid when the player played on ``on``."""
    return paid_on is None or (on is not None and paid_on > on)


def penalty_problems(team: Team, match: Match | None, vp, clause: str) -> list[Violation]:
    """What stops a penalty: the match must involve the team, the VP must be positive, the same
    team may not be penalised twice for one match under one clause, and for R-TEAM-RES-1 an
    uploaded line-up must show an unpaid player (:func:`ubf.rules.sanctions.unpaid_penalties`).
    """
    problems = []
    if vp is not None and Decimal(vp) <= 0:
        problems.append(
            error(
                clause,
                gettext_noop("Avdraget måste vara större än 0 VP (angivet: %(vp)s)."),
                params={"vp": vp},
            )
        )
    if match is None:
        return problems
    if team.pk not in (match.home_id, match.away_id):
        problems.append(
            error(
                clause,
                gettext_noop("%(team)s spelar inte i matchen %(match)s."),
                params={"team": team, "match": match},
            )
        )
        return problems
    if Penalty.objects.filter(team=team, match=match, clause=clause, status=GRANTED).exists():
        problems.append(
            error(
                clause,
                gettext_noop(
                    "%(team)s har redan fått avdrag enligt %(clause)s för matchen %(match)s: "
                    "högst ett avdrag per match och regel."
                ),
                params={"team": team, "clause": clause, "match": match},
            )
        )
    if clause == "R-TEAM-RES-1":
        lineup = list(
            Lineup.objects.filter(match=match, team=team).values_list("player_id", "half")
        )
        if lineup:
            season = team.competition.season
            on = _match_date(match)
            paid = _paid_on(season, {pid for pid, _ in lineup})
            unpaid = {pid for pid, _ in lineup if _unpaid_when(paid.get(pid), on)}
            halves: dict[int, int] = defaultdict(int)
            for pid, _half in lineup:
                halves[pid] += 1
            result = sanctions.unpaid_penalties(
                [(_as_rule_matches([match])[0], {team.pk: dict(halves)})],
                unpaid,
                season.rules(),
            )
            if team.pk not in result.penalties:
                problems.append(
                    error(
                        "R-TEAM-RES-1",
                        gettext_noop(
                            "Enligt laguppställningen spelade ingen spelare utan betald "
                            "medlemsavgift för %(team)s i matchen %(match)s."
                        ),
                        params={"team": team, "match": match},
                    )
                )
    return problems


@transaction.atomic
def impose_penalty(
    user, team: Team, match: Match | None, *, vp=None, clause="R-TEAM-RES-1", reason: str
):
    """R-TEAM-RES-1: TK takes ``rules.unpaid_player_penalty_vp`` (5) VP (or ``vp``) from the team
    for a match in which an unpaid player played one or both halves (R-VP-4: subtracted after
    conversion, by the recompute). A second penalty for the same team, match and clause is
    refused (see :func:`penalty_problems`)."""
    _require_tk(user, clause)
    team = lock_row(Team.objects.all(), team.pk)
    season = team.competition.season
    problems = reason_required(reason, clause)
    problems += penalty_problems(team, match, vp, clause)
    raise_on_errors(problems)
    amount = Decimal(vp) if vp is not None else season.rules().unpaid_player_penalty_vp
    penalty = Penalty(team=team, match=match, vp=amount, clause=clause)
    _decide(penalty, user, GRANTED, reason)
    penalty.save()
    record_decision(
        "teams.penalty.imposed",
        penalty,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=season,
        team=team.name,
        match=match.pk if match else None,
        vp=amount,
    )
    request_recompute(team.competition_id)
    return penalty


def _fielded(team: Team) -> dict[int, set[int]]:
    """Match id → the players this team fielded in it (from the line-ups)."""
    out: dict[int, set[int]] = defaultdict(set)
    for match_id, player_id in Lineup.objects.filter(team=team).values_list(
        "match_id", "player_id"
    ):
        out[match_id].add(player_id)
    return out


def _unpaid_findings(team: Team) -> list[Violation]:
    """R-TEAM-RES-1: for each fielded player who had not paid, the 14-day check."""
    season = team.competition.season
    rules = season.rules()
    fielded = _fielded(team)
    matches = {m.pk: m for m in Match.objects.filter(pk__in=fielded).select_related("heat")}
    players = {pid for ps in fielded.values() for pid in ps}
    paid = _paid_on(season, players)
    offences: dict[int, list[date]] = defaultdict(list)
    for match_id, pids in fielded.items():
        on = _match_date(matches[match_id])
        if on is None:
            continue
        for pid in pids:
            if _unpaid_when(paid.get(pid), on):
                offences[pid].append(on)
    if not offences:
        return []
    offenders = {p.pk: p.mid for p in Player.objects.filter(pk__in=offences)}
    infos = player_infos(season, offenders.values())
    out = []
    today = clock.today()
    for pid, dates in sorted(offences.items()):
        info = infos[offenders[pid]]
        out += eligibility.check_unpaid_fielded(
            dataclasses.replace(info, membership_paid=False),
            min(dates),
            today,
            matches_played=len(dates),
            fee_received_on=paid.get(pid),
            rules=rules,
        )
    return out


def _other_team_findings(team: Team) -> list[Violation]:
    """R-TEAM-RES-2: fielded players who had taken part for another team on an earlier day
    than one on which this team fielded them (:func:`ubf.rules.eligibility.check_played_for_two_teams`;
    the team he played for first, and a team whose player was only listed elsewhere, are not
    at fault). SM semifinal places are settled on the final's last central day
    (R-TEAM-SEMI-1)."""
    season = team.competition.season
    days: dict[int, set] = defaultdict(set)
    for lineup in Lineup.objects.filter(team=team).select_related(
        "match__heat", "match__competition"
    ):
        days[lineup.player_id].add(_match_date(lineup.match))
    players = {p.pk: p for p in Player.objects.filter(pk__in=days)}
    infos = player_infos_for(season, players.values())
    out = []
    for pid, player in sorted(players.items()):
        out += eligibility.check_played_for_two_teams(
            infos[player.mid],
            team.name,
            days[pid],
            _plays_elsewhere(player, team),
            found_on=clock.today(),
            semifinal_places_settled_on=team.competition.final_day2,
        )
    return out


def _extra_player_findings(team: Team) -> list[Violation]:
    """R-TEAM-RES-3: per match, fielded players beyond the regular roster without a granted
    dispensation for that occasion (:func:`ubf.rules.eligibility.dispensation_covers`)."""
    season = team.competition.season
    rules = season.rules()
    entries = list(team.roster.select_related("player"))
    regular = [e.player for e in entries if not e.is_extra]
    fielded = _fielded(team)
    everyone = {p.pk: p for p in regular}
    everyone.update(
        {p.pk: p for p in Player.objects.filter(pk__in={x for s in fielded.values() for x in s})}
    )
    by_mid = player_infos_for(season, everyone.values())
    infos = {pk: by_mid[p.mid] for pk, p in everyone.items()}
    granted = list(
        Dispensation.objects.filter(
            team=team, kind=Dispensation.Kind.EXTRA_PLAYER, status=GRANTED
        ).select_related("player")
    )
    out = []
    seen = set()
    for match in Match.objects.filter(pk__in=fielded).select_related("heat", "competition"):
        on = _match_date(match)
        covering = {
            d.player.mid
            for d in granted
            if d.player_id and eligibility.dispensation_covers(d.occasion_date, on)
        }
        for v in eligibility.check_fielded_extra_players(
            [infos[p.pk] for p in regular],
            [infos[pid] for pid in sorted(fielded[match.pk])],
            dispensations=covering,
            rules=rules,
        ):
            key = (v.clause, v.data.get("mid"))
            if v.is_error and key not in seen:
                seen.add(key)
                out.append(v)
    return out


_FINDERS = {
    "R-TEAM-RES-1": _unpaid_findings,
    "R-TEAM-RES-2": _other_team_findings,
    "R-TEAM-RES-3": _extra_player_findings,
}


@transaction.atomic
def disqualify_team(user, team: Team, *, clause: str, reason: str):
    """R-TEAM-RES-4: TK disqualifies a team on one of the grounds the regulations give, after
    checking the facts in the system:

    - R-TEAM-RES-1: a player who had not paid played, and the fee did not reach SBF within
      ``rules.unpaid_fee_grace_days`` of the first offence
      (:func:`ubf.rules.eligibility.check_unpaid_fielded`);
    - R-TEAM-RES-2: a fielded player played for another team this season (the team then does
      not count in the SM semifinal quota if found before those places were settled);
    - R-TEAM-RES-3: a 7th/8th player fielded without a dispensation for that occasion.

    The team's status becomes ``disqualified``; the recompute turns its matches in the stage
    into W.O.s for the opponents (:func:`ubf.rules.sanctions.apply_disqualification`) while
    masterpoints keep the results played. Fees are not refunded."""
    _require_tk(user, clause if clause in DISQUALIFYING_CLAUSES else "R-TEAM-RES-4")
    team = lock_row(Team.objects.all(), team.pk)
    season = team.competition.season
    problems = reason_required(reason, "R-TEAM-RES-4")
    if clause not in DISQUALIFYING_CLAUSES:
        raise_on_errors(
            problems
            + [
                error(
                    "R-TEAM-RES-4",
                    gettext_noop(
                        "Diskvalificering sker enligt R-TEAM-RES-1, -2 eller -3, inte %(clause)r."
                    ),
                    params={"clause": clause},
                )
            ]
        )
    if team.status == Team.Status.DISQUALIFIED:
        problems.append(
            error(
                "R-TEAM-RES-4",
                gettext_noop("%(team)s är redan diskvalificerat."),
                params={"team": team},
            )
        )
    findings = _FINDERS[clause](team)
    grounds = [v for v in findings if v.is_error]
    if not grounds:
        if findings:
            # Not (yet) grounds for disqualification: show why (e.g. the 14 days still run).
            problems += [dataclasses.replace(v, severity=Severity.ERROR) for v in findings]
        else:
            problems.append(
                error(
                    clause,
                    gettext_noop(
                        "Inget i systemet visar skäl att diskvalificera %(team)s enligt "
                        "%(clause)s (kontrollera laguppställningar, medlemskap och dispenser)."
                    ),
                    params={"team": team, "clause": clause},
                )
            )
    raise_on_errors(problems)

    team.status = Team.Status.DISQUALIFIED
    team.status_reason = f"{clause}: {reason.strip()}"
    team.save()
    figures = {
        "findings": [v.message_sv for v in grounds],
        "mids": sorted({v.data.get("mid") for v in grounds if v.data.get("mid")}),
        "fees_refunded": False,
        "consequence": "R-TEAM-RES-4",
    }
    if clause == "R-TEAM-RES-2":
        figures["counts_in_sm_quota"] = all(v.data.get("counts_in_sm_quota") for v in grounds)
    record_decision(
        "teams.team.disqualified",
        team,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=season,
        **figures,
    )
    request_recompute(team.competition_id)
    return team


@transaction.atomic
def file_protest(user, team: Team, *, concerning: str, text: str, filed_on: date):
    """R-TEAM-RES-5: a protest against an illegal player, filed for ``team`` (by its captain,
    its heat's responsible or TK), concerning SM semifinal places (``"sm_semifinal"``) or SM
    final places (``"sm_final"``). Refused after the season's deadline
    (:func:`ubf.rules.eligibility.check_protest`); only TK may record a protest received on an
    earlier day. Recorded as the decision ``teams.protest.filed``."""
    require(can_manage_team(user, team))
    season = team.competition.season
    problems = []
    if not (text and text.strip()):
        problems.append(
            error(
                "R-TEAM-RES-5",
                gettext_noop("Beskriv protesten: vilken spelare och vilken match."),
            )
        )
    today = clock.today()
    if filed_on > today:
        problems.append(
            error(
                "R-TEAM-RES-5",
                gettext_noop("Protestdatumet %(filed_on_isoformat)s ligger i framtiden."),
                params={"filed_on_isoformat": filed_on.isoformat()},
            )
        )
    elif filed_on < today and not is_tk(user):
        problems.append(
            error(
                "R-TEAM-RES-5",
                gettext_noop("Bara TK kan registrera en protest med ett tidigare datum än i dag."),
            )
        )
    problems += eligibility.check_protest(filed_on, concerning, season.rules())
    raise_on_errors(problems)
    return record_decision(
        "teams.protest.filed",
        team,
        user=user,
        reason=text.strip(),
        clause="R-TEAM-RES-5",
        season=season,
        concerning=concerning,
        filed_on=filed_on,
        deadline=eligibility.protest_deadline(concerning, season.rules()),
    )


@transaction.atomic
def lift_penalty(user, penalty: Penalty, *, reason: str) -> Penalty:
    """R-TEAM-RES-1, R-GEN-3: TK lifts a VP penalty it imposed (a fee that had been paid, a
    line-up entered wrongly), always with a reason. The penalty stays on record as rejected
    (who lifted it, when, why; its history keeps the imposing decision) and no longer counts:
    the recompute gives the VP back (R-VP-4). A penalty that does not count is refused."""
    _require_tk(user, penalty.clause)
    penalty = lock_row(
        Penalty.objects.select_related("team__competition__season"),
        penalty.pk,
        competition="team__competition_id",
    )
    problems = reason_required(reason, penalty.clause)
    if penalty.status != GRANTED:
        problems.append(
            error(
                penalty.clause,
                gettext_noop("Avdraget gäller inte (det är redan hävt eller aldrig beviljat)."),
            )
        )
    raise_on_errors(problems)
    season = penalty.team.competition.season
    _decide(penalty, user, REJECTED, reason)
    penalty.save()
    record_decision(
        "teams.penalty.lifted",
        penalty,
        user=user,
        reason=reason.strip(),
        clause=penalty.clause,
        season=season,
        team=penalty.team.name,
        match=penalty.match_id,
        vp=penalty.vp,
    )
    request_recompute(penalty.team.competition_id)
    return penalty
