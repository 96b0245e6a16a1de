"""TK decisions in DM Lag: dispensations, W.O.s, penalties, disqualification, protests,
rulings and appeals (R-GEN-3, R-TEAM-3, R-TEAM-5, R-TEAM-WO-1..3, R-TEAM-RES-1..5,
R-RULING-1..3).

Every decision sets the ``Decided`` fields of the record it concerns (status, decider, time,
reason) where the record has them, and appends a typed entry to the audit trail
(:func:`clubs.services.base.record_decision`). Each function checks permission first (TK only, except
filing a protest, which the team may do), then validates everything, then writes; a refusal
(:class:`clubs.services.base.ServiceError`) carries every reason with its clause and writes nothing.
"""

from __future__ import annotations

import dataclasses
import random
import re
import secrets
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from clubs import clock, windows
from clubs.decision_log import decision_log
from clubs.models import Membership, Player
from clubs.permissions import can_manage_team, is_tk
from clubs.recompute import request_recompute
from clubs.selectors import player_infos, player_infos_for
from clubs.services.base import raise_on_errors, record_decision, require
from ubf.rules import eligibility, sanctions
from ubf.rules.violations import Violation

from ..models import (
    Dispensation,
    ExternalTeamPlay,
    Lineup,
    Match,
    Penalty,
    RosterEntry,
    Ruling,
    Team,
    TeamFinalOffer,
    WalkOver,
)

GRANTED = Dispensation.Status.GRANTED
REJECTED = Dispensation.Status.REJECTED
REQUESTED = Dispensation.Status.REQUESTED

DISQUALIFYING_CLAUSES = ("R-TEAM-RES-1", "R-TEAM-RES-2", "R-TEAM-RES-3")


# ---------------------------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------------------------


def _require_tk(user, clause: str = "R-GEN-3") -> None:
    require(
        is_tk(user),
        f"Endast UBF TK kan fatta detta beslut ({clause}).",
        f"Only UBF TK can make this decision ({clause}).",
    )


def _v(clause: str, sv: str, en: str, **data) -> Violation:
    return Violation(clause=clause, message_sv=sv, message_en=en, data=data)


def _reason_missing(reason: str | None, clause: str = "R-GEN-3") -> list[Violation]:
    if reason and reason.strip():
        return []
    return [
        _v(
            clause,
            "Skriv en motivering: varje TK-beslut sparas med vem, när och varför (R-GEN-3).",
            "Give a reason: every TK decision is recorded with who, when and why (R-GEN-3).",
            missing="reason",
        )
    ]


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
    """R-TEAM-WO-*: the stage's matches as the rulebook sees them (TK's W.O.s marked)."""
    matches = list(matches)
    offenders = dict(
        WalkOver.objects.filter(match__in=matches, status=GRANTED).values_list(
            "match_id", "offender_id"
        )
    )
    return [
        sanctions.Match(
            home=m.home_id,
            away=m.away_id,
            imps_home=m.imps_home or 0,
            imps_away=m.imps_away or 0,
            vp_home=m.vp_home or Decimal(0),
            vp_away=m.vp_away or Decimal(0),
            boards=m.boards,
            walkover_by=offenders.get(m.pk),
        )
        for m in matches
    ]


def _team_matches(team: Team):
    return Match.objects.filter(Q(home=team) | Q(away=team))


def _has_started(team: Team) -> bool:
    return _team_matches(team).filter(status=Match.Status.PLAYED).exists() or (
        Lineup.objects.filter(team=team).exists()
    )


# ---------------------------------------------------------------------------------------------
# 1. Dispensations (R-TEAM-3, R-TEAM-5)
# ---------------------------------------------------------------------------------------------


def _other_teams_of(player, team: Team, *, played_only: bool = False) -> list[tuple[str, str]]:
    """R-TEAM-5 / R-TEAM-RES-2: the other teams ``player`` is on or played for this season
    (this system's teams, and play recorded from other districts): (team name, district).
    ``played_only``: a roster place counts only if that team has played a match."""
    season = team.competition.season
    out: dict[str, str] = {}
    rosters = RosterEntry.objects.filter(player=player, team__competition__season=season).exclude(
        team=team
    )
    for other in rosters.select_related("team"):
        if (
            played_only
            and not _team_matches(other.team).filter(status=Match.Status.PLAYED).exists()
        ):
            continue
        out.setdefault(other.team.name, "UBF")
    for name in (
        Lineup.objects.filter(player=player, match__competition__season=season)
        .exclude(team=team)
        .values_list("team__name", flat=True)
    ):
        out.setdefault(name, "UBF")
    for ext in ExternalTeamPlay.objects.filter(player=player, season=season):
        out.setdefault(ext.team_name, ext.district)
    return sorted(out.items())


def _extra_player_problems(dispensation: Dispensation) -> list[Violation]:
    team = dispensation.team
    season = team.competition.season
    rules = season.rules()
    player = dispensation.player
    if player is None:
        return [
            _v(
                "R-TEAM-5",
                "Dispens för sjunde/åttonde spelare måste ange spelaren.",
                "A dispensation for a 7th/8th player must name the player.",
            )
        ]
    problems = []
    entries = list(team.roster.select_related("player"))
    own = next((e for e in entries if e.player_id == player.pk), None)
    if own is not None and not own.is_extra:
        problems.append(
            _v(
                "R-TEAM-5",
                f"{player} står redan i laget som ordinarie spelare och behöver ingen dispens.",
                f"{player} is already a regular member of the team and needs no dispensation.",
                mid=player.mid,
            )
        )
    today = clock.today()
    if dispensation.occasion_date and dispensation.occasion_date < today:
        problems.append(
            _v(
                "R-TEAM-5",
                f"Dispensen ska sökas och beviljas före speltillfället "
                f"({dispensation.occasion_date.isoformat()}); det har redan varit.",
                f"The dispensation must be sought and granted before the occasion "
                f"({dispensation.occasion_date.isoformat()}), which has passed.",
                occasion_date=dispensation.occasion_date,
            )
        )
    infos = player_infos_for(season, [e.player for e in entries] + [player])
    others = _other_teams_of(player, team)
    problems += [
        v
        for v in eligibility.check_extra_players(
            [infos[e.player.mid] for e in entries],
            [infos[player.mid]],
            dispensations={player.mid},
            played_for_other_team={player.mid} if others else set(),
            rules=rules,
        )
        if v.is_error
    ]
    if others:
        problems.append(
            _v(
                "R-TEAM-5",
                "Spelaren finns i: " + ", ".join(f"{n} ({d})" for n, d in others) + ".",
                "The player is found in: " + ", ".join(f"{n} ({d})" for n, d in others) + ".",
                other_teams=others,
            )
        )
    return problems


@transaction.atomic
def decide_dispensation(user, dispensation: Dispensation, grant: bool, reason: str):
    """R-GEN-3, R-TEAM-3, R-TEAM-5: TK grants or rejects a dispensation.

    - ``extra_player`` (R-TEAM-5): granting puts the player on the roster as a 7th/8th player
      (``RosterEntry(is_extra=True)``, kept if already there); refused if the player is on or
      played for another team this season (roster, line-up or play recorded from another
      district), if the team would have more than ``rules.roster_max_with_dispensation``
      players, or if the occasion has already passed (it is sought before each occasion).
    - ``district_balance`` (R-TEAM-3): must be granted before the team starts; granting is
      refused once the team has played a match.
    """
    _require_tk(user)
    dispensation = Dispensation.objects.select_for_update().get(pk=dispensation.pk)
    team = dispensation.team
    season = team.competition.season
    problems = _reason_missing(reason)
    if dispensation.status != REQUESTED:
        problems.append(
            _v(
                "R-GEN-3",
                f"Dispensen är redan {dispensation.get_status_display()}. Registrera en ny "
                "ansökan om beslutet ska ändras.",
                f"The dispensation has already been decided ({dispensation.status}). Record a "
                "new request to change the decision.",
                status=dispensation.status,
            )
        )
    clause = "R-TEAM-5" if dispensation.kind == Dispensation.Kind.EXTRA_PLAYER else "R-TEAM-3"
    figures: dict = {"kind": dispensation.kind, "team": team.name}
    if grant and dispensation.kind == Dispensation.Kind.EXTRA_PLAYER:
        problems += _extra_player_problems(dispensation)
    if grant and dispensation.kind == Dispensation.Kind.DISTRICT_BALANCE:
        if _has_started(team):
            problems.append(
                _v(
                    "R-TEAM-3",
                    f"{team} har redan spelat: dispens för distriktsbalansen ska beviljas innan "
                    "laget startar.",
                    f"{team} has already played: a district-balance dispensation must be "
                    "granted before the team starts.",
                )
            )
        roster = player_infos_for(season, [e.player for e in team.roster.select_related("player")])
        figures["district_counts"] = eligibility.district_counts(roster.values())
    raise_on_errors(problems)

    _decide(dispensation, user, GRANTED if grant else REJECTED, reason)
    dispensation.save()
    if dispensation.player_id:
        figures["mid"] = dispensation.player.mid
    if grant and dispensation.kind == Dispensation.Kind.EXTRA_PLAYER:
        entry, created = RosterEntry.objects.get_or_create(
            team=team, player=dispensation.player, defaults={"is_extra": True}
        )
        figures["roster_entry_added"] = created
        figures["occasion"] = dispensation.occasion
        figures["occasion_date"] = dispensation.occasion_date
    record_decision(
        f"teams.dispensation.{'granted' if grant else 'rejected'}",
        dispensation,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=season,
        **figures,
    )
    return dispensation


# ---------------------------------------------------------------------------------------------
# 2. Walk-overs (R-TEAM-WO-1..3)
# ---------------------------------------------------------------------------------------------


def _require_wo_power(user) -> None:
    if not is_tk(user):
        v = sanctions.wo_award_refusal(None)
        require(False, f"{v.message_sv} ({v.clause})", f"{v.message_en} ({v.clause})")


def _exclusions(match: Match, rules) -> dict:
    return sanctions.wo_exclusions(_as_rule_matches(_stage_matches(match)), rules)


def walkover_problems(match: Match, offender: Team, reason: str) -> list[Violation]:
    """R-TEAM-WO-1: what stops a W.O.: no reason, an offender not in the match, a match that is
    already a W.O."""
    problems = _reason_missing(reason, "R-TEAM-WO-1")
    if offender.pk not in (match.home_id, match.away_id):
        problems.append(
            _v(
                "R-TEAM-WO-1",
                f"{offender} spelar inte i matchen {match}.",
                f"{offender} does not play in the match {match}.",
            )
        )
    existing = WalkOver.objects.filter(match=match).first()
    if existing is not None and existing.status == GRANTED:
        problems.append(
            _v(
                "R-TEAM-WO-1",
                f"Matchen är redan W.O. (lämnad av {existing.offender}).",
                f"The match is already a W.O. (given by {existing.offender}).",
            )
        )
    return problems


@transaction.atomic
def award_walkover(user, match: Match, offender: Team, *, reason: str, force_majeure=False):
    """R-TEAM-WO-1: only TK rules on force majeure and awards a W.O. R-TEAM-WO-2: the match is
    scored by :func:`ubf.rules.sanctions.wo_score` with the season's configuration (the rule
    text is kept on the W.O.); no masterpoints (the recompute gives none for a W.O.).
    R-TEAM-WO-3: a team that has now given W.O. in more than ``rules.wo_max_per_stage``
    matches of the stage is excluded (status ``excluded``; the recompute strikes its results).
    ``force_majeure`` records TK's finding; the W.O. still counts (the regulations make no
    exception)."""
    _require_wo_power(user)
    match = Match.objects.select_for_update().select_related("competition__season").get(pk=match.pk)
    season = match.competition.season
    rules = season.rules()
    problems = walkover_problems(match, offender, reason)
    existing = WalkOver.objects.filter(match=match).first()
    raise_on_errors(problems)

    non_offender_id = match.away_id if offender.pk == match.home_id else match.home_id
    average = None
    if rules.wo_winner_average_if_higher:
        others = [m for m in _stage_matches(match) if m.pk != match.pk]
        average = sanctions.average_vp(_as_rule_matches(others), non_offender_id)
    score = sanctions.wo_score(rules, average)
    previous = {
        "status": match.status,
        "imps_home": match.imps_home,
        "imps_away": match.imps_away,
        "vp_home": match.vp_home,
        "vp_away": match.vp_away,
    }
    wo = existing or WalkOver(match=match)
    wo.offender = offender
    wo.force_majeure = bool(force_majeure)
    wo.rule_text = score.rule_sv[:200]
    _decide(wo, user, GRANTED, reason)
    wo.save()
    home_offends = offender.pk == match.home_id
    match.status = Match.Status.WALKOVER
    match.imps_home = Decimal(0)
    match.imps_away = Decimal(0)
    match.vp_home = score.offender_vp if home_offends else score.non_offender_vp
    match.vp_away = score.non_offender_vp if home_offends else score.offender_vp
    match.save()
    record_decision(
        "teams.walkover.awarded",
        wo,
        user=user,
        reason=reason.strip(),
        clause="R-TEAM-WO-1",
        season=season,
        match=match.pk,
        offender=offender.name,
        force_majeure=bool(force_majeure),
        vp_offender=score.offender_vp,
        vp_non_offender=score.non_offender_vp,
        rule_sv=score.rule_sv,
        rule_en=score.rule_en,
        score_clause="R-TEAM-WO-2",
        masterpoints=0,
        previous=previous,
    )
    excluded = _exclusions(match, rules)
    offender = Team.objects.select_for_update().get(pk=offender.pk)
    if offender.pk in excluded and offender.status not in (
        Team.Status.EXCLUDED,
        Team.Status.DISQUALIFIED,
    ):
        count = WalkOver.objects.filter(
            match__in=_stage_matches(match), offender=offender, status=GRANTED
        ).count()
        offender.status = Team.Status.EXCLUDED
        offender.status_reason = (
            f"R-TEAM-WO-3: lämnade W.O. i {count} matcher i etappen "
            f"({match.get_stage_display()}); laget utesluts och dess resultat i etappen stryks."
        )
        offender.save()
        record_decision(
            "teams.team.excluded",
            offender,
            user=user,
            reason=offender.status_reason,
            clause="R-TEAM-WO-3",
            season=season,
            walkovers=count,
            stage=match.stage,
            heat=match.heat_id,
        )
    request_recompute(match.competition_id)
    return wo


@transaction.atomic
def revoke_walkover(user, walkover: WalkOver, *, reason: str):
    """R-TEAM-WO-1: TK withdraws a W.O. it awarded (with a reason): the match gets back its
    earlier status and figures, and an exclusion that rested on it (R-TEAM-WO-3) is lifted."""
    _require_wo_power(user)
    walkover = WalkOver.objects.select_for_update().select_related("match").get(pk=walkover.pk)
    problems = _reason_missing(reason, "R-TEAM-WO-1")
    if walkover.status != GRANTED:
        problems.append(
            _v(
                "R-TEAM-WO-1",
                "W.O.:t gäller inte (redan återkallat).",
                "The W.O. is not in force (already revoked).",
            )
        )
    raise_on_errors(problems)
    match = walkover.match
    season = match.competition.season
    awarded = decision_log(walkover).filter(action="teams.walkover.awarded").order_by("-id").first()
    previous = (awarded.data or {}).get("previous", {}) if awarded else {}
    match.status = previous.get("status") or Match.Status.SCHEDULED
    for name in ("imps_home", "imps_away", "vp_home", "vp_away"):
        value = previous.get(name)
        setattr(match, name, Decimal(value) if value is not None else None)
    match.save()
    _decide(walkover, user, REJECTED, reason)
    walkover.save()
    record_decision(
        "teams.walkover.revoked",
        walkover,
        user=user,
        reason=reason.strip(),
        clause="R-TEAM-WO-1",
        season=season,
        match=match.pk,
        restored_status=match.status,
    )
    offender = Team.objects.select_for_update().get(pk=walkover.offender_id)
    if offender.status == Team.Status.EXCLUDED and offender.pk not in _exclusions(
        match, season.rules()
    ):
        offender.status = Team.Status.ENTERED
        offender.status_reason = ""
        offender.save()
        record_decision(
            "teams.team.exclusion_lifted",
            offender,
            user=user,
            reason=f"W.O. i {match} återkallat: {reason.strip()}",
            clause="R-TEAM-WO-3",
            season=season,
        )
    request_recompute(match.competition_id)
    return walkover


# ---------------------------------------------------------------------------------------------
# 3. Penalties, disqualification, protests (R-TEAM-RES-1..5)
# ---------------------------------------------------------------------------------------------


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
            _v(
                clause,
                f"Avdraget måste vara större än 0 VP (angivet: {vp}).",
                f"The penalty must be more than 0 VP (given: {vp}).",
            )
        )
    if match is None:
        return problems
    if team.pk not in (match.home_id, match.away_id):
        problems.append(
            _v(
                clause,
                f"{team} spelar inte i matchen {match}.",
                f"{team} does not play in the match {match}.",
            )
        )
        return problems
    if Penalty.objects.filter(team=team, match=match, clause=clause, status=GRANTED).exists():
        problems.append(
            _v(
                clause,
                f"{team} har redan fått avdrag enligt {clause} för matchen {match}: högst ett "
                "avdrag per match och regel.",
                f"{team} has already been penalised under {clause} for the match {match}: at "
                "most one penalty per match and clause.",
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
                    _v(
                        "R-TEAM-RES-1",
                        f"Enligt laguppställningen spelade ingen spelare utan betald "
                        f"medlemsavgift för {team} i matchen {match}.",
                        f"By the line-up no player without a paid membership fee played for "
                        f"{team} in the match {match}.",
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
    team = Team.objects.select_for_update().get(pk=team.pk)
    season = team.competition.season
    problems = _reason_missing(reason, clause)
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
    """R-TEAM-RES-2: fielded players (the roster if no line-up is uploaded) who played for
    another team this season. SM semifinal places are settled on the final's last central
    day (R-TEAM-SEMI-1)."""
    season = team.competition.season
    fielded = {pid for ps in _fielded(team).values() for pid in ps}
    entries = team.roster.select_related("player")
    players = {e.player_id: e.player for e in entries}
    if fielded:
        players = {p.pk: p for p in Player.objects.filter(pk__in=fielded)}
    infos = player_infos_for(season, players.values())
    out = []
    for player in players.values():
        others = _other_teams_of(player, team, played_only=True)
        out += eligibility.check_other_team_player(
            infos[player.mid],
            team.name,
            others,
            found_on=clock.today(),
            semifinal_places_settled_on=team.competition.final_day2,
        )
    return out


def _extra_player_findings(team: Team) -> list[Violation]:
    """R-TEAM-RES-3: per match, fielded players beyond the regular roster without a granted
    dispensation for that occasion (a dispensation without a date covers any occasion)."""
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
            if d.player_id and (d.occasion_date is None or d.occasion_date == on)
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
    team = Team.objects.select_for_update().get(pk=team.pk)
    season = team.competition.season
    problems = _reason_missing(reason, "R-TEAM-RES-4")
    if clause not in DISQUALIFYING_CLAUSES:
        raise_on_errors(
            problems
            + [
                _v(
                    "R-TEAM-RES-4",
                    f"Diskvalificering sker enligt R-TEAM-RES-1, -2 eller -3, inte {clause!r}.",
                    f"Disqualification is under R-TEAM-RES-1, -2 or -3, not {clause!r}.",
                )
            ]
        )
    if team.status == Team.Status.DISQUALIFIED:
        problems.append(
            _v(
                "R-TEAM-RES-4",
                f"{team} är redan diskvalificerat.",
                f"{team} is already disqualified.",
            )
        )
    findings = _FINDERS[clause](team)
    grounds = [v for v in findings if v.is_error]
    if not grounds:
        if findings:
            # Not (yet) grounds for disqualification: show why (e.g. the 14 days still run).
            problems += [
                Violation(v.clause, v.message_sv, v.message_en, data=v.data) for v in findings
            ]
        else:
            problems.append(
                _v(
                    clause,
                    f"Inget i systemet visar skäl att diskvalificera {team} enligt {clause} "
                    "(kontrollera laguppställningar, medlemskap och dispenser).",
                    f"Nothing in the system shows grounds to disqualify {team} under {clause} "
                    "(check line-ups, memberships and dispensations).",
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
            _v(
                "R-TEAM-RES-5",
                "Beskriv protesten: vilken spelare och vilken match.",
                "Describe the protest: which player and which match.",
            )
        )
    today = clock.today()
    if filed_on > today:
        problems.append(
            _v(
                "R-TEAM-RES-5",
                f"Protestdatumet {filed_on.isoformat()} ligger i framtiden.",
                f"The protest date {filed_on.isoformat()} is in the future.",
            )
        )
    elif filed_on < today and not is_tk(user):
        problems.append(
            _v(
                "R-TEAM-RES-5",
                "Bara TK kan registrera en protest med ett tidigare datum än i dag.",
                "Only TK can record a protest with a date before today.",
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


# ---------------------------------------------------------------------------------------------
# 4. Rulings and appeals (R-RULING-1..3)
# ---------------------------------------------------------------------------------------------

_WRITE_UP = (
    ("hands", "kortsits", "hands"),
    ("auction", "budgivning", "auction"),
    ("play", "spelförlopp", "play"),
    ("why_called", "varför tävlingsledaren tillkallades", "why the TD was called"),
    ("ruling", "tävlingsledarens domslut", "the TD's ruling"),
    ("appeal_grounds", "anledning till överklagandet", "grounds of appeal"),
    ("other_side_view", "andra sidans synpunkter", "the other side's view"),
    ("involved", "namn på samtliga inblandade", "names of everyone involved"),
)


def _td_names(td_names: str) -> list[str]:
    return [n.strip() for n in re.split(r",|;|\n| och | and ", td_names or "") if n.strip()]


def _ruling_stage_problem(ruling: Ruling, expected: str, step_sv: str, step_en: str):
    if ruling.stage == expected:
        return []
    if ruling.stage == Ruling.Stage.FINAL:
        sv = "Lagkommissionens beslut är slutgiltigt; ärendet kan inte drivas vidare."
        en = "The Lagkommission's decision is final; the case cannot go further."
    else:
        sv = f"{step_sv} kan inte göras nu: ärendet är i steget {ruling.get_stage_display()!r}."
        en = f"{step_en} cannot be done now: the case is at stage {ruling.stage!r}."
    return [_v("R-RULING-3", sv, en, stage=ruling.stage)]


def _ruling_at(user, ruling: Ruling, clause: str, expected: str, step_sv: str, step_en: str):
    """TK only: the ruling, locked, and the problem if its case is not at stage ``expected``."""
    _require_tk(user, clause)
    ruling = Ruling.objects.select_for_update().get(pk=ruling.pk)
    return ruling, _ruling_stage_problem(ruling, expected, step_sv, step_en)


def _text_missing(text: str | None, sv: str, en: str) -> list[Violation]:
    return [] if (text or "").strip() else [_v("R-RULING-3", sv, en)]


def _advance_ruling(
    user, ruling: Ruling, stage: str, action: str, reason: str, clause: str, **data
):
    """Move the case to ``stage``, save the ruling and record the step (R-RULING-1..3)."""
    ruling.stage = stage
    ruling.save()
    record_decision(
        action,
        ruling,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=ruling.match.competition.season,
        **data,
    )
    return ruling


def ruling_problems(
    match: Match,
    *,
    td_names: str,
    td_category: str,
    ruling: str,
    playing_td_teams: Sequence[Team] = (),
) -> list[Violation]:
    """R-RULING-1: what stops recording a ruling (see :func:`record_ruling`)."""
    problems = []
    if td_category not in Ruling.TdCategory.values:
        problems.append(
            _v(
                "R-RULING-1",
                f"Okänt slag av tävlingsledare: {td_category!r}.",
                f"Unknown kind of tournament director: {td_category!r}.",
            )
        )
    names = _td_names(td_names)
    if not names:
        problems.append(
            _v("R-RULING-1", "Ange tävlingsledarens namn.", "Give the tournament director's name.")
        )
    if not (ruling and ruling.strip()):
        problems.append(_v("R-RULING-1", "Skriv domslutet.", "Write the ruling."))
    teams = list(playing_td_teams)
    if td_category == Ruling.TdCategory.THREE_PLAYING:
        if len(names) < 3:
            problems.append(
                _v(
                    "R-RULING-1",
                    f"Spelande tävlingsledare dömer tre tillsammans; {len(names)} namn angivna.",
                    f"Playing tournament directors rule three together; {len(names)} named.",
                )
            )
        if len({t.pk for t in teams}) != len(teams) or (teams and len(teams) < 3):
            problems.append(
                _v(
                    "R-RULING-1",
                    "De tre spelande tävlingsledarna ska komma från olika lag.",
                    "The three playing tournament directors must come from different teams.",
                )
            )
    if match.stage == Match.Stage.FINAL and td_category != Ruling.TdCategory.NON_PLAYING:
        problems.append(
            _v(
                "R-RULING-1",
                "I DM-lagfinalen ska en icke-spelande licensierad tävlingsledare finnas i "
                "lokalen och döma.",
                "At the DM team final a non-playing licensed tournament director must be "
                "present and rule.",
                td_category=td_category,
            )
        )
    return problems


@transaction.atomic
def record_ruling(
    user,
    match: Match,
    *,
    td_names: str,
    td_category: str,
    board_number: int | None,
    hands: str = "",
    auction: str = "",
    play: str = "",
    why_called: str = "",
    ruling: str,
    involved: str = "",
    playing_td_teams: Sequence[Team] = (),
) -> Ruling:
    """R-RULING-1: the first instance. The TD is a non-playing licensed TD; failing that three
    licensed playing TDs from different teams (three names, and the teams they play for in
    ``playing_td_teams``, which the jury may not be drawn from); failing that the district TD.
    At the DM team final a non-playing licensed TD must be present, so a ruling there by any
    other category is refused."""
    _require_tk(user, "R-RULING-1")
    problems = ruling_problems(
        match,
        td_names=td_names,
        td_category=td_category,
        ruling=ruling,
        playing_td_teams=playing_td_teams,
    )
    teams = list(playing_td_teams)
    names = _td_names(td_names)
    raise_on_errors(problems)
    obj = Ruling.objects.create(
        match=match,
        board_number=board_number,
        td_names=td_names.strip(),
        td_category=td_category,
        playing_td_team=teams[0] if teams else None,
        hands=hands,
        auction=auction,
        play=play,
        why_called=why_called,
        ruling=ruling.strip(),
        involved=involved,
        recorded_by=user,
    )
    record_decision(
        "teams.ruling.recorded",
        obj,
        user=user,
        reason=ruling.strip(),
        clause="R-RULING-1",
        season=match.competition.season,
        td_category=td_category,
        td_names=names,
        playing_td_team_ids=[t.pk for t in teams],
    )
    return obj


@transaction.atomic
def appeal_to_jury(
    user, ruling: Ruling, *, appeal_grounds: str, other_side_view: str, involved: str
) -> Ruling:
    """R-RULING-2: an appeal goes to the jury with the TD's full write-up: hands, auction,
    play, why the TD was called, the ruling, the grounds of appeal, the other side's view and
    the names of everyone involved, the TD included. Refused with the list of what is missing.
    """
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-2",
        Ruling.Stage.RULED,
        "Överklagande till juryn",
        "An appeal to the jury",
    )
    values = {
        "hands": ruling.hands,
        "auction": ruling.auction,
        "play": ruling.play,
        "why_called": ruling.why_called,
        "ruling": ruling.ruling,
        "appeal_grounds": appeal_grounds,
        "other_side_view": other_side_view,
        "involved": involved,
    }
    missing = [(sv, en) for key, sv, en in _WRITE_UP if not (values[key] or "").strip()]
    lowered = (involved or "").lower()
    missing_tds = [n for n in _td_names(ruling.td_names) if n.lower() not in lowered]
    if (involved or "").strip() and missing_tds:
        missing.append(
            (
                "tävlingsledarens namn bland de inblandade (" + ", ".join(missing_tds) + ")",
                "the TD's name among those involved (" + ", ".join(missing_tds) + ")",
            )
        )
    if missing:
        problems.append(
            _v(
                "R-RULING-2",
                "Överklagandet saknar: " + "; ".join(sv for sv, _ in missing) + ".",
                "The appeal lacks: " + "; ".join(en for _, en in missing) + ".",
                missing=[en for _, en in missing],
            )
        )
    raise_on_errors(problems)
    ruling.appeal_grounds = appeal_grounds.strip()
    ruling.other_side_view = other_side_view.strip()
    ruling.involved = involved.strip()
    return _advance_ruling(
        user, ruling, Ruling.Stage.APPEALED, "teams.ruling.appealed", appeal_grounds, "R-RULING-2"
    )


def _playing_td_team_ids(ruling: Ruling) -> set[int]:
    ids = {ruling.playing_td_team_id} if ruling.playing_td_team_id else set()
    for d in decision_log(ruling).filter(action="teams.ruling.recorded"):
        ids.update((d.data or {}).get("playing_td_team_ids", []))
    return ids


def jury_candidates(ruling: Ruling) -> list[Team]:
    """R-RULING-3: the teams of the stage that may sit on the jury: still in play, not in the
    match, not the team of a playing TD."""
    match = ruling.match
    if match.stage == Match.Stage.KVAL and match.heat_id:
        teams = Team.objects.filter(heat_id=match.heat_id)
    else:
        teams = Team.objects.filter(competition_id=match.competition_id, in_final=True)
    excluded = {match.home_id, match.away_id} | _playing_td_team_ids(ruling)
    return list(teams.filter(status=Team.Status.ENTERED).exclude(pk__in=excluded).order_by("pk"))


@transaction.atomic
def draw_jury(user, ruling: Ruling, *, size: int = 3, seed: str | None = None) -> Ruling:
    """R-RULING-3: the jury is drawn from the teams of the stage not involved in the match and
    not the team of a playing TD (:func:`jury_candidates`), with a recorded seed so the draw
    can be repeated."""
    ruling, problems = _ruling_at(
        user, ruling, "R-RULING-3", Ruling.Stage.APPEALED, "Juryn", "The jury"
    )
    if ruling.jury_teams.exists():
        problems.append(
            _v("R-RULING-3", "Juryn är redan lottad.", "The jury has already been drawn.")
        )
    candidates = jury_candidates(ruling)
    if size < 1 or len(candidates) < size:
        problems.append(
            _v(
                "R-RULING-3",
                f"Juryn ska ha {size} lag men bara {len(candidates)} lag i etappen är inte "
                "inblandade.",
                f"The jury needs {size} teams but only {len(candidates)} teams of the stage are "
                "not involved.",
                candidates=len(candidates),
            )
        )
    raise_on_errors(problems)
    seed = seed if seed is not None else secrets.token_hex(8)
    jury = random.Random(str(seed)).sample(candidates, size)
    ruling.jury_teams.set(jury)
    record_decision(
        "teams.ruling.jury_drawn",
        ruling,
        user=user,
        reason="Jury lottad bland lag som inte är inblandade (R-RULING-3).",
        clause="R-RULING-3",
        season=ruling.match.competition.season,
        seed=str(seed),
        candidates=[t.pk for t in candidates],
        jury=[t.pk for t in jury],
        jury_names=[t.name for t in jury],
    )
    return ruling


@transaction.atomic
def record_jury_decision(user, ruling: Ruling, *, decision: str) -> Ruling:
    """R-RULING-3: the jury's decision (second instance), after it was drawn."""
    ruling, problems = _ruling_at(
        user, ruling, "R-RULING-3", Ruling.Stage.APPEALED, "Juryns beslut", "A jury decision"
    )
    if not problems and not ruling.jury_teams.exists():
        problems.append(
            _v("R-RULING-3", "Juryn är inte lottad ännu.", "The jury has not been drawn yet.")
        )
    problems += _text_missing(decision, "Skriv juryns beslut.", "Write the jury's decision.")
    raise_on_errors(problems)
    ruling.jury_decision = decision.strip()
    return _advance_ruling(
        user, ruling, Ruling.Stage.JURY, "teams.ruling.jury_decided", decision, "R-RULING-3"
    )


@transaction.atomic
def appeal_to_lagkommission(user, ruling: Ruling, *, grounds: str) -> Ruling:
    """R-RULING-3: the jury's decision is appealed to SBF's Lagkommission (third instance)."""
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-3",
        Ruling.Stage.JURY,
        "Överklagande till Lagkommissionen",
        "An appeal to the Lagkommission",
    )
    problems += _text_missing(
        grounds, "Ange skälen för överklagandet.", "Give the grounds of the appeal."
    )
    raise_on_errors(problems)
    return _advance_ruling(
        user,
        ruling,
        Ruling.Stage.LAGKOMMISSION,
        "teams.ruling.appealed_lagkommission",
        grounds,
        "R-RULING-3",
    )


@transaction.atomic
def record_lagkommission_decision(user, ruling: Ruling, *, decision: str) -> Ruling:
    """R-RULING-3: SBF's Lagkommission decides; its decision is final and sets precedent."""
    ruling, problems = _ruling_at(
        user,
        ruling,
        "R-RULING-3",
        Ruling.Stage.LAGKOMMISSION,
        "Lagkommissionens beslut",
        "A Lagkommission decision",
    )
    problems += _text_missing(
        decision, "Skriv Lagkommissionens beslut.", "Write the Lagkommission's decision."
    )
    raise_on_errors(problems)
    ruling.lagkommission_decision = decision.strip()
    return _advance_ruling(
        user,
        ruling,
        Ruling.Stage.FINAL,
        "teams.ruling.lagkommission_decided",
        decision,
        "R-RULING-3",
        final=True,
    )


# ---------------------------------------------------------------------------------------------
# The team final's replacement chain (R-TEAM-REPL-1, R-REPL-5, R-REPL-6)
# ---------------------------------------------------------------------------------------------


@transaction.atomic
def record_team_offer_answer(
    user, offer: TeamFinalOffer, answer: str, *, answered_at=None, reason: str = ""
):
    """R-REPL-5 / R-TEAM-REPL-1: TK records a team's answer to the offer of a final seat.

    Accepted: the team takes the seat (R-REPL-6: it never moves again): it is in the final with
    the number of the team it replaces, and takes that team's place in the final's matches not
    yet played. Declined: the recompute offers the seat to the next team of the chain."""
    _require_tk(user, "R-REPL-5")
    offer = (
        TeamFinalOffer.objects.select_for_update()
        .select_related("competition__season", "team")
        .get(pk=offer.pk)
    )
    when = answered_at or clock.now()
    # R-REPL-5: answers count up to the final's first day; after it TK gives a reason.
    outside = windows.enforce(
        windows.seat_answer_window(offer.competition),
        user,
        reason=reason,
        today=timezone.localdate(when),
    )
    problems = []
    if answer not in (TeamFinalOffer.Answer.ACCEPTED, TeamFinalOffer.Answer.DECLINED):
        problems.append(
            _v(
                "R-REPL-5",
                f"Svaret ska vara ja eller nej, inte {answer!r}.",
                f"The answer must be accepted or declined, not {answer!r}.",
            )
        )
    if offer.answer != TeamFinalOffer.Answer.PENDING:
        problems.append(
            _v(
                "R-REPL-6",
                f"Erbjudandet är redan besvarat ({offer.get_answer_display()}).",
                f"The offer has already been answered ({offer.answer}).",
            )
        )
    if when < offer.offered_at or when > clock.now():
        problems.append(
            _v(
                "R-REPL-5",
                "Svarstiden måste ligga mellan erbjudandet och nu.",
                "The answer time must lie between the offer and now.",
            )
        )
    raise_on_errors(problems)
    offer.answer, offer.answered_at, offer.recorded_by = answer, when, user
    offer.save(update_fields=["answer", "answered_at", "recorded_by"])
    replaced = None
    if answer == TeamFinalOffer.Answer.ACCEPTED:
        replaced = Team.objects.filter(pk=int(offer.seat)).first() if offer.seat.isdigit() else None
        team = offer.team
        team.in_final = True
        if replaced is not None:
            team.final_number = replaced.final_number
            Match.objects.filter(
                competition=offer.competition,
                stage=Match.Stage.FINAL,
                status=Match.Status.SCHEDULED,
                home=replaced,
            ).update(home=team)
            Match.objects.filter(
                competition=offer.competition,
                stage=Match.Stage.FINAL,
                status=Match.Status.SCHEDULED,
                away=replaced,
            ).update(away=team)
            replaced.in_final = False
            replaced.final_number = None
            replaced.save(update_fields=["in_final", "final_number"])
        team.save(update_fields=["in_final", "final_number"])
    record_decision(
        f"teams.final_offer.{answer}",
        offer,
        user=user,
        clause="R-TEAM-REPL-1",
        season=offer.competition.season,
        team=offer.team.name,
        seat=offer.seat,
        replaces=replaced.name if replaced else None,
    )
    windows.record_late(
        outside, "teams.final_offer", offer, user=user, season=offer.competition.season
    )
    request_recompute(offer.competition_id)
    return offer
