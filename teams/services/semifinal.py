"""SBF's SM Lag semifinal venues and UBF's number of places there (R-TEAM-SEMI-1), as TK
enters them on /tk/sm-semifinal/orter/: "The number of UBF teams going to SM Lag semifinal is
given by SBF (input)"; SBF decides where the semifinals are played and how the places are
shared. One transaction: TK only, a reason (the source: SBF's letter), every row checked before
anything is saved, logged as ``teams.semifinal_venues.configured`` with each change. The
choosing itself is ``results.services.semifinal``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.db.models import Count, Q

from clubs.locks import lock_competition
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
from teams.models import SemifinalChoice, SemifinalVenue, TeamCompetition
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.violations import Violation

CLAUSE = "R-TEAM-SEMI-1"


@dataclass
class VenueRow:
    """One venue as TK typed it: ``pk`` None for a new one; ``delete`` to remove it."""

    pk: int | None
    name: str
    first_date: date | None = None
    last_date: date | None = None
    places: int | None = None
    delete: bool = False

    @property
    def empty(self) -> bool:
        return self.pk is None and not (
            self.name.strip() or self.first_date or self.last_date or self.places
        )


def _row_problems(row: VenueRow, n: int) -> list[Violation]:
    out = []
    where = {"row": n, "name": row.name.strip() or "–"}
    if not row.name.strip():
        out.append(
            error(
                CLAUSE,
                gettext_noop("Rad %(row)s: skriv semifinalortens namn."),
                params=where,
                field=f"{n}-name",
            )
        )
    if row.first_date and row.last_date and row.first_date > row.last_date:
        out.append(
            error(
                CLAUSE,
                gettext_noop("%(name)s: första speldagen ligger efter den sista."),
                params=where,
                field=f"{n}-last_date",
            )
        )
    if row.places is not None and row.places < 1:
        out.append(
            error(
                CLAUSE,
                gettext_noop(
                    "%(name)s: antalet platser är minst 1, eller tomt om SBF inte angett det."
                ),
                params=where,
                field=f"{n}-places",
            )
        )
    return out


@transaction.atomic
def save_semifinal_venues(
    user,
    competition: TeamCompetition,
    rows: list[VenueRow],
    *,
    places: int | None,
    reason: str,
) -> list[Message]:
    """R-TEAM-SEMI-1: SBF's number of semifinal places for UBF (``places``) and the venues,
    as TK enters them. Refused (nothing saved): not TK, a finished season, no reason, a venue
    without a name, two venues of one name, days out of order, a venue's places below 1 or
    below the teams that have chosen it, a chosen venue removed, or UBF's places set below the
    teams that have chosen already. Returns the changes as messages (empty: nothing changed); a
    change of UBF's places recomputes the competition (the final's "SM 1", "SM 2" …)."""
    require(is_tk(user), gettext_noop("Bara UBF TK lägger in SBF:s semifinalorter."))
    competition = TeamCompetition.objects.select_related("season").get(pk=competition.pk)
    require_open_season(competition.season)
    lock_competition(competition.pk)
    existing = {
        v.pk: v
        for v in SemifinalVenue.objects.filter(competition=competition).annotate(
            taken=Count("choices", filter=Q(choices__state=SemifinalChoice.State.CHOSEN))
        )
    }
    rows = [r for r in rows if not r.empty]
    problems = reason_required(reason, CLAUSE)
    names: dict[str, int] = {}
    for n, row in enumerate(rows, start=1):
        if row.pk is not None and row.pk not in existing:
            problems.append(
                error(CLAUSE, gettext_noop("Rad %(row)s: okänd semifinalort."), params={"row": n})
            )
            continue
        old = existing.get(row.pk)
        if row.delete:
            if old is not None and old.taken:
                problems.append(
                    error(
                        CLAUSE,
                        gettext_noop(
                            "%(name)s kan inte tas bort: %(taken)s lag har valt orten. Rätta "
                            "lagens val först."
                        ),
                        params={"name": old.name, "taken": old.taken},
                    )
                )
            continue
        problems += _row_problems(row, n)
        key = row.name.strip().casefold()
        if key and key in names:
            problems.append(
                error(
                    CLAUSE,
                    gettext_noop("%(name)s står två gånger."),
                    params={"name": row.name.strip()},
                    field=f"{n}-name",
                )
            )
        names[key] = n
        if old is not None and row.places is not None and row.places < old.taken:
            problems.append(
                error(
                    CLAUSE,
                    gettext_noop(
                        "%(name)s: %(taken)s lag har redan valt orten; platserna kan inte bli "
                        "färre än så."
                    ),
                    params={"name": old.name, "taken": old.taken},
                    field=f"{n}-places",
                )
            )
    chosen = SemifinalChoice.objects.filter(
        competition=competition, state=SemifinalChoice.State.CHOSEN
    ).count()
    if places is not None and places < 0:
        problems.append(error(CLAUSE, gettext_noop("Antalet platser kan inte vara negativt.")))
    elif (places or 0) < chosen:
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "%(chosen)s lag har redan valt semifinalort; UBF:s platser kan inte bli "
                    "färre än så."
                ),
                params={"chosen": chosen},
            )
        )
    raise_on_errors(problems)

    changes: list[Message] = []
    if places != competition.sm_semifinal_places:
        changes.append(
            Message(
                gettext_noop("UBF:s platser: %(old)s → %(new)s"),
                {"old": competition.sm_semifinal_places or "–", "new": places or "–"},
            )
        )
        competition.sm_semifinal_places = places
        competition.save(update_fields=["sm_semifinal_places"])
        request_recompute(competition.pk)
    for row in rows:
        old = existing.get(row.pk)
        if row.delete:
            if old is not None:
                changes.append(Message(gettext_noop("%(name)s: borttagen"), {"name": old.name}))
                old.delete()
            continue
        values = {
            "name": row.name.strip(),
            "first_date": row.first_date,
            "last_date": row.last_date,
            "places": row.places,
        }
        if old is None:
            SemifinalVenue.objects.create(competition=competition, **values)
            changes.append(Message(gettext_noop("%(name)s: ny"), {"name": values["name"]}))
            continue
        diff = [k for k, v in values.items() if getattr(old, k) != v]
        if diff:
            for k in diff:
                setattr(old, k, values[k])
            old.save(update_fields=diff)
            changes.append(Message(gettext_noop("%(name)s: ändrad"), {"name": values["name"]}))
    if changes:
        record_decision(
            "teams.semifinal_venues.configured",
            competition,
            user=user,
            reason=reason.strip(),
            clause=CLAUSE,
            season=competition.season,
            changes=[c.message_sv for c in changes],
        )
    return changes
