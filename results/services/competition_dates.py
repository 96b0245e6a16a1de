"""TK edits the competitions' own dates (issue 23) on /tk/sasong/, beside the season's numbers
(``clubs.services.season.configure_season``): each DM Par discipline's and DM Lag's qualifying
period, heat registration deadline and final day(s), each with the clause it serves. One
transaction: TK only, a reason (R-GEN-3), the dates checked, saved, logged as
``competitions.dates.configured`` with each change (old → new); a change of a qualifying
period recomputes the competition (a heat counts only inside it, R-PAIR-KVAL-1, and the direct
qualifiers register before it ends, R-DIRECT-1, R-TEAM-DIRECT-1). Pairs and teams share this
one function; a finished season is read-only."""

from __future__ import annotations

from datetime import date

from django.db import transaction

from clubs.locks import lock_own_row
from clubs.models import Season
from clubs.permissions import is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    require_open_season,
)
from pairs.models import PairCompetition
from teams.models import TeamCompetition
from ubf.rules.i18n import gettext_noop

PAIR_CLAUSES = {
    "qualifying_start": "R-PAIR-KVAL-1",
    "qualifying_end": "R-PAIR-KVAL-1",
    "heat_registration_deadline": "R-PAIR-KVAL-1",
    "final_date": "R-PAIR-CAL-1",
}
TEAM_CLAUSES = {
    "qualifying_start": "R-TEAM-DIRECT-1",
    "qualifying_end": "R-TEAM-DIRECT-1",
    "heat_registration_deadline": "R-TEAM-REG-1",
    "final_day1": "R-TEAM-FINAL-1",
    "final_day2": "R-TEAM-FINAL-1",
}
#: Dates a standing depends on: a change recomputes the competition.
RECOMPUTE = frozenset({"qualifying_start", "qualifying_end"})


def season_competitions(season: Season) -> list:
    """The season's competitions (the concrete pairs and teams rows), pairs by final date."""
    return list(PairCompetition.objects.filter(season=season).order_by("final_date")) + list(
        TeamCompetition.objects.filter(season=season)
    )


def clauses_of(competition) -> dict[str, str]:
    return TEAM_CLAUSES if isinstance(competition, TeamCompetition) else PAIR_CLAUSES


def _problems(competition, values: dict[str, date | None]) -> list:
    clauses = clauses_of(competition)
    problems = []
    for key in clauses:
        if values.get(key) is None and (
            key in ("final_date", "final_day1", "final_day2")
            or isinstance(competition, TeamCompetition)
        ):
            problems.append(
                error(
                    clauses[key],
                    gettext_noop("%(competition)s: datumet måste anges."),
                    params={"competition": str(competition)},
                    field=f"{competition.pk}-{key}",
                )
            )
    start, end = values.get("qualifying_start"), values.get("qualifying_end")
    if start and end and start > end:
        problems.append(
            error(
                clauses["qualifying_end"],
                gettext_noop("%(competition)s: kvalperioden slutar före den börjar."),
                params={"competition": str(competition)},
                field=f"{competition.pk}-qualifying_end",
            )
        )
    deadline = values.get("heat_registration_deadline")
    if deadline and end and deadline > end:
        problems.append(
            error(
                clauses["heat_registration_deadline"],
                gettext_noop(
                    "%(competition)s: sista dag att anmäla kvalheat ligger efter kvalperioden."
                ),
                params={"competition": str(competition)},
                field=f"{competition.pk}-heat_registration_deadline",
            )
        )
    final = values.get("final_date") or values.get("final_day1")
    if final and end and final < end:
        problems.append(
            error(
                clauses.get("final_date") or clauses["final_day1"],
                gettext_noop("%(competition)s: finalen ligger före kvalperiodens slut."),
                params={"competition": str(competition)},
                field=f"{competition.pk}-{'final_date' if 'final_date' in clauses else 'final_day1'}",
            )
        )
    day1, day2 = values.get("final_day1"), values.get("final_day2")
    if day1 and day2 and day1 > day2:
        problems.append(
            error(
                clauses["final_day2"],
                gettext_noop("%(competition)s: centraldag 2 ligger före centraldag 1."),
                params={"competition": str(competition)},
                field=f"{competition.pk}-final_day2",
            )
        )
    return problems


def _iso(value: date | None) -> str:
    return value.isoformat() if value else ""


@transaction.atomic
def configure_competition_dates(
    user, season: Season, values: dict[int, dict[str, date | None]], *, reason: str
) -> dict[str, dict[str, list[str]]]:
    """TK sets the dates of the season's competitions: ``values`` maps a competition's id to
    its dates (keys of :data:`PAIR_CLAUSES` / :data:`TEAM_CLAUSES`; a missing key keeps the
    stored date). Returns ``{competition: {field: [old, new]}}`` (empty: nothing changed, nothing
    logged). Refused with every problem before anything is written."""
    require(is_tk(user), gettext_noop("Endast UBF TK kan ändra tävlingarnas datum (R-GEN-3)."))
    season = lock_own_row(Season.objects.all(), season.pk)
    require_open_season(season)
    changes: dict[str, dict[str, list[str]]] = {}
    problems = []
    to_save = []
    for competition in season_competitions(season):
        clauses = clauses_of(competition)
        given = values.get(competition.pk, {})
        new = {key: given.get(key, getattr(competition, key)) for key in clauses}
        changed = {
            key: [_iso(getattr(competition, key)), _iso(new[key])]
            for key in clauses
            if getattr(competition, key) != new[key]
        }
        if not changed:
            continue
        problems += _problems(competition, new)
        changes[str(competition)] = changed
        to_save.append((competition, new, changed))
    if not changes:
        return {}
    raise_on_errors(reason_required(reason) + problems)
    for competition, new, changed in to_save:
        for key in changed:
            setattr(competition, key, new[key])
        competition.save(update_fields=list(changed))
        record_decision(
            "competitions.dates.configured",
            competition,
            user=user,
            reason=reason.strip(),
            clause="R-GEN-3",
            season=season,
            changes=changed,
            clauses={key: clauses_of(competition)[key] for key in changed},
        )
        if RECOMPUTE & set(changed):
            request_recompute(competition.pk)
    return changes


__all__ = [
    "PAIR_CLAUSES",
    "TEAM_CLAUSES",
    "clauses_of",
    "configure_competition_dates",
    "season_competitions",
]
