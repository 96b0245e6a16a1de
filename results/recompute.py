"""The ``results`` side of :func:`clubs.recompute.request_recompute`: mark the competition as
pending (the pages say "räknas in just nu") and schedule its recompute task once the
transaction commits (in-process when there is no broker). Connected in ``ResultsConfig.ready``.

Scheduling survives a broker outage: the status row (``requested_at``) is written in the
caller's transaction, and a broker that cannot be reached on commit is logged, not raised, so
the change is saved and the club is told so; the recompute stays pending until
:func:`requeue_pending` (the Celery beat task ``results.recompute.requeue_pending_task`` and the
command ``manage.py requeue_pending``) sends it again, or an identical re-upload asks again
(:func:`ask_again_if_pending`).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Q

from clubs import clock
from results.models import RecomputeStatus
from results.tasks import recompute_competition

log = logging.getLogger(__name__)

#: One quick retry of a publish, not kombu's default (three retries over about 19 s, while the
#: club waits for its page).
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}


def send(competition_id: int, heat_ids: list | None = None) -> bool:
    """Send the recompute task now; ``False`` (and a log line) when the broker cannot take it.
    In-process (eager, no broker) the task runs here and its errors propagate as before."""
    if recompute_competition.app.conf.task_always_eager:
        recompute_competition.delay(competition_id, heat_ids)
        return True
    try:
        # ignore_result: nobody waits for it, and a Redis result backend would otherwise
        # subscribe to the result first, retrying 20 times a second apart with Redis down
        # (the API's upload answered after 19.6 s: benchmarks/api_redis_down.py, issue 25)
        recompute_competition.apply_async(
            (competition_id, heat_ids),
            retry=True,
            retry_policy=PUBLISH_RETRY,
            ignore_result=True,
        )
    except Exception:  # the broker's errors are kombu's, redis-py's or the socket's
        log.warning(
            "Recompute of competition %s not queued (broker unreachable); it stays pending "
            "until the sweep (requeue_pending) sends it.",
            competition_id,
            exc_info=True,
        )
        return False
    return True


def on_recompute_requested(
    sender=None, *, competition_id: int, heat_ids: list | None = None, **kwargs
) -> None:
    RecomputeStatus.objects.update_or_create(
        competition_id=competition_id, defaults={"requested_at": clock.now()}
    )
    transaction.on_commit(lambda: send(competition_id, heat_ids))


def _pending():
    return RecomputeStatus.objects.filter(requested_at__isnull=False).filter(
        Q(finished_at__isnull=True) | Q(requested_at__gt=F("finished_at"))
    )


def ask_again_if_pending(competition_id: int, heat_ids: list | None = None) -> bool:
    """An identical re-upload changes nothing, but while the competition's recompute is still
    pending (its task may have been lost) it sends the task again. ``True`` if it did."""
    if not _pending().filter(competition_id=competition_id).exists():
        return False
    transaction.on_commit(lambda: send(competition_id, heat_ids))
    return True


def requeue_pending(older_than: timedelta | None = None) -> list[int]:
    """Send again the recompute of every competition pending for longer than ``older_than``
    (``settings.UBF_REQUEUE_AFTER_SECONDS``); a whole recompute, as the changed heats are not
    recorded. Returns the competitions sent (a broker still down sends none: they stay
    pending for the next sweep). A competition this sweep sent less than ``older_than`` ago is
    left to that task (noted in the cache; with the cache down it is sent anyway): a busy
    queue gets one repeat per period, not one per sweep."""
    if older_than is None:
        older_than = timedelta(seconds=settings.UBF_REQUEUE_AFTER_SECONDS)
    due = _pending().filter(requested_at__lt=clock.now() - older_than)
    ids = list(due.order_by("competition_id").values_list("competition_id", flat=True))
    sent = [cid for cid in ids if _not_sent_lately(cid, older_than) and send(cid, None)]
    if ids:
        log.info("Requeued the recompute of competitions %s (pending: %s)", sent, ids)
    return sent


def _not_sent_lately(competition_id: int, period: timedelta) -> bool:
    seconds = max(int(period.total_seconds()), 1)
    try:
        return bool(cache.add(f"ubf:requeued:{competition_id}", 1, timeout=seconds))
    except Exception:  # the cache is down: send (a repeat costs one query, results.tasks)
        return True


@shared_task(name="results.recompute.requeue_pending")
def requeue_pending_task() -> list[int]:
    """The periodic sweep (``CELERY_BEAT_SCHEDULE``): :func:`requeue_pending`."""
    return requeue_pending()
