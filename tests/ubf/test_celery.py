"""Celery: eager without a broker; a real worker on Redis round-trips a task (CI)."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.conftest import requires_broker
from ubf.celery import app, ping

ROOT = Path(__file__).resolve().parents[2]


def test_eager_mode_runs_the_task_in_process():
    assert app.conf.task_always_eager is True  # forced by the autouse fixture
    assert ping.delay(41).get(timeout=1) == 42


@pytest.fixture
def worker_queue():
    """A real `celery -A ubf worker` process on its own queue, stopped after the test."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = dict(os.environ)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "ubf",
            "worker",
            "-P",
            "solo",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


@requires_broker
@pytest.mark.celery_worker
def test_real_worker_round_trip_through_redis(worker_queue):
    assert app.conf.task_always_eager is False
    started = time.monotonic()
    result = ping.apply_async(args=[1], queue=worker_queue)
    assert result.get(timeout=60) == 2
    assert time.monotonic() - started < 60
