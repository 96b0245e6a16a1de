"""Benchmark: every kind of public page under load, against a static file of the same size.

Builds a throwaway site (SQLite under /tmp) and serves it with gunicorn (2 workers, DEBUG off,
the public pages' cache in Redis when 127.0.0.1:6379 answers, else in files), then runs wrk on
127.0.0.1 (2 threads, 8 connections, 10 s) against each kind of public page (home, /lag/, a
team page, a match page, a team heat page, /par/, a pair heat page, the DM Par final page, a competition page /par/<id>/,
/kalender/, the ICS feed, /lag/ in English, and /lag/ and /par/ asked for with
``Accept-Encoding: gzip`` as a phone's browser does: their bytes are the compressed body), each
right after a static file of that page's size served by the same server (whitenoise). Prints
requests per second, the static file's, the ratio, and p50/p99 latency, per page and season
size. Target (issue 12): every public page at no
less than half the static file's rate.

Sizes: the demo season (loaded as `make demo` does, by default as of 5 March 2017: the team
final after round 7) and, with --national, also a national-sized one (benchmarks/recompute.py's
season: its functions build it and import every heat's file, then every competition is
recomputed, then it is served).

Run from the repository root:
    .venv/bin/python benchmarks/standings_load.py [--seconds 10] [--national [--heats 200]]
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

# Pages measured: (label, path or the pattern of a link found on the pages already fetched,
# extra wrk headers). A phone that chose English sends the language cookie back.
PAGES = [
    ("home", "/", []),
    ("/lag/", "/lag/", []),
    ("team page", r"/lag/lag/\d+/", []),
    ("match page", r"/lag/match/\d+/", []),
    ("team heat page", r"/lag/kval/\d+/", []),
    ("/par/", "/par/", []),
    ("pair heat page", r"/par/kval/\d+/", []),
    ("pair final page", r"/par/final/\d+/", []),
    ("competition page", r"/par/\d+/", []),
    ("/kalender/", "/kalender/", []),
    ("/kalender.ics", "/kalender.ics", []),
    ("/lag/ in English (cookie)", "/lag/", ["-H", "Cookie: django_language=en"]),
    # A phone's browser asks for gzip: the page is compressed once when it is stored.
    ("/lag/ gzip (Accept-Encoding)", "/lag/", ["-H", "Accept-Encoding: gzip"]),
    ("/par/ gzip (Accept-Encoding)", "/par/", ["-H", "Accept-Encoding: gzip"]),
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
    out = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, **kw)
    if out.returncode:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-4000:]}")
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


def discover(url: str) -> list[tuple[str, str, list[str], bytes]]:
    """PAGES with a real path each: a pattern is replaced by the first link matching it on the
    pages fetched before it (the first team, match, heat and final that the site links to)."""
    seen: list[str] = []
    out = []
    for label, page, headers in PAGES:
        if "\\" in page:
            found = next((m.group(0) for html in seen for m in re.finditer(page, html)), None)
            if found is None:
                sys.exit(f"no link to a {label} ({page}) on the pages before it")
            page = found
        sent = dict(h.split(": ", 1) for h in headers[1::2])
        request = urllib.request.Request(url + page, headers=sent)
        body = urllib.request.urlopen(request, timeout=30).read()  # 200, and warms the cache
        seen.append(body.decode("utf-8", "replace"))
        out.append((label, page, headers, body))
    return out


def wait_for(url: str) -> None:
    for _ in range(150):
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the server did not answer {url}")


def build_national(heats: int) -> None:
    """In a child process whose environment names the throwaway database: the national season
    of benchmarks/recompute.py (its own functions), imported and then fully recomputed."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import recompute as national  # sets Django up from this process's environment

    try:
        with national.season_clock():
            _, season, competitions, _, tc, _ = national.build_and_import(heats, national.Table())
            national.full_recompute(competitions, tc)
        national.Season.objects.filter(pk=season.pk).update(is_current=True)
    finally:
        shutil.rmtree(national.MEDIA, ignore_errors=True)


def measure_site(size: str, args, build) -> list[tuple]:
    """Build one site (``build(env)``), serve it, and wrk every page: the table's rows."""
    tmp = Path(tempfile.mkdtemp(prefix=f"ubf-load-{size}-"))
    port = free_port()
    prefix = f"ubf-bench-{os.getpid()}-{size}"  # a shared Redis: nobody else's keys, no stale
    cache = (
        f"redis://127.0.0.1:6379/3?key_prefix={prefix}"
        if redis_up()
        else f"filecache://{tmp / 'cache'}"
    )
    base = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
        "MEDIA_ROOT": str(tmp / "media"),
        "STATIC_ROOT": str(tmp / "static"),
        "CACHE_URL": cache,
        "CELERY_BROKER_URL": "",
        "DJANGO_SETTINGS_MODULE": "ubf.settings",
        "DEBUG": "true",  # building the site; the server below runs with DEBUG off
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
        what = build(base)
        run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], prod)
        print(f"{size}: site built in {time.monotonic() - t:.0f} s ({what})", flush=True)

        gunicorn = [str(Path(PY).with_name("gunicorn")), "ubf.wsgi", "-w", "2"]
        gunicorn += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"]
        server = subprocess.Popen(gunicorn, env=prod, cwd=ROOT)
        url = f"http://127.0.0.1:{port}"
        wait_for(url + "/lag/")
        pages = discover(url)
        # whitenoise serves what was collected when the server started: a static file of each
        # page's size (its body as sent: the compressed one for a gzip row) goes in before a
        # restart
        static = tmp / "static" / "bench"
        static.mkdir(parents=True, exist_ok=True)
        for _label, _page, _headers, body in pages:
            (static / f"size-{len(body)}.html").write_bytes(b"x" * len(body))
        server.terminate()
        server.wait(10)
        server = subprocess.Popen(gunicorn, env=prod, cwd=ROOT)
        wait_for(url + f"/static/bench/size-{len(pages[0][3])}.html")

        rows = []
        for label, page, headers, body in pages:
            # the page and its same-size static file back to back, so that a change in the
            # machine's load between rows does not count as the page's
            s_r = wrk(url + f"/static/bench/size-{len(body)}.html", args.seconds)
            r = wrk(url + page, args.seconds, headers)
            rows.append((size, label, page, len(body), r, r["rps"] / s_r["rps"], s_r["rps"]))
            print(
                f"  {label:<28}{r['rps']:>8.0f} req/s  static {s_r['rps']:>8.0f}"
                f"  ratio {r['rps'] / s_r['rps']:.2f}",
                flush=True,
            )
        return rows
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--date", default="2017-03-05", help="the demo's date (DEMO_DATE)")
    parser.add_argument(
        "--national", action="store_true", help="also a national-sized season (recompute.py's)"
    )
    parser.add_argument("--heats", type=int, default=200, help="its pairs heats (default 200)")
    parser.add_argument("--build-national", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build_national:
        build_national(args.heats)
        return
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: apt-get install wrk")

    def demo(env):
        run([PY, "manage.py", "migrate", "--noinput", "-v0"], env)
        run([PY, "manage.py", "load_demo"], {**env, "DEMO_DATE": args.date})
        return f"demo season as of {args.date}"

    def national(env):
        run(
            [PY, str(Path(__file__).resolve()), "--build-national", "--heats", str(args.heats)], env
        )
        return f"benchmarks/recompute.py's season, {args.heats} pairs heats, recomputed"

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_before = os.getloadavg()
    cache = "Redis" if redis_up() else "files"
    print(f"cache: {cache}; database: SQLite; gunicorn 2 workers, DEBUG off; wrk -t2 -c8")
    rows = measure_site("demo", args, demo)
    if args.national:
        rows += measure_site("national", args, national)
    load_after = os.getloadavg()

    print(f"\n{started}, load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    head = f"{'size':<10}{'page':<30}{'bytes':>9}{'req/s':>9}{'static':>9}{'ratio':>7}"
    print(head + f"{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}  path")
    for size, label, page, length, r, ratio, static_rps in rows:
        print(
            f"{size:<10}{label:<30}{length:>9}{r['rps']:>9.0f}{static_rps:>9.0f}{ratio:>7.2f}"
            f"{r['p50']:>9.2f}{r['p99']:>9.2f}{r['errors']:>9}  {page}"
        )
    pages = rows
    worst = min(pages, key=lambda row: row[5])
    print(
        f"\nworst ratio {worst[5]:.2f} ({worst[0]} {worst[1]}; target >= 0.50): "
        f"{'met' if worst[5] >= 0.5 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
