"""Fault: a Celery worker killed outright (SIGKILL, main and pool process) during a recompute.

What it does, on PostgreSQL and Redis (the production pair):

1. migrates the database and builds a team heat of 4 teams (tests/fixtures/results), then
   uploads its results through the upload service with no worker running: the recompute task
   waits in the queue and the competition is pending;
2. holds the competition's row lock from a second connection, as a long upload would, and
   starts worker 1 (prefork, one process): it takes the task (acks_late: not acknowledged)
   and its recompute waits on the lock, so it is killed *during* the recompute;
3. SIGKILLs worker 1's main and pool processes, releases the lock and starts worker 2;
4. polls until the competition is no longer pending and its heat's standings are those of the
   uploaded file (4 teams, each with its 3 matches, the 6 matches' VP summing to 6 × 20), and
   prints how long that took
   after the kill. The broker gives the unacknowledged task back once the visibility timeout
   (settings ``CELERY_BROKER_TRANSPORT_OPTIONS``, 120 s; ``--visibility`` to try another) has
   passed; kombu's default would be an hour. With ``--beat`` a Celery beat runs too, whose
   sweep (every ``UBF_REQUEUE_SWEEP_SECONDS``) sends again what has been pending
   ``UBF_REQUEUE_AFTER_SECONDS``, as in production (issue 25: within a minute).

Run from the repository root (the database and the Redis DB are EMPTIED: use throwaway ones):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ubf_faults \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/8 .venv/bin/python benchmarks/worker_kill.py
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PARSER = argparse.ArgumentParser(description=__doc__.splitlines()[0])
PARSER.add_argument("--visibility", type=int, default=None, help="visibility timeout (s)")
PARSER.add_argument("--limit", type=int, default=1200, help="give up after this many seconds")
PARSER.add_argument("--beat", action="store_true", help="run celery beat (the sweep) too")
ARGS = PARSER.parse_args()

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ubf_faults")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/8")
os.environ["DEBUG"] = "true"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
if ARGS.visibility is not None:
    os.environ["CELERY_VISIBILITY_TIMEOUT"] = str(ARGS.visibility)

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
import redis  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from results.models import RecomputeStatus, StandingSnapshot  # noqa: E402
from results.services.uploads import upload_team_results  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.results.test_uploads import data, team_heat_for  # noqa: E402


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())} UTC] {text}", flush=True)


def worker(name: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "celery", "-A", "ubf", "worker", "-P", "prefork", "-c", "1"]
    cmd += ["-n", f"{name}@%h", "--without-gossip", "--without-mingle", "-l", "ERROR"]
    return subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ), start_new_session=True)


def children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def right(heat) -> bool:
    """The heat's standings are those of the uploaded file: 4 teams, 3 matches each, and the
    6 matches' VP sum to 120 (R-VP: 20 a match)."""
    status = RecomputeStatus.objects.filter(competition_id=heat.competition_id).first()
    snap = StandingSnapshot.objects.filter(scope="team_heat", heat=heat).first()
    return (
        status is not None
        and not status.pending
        and snap is not None
        and [r["played"] for r in snap.data] == [3, 3, 3, 3]
        and sum(Decimal(r["vp"]) for r in snap.data) == Decimal("120.00")
    )


def main() -> None:
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    log(f"database {connection.settings_dict['NAME']}, broker {settings.CELERY_BROKER_URL}")
    log(f"visibility timeout {visibility} s, acks_late, reject_on_worker_lost")
    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)  # a throwaway database: emptied
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    broker.flushdb()  # this script's own Redis DB: the queue and the unacked set start empty

    name = "teams_usebio.xml"
    heat, _teams, _event = team_heat_for(name, 24)
    tk = UserFactory(is_superuser=True, is_staff=True)
    upload_team_results(tk, heat=heat, data=data(name), filename=name)
    assert RecomputeStatus.objects.get(competition_id=heat.competition_id).pending
    assert not StandingSnapshot.objects.filter(heat=heat).exists()
    log(f"uploaded {name}: competition {heat.competition_id} pending, task queued")

    db = connection.settings_dict
    holder = psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=db["NAME"],
        autocommit=False,
    )
    holder.execute(
        "SELECT id FROM clubs_competition WHERE id = %s FOR UPDATE", [heat.competition_id]
    )
    first = worker("kill-me")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with connection.cursor() as cur:  # autocommit: a fresh look each time
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                "AND datname = %s",
                [db["NAME"]],
            )
            waiting = cur.fetchone()[0]
        if waiting and broker.hlen("unacked"):
            break
        time.sleep(0.2)
    else:
        first.kill()
        sys.exit("worker 1 never started the recompute")
    pids = [first.pid, *children(first.pid)]
    log(f"worker 1 is in the recompute (waiting on the lock); SIGKILL {pids}")
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    killed = time.monotonic()
    first.wait()
    holder.rollback()
    holder.close()
    log(f"unacknowledged tasks in the broker after the kill: {broker.hlen('unacked')}")

    second = worker("after")
    beat = None
    if ARGS.beat:
        schedule = Path(tempfile.mkdtemp(prefix="ubf-beat-")) / "schedule"
        beat = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "ubf",
                "beat",
                "-l",
                "ERROR",
                "-s",
                str(schedule),
            ],
            cwd=ROOT,
            env=dict(os.environ),
            start_new_session=True,
        )
        log("celery beat started (the sweep)")
    try:
        while not right(heat):
            if time.monotonic() - killed > ARGS.limit:
                log(f"NOT right after {ARGS.limit} s")
                sys.exit(1)
            time.sleep(1)
        took = time.monotonic() - killed
        status = RecomputeStatus.objects.get(competition_id=heat.competition_id)
        snap = StandingSnapshot.objects.get(scope="team_heat", heat=heat)
        log(
            f"result right {took:.0f} s after the kill: standings "
            f"{[(r['name'], r['vp']) for r in snap.data]}, recompute runs {status.runs}, not pending"
        )
        how = "with the sweep" if ARGS.beat else "without beat"
        print(
            f"worker_kill: redelivered and right after {took:.0f} s "
            f"(visibility {visibility} s, {how})"
        )
    finally:
        if beat is not None:
            beat.terminate()
            beat.wait(20)
        second.terminate()
        try:
            second.wait(20)
        except subprocess.TimeoutExpired:
            second.kill()


if __name__ == "__main__":
    main()
