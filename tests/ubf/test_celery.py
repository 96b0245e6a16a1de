"""Celery: eager without a broker; a real worker on Redis round-trips a task (CI)."""

import time

import pytest

from tests.conftest import requires_broker
from ubf.celery import app, ping


def test_eager_mode_runs_the_task_in_process():
    assert app.conf.task_always_eager is True  # forced by the autouse fixture
    assert ping.delay(41).get(timeout=1) == 42


@requires_broker
@pytest.mark.celery_worker
def test_real_worker_round_trip_through_redis(celery_worker_queue):
    assert app.conf.task_always_eager is False
    started = time.monotonic()
    result = ping.apply_async(args=[1], queue=celery_worker_queue)
    assert result.get(timeout=60) == 2
    assert time.monotonic() - started < 60
