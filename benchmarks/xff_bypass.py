"""Fault: getting round the anonymous API limit with X-Forwarded-For (issue 25), on the site in
production mode (benchmarks/prodsite.py: gunicorn, two workers, DEBUG off, PostgreSQL
``ubf_apifaults``, its own Redis on port 6391 as cache; the limit is the default 120 a minute).

What it does, for ``UBF_TRUSTED_PROXIES`` 0 (the default: no proxy) and 1 (behind a proxy):

* 200 anonymous reads, each with a new X-Forwarded-For (an attacker's own header; behind the
  proxy the attacker's header first, then the address the proxy appends, the same each time):
  how many were answered 200 and how many 429;
* behind the proxy: 20 reads each from 10 other clients (other appended addresses), which
  must not share the attacker's count.

Run from the repository root (the database and Redis DB are EMPTIED):
    .venv/bin/python benchmarks/xff_bypass.py
Figures on the lines that start with ``xff_bypass:`` (benchmarks/report.py collects them).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import prodsite as site  # noqa: E402


def attempt(proxies: int) -> None:
    site.redis_stop()  # an empty Redis: no counts of the run before
    site.redis_start()
    web = site.gunicorn(site.production_env(UBF_TRUSTED_PROXIES=proxies))
    try:
        got = Counter()
        for i in range(200):
            forged = f"198.51.{i // 250}.{i % 250 + 1}"
            header = forged if proxies == 0 else f"{forged}, 203.0.113.66"
            code, *_ = site.request("/api/v1/seasons/", headers={"X-Forwarded-For": header})
            got[code] += 1
        site.log(
            f"UBF_TRUSTED_PROXIES={proxies}: 200 reads, a new X-Forwarded-For each: {dict(got)}"
        )
        line = f"xff_bypass: proxies={proxies}: {got[200]} x 200, {got[429]} x 429 of 200"
        if proxies:
            others = Counter()
            for client in range(10):
                for _ in range(20):
                    code, *_ = site.request(
                        "/api/v1/seasons/", headers={"X-Forwarded-For": f"192.0.2.{client + 1}"}
                    )
                    others[code] += 1
            site.log(f"10 other clients behind the proxy, 20 reads each: {dict(others)}")
            line += f"; 10 other clients x 20: {others[200]} x 200, {others[429]} x 429"
        print(line, flush=True)
    finally:
        site.stop(web)


def main() -> None:
    site.redis_start()
    site.setup_django()
    from tests.factories import SeasonFactory

    SeasonFactory()
    site.log(f"database {site.DATABASE_URL}, Redis {site.REDIS_URL}; limit 120 a minute")
    attempt(0)
    attempt(1)
    site.log(f"logs in {site.WORK}")


if __name__ == "__main__":
    main()
