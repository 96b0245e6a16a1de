"""One report of the project's figures: page load ratios, recompute and import times, faults
and concurrency.

Each step runs an existing benchmark or test (below), keeps its whole output in
``var/benchmarks/<step>.log`` (with the command, when it ran, how long it took and its exit
code) and contributes its figures to the report printed at the end:

* ``pages``:       benchmarks/standings_load.py (gunicorn + wrk; ``--national`` adds the
                   national season): every public page's and API read's req/s and ratio to
                   a static file, a final round pushed while 200 connections poll /lag/final/
                   and the first request after an upload against a warm one;
* ``recompute``:   benchmarks/recompute.py (a national season imported through the upload
                   service, then recomputed): import and recompute times, SQL queries;
* ``files``:       benchmarks/upload_bounds.py (issue 25: the largest result files a club
                   could send and the worst shapes under the 5 MB cap through the upload
                   service): CPU seconds per file, stored or refused, and the maximum;
* ``faults``:      tests/faults/test_broker_down.py and test_failsafe.py (broker down, the
                   sweep, the database unreachable, fail-safe settings), and
                   benchmarks/worker_kill.py (a worker SIGKILLed during a recompute: seconds
                   until the result is right);
* ``concurrency``: tests/faults/test_concurrency.py (20 uploads of 20 different results of
                   one heat, 20 TK decisions on one competition, at once, on PostgreSQL).
* ``api_faults``:  issue 25, on the site in production mode with a Redis of its own
                   (benchmarks/prodsite.py; ``FAULT_REDIS_PORT``, default 6391, and
                   ``ubf_apifaults``): benchmarks/api_redis_down.py (the API with Redis down,
                   then seconds until the recompute is done after Redis is back),
                   benchmarks/xff_bypass.py (200 reads with forged X-Forwarded-For, with 0 and
                   1 trusted proxy) and tests/faults/test_api_redis_down.py and
                   test_trusted_proxies.py.

    .venv/bin/python benchmarks/report.py                  # run every step, then the report
    .venv/bin/python benchmarks/report.py --only faults    # run some steps (comma-separated)
    .venv/bin/python benchmarks/report.py --from-logs      # the report of the stored outputs

PostgreSQL and Redis: the fault and concurrency steps use ``DATABASE_URL`` and
``CELERY_BROKER_URL`` (default ``.../ubf_faults`` and Redis DB 8); worker_kill.py EMPTIES them.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "var" / "benchmarks"
PY = str(ROOT / ".venv" / "bin" / "python")
PYTEST = str(ROOT / ".venv" / "bin" / "pytest")
PG = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ubf_faults")
FAULT_PG = os.environ.get("FAULT_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ubf_apifaults")
REDIS = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/8")


def steps(args) -> dict[str, list[tuple[str, list[str], dict]]]:
    pages = [PY, "benchmarks/standings_load.py", "--seconds", str(args.seconds)]
    if args.national:
        pages.append("--national")
    tests = [PYTEST, "-q", "-p", "no:cacheprovider"]
    return {
        "pages": [("standings_load", pages, {})],
        "recompute": [
            ("recompute", [PY, "benchmarks/recompute.py", "--heats", str(args.heats)], {})
        ],
        "files": [("upload_bounds", [PY, "benchmarks/upload_bounds.py"], {})],
        "faults": [
            (
                "fault_tests",
                [*tests, "--durations=0", "tests/faults/test_broker_down.py"]
                + ["tests/faults/test_failsafe.py"],
                {},
            ),
            (
                "worker_kill",
                [PY, "benchmarks/worker_kill.py"],
                {"DATABASE_URL": PG, "CELERY_BROKER_URL": REDIS},
            ),
        ],
        "concurrency": [
            (
                "concurrency_tests",
                [*tests, "--durations=0", "tests/faults/test_concurrency.py"],
                {"DATABASE_URL": PG},
            )
        ],
        "api_faults": [
            ("api_redis_down", [PY, "benchmarks/api_redis_down.py"], {"DATABASE_URL": FAULT_PG}),
            ("xff_bypass", [PY, "benchmarks/xff_bypass.py"], {"DATABASE_URL": FAULT_PG}),
            (
                "api_fault_tests",
                [*tests, "--durations=0", "tests/faults/test_api_redis_down.py"]
                + ["tests/faults/test_trusted_proxies.py"],
                {},
            ),
        ],
    }


def run(name: str, cmd: list[str], env: dict) -> None:
    LOGS.mkdir(parents=True, exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(f"running {name}: {' '.join(cmd[1:])}", flush=True)
    t = time.monotonic()
    done = subprocess.run(
        cmd,
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    took = time.monotonic() - t
    head = (
        f"# command: {' '.join(cmd)}\n# env: {env}\n# started: {started}\n"
        f"# took: {took:.0f} s\n# exit: {done.returncode}\n"
    )
    (LOGS / f"{name}.log").write_text(head + done.stdout + "\n# stderr\n" + done.stderr)
    print(f"  {name}: exit {done.returncode} after {took:.0f} s", flush=True)


def log(name: str) -> tuple[dict, str] | None:
    path = LOGS / f"{name}.log"
    if not path.exists():
        return None
    text = path.read_text()
    meta = dict(re.findall(r"^# (command|started|took|exit): (.*)$", text, re.M))
    return meta, text.split("\n# stderr\n")[0]


def section(title: str, name: str, pick) -> None:
    print(f"\n## {title}")
    found = log(name)
    if found is None:
        print(f"(no output: run `benchmarks/report.py --only ...` for {name})")
        return
    meta, out = found
    print(
        f"{meta.get('started')}, {meta.get('took')}, exit {meta.get('exit')}: {meta.get('command')}"
    )
    for line in pick(out):
        print(line)


def pages_lines(out: str) -> list[str]:
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("size ")), None)
    if start is None:
        return lines[-10:]
    picked = [line for line in lines[start - 2 :] if line.strip()]
    return picked


def recompute_lines(out: str) -> list[str]:
    lines = out.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("ms ")), None)
    start = next((i for i, line in enumerate(lines) if re.match(r"^\s+ms\s+SQL", line)), start)
    return lines[start:] if start is not None else lines[-25:]


def tests_lines(out: str) -> list[str]:
    lines = out.splitlines()
    keep = [line for line in lines if re.match(r"^\d+\.\d+s (call|setup)\s", line)]
    summary = [line for line in lines if re.search(r"\d+ (passed|failed|error)", line)]
    return keep[:12] + summary[-1:]


def files_lines(out: str) -> list[str]:
    """Every file's CPU seconds, size and outcome, and the maximum."""
    return [line for line in out.splitlines() if re.match(r"^\s*\d+\.\d+ s ", line)] + [
        line for line in out.splitlines() if line.startswith(("files:", "OVER", "A LEGIT"))
    ]


def worker_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "UTC]" in line or line.startswith("worker_kill")]


def prefixed(prefix: str):
    """The script's own account (its timestamped lines) and its figures (``prefix:`` lines)."""

    def pick(out: str) -> list[str]:
        return [line for line in out.splitlines() if "UTC]" in line or line.startswith(prefix)]

    return pick


def report() -> None:
    print("# UBF DM: figures")
    section("Public pages under load (ratio to a static file)", "standings_load", pages_lines)
    section("Import and recompute (national season)", "recompute", recompute_lines)
    section(
        "Result files: CPU per file, the largest and the worst under the cap",
        "upload_bounds",
        files_lines,
    )
    section(
        "Faults: broker down, sweep, database unreachable, settings", "fault_tests", tests_lines
    )
    section("Faults: a worker killed outright during a recompute", "worker_kill", worker_lines)
    section("Concurrency: 20 uploads / 20 TK decisions at once", "concurrency_tests", tests_lines)
    section("Faults: the API with Redis down, then back", "api_redis_down", prefixed("api_redis"))
    section("Faults: X-Forwarded-For against the API's limit", "xff_bypass", prefixed("xff_"))
    section("Faults: Redis down, trusted proxies (tests)", "api_fault_tests", tests_lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="steps to run: pages,recompute,faults,...")
    parser.add_argument("--from-logs", action="store_true", help="run nothing, report")
    parser.add_argument("--seconds", type=int, default=10, help="wrk seconds a page")
    parser.add_argument("--national", action="store_true", help="pages: national season too")
    parser.add_argument("--heats", type=int, default=200, help="recompute: pairs heats")
    args = parser.parse_args()
    todo = steps(args)
    chosen = [s for s in args.only.split(",") if s] or list(todo)
    unknown = set(chosen) - set(todo)
    if unknown:
        sys.exit(f"unknown steps {sorted(unknown)}; choose from {list(todo)}")
    if not args.from_logs:
        for step in chosen:
            for name, cmd, env in todo[step]:
                run(name, cmd, env)
    report()


if __name__ == "__main__":
    main()
