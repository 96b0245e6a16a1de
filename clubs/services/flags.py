"""The flags services raise for TK (``clubs.services.base.flag_warnings``: an unpaid member,
a player of another team, a player outside UBF, an out-of-district pair): each waits in TK's
queue (/tk/) until TK has handled it with a reason (R-GEN-3), recorded as its own decision."""

from __future__ import annotations

from django.db import transaction

from clubs.models import Decision
from clubs.permissions import is_tk
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
)
from ubf.rules.i18n import gettext_noop

FLAG_SUFFIX = ".flagged"
HANDLED = "clubs.flag.handled"


def open_flags(season):
    """The season's flags TK has not handled yet, oldest first."""
    handled = Decision.objects.filter(action=HANDLED, object_type="clubs.decision").values(
        "object_id"
    )
    return (
        Decision.objects.filter(season=season, action__endswith=FLAG_SUFFIX)
        .exclude(pk__in=handled)
        .order_by("decided_at", "id")
    )


@transaction.atomic
def decide_flag(user, flag: Decision, acted: bool, reason: str) -> Decision:
    """R-GEN-3: TK handles a flag, saying what was done (``acted``: a decision follows, e.g. a
    penalty; otherwise no action is needed) and why. A flag is handled once."""
    require(
        is_tk(user),
        gettext_noop("Endast UBF TK kan fatta detta beslut (%(clause)s)."),
        params={"clause": "R-GEN-3"},
    )
    # Decision rows are append-only: nothing to lock; a flag handled twice at the same
    # moment would only be logged twice.
    flag = Decision.objects.get(pk=flag.pk)
    problems = reason_required(reason)
    if not flag.action.endswith(FLAG_SUFFIX):
        problems.append(error("R-GEN-3", gettext_noop("Det här är ingen flagga till TK.")))
    elif Decision.objects.filter(
        action=HANDLED, object_type="clubs.decision", object_id=flag.pk
    ).exists():
        problems.append(error("R-GEN-3", gettext_noop("Flaggan är redan hanterad.")))
    raise_on_errors(problems)
    return record_decision(
        HANDLED,
        flag,
        user=user,
        reason=reason.strip(),
        clause=flag.clause,
        season=flag.season,
        acted=acted,
        flag_action=flag.action,
        object_type=flag.object_type,
        object_id=flag.object_id,
    )
