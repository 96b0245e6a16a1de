"""Celery tasks: thin, take ids, call a service.

:class:`RecomputeTask` is the base of the recompute tasks: it is sent only once the request's
transaction commits (``delay_on_commit``), it is acknowledged late and rejected back to the
queue when its worker dies, and it retries only what a retry can fix (the database went away
or a lock timed out), not programming errors, which would fail the same way every time.
"""

from __future__ import annotations

from celery import shared_task
from celery.contrib.django.task import DjangoTask
from django.db import InterfaceError, OperationalError

from clubs.recompute import recompute_finished, recompute_starting
from results.services.recompute import recompute_competition as _recompute


class RecomputeTask(DjangoTask):
    acks_late = True
    reject_on_worker_lost = True
    autoretry_for = (OperationalError, InterfaceError)
    retry_backoff = True
    max_retries = 3


@shared_task(base=RecomputeTask, bind=True, name="results.tasks.recompute_competition")
def recompute_competition(self, competition_id: int, heat_ids: list | None = None) -> None:
    """Recompute a competition, pairs or teams (``heat_ids``: the heats whose results changed,
    ``None`` for everything). A repeat (the sweep's, ``results.recompute.requeue_pending``, or
    the broker's redelivery) recomputes again: which came first is never decided by the
    clock's times, which the demo can move backwards and a test freezes (docs/architecture.md,
    "Dates and deadlines"); a skip by ``RecomputeStatus.pending`` dropped the second of two
    uploads made at the same instant. The sweep sends a competition at most once a period.
    ``recompute_starting`` and, once stored, ``recompute_finished`` tell the public pages'
    cache (it renders the hall's pages again in this worker, not in the web workers the phones
    are polling)."""
    eager = bool(self.request.is_eager)
    recompute_starting.send(sender=None, competition_id=competition_id, eager=eager)
    _recompute(competition_id, heat_ids)
    recompute_finished.send(sender=None, competition_id=competition_id, eager=eager)
