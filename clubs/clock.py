"""The system's notion of "today" and "now", in one place so tests and TK can move the clock.

In order: a ``clock.frozen()`` block (tests); ``UBF_CLOCK_OVERRIDE`` in settings (an ISO
datetime, e.g. to try reminders); the demo's date (``UBF_DEMO_DATE`` from ``DEMO_DATE``, moved
by TK from the admin: ``clubs.models.DemoClock``) at the real time of day (Europe/Stockholm,
so time still moves within a demo day and timestamps keep their order on it); else the real
time. In production (``settings.PRODUCTION``) only the real time counts: the clock cannot be
moved there. Every stored timestamp (uploads, decisions, requests, snapshots, lots, reminders)
defaults to :func:`now` (dates to :func:`today`), so the demo's pages show the demo's days.

Moving the demo clock backwards can make a later row's timestamp earlier than an older one's:
code that needs "which came first" compares ids (or what a row was computed from), not times.
"""

from __future__ import annotations

import contextlib
from datetime import date, datetime

from django.apps import apps
from django.conf import settings
from django.utils import timezone

_frozen: list[datetime] = []


def now() -> datetime:
    if _frozen:
        return _frozen[-1]
    if getattr(settings, "PRODUCTION", False):
        return timezone.now()
    override = getattr(settings, "UBF_CLOCK_OVERRIDE", None)
    if override:
        value = datetime.fromisoformat(override) if isinstance(override, str) else override
        return value if timezone.is_aware(value) else timezone.make_aware(value)
    demo = demo_date()
    if demo is not None:
        # The demo's day at the real time of day: a day's timestamps keep their order.
        real = timezone.localtime(timezone.now())
        return timezone.make_aware(datetime.combine(demo, real.time().replace(tzinfo=None)))
    return timezone.now()


def demo_date() -> date | None:
    """The demo's date, or None outside the demo (and always in production)."""
    configured = getattr(settings, "UBF_DEMO_DATE", "")
    if not configured or getattr(settings, "PRODUCTION", False):
        return None
    # The model is looked up here, not imported: clubs.models imports this module (its
    # timestamps default to now()).
    moved = (
        apps.get_model("clubs", "DemoClock")
        .objects.filter(pk=1)
        .values_list("on", flat=True)
        .first()
    )
    return moved or date.fromisoformat(str(configured))


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
