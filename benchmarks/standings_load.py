"""Benchmark: the public pages under load, against a static file of the same size.

Builds a throwaway site (SQLite under /tmp, the demo season loaded as `make demo` does, by
default as of 5 March 2017: the team final after round 7), serves it with gunicorn (2 workers,
DEBUG off, the public pages' cache in Redis when 127.0.0.1:6379 answers, else in files) and
runs wrk on 127.0.0.1 (2 threads, 8 connections, 10 s) against each public page and against a
static file of the same size served by the same server (whitenoise). Prints requests per
second, the ratio to the static file, and p50/p99 latency. Target (issue 12): every public page
at no less than half the static file's rate.

Run from the repository root:   .venv/bin/python benchmarks/standings_load.py [--seconds 10]
Needs wrk (Debian: `apt-get install wrk`).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

# Pages measured: (label, path, extra wrk headers). A phone that chose English sends the
# language cookie back; "?lang=en" is the first request, which sets it.
PAGES = [
    ("/lag/", "/lag/", []),
    ("/par/", "/par/", []),
    ("/lag/ (English, cookie)", "/lag/", ["-H", "Cookie: django_language=en"]),
    ("/lag/?lang=en", "/lag/?lang=en", []),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def run(cmd: list[str], env: dict, **kw) -> str:
    out = subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True, text=True, **kw)
    return out.stdout


def wrk(url: str, seconds: int, headers: list[str] | None = None) -> dict:
    out = subprocess.run(
        ["wrk", "-t2", "-c8", f"-d{seconds}s", "--latency", *(headers or []), url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout

    def latency(label: str) -> float:
        m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        if not m:
            return float("nan")
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return {
        "rps": rps,
        "p50": latency("50"),
        "p99": latency("99"),
        "errors": int(non2xx.group(1)) if non2xx else 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--date", default="2017-03-05", help="the demo's date (DEMO_DATE)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")

    tmp = Path(tempfile.mkdtemp(prefix="ubf-load-"))
    port = free_port()
    cache = "redis://127.0.0.1:6379/3" if redis_up() else f"filecache://{tmp / 'cache'}"
    base = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
        "MEDIA_ROOT": str(tmp / "media"),
        "STATIC_ROOT": str(tmp / "static"),
        "CACHE_URL": cache,
        "CELERY_BROKER_URL": "",
        "DJANGO_SETTINGS_MODULE": "ubf.settings",
    }
    base.pop("DEMO_DATE", None)
    prod = {
        **base,
        "DEBUG": "false",
        "SECRET_KEY": "benchmark-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,testserver",
        "SECURE_SSL_REDIRECT": "false",
    }
    server = None
    try:
        t = time.monotonic()
        run([PY, "manage.py", "migrate", "--noinput", "-v0"], base)
        run([PY, "manage.py", "load_demo"], {**base, "DEMO_DATE": args.date})
        run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], prod)
        print(f"site built in {time.monotonic() - t:.1f} s (demo season as of {args.date})")
        print(f"cache: {cache.split(':')[0]}; database: SQLite; gunicorn 2 workers, DEBUG off")

        server = subprocess.Popen(
            [
                str(Path(PY).with_name("gunicorn")),
                "ubf.wsgi",
                "-w",
                "2",
                "-b",
                f"127.0.0.1:{port}",
                "--log-level",
                "warning",
            ],
            env=prod,
            cwd=ROOT,
        )
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "/lag/", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)
        size = len(urllib.request.urlopen(url + "/lag/").read())
        # whitenoise serves what was collected when the server started: a static file of the
        # page's size goes in before a restart
        static = tmp / "static" / "bench"
        static.mkdir(parents=True, exist_ok=True)
        (static / "same-size.html").write_bytes(b"x" * size)
        server.terminate()
        server.wait(10)
        server = subprocess.Popen(server.args, env=prod, cwd=ROOT)
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "/static/bench/same-size.html", timeout=2).read()
                break
            except OSError:
                time.sleep(0.2)

        rows = []
        static_result = wrk(url + "/static/bench/same-size.html", args.seconds)
        for label, page, headers in PAGES:
            urllib.request.urlopen(url + page).read()  # warm the cache
            rows.append((label, wrk(url + page, args.seconds, headers)))
        print(f"\n{'page':<34}{'req/s':>10}{'ratio':>8}{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}")
        print(
            f"{'static file (' + str(size) + ' B)':<34}{static_result['rps']:>10.0f}{1:>8.2f}"
            f"{static_result['p50']:>9.2f}{static_result['p99']:>9.2f}"
            f"{static_result['errors']:>9}"
        )
        for page, r in rows:
            print(
                f"{page:<34}{r['rps']:>10.0f}{r['rps'] / static_result['rps']:>8.2f}"
                f"{r['p50']:>9.2f}{r['p99']:>9.2f}{r['errors']:>9}"
            )
        worst = min(r["rps"] for _, r in rows) / static_result["rps"]
        print(f"\nworst ratio {worst:.2f} (target >= 0.50): {'met' if worst >= 0.5 else 'NOT met'}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
