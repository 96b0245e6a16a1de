"""What every service function shares: a refusal that carries its reasons, permission checks,
and the append-only record of TK decisions (R-GEN-3).

A service does one use case inside one transaction: check permission, validate everything
(calling ``ubf.rules``), then save. On refusal it raises :class:`ServiceError` before anything
is written, so nothing is partly saved.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.core.exceptions import PermissionDenied

from clubs.i18n import render, render_with_clause
from clubs.models import Decision
from ubf.rules.i18n import Message, gettext_noop
from ubf.rules.violations import Severity, Violation, errors


class ServiceError(Exception):
    """A refusal with every reason (violations carry clause IDs and a Swedish template that
    ``clubs.i18n.render`` puts into the reader's language)."""

    def __init__(self, violations: Iterable[Violation] | str, *, clause: str = ""):
        if isinstance(violations, str):
            violations = [Violation(clause, violations)]
        self.violations = list(violations)
        super().__init__("; ".join(str(v) for v in self.violations))

    def messages(self, language: str | None = None) -> list[str]:
        return [render_with_clause(v, language) for v in self.violations]


def error(clause: str, template: str, *, params: dict | None = None, **data: Any) -> Violation:
    """A broken rule that refuses the action: ``template`` is a Swedish msgid marked with
    ``gettext_noop``; ``params`` fill it, ``data`` carries the figures for pages and logs."""
    return Violation(clause, template, Severity.ERROR, data, params or {})


def warning(clause: str, template: str, *, params: dict | None = None, **data: Any) -> Violation:
    """As :func:`error`, for a problem that lets the action through and is flagged to TK."""
    return Violation(clause, template, Severity.WARNING, data, params or {})


def as_warning(violation: Violation) -> Violation:
    """The same violation, downgraded to a warning (TK acting where a club may not)."""
    return replace(violation, severity=Severity.WARNING)


REASON_REQUIRED = gettext_noop(
    "Skriv en motivering: varje TK-beslut sparas med vem, när och varför (R-GEN-3)."
)


def reason_required(reason: str | None, clause: str = "R-GEN-3") -> list[Violation]:
    """R-GEN-3: a decision says why. The one check and the one text for every decision."""
    if (reason or "").strip():
        return []
    return [error(clause, REASON_REQUIRED, missing="reason")]


def text_required(value: str | None, clause: str, template: str) -> list[Violation]:
    """An empty required text (a name, a venue, a jury's decision) refused with ``template``."""
    return [] if (value or "").strip() else [error(clause, template)]


def refuse(clause: str, template: str, *, params: dict | None = None, **data: Any) -> ServiceError:
    """A refusal with one reason: ``template`` is a Swedish msgid marked with gettext_noop."""
    return ServiceError([Violation(clause, template, data=data, params=params or {})])


def require_open_season(season) -> None:
    """A finished season is read-only (issue 23: the next season was made from it): every
    change to it is refused, with a clear message; it stays on the public archive."""
    if season is not None and getattr(season, "is_finished", False):
        raise refuse(
            "R-GEN-3",
            gettext_noop(
                "Säsongen %(season)s är avslutad och kan inte ändras; den finns kvar i arkivet."
            ),
            params={"season": season.name},
        )


def raise_on_errors(violations: Iterable[Violation]) -> list[Violation]:
    """Raise if any violation is an error; return the warnings (to show or record)."""
    violations = list(violations)
    errs = errors(violations)
    if errs:
        raise ServiceError(errs)
    return [v for v in violations if not v.is_error]


def require(
    allowed: bool,
    template: str = gettext_noop("Du har inte behörighet för detta."),
    *,
    params: dict | None = None,
) -> None:
    """Permission check: refuse with ``template`` (a Swedish msgid) in the reader's language."""
    if not allowed:
        raise PermissionDenied(render(Message(template, params or {})))


def record_decision(
    action: str,
    obj,
    *,
    user=None,
    reason: str = "",
    clause: str = "",
    season=None,
    **data: Any,
):
    """Append a typed entry to the audit trail (clubs.Decision)."""

    return Decision.objects.create(
        action=action,
        object_type=obj._meta.label_lower,
        object_id=obj.pk,
        object_repr=str(obj)[:200],
        season=season,
        decided_by=user if (user is not None and user.is_authenticated) else None,
        clause=clause,
        reason=reason,
        data=_jsonable(data),
    )


def _jsonable(value):
    from datetime import date, datetime
    from decimal import Decimal
    from fractions import Fraction

    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, Decimal | Fraction):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def acting_user_id(user) -> int | None:
    """The id of the signed-in user who set something off (None for anonymous or no user)."""
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


def flag_warnings(action: str, obj, warnings: list[Violation], *, user, season) -> None:
    """Put warnings where TK sees them: one append-only audit row (no decision by anyone),
    naming every clause and who set it off. Nothing is written when there are no warnings."""
    if not warnings:
        return
    record_decision(
        action,
        obj,
        user=None,
        reason="\n".join(str(v) for v in warnings),
        clause=warnings[0].clause,
        season=season,
        clauses=[v.clause for v in warnings],
        messages_en=[render(v, "en") for v in warnings],
        triggered_by=acting_user_id(user),
    )
