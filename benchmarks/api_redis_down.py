"""Fault: Redis down under the API, then back (issue 25), on the site in production mode.

What it does (benchmarks/prodsite.py: PostgreSQL ``ubf_apifaults``, a redis-server of its own
on port 6391, DB 2, as broker and cache the way production's settings build them; gunicorn
with two workers, DEBUG off, on port 8211; a Celery worker and beat):

1. builds a pairs heat with the Howell file's ten pairs and a heat token (tests' fixtures);
2. reads the API with Redis up, then stops Redis;
3. with Redis down: 60 anonymous reads over five operations, a refused request
   (``?page=0``) and a page (``/lag/``): their statuses and content types, the slowest;
   the token's upload of the heat's file: its status and what it answers; how often the
   outage was logged;
4. starts Redis again and polls the database until the competition is no longer pending and
   its standings are those of the file (ten pairs): seconds after Redis came back (the sweep
   sends what waited UBF_REQUEUE_AFTER_SECONDS, every UBF_REQUEUE_SWEEP_SECONDS).

Run from the repository root (the database and Redis DB are EMPTIED):
    .venv/bin/python benchmarks/api_redis_down.py [--limit 180]
Figures on the lines that start with ``api_redis_down:`` (benchmarks/report.py collects them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import prodsite as site  # noqa: E402

# Django on this benchmark's database and Redis before the app's modules (main() empties it).
site.setup_django(prepare=False)
from api.services import create_token  # noqa: E402
from results.models import PairResult, RecomputeStatus, StandingSnapshot  # noqa: E402
from tests.factories import UserFactory  # noqa: E402
from tests.results.test_uploads import data, pair_heat_for  # noqa: E402

READS = [
    "/api/v1/seasons/",
    "/api/v1/competitions/",
    "/api/v1/heats/",
    "/api/v1/standings/",
    "/api/schema/",
]
NAME = "pairs_howell_usebio.xml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=180, help="give up recovery after (s)")
    args = parser.parse_args()

    site.redis_start()
    site.prepare_database()
    heat, _ = pair_heat_for(NAME)
    tk = UserFactory(username="tk-fault", is_superuser=True, is_staff=True)
    _token, key = create_token(tk, owner=tk, name="fault", heat=heat)
    site.log(f"database {site.DATABASE_URL}, Redis {site.REDIS_URL} (broker and cache)")
    site.log(f"pairs heat {heat.pk} (competition {heat.competition_id}), a heat token")

    env = site.production_env()
    web = site.gunicorn(env)
    worker = site.celery("worker", env)
    beat = site.celery("beat", env)
    try:
        status, *_ = site.request("/api/v1/seasons/")
        site.log(f"Redis up: GET /api/v1/seasons/ -> {status}")
        site.redis_stop()
        site.log("Redis stopped (redis-cli shutdown nosave)")

        statuses, types, slowest = Counter(), Counter(), 0.0
        for i in range(60):
            code, ctype, _body, took = site.request(READS[i % len(READS)])
            statuses[code] += 1
            types[ctype.split(";")[0]] += 1
            slowest = max(slowest, took)
        site.log(f"60 anonymous reads: statuses {dict(statuses)}, types {dict(types)}")
        refused, rtype, body, _ = site.request("/api/v1/seasons/?page=0")
        site.log(f"GET /api/v1/seasons/?page=0 -> {refused} {rtype}: {body[:90]!r}")
        page, *_ = site.request("/lag/")
        site.log(f"GET /lag/ -> {page}")

        content, kind = site.multipart({}, {"file": (NAME, data(NAME))})
        code, ctype, body, took = site.request(
            f"/api/v1/heats/{heat.pk}/results/",
            data=content,
            headers={"Content-Type": kind, "Authorization": f"Token {key}"},
        )
        answer = json.loads(body) if ctype.startswith("application/") else {}
        site.log(
            f"token upload -> {code} in {took:.2f} s: status {answer.get('status')!r}, "
            f"recompute_pending {answer.get('recompute_pending')}, {answer.get('message')!r}"
        )
        stored = PairResult.objects.filter(heat=heat).count()
        pending = RecomputeStatus.objects.get(competition_id=heat.competition_id).pending
        site.log(f"stored: {stored} pair results; competition pending: {pending}")
        logged = site.log_lines("gunicorn", "Cache unreachable")
        site.log(f"'Cache unreachable' logged {logged} times by the 2 web workers")
        print(
            f"api_redis_down: 60 reads {dict(statuses)} (slowest {slowest:.2f} s); "
            f"page=0 -> {refused} {rtype.split(';')[0]}; /lag/ -> {page}; "
            f"upload -> {code} in {took:.2f} s {answer.get('status')} "
            f"recompute_pending={answer.get('recompute_pending')}; outage logged {logged}x"
        )

        site.redis_start()
        back = time.monotonic()
        site.log("Redis started again")
        while True:
            status_row = RecomputeStatus.objects.get(competition_id=heat.competition_id)
            snap = StandingSnapshot.objects.filter(scope="pair_heat", heat=heat).first()
            if not status_row.pending and snap is not None and len(snap.data) == 10:
                break
            if time.monotonic() - back > args.limit:
                site.log(f"NOT recomputed {args.limit} s after Redis came back")
                print(f"api_redis_down: recovery NOT done within {args.limit} s")
                sys.exit(1)
            time.sleep(1)
        took = time.monotonic() - back
        site.log(f"recomputed {took:.0f} s after Redis came back (runs {status_row.runs})")
        print(f"api_redis_down: recovery {took:.0f} s after Redis came back")
    finally:
        site.stop(web, worker, beat)
        site.log(f"logs in {site.WORK}")


if __name__ == "__main__":
    main()
