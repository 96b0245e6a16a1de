"""Walk-overs (R-TEAM-WO-1..3): TK awards and revokes them; the score follows the season's
rule and a team excluded after repeated W.O.s is struck from its heat."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from clubs.decision_log import decision_log
from clubs.i18n import render
from clubs.locks import lock_row, lock_rows
from clubs.permissions import is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
)
from teams.models import (
    Match,
    Team,
    WalkOver,
)
from teams.services.decisions.common import (
    GRANTED,
    REJECTED,
    _as_rule_matches,
    _decide,
    _stage_matches,
)
from ubf.rules import sanctions
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation


def _require_wo_power(user) -> None:
    if not is_tk(user):
        v = sanctions.wo_award_refusal(None)
        require(
            False,
            gettext_noop("%(finding)s (%(clause)s)"),
            params={"finding": v, "clause": v.clause},
        )


def _exclusions(match: Match, rules) -> dict:
    return sanctions.wo_exclusions(_as_rule_matches(_stage_matches(match)), rules)


def _score(match: Match, offender_id: int, rules) -> sanctions.WoScore:
    """R-TEAM-WO-2: the W.O.'s score, from the stage's other matches played (the one
    computation, :func:`ubf.rules.sanctions.wo_award_score`)."""
    non_offender_id = match.away_id if offender_id == match.home_id else match.home_id
    played = _stage_matches(match).exclude(pk=match.pk).filter(status=Match.Status.PLAYED)
    return sanctions.wo_award_score(rules, _as_rule_matches(played), non_offender_id)


def _write_score(wo: WalkOver, match: Match, score: sanctions.WoScore) -> None:
    """The score on the W.O. (read by the recompute) and on the match (its page)."""
    wo.rule_text = score.rule_sv[:200]
    wo.vp_non_offender = score.non_offender_vp
    wo.vp_offender = score.offender_vp
    home_offends = wo.offender_id == match.home_id
    match.imps_home = Decimal(0)
    match.imps_away = Decimal(0)
    match.vp_home = score.offender_vp if home_offends else score.non_offender_vp
    match.vp_away = score.non_offender_vp if home_offends else score.offender_vp


WO_SCORE_KEYS = frozenset({"wo_winner_vp", "wo_loser_vp", "wo_winner_average_if_higher"})


def rescore_walkovers(season) -> int:
    """R-TEAM-WO-2: TK changed the season's W.O. score (``configure_season``, in its
    transaction): every W.O. in force this season is scored again by the same rule, on the W.O.
    and on its match. Returns how many."""
    rules = season.rules()
    ids = WalkOver.objects.filter(
        match__competition__season=season, status=GRANTED, match__status=Match.Status.WALKOVER
    ).values_list("pk", flat=True)
    walkovers = lock_rows(
        WalkOver.objects.select_related("match"), list(ids), competition="match__competition_id"
    )
    for wo in walkovers:
        match = wo.match
        _write_score(wo, match, _score(match, wo.offender_id, rules))
        wo.save(update_fields=["rule_text", "vp_non_offender", "vp_offender"])
        match.save(update_fields=["imps_home", "imps_away", "vp_home", "vp_away"])
    return len(walkovers)


def on_season_configured(sender=None, *, season, changes, **kwargs) -> None:
    """Receiver of ``clubs.services.season.season_configured`` (connected in TeamsConfig)."""
    if WO_SCORE_KEYS & set(changes):
        rescore_walkovers(season)


def walkover_problems(match: Match, offender: Team, reason: str) -> list[Violation]:
    """R-TEAM-WO-1: what stops a W.O.: no reason, an offender not in the match, a match that is
    already a W.O."""
    problems = reason_required(reason, "R-TEAM-WO-1")
    if offender.pk not in (match.home_id, match.away_id):
        problems.append(
            error(
                "R-TEAM-WO-1",
                gettext_noop("%(offender)s spelar inte i matchen %(match)s."),
                params={"offender": offender, "match": match},
            )
        )
    existing = WalkOver.objects.filter(match=match).first()
    if existing is not None and existing.status == GRANTED:
        problems.append(
            error(
                "R-TEAM-WO-1",
                gettext_noop("Matchen är redan W.O. (lämnad av %(offender)s)."),
                params={"offender": existing.offender},
            )
        )
    return problems


@transaction.atomic
def award_walkover(user, match: Match, offender: Team, *, reason: str, force_majeure=False):
    """R-TEAM-WO-1: only TK rules on force majeure and awards a W.O. R-TEAM-WO-2: the match is
    scored once, by :func:`ubf.rules.sanctions.wo_award_score` with the season's configuration
    (the score and the rule text are kept on the W.O., and the recompute reads them); no
    masterpoints (the recompute gives none for a W.O.).
    R-TEAM-WO-3: a team that has now given W.O. in more than ``rules.wo_max_per_stage``
    matches of the stage is excluded (status ``excluded``; the recompute strikes its results).
    ``force_majeure`` records TK's finding; the W.O. still counts (the regulations make no
    exception)."""
    _require_wo_power(user)
    match = lock_row(Match.objects.select_related("competition__season"), match.pk)
    season = match.competition.season
    rules = season.rules()
    problems = walkover_problems(match, offender, reason)
    existing = WalkOver.objects.filter(match=match).first()
    raise_on_errors(problems)

    score = _score(match, offender.pk, rules)
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
    _write_score(wo, match, score)
    _decide(wo, user, GRANTED, reason)
    wo.save()
    match.status = Match.Status.WALKOVER
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
        rule_en=render(score.rule, "en"),
        score_clause="R-TEAM-WO-2",
        masterpoints=0,
        previous=previous,
    )
    excluded = _exclusions(match, rules)
    offender = lock_row(Team.objects.all(), offender.pk)
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
    walkover = lock_row(
        WalkOver.objects.select_related("match"), walkover.pk, competition="match__competition_id"
    )
    problems = reason_required(reason, "R-TEAM-WO-1")
    if walkover.status != GRANTED:
        problems.append(
            error(
                "R-TEAM-WO-1",
                gettext_noop("W.O.:t gäller inte (redan återkallat)."),
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
    offender = lock_row(Team.objects.all(), walkover.offender_id)
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
