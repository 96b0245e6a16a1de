"""Dispensations (R-TEAM-3 district balance, R-TEAM-5 a 7th/8th player): TK grants or
refuses, with a reason, and the extra player's eligibility is checked again."""

from __future__ import annotations

from django.db import transaction

from clubs import clock
from clubs.locks import lock_row
from clubs.selectors import player_infos_for
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
)
from teams.models import (
    Dispensation,
    RosterEntry,
)
from teams.services.decisions.common import (
    GRANTED,
    REJECTED,
    REQUESTED,
    _decide,
    _has_started,
    _other_teams_of,
    _require_tk,
)
from ubf.rules import eligibility
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation


def _extra_player_problems(dispensation: Dispensation) -> list[Violation]:
    team = dispensation.team
    season = team.competition.season
    rules = season.rules()
    player = dispensation.player
    if player is None:
        return [
            error(
                "R-TEAM-5",
                gettext_noop("Dispens för sjunde/åttonde spelare måste ange spelaren."),
            )
        ]
    problems = []
    entries = list(team.roster.select_related("player"))
    own = next((e for e in entries if e.player_id == player.pk), None)
    if own is not None and not own.is_extra:
        problems.append(
            error(
                "R-TEAM-5",
                gettext_noop(
                    "%(player)s står redan i laget som ordinarie spelare och behöver ingen dispens."
                ),
                mid=player.mid,
                params={"player": player},
            )
        )
    today = clock.today()
    if dispensation.occasion_date and dispensation.occasion_date < today:
        problems.append(
            error(
                "R-TEAM-5",
                gettext_noop(
                    "Dispensen ska sökas och beviljas före speltillfället "
                    "(%(occasion_date_isoformat)s); det har redan varit."
                ),
                occasion_date=dispensation.occasion_date,
                params={"occasion_date_isoformat": dispensation.occasion_date.isoformat()},
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
            error(
                "R-TEAM-5",
                gettext_noop("Spelaren finns i: %(teams)s."),
                params={"teams": ", ".join(f"{n} ({d})" for n, d in others)},
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
    dispensation = lock_row(
        Dispensation.objects.all(), dispensation.pk, competition="team__competition_id"
    )
    team = dispensation.team
    season = team.competition.season
    problems = reason_required(reason)
    if dispensation.status != REQUESTED:
        problems.append(
            error(
                "R-GEN-3",
                gettext_noop(
                    "Dispensen är redan %(dispensation_status)s. Registrera en ny ansökan om "
                    "beslutet ska ändras."
                ),
                status=dispensation.status,
                params={
                    "dispensation_status": dispensation.get_status_display(),
                },
            )
        )
    clause = "R-TEAM-5" if dispensation.kind == Dispensation.Kind.EXTRA_PLAYER else "R-TEAM-3"
    figures: dict = {"kind": dispensation.kind, "team": team.name}
    if grant and dispensation.kind == Dispensation.Kind.EXTRA_PLAYER:
        problems += _extra_player_problems(dispensation)
    if grant and dispensation.kind == Dispensation.Kind.DISTRICT_BALANCE:
        if _has_started(team):
            problems.append(
                error(
                    "R-TEAM-3",
                    gettext_noop(
                        "%(team)s har redan spelat: dispens för distriktsbalansen ska beviljas "
                        "innan laget startar."
                    ),
                    params={"team": team},
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
