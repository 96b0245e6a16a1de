"""What the pair heat and the team heat services share (``pairs.services.heats``,
``teams.services.heats``), so that each rule is applied in one place.

* Small helpers: violations, reading and locking rows, the arranging clubs and the permission
  to register for them, reasons and texts, fees, the shift of a moved heat's second date.
* R-PAIR-KVAL-2 (and by analogy the team heats): a club moves or cancels its heat itself up to
  the registration deadline; after it only with UBF's consent (:func:`direct_change_violations`,
  :func:`move_heat`, :func:`cancel_heat`).
* R-GEN-3: TK approves or rejects a heat, with a reason for a rejection, and the decision is
  recorded with who, when and why (:func:`decide_heat`).
* R-PAIR-DF-1, R-TEAM-DF-1: whether a direct final is needed (:func:`direct_final_needed`)
  and TK's decision (:func:`decide_direct_final`), one function for DM Par and DM Lag.

What differs between the two kinds of heat (date fields, permission, schedule checks, the
figures recorded, the competition's model and how its arranging clubs are counted) is described
by a :class:`HeatKind`, one per app (``PAIR_HEATS`` in ``pairs.services.heats``, ``TEAM_HEATS``
in ``teams.services.heats``). The functions here write without a transaction of their own (the
app's service that calls them is ``@transaction.atomic``), except :func:`decide_direct_final`,
a use case of its own that TK's page calls with the kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from django.db import transaction

from clubs import clock
from clubs.locks import lock_own_row, lock_row
from clubs.models import Club, Decided, Decision, HeatChangeRequest, HeatStatus
from clubs.permissions import can_act_for_club, is_tk
from clubs.recompute import request_recompute
from clubs.services.base import (
    error,
    raise_on_errors,
    reason_required,
    record_decision,
    require,
    require_open_season,
)
from ubf.rules.heats import change_needs_tk_approval, direct_final_notice
from ubf.rules.i18n import gettext_noop
from ubf.rules.violations import Violation

#: A heat that still counts: applied for or approved (not rejected, not cancelled).
ACTIVE = (HeatStatus.APPLIED, HeatStatus.APPROVED)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def get_obj(model, obj_or_id):
    """A model instance from an instance or a primary key."""
    if isinstance(obj_or_id, model):
        return obj_or_id
    return model.objects.get(pk=obj_or_id)


def locked(model, obj_or_id, *related: str):
    """Re-read a row for update inside the service's transaction (a no-op lock on SQLite); a
    row of a competition (a heat, a team) after the competition's row (``clubs.locks``)."""
    pk = obj_or_id.pk if isinstance(obj_or_id, model) else obj_or_id
    qs = model.objects.select_related(*related) if related else model.objects.all()
    if any(f.name == "competition" for f in model._meta.concrete_fields):
        return lock_row(qs, pk)
    return lock_own_row(qs, pk)


def arranging_clubs(clubs: Iterable) -> tuple[list[Club], list]:
    """The clubs named (Club rows or ids, duplicates once) and the ids that do not exist."""
    ids = []
    for item in clubs or ():
        ids.append(item.pk if isinstance(item, Club) else int(item))
    ids = list(dict.fromkeys(ids))
    found = {c.pk: c for c in Club.objects.filter(pk__in=ids).select_related("district")}
    return [found[i] for i in ids if i in found], [i for i in ids if i not in found]


def require_for_clubs(user, clubs: list[Club]) -> None:
    """Permission: TK, or a user who acts for EVERY arranging club (a joint heat needs an
    official of each club, or TK)."""
    allowed = is_tk(user) or (bool(clubs) and all(can_act_for_club(user, c.pk) for c in clubs))
    require(
        allowed,
        gettext_noop("Du kan bara anmäla kvalheat för klubbar du företräder (eller som UBF TK)."),
    )


def unknown_club_violations(missing: list, clause: str) -> list[Violation]:
    if not missing:
        return []
    return [
        error(
            clause,
            gettext_noop("Okända klubbar: %(map)s."),
            clubs=missing,
            params={"map": ", ".join(map(str, missing))},
        )
    ]


#: What a club may not do to a heat after the deadline: action → (heat closed, deadline passed).
_CHANGE_REFUSALS = {
    "move": (
        gettext_noop("Heatet är %(label)s och kan inte flyttas."),
        gettext_noop(
            "Sista anmälningsdag för kvalheat (%(deadline)s) har passerat. Därefter får "
            "klubben inte flytta heatet utan UBF:s uttryckliga medgivande: skicka "
            "en ändringsbegäran till UBF TK."
        ),
    ),
    "cancel": (
        gettext_noop("Heatet är %(label)s och kan inte ställas in."),
        gettext_noop(
            "Sista anmälningsdag för kvalheat (%(deadline)s) har passerat. Därefter får "
            "klubben inte ställa in heatet utan UBF:s uttryckliga medgivande: skicka "
            "en ändringsbegäran till UBF TK."
        ),
    ),
}


def direct_change_violations(
    user, status: str, deadline: date | None, today: date, action: str
) -> list[Violation]:
    """R-PAIR-KVAL-2: the club may move or cancel (``action``: "move" or "cancel") its heat
    itself up to the registration deadline; after it, only with UBF's explicit consent (a
    request TK decides, or TK itself)."""
    closed, late = _CHANGE_REFUSALS[action]
    out: list[Violation] = []
    if status not in ACTIVE:
        out.append(
            error(
                "R-PAIR-KVAL-2",
                closed,
                status=status,
                params={"label": HeatStatus(status).label},
            )
        )
    if deadline is not None and change_needs_tk_approval(today, deadline) and not is_tk(user):
        out.append(
            error(
                "R-PAIR-KVAL-2",
                late,
                deadline=deadline,
                today=today,
                params={"deadline": deadline},
            )
        )
    return out


def shifted_dates(
    old_first: date, old_second: date | None, new_first: date, new_second: date | None
) -> tuple[date, date | None]:
    """A move given by its new first date keeps the heat's length: the second date (session 2
    of a pairs heat, the last day of a team heat) moves by as many days, unless given."""
    if new_second is not None or old_second is None:
        return new_first, new_second
    return new_first, old_second + (new_first - old_first)


def parse_fee(value, clause: str, what: str) -> tuple[Decimal | None, list]:
    """``value`` as an amount in kronor; ``what`` names the fee (a msgid marked with
    gettext_noop)."""
    try:
        amount = Decimal(str(value))
    except (InvalidOperation, TypeError, ValueError):
        amount = None
    if amount is None or not amount.is_finite() or amount < 0:
        return None, [
            error(
                clause,
                gettext_noop("Ange %(what)s i kronor (0 eller mer)."),
                params={"what": what},
            )
        ]
    return amount, []


# ---------------------------------------------------------------------------------------------
# The two kinds of heat
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HeatKind:
    """What the shared heat services need to know about a pairs heat or a team heat."""

    #: "pairs" or "teams": the prefix of the recorded actions ("pairs.heat.moved", ...).
    app: str
    model: type
    #: True where the second date is never empty (a one-day team heat ends on its first day).
    second_date_required: bool
    #: The concrete ``HeatChangeRequest`` model for a heat of this kind.
    change_model: type
    #: The clause TK's approval applies (recorded with the decision).
    approval_clause: str
    #: Who may move or cancel the heat (and ask TK to): ``can_manage(user, heat)``.
    can_manage: Callable
    #: The refusal when someone else tries to move or cancel it (a Swedish msgid).
    manage_denied: str
    #: ``schedule_violations(competition, first, second)``: the checks of a heat's dates.
    schedule_violations: Callable
    #: ``approval_violations(heat)``: what stops TK approving the (locked) heat.
    approval_violations: Callable
    #: ``decision_figures(heat)``: the figures recorded with TK's approval or rejection.
    decision_figures: Callable
    #: The concrete competition model (``PairCompetition``, ``TeamCompetition``).
    competition_model: type
    #: ``arranging_club_count(competition)``: the clubs arranging an approved heat of the
    #: competition (R-PAIR-DF-1, R-TEAM-DF-1).
    arranging_club_count: Callable

    @property
    def direct_final_clause(self) -> str:
        return "R-TEAM-DF-1" if self.app == "teams" else "R-PAIR-DF-1"

    def dates(self, heat) -> tuple[date, date | None]:
        return heat.first_date, heat.last_date

    def set_dates(self, heat, first: date, second: date | None) -> None:
        """Move the heat to ``first``/``second`` and save the two dates."""
        if second is None and self.second_date_required:
            second = first
        heat.first_date, heat.last_date = first, second
        heat.save(update_fields=["first_date", "last_date"])

    def require_manage(self, user, heat) -> None:
        require(self.can_manage(user, heat), self.manage_denied)

    def recompute(self, competition_id: int) -> None:
        request_recompute(competition_id)


# ---------------------------------------------------------------------------------------------
# TK's decision, and the club's own changes before the deadline
# ---------------------------------------------------------------------------------------------


def decide_heat(kind: HeatKind, user, heat, approve: bool, reason: str = ""):
    """R-GEN-3: TK approves (``kind.approval_violations`` checked again) or rejects (with a
    reason) a heat; the decision is recorded with who, when and why, and the competition is
    recomputed."""
    require(
        is_tk(user),
        gettext_noop("Bara UBF TK kan godkänna eller avslå kvalheat."),
    )
    heat = locked(kind.model, heat, "competition__season")
    competition = heat.competition
    new = HeatStatus.APPROVED if approve else HeatStatus.REJECTED
    violations: list[Violation] = []
    if heat.status in (HeatStatus.CANCELLED, new):
        violations.append(
            error(
                "R-GEN-3",
                gettext_noop("Heatet %(heat)s är redan %(heat_status)s."),
                params={
                    "heat": heat.name,
                    "heat_status": heat.get_status_display(),
                },
            )
        )
    if approve:
        violations += kind.approval_violations(heat)
    else:
        violations += reason_required(reason)
    raise_on_errors(violations)

    previous = heat.status
    heat.status = new
    heat.save(update_fields=["status"])
    record_decision(
        f"{kind.app}.heat.{'approved' if approve else 'rejected'}",
        heat,
        user=user,
        reason=(reason or "").strip(),
        clause=kind.approval_clause,
        season=competition.season,
        previous_status=previous,
        **kind.decision_figures(heat),
    )
    kind.recompute(competition.pk)
    return heat


def _direct_change_violations(user, heat, action: str) -> list[Violation]:
    deadline = heat.competition.heat_registration_deadline
    return direct_change_violations(user, heat.status, deadline, clock.today(), action)


def move_heat(
    kind: HeatKind,
    user,
    heat,
    first: date,
    second: date | None,
    reason: str = "",
    *,
    keep_length: bool = False,
):
    """R-PAIR-KVAL-2: whoever manages the heat moves it up to the registration deadline (TK at
    any time, recorded as a decision); after it, a change request. The new dates must pass
    ``kind.schedule_violations``. With ``keep_length`` an empty ``second`` keeps the heat's
    length (:func:`shifted_dates`); otherwise it is saved as given."""
    heat = get_obj(kind.model, heat)
    kind.require_manage(user, heat)
    heat = locked(kind.model, heat, "competition__season")
    competition = heat.competition
    old = kind.dates(heat)
    if keep_length:
        first, second = shifted_dates(*old, first, second)
    violations = _direct_change_violations(user, heat, "move")
    violations += kind.schedule_violations(competition, first, second)
    raise_on_errors(violations)

    kind.set_dates(heat, first, second)
    if is_tk(user):
        record_decision(
            f"{kind.app}.heat.moved",
            heat,
            user=user,
            reason=(reason or "").strip(),
            clause="R-PAIR-KVAL-2",
            season=competition.season,
            old_dates=old,
            new_dates=(first, second),
        )
    return heat


def cancel_heat(kind: HeatKind, user, heat, reason: str = "", *, clause: str = "R-PAIR-KVAL-2"):
    """R-PAIR-KVAL-2: whoever manages the heat cancels it up to the registration deadline (TK
    at any time, recorded as a decision with ``clause``: R-TEAM-KVAL-2 for a team heat left
    empty); after it, a change request. Cancelling an approved heat recomputes the
    competition."""
    heat = get_obj(kind.model, heat)
    kind.require_manage(user, heat)
    heat = locked(kind.model, heat, "competition__season")
    competition = heat.competition
    raise_on_errors(_direct_change_violations(user, heat, "cancel"))

    previous = heat.status
    heat.status = HeatStatus.CANCELLED
    heat.save(update_fields=["status"])
    if is_tk(user):
        record_decision(
            f"{kind.app}.heat.cancelled",
            heat,
            user=user,
            reason=(reason or "").strip(),
            clause=clause,
            season=competition.season,
            previous_status=previous,
        )
    if previous == HeatStatus.APPROVED:
        kind.recompute(competition.pk)
    return heat


# ---------------------------------------------------------------------------------------------
# Direct final (R-PAIR-DF-1, R-TEAM-DF-1)
# ---------------------------------------------------------------------------------------------


def direct_final_needed(kind: HeatKind, competition) -> Violation | None:
    """R-PAIR-DF-1, R-TEAM-DF-1: fewer than two clubs arrange approved heats: the notice for TK
    (decide, at the latest when the qualifying period ends, on a direct final on the final's
    date), or ``None`` when the heats go ahead."""
    return direct_final_notice(
        kind.arranging_club_count(competition),
        teams=kind.app == "teams",
        decide_by=competition.qualifying_end,
        rules=competition.season.rules(),
    )


@transaction.atomic
def decide_direct_final(kind: HeatKind, user, competition, direct: bool, reason: str = ""):
    """R-PAIR-DF-1, R-TEAM-DF-1, R-GEN-3: TK decides (at the latest when the qualifying period
    ends) whether a DM Par discipline or DM Lag (``kind``: ``PAIR_HEATS`` or ``TEAM_HEATS``)
    is played as a direct final on the final's date. Deciding against the rule (a direct final
    although two clubs arrange heats, or none although fewer do) needs a reason; without one
    the rule's notice is the reason. Recorded with who, when and why (with the arranging clubs
    counted and whether the period had ended), and the competition recomputed."""
    require(is_tk(user), gettext_noop("Bara UBF TK beslutar om direktfinal."))
    competition = locked(kind.competition_model, competition, "season")
    require_open_season(competition.season)
    clause = kind.direct_final_clause
    arranging = kind.arranging_club_count(competition)
    notice = direct_final_needed(kind, competition)
    violations: list[Violation] = []
    if bool(notice) != bool(direct) and not (reason or "").strip():
        violations.append(
            error(
                clause,
                gettext_noop(
                    "%(arranging)s klubb(ar) arrangerar godkända kval; beslutet går emot "
                    "huvudregeln, så ange skälet."
                ),
                arranging_clubs=arranging,
                params={"arranging": arranging},
            )
        )
    raise_on_errors(violations)
    if not (reason or "").strip():
        reason = (
            notice.message_sv if notice else f"{arranging} klubbar arrangerar kval; kvalen spelas."
        )
    today = clock.today()
    competition.is_direct_final = bool(direct)
    competition.save(update_fields=["is_direct_final"])
    record_decision(
        f"{kind.app}.direct_final.decided",
        competition,
        user=user,
        reason=reason.strip(),
        clause=clause,
        season=competition.season,
        direct=bool(direct),
        arranging_clubs=arranging,
        qualifying_end=competition.qualifying_end,
        after_qualifying_end=bool(
            competition.qualifying_end and today > competition.qualifying_end
        ),
    )
    request_recompute(competition.pk)
    return competition


def direct_final_decided(competition) -> bool:
    """Whether TK has recorded a direct-final decision for the competition."""
    return Decision.objects.filter(
        action__endswith=".direct_final.decided",
        object_type=competition._meta.label_lower,
        object_id=competition.pk,
    ).exists()


# ---------------------------------------------------------------------------------------------
# Change requests after the deadline (R-PAIR-KVAL-2)
# ---------------------------------------------------------------------------------------------


def request_heat_change(
    heat_kind: HeatKind,
    user,
    heat,
    kind: str,
    new_first_date: date | None = None,
    new_second_date: date | None = None,
    reason: str = "",
):
    """R-PAIR-KVAL-2: the arranging club (or a team heat's responsible) asks UBF TK to move or
    cancel a heat (a pairs heat or a team heat). A move is given by the new first date and, if
    it changes otherwise, the new second date (session 2 / last day); the dates are checked now
    and again when TK decides. One open request per heat at a time."""
    require(
        heat_kind.can_manage(user, heat),
        gettext_noop("Du kan bara begära ändring av kvalheat som din klubb arrangerar."),
    )
    heat = locked(heat_kind.model, heat, "competition__season")
    violations: list[Violation] = []
    if kind not in HeatChangeRequest.Kind.values:
        violations.append(
            error(
                "R-PAIR-KVAL-2",
                gettext_noop("Ange om heatet ska flyttas eller ställas in."),
                kind=kind,
            )
        )
    if heat.status not in ACTIVE:
        violations.append(
            error(
                "R-PAIR-KVAL-2",
                gettext_noop("Heatet är %(heat_status)s och kan inte ändras."),
                params={"heat_status": heat.get_status_display()},
            )
        )
    open_requests = heat_kind.change_model.objects.filter(
        status=Decided.Status.REQUESTED, heat=heat
    )
    if open_requests.exists():
        violations.append(
            error(
                "R-PAIR-KVAL-2",
                gettext_noop("Det finns redan en obesvarad ändringsbegäran för heatet."),
            )
        )
    first = second = None
    if kind == HeatChangeRequest.Kind.MOVE:
        if new_first_date is None:
            violations.append(error("R-PAIR-KVAL-2", gettext_noop("Ange det nya datumet.")))
        else:
            first, second = shifted_dates(*heat_kind.dates(heat), new_first_date, new_second_date)
            violations += heat_kind.schedule_violations(heat.competition, first, second)
    raise_on_errors(violations)

    return heat_kind.change_model.objects.create(
        heat=heat,
        kind=kind,
        new_first_date=first,
        new_second_date=second,
        request_reason=(reason or "").strip(),
        requested_by=user if getattr(user, "is_authenticated", False) else None,
    )


def decide_heat_change(heat_kind: HeatKind, user, request, approve: bool, reason: str = ""):
    """R-PAIR-KVAL-2, R-GEN-3: TK approves a change request (applied at once; a move's dates are
    checked again) or rejects it (with a reason); recorded with who, when and why."""
    require(
        is_tk(user),
        gettext_noop("Bara UBF TK kan godkänna eller avslå en ändring av ett kvalheat."),
    )
    request = locked(heat_kind.change_model, request)
    heat = locked(heat_kind.model, request.heat_id, "competition__season")
    violations: list[Violation] = []
    if request.status != Decided.Status.REQUESTED:
        violations.append(
            error(
                "R-GEN-3",
                gettext_noop("Begäran är redan %(request_status)s."),
                params={"request_status": request.get_status_display()},
            )
        )
    if not approve:
        violations += reason_required(reason)
    else:
        if heat.status not in ACTIVE:
            violations.append(
                error(
                    "R-PAIR-KVAL-2",
                    gettext_noop("Heatet är %(heat_status)s och kan inte ändras."),
                    params={"heat_status": heat.get_status_display()},
                )
            )
        if request.kind == HeatChangeRequest.Kind.MOVE:
            violations += heat_kind.schedule_violations(
                heat.competition, request.new_first_date, request.new_second_date
            )
    raise_on_errors(violations)

    old_dates = heat_kind.dates(heat)
    previous_status = heat.status
    if approve:
        if request.kind == HeatChangeRequest.Kind.CANCEL:
            heat.status = HeatStatus.CANCELLED
            heat.save(update_fields=["status"])
        else:
            heat_kind.set_dates(heat, request.new_first_date, request.new_second_date)
    request.status = Decided.Status.GRANTED if approve else Decided.Status.REJECTED
    request.decided_by = user
    request.decided_at = clock.now()
    request.reason = (reason or "").strip()
    request.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    record_decision(
        f"{heat_kind.app}.heat_change.{'granted' if approve else 'rejected'}",
        request,
        user=user,
        reason=request.reason,
        clause="R-PAIR-KVAL-2",
        season=heat.competition.season,
        kind=request.kind,
        heat_id=heat.pk,
        heat=str(heat),
        old_dates=old_dates,
        new_dates=heat_kind.dates(heat)
        if approve
        else (request.new_first_date, request.new_second_date),
        previous_status=previous_status,
    )
    if approve and previous_status == HeatStatus.APPROVED:
        heat_kind.recompute(heat.competition_id)
    return request
