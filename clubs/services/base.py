"""What every service function shares: a refusal that carries its reasons, permission checks,
and the append-only record of TK decisions (R-GEN-3).

A service does one use case inside one transaction: check permission, validate everything
(calling ``ubf.rules``), then save. On refusal it raises :class:`ServiceError` before anything
is written, so nothing is partly saved.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import get_language

from clubs.models import Decision
from ubf.rules.violations import Violation, errors


class ServiceError(Exception):
    """A refusal with every reason (violations carry clause IDs and Swedish/English text)."""

    def __init__(self, violations: Iterable[Violation] | str, *, clause: str = ""):
        if isinstance(violations, str):
            violations = [Violation(clause=clause, message_sv=violations, message_en=violations)]
        self.violations = list(violations)
        super().__init__("; ".join(str(v) for v in self.violations))

    def messages(self, language: str | None = None) -> list[str]:
        lang = language or get_language() or "sv"
        out = []
        for v in self.violations:
            text = v.message(lang)
            out.append(f"{text} ({v.clause})" if v.clause else text)
        return out


def refuse(clause: str, message_sv: str, message_en: str, **data: Any) -> ServiceError:
    return ServiceError(
        [Violation(clause=clause, message_sv=message_sv, message_en=message_en, data=data)]
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
    message_sv: str = "Du har inte behörighet för detta.",
    message_en: str = "You are not allowed to do this.",
) -> None:
    if not allowed:
        raise PermissionDenied(
            message_sv if (get_language() or "sv").startswith("sv") else message_en
        )


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
        messages_en=[v.message_en for v in warnings],
        triggered_by=acting_user_id(user),
    )
