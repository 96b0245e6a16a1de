"""The system's notion of "today" and "now", in one place so tests and TK can move the clock.

Set UBF_CLOCK_OVERRIDE in settings (an ISO datetime) to run the system at another date (e.g.
to try reminders); tests use ``override_settings`` or ``clock.frozen()``.
"""

from __future__ import annotations

import contextlib
from datetime import date, datetime

from django.conf import settings
from django.utils import timezone

_frozen: list[datetime] = []


def now() -> datetime:
    if _frozen:
        return _frozen[-1]
    override = getattr(settings, "UBF_CLOCK_OVERRIDE", None)
    if override:
        value = datetime.fromisoformat(override) if isinstance(override, str) else override
        return value if timezone.is_aware(value) else timezone.make_aware(value)
    return timezone.now()


def today() -> date:
    return timezone.localdate(now())


@contextlib.contextmanager
def frozen(at: datetime | date | str):
    """Run the block at another moment: ``with clock.frozen("2016-10-01 09:00"): ...``."""
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    if isinstance(at, date) and not isinstance(at, datetime):
        at = datetime(at.year, at.month, at.day, 12, 0)
    if timezone.is_naive(at):
        at = timezone.make_aware(at)
    _frozen.append(at)
    try:
        yield at
    finally:
        _frozen.pop()
