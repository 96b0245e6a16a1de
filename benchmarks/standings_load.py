"""Benchmark: every public page and API read under load, against a static file of the same size;
a push of a DM Lag final round through the API while 200 connections poll /lag/final/; the
first request after that upload against a warm one.

Builds a throwaway site (SQLite under /tmp, or with ``--database postgres`` a throwaway
PostgreSQL database) and serves it as in production: gunicorn (3 workers, as docker-compose.yml, DEBUG off), the
public pages' cache in Redis (``--redis``; files when 127.0.0.1:6379 does not answer) and a
Celery worker on that Redis for the recomputes (``--recompute in-process``: in the web worker,
before the push is answered). Then:

1. **Reads**: wrk on 127.0.0.1 (2 threads, 8 connections, ``--seconds``) against each kind of
   public page (home, /lag/, a team page, a match page, a team heat page, /par/, a pair heat
   page, the DM Par final page, a competition page, /kalender/, the ICS feed, /lag/ in
   English, /lag/ and /par/ asked for with ``Accept-Encoding: gzip``: their bytes are the
   compressed body) and each public API read (lists and one object of every endpoint, the
   outlook and the calendar), each right after a static file of that answer's size served by
   the same server (whitenoise), ``--rounds`` times in turn (the median run of each).
   Requests per second, the static file's, the ratio, p50/p99.
   Target (issue 21): every one at least 0.8x the static file.
2. **A push during a poll**: the DM Lag final's next round (the demo: round 8 after round 7;
   the national season: its last round, taken back first) simulated and pushed through
   ``POST /api/v1/competitions/<id>/final-results/`` with a TK token, while ``wrk -c200``
   polls ``/lag/final/`` (``--push-seconds``, the push after 2 s), after the same poll without
   a push. Prints both polls' p99, when the recompute had stored the round (a child process
   watching the database) and when /lag/final/ said the new round, from the push's answer;
   ``--push-repeat`` times (3), each run and the median one (by its p99 with the push), as
   runs on this shared machine differ by tens of ms. Targets: p99 at most 100 ms; the new
   round within 1 s.
3. **The first request after an upload**: the next round pushed with no poll; once its
   recompute is stored, the first request of each page it changed (/lag/, a team page, home,
   /kalender/), one page at a time, against the median of 20 warm requests just before (and,
   as the first request comes after a wait, the median of 7 warm ones each after a 0.5 s
   pause), and the time until the page was rendered again. Target: at most 3x a warm one.

Sizes: the demo season (loaded as `make demo` does, by default as of 5 March 2017: the team
final after round 7) and, with --national, also a national-sized one (benchmarks/recompute.py's
season: its functions build it and import every heat's file, then every competition is
recomputed, then it is served).

Run from the repository root:
    .venv/bin/python benchmarks/standings_load.py [--seconds 10] [--national [--heats 200]]
        [--database sqlite|postgres] [--redis redis://127.0.0.1:6379/3] [--only pages,api,push]
        [--push-seconds 8] [--push-repeat 3] [--workers 3]
        [--recompute worker|in-process] [--skip-demo]
Needs wrk (Debian: `apt-get install wrk`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

# Pages measured: (label, path or the pattern of a link found on the pages already fetched,
# extra wrk headers). A phone that chose English sends the language cookie back.
PAGES = [
    ("home", "/", []),
    ("/lag/", "/lag/", []),
    ("DM Lag final (the hall)", "/lag/final/", []),
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

# API reads: (label, path with {placeholders} filled from the ids found by api_ids()).
API = [
    ("API seasons", "/api/v1/seasons/"),
    ("API competitions", "/api/v1/competitions/"),
    ("API one competition", "/api/v1/competitions/{teams}/"),
    ("API outlook", "/api/v1/competitions/{teams}/outlook/"),
    ("API heats", "/api/v1/heats/"),
    ("API heats of a competition", "/api/v1/heats/?competition={pairs}"),
    ("API one heat", "/api/v1/heats/{heat}/"),
    ("API teams", "/api/v1/teams/"),
    ("API teams in the final", "/api/v1/teams/?competition={teams}&holds_final_seat=true"),
    ("API one team", "/api/v1/teams/{team}/"),
    ("API matches", "/api/v1/matches/"),
    ("API final matches", "/api/v1/matches/?competition={teams}&stage=final"),
    ("API one match", "/api/v1/matches/{match}/"),
    ("API standings", "/api/v1/standings/"),
    ("API standings of a competition", "/api/v1/standings/?competition={pairs}"),
    ("API the final's standing", "/api/v1/standings/{final_standing}/"),
    ("API a heat's standing", "/api/v1/standings/{heat_standing}/"),
    ("API allocations", "/api/v1/allocations/"),
    ("API one allocation", "/api/v1/allocations/{allocation}/"),
    ("API pair seats", "/api/v1/final-seats/pairs/"),
    ("API one pair seat", "/api/v1/final-seats/pairs/{pair_seat}/"),
    ("API team seats", "/api/v1/final-seats/teams/"),
    ("API one team seat", "/api/v1/final-seats/teams/{team_seat}/"),
    ("API calendar", "/api/v1/calendar/"),
    ("API standings gzip", "/api/v1/standings/{final_standing}/", ["-H", "Accept-Encoding: gzip"]),
]

# Pages timed after the push (the first request against warm ones); /lag/final/ is polled.
AFTER_PUSH = ["/lag/", "{team_page}", "/", "/kalender/"]


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


def _latency(out: str, label: str) -> float:
    m = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
    if not m:
        return float("nan")
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value


def parse_wrk(out: str) -> dict:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return {
        "rps": rps,
        "p50": _latency(out, "50"),
        "p99": _latency(out, "99"),
        "errors": int(non2xx.group(1)) if non2xx else 0,
        "socket": errors.group(1).strip() if errors else "",
    }


def wrk_cmd(url: str, seconds: int, headers=None, connections: int = 8) -> list[str]:
    return ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", *(headers or []), url]


def wrk(url: str, seconds: int, headers: list[str] | None = None, connections: int = 8) -> dict:
    out = subprocess.run(
        wrk_cmd(url, seconds, headers, connections), check=True, capture_output=True, text=True
    ).stdout
    return parse_wrk(out)


def fetch(url: str, headers: dict | None = None, timeout: float = 60) -> tuple[bytes, dict, float]:
    """The body, the headers and the seconds it took."""
    request = urllib.request.Request(url, headers=headers or {})
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        body = response.read()
        took = time.perf_counter() - began
        return body, dict(response.headers), took


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
        body, _headers, _took = fetch(url + page, sent)  # 200, and warms the cache
        seen.append(body.decode("utf-8", "replace"))
        out.append((label, page, headers, body))
    return out


def api_ids(url: str) -> dict:
    """The ids the API reads are asked with: the current season's DM Lag and a DM Par
    competition, and one of each object, found through the API itself."""

    def results(path: str) -> list[dict]:
        return json.loads(fetch(url + path)[0])["results"]

    ids = {}
    competitions = results("/api/v1/competitions/?page_size=500")
    season = competitions[0]["season"]
    ids["teams"] = next(
        c["id"] for c in competitions if c["kind"] == "teams" and c["season"] == season
    )
    pairs = [c for c in competitions if c["kind"] == "pairs" and c["season"] == season]
    ids["pairs"] = pairs[-1]["id"]
    ids["heat"] = results(f"/api/v1/heats/?competition={ids['pairs']}")[0]["id"]
    ids["team"] = results(f"/api/v1/teams/?competition={ids['teams']}&holds_final_seat=true")[0][
        "id"
    ]
    ids["match"] = results(f"/api/v1/matches/?competition={ids['teams']}&stage=final")[0]["id"]
    final = results(f"/api/v1/standings/?competition={ids['teams']}&scope=team_final")
    ids["final_standing"] = final[0]["id"]
    heats = results(f"/api/v1/standings/?competition={ids['pairs']}&scope=pair_heat")
    ids["heat_standing"] = heats[0]["id"]
    ids["allocation"] = results(f"/api/v1/allocations/?competition={ids['pairs']}")[0]["id"]
    ids["pair_seat"] = results(f"/api/v1/final-seats/pairs/?competition={ids['pairs']}")[0]["id"]
    ids["team_seat"] = results(f"/api/v1/final-seats/teams/?competition={ids['teams']}")[0]["id"]
    return ids


def discover_api(url: str) -> list[tuple[str, str, list[str], bytes]]:
    ids = api_ids(url)
    out = []
    for label, path, *headers in API:
        headers = headers[0] if headers else []
        path = path.format(**ids)
        sent = dict(h.split(": ", 1) for h in headers[1::2])
        body, _headers, _took = fetch(url + path, sent)
        out.append((label, path, headers, body))
    return out


def wait_for(url: str) -> None:
    for _ in range(150):
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"the server did not answer {url}")


# --- Child processes on the site's database (DEBUG on, as when the site was built) ------------


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


# --- The push ----------------------------------------------------------------------------------


def push(url: str, job: dict) -> tuple[int, float]:
    """POST the round's file as a scoring program does; (status, seconds)."""
    boundary = "ubfbench" + str(time.monotonic_ns())
    data = Path(job["file"]).read_bytes()
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="round"\r\n\r\n{job["round"]}\r\n',
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{Path(job["file"]).name}"\r\nContent-Type: application/xml\r\n\r\n',
    ]
    body = parts[0].encode() + parts[1].encode() + data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        f"{url}/api/v1/competitions/{job['competition']}/final-results/",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Token {job['key']}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status = response.status
            response.read()
    except urllib.error.HTTPError as exc:
        status = exc.code
        print(f"  push refused: {exc.code} {exc.read()[:500]!r}", flush=True)
    return status, time.perf_counter() - began


class recomputed_after:
    """A child process on the site's database (benchmarks/push_round.py watch) that watches the
    final's stored standing until it counts the pushed round: ``seconds`` after the push's
    answer (``answered``, wall clock) that the recompute had stored it. Started before the push
    (Django takes a moment)."""

    def __init__(self, env: dict, job: dict):
        cmd = [PY, str(ROOT / "benchmarks" / "push_round.py"), "watch"]
        cmd += [str(job["competition"]), str(job["round"])]
        self.process = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "ready"
        self.seconds = None

    def join(self, answered: float) -> None:
        out = self.process.communicate(timeout=90)[0].strip()
        if out:
            self.seconds = max(0.0, float(out) - answered)


def warm_median(url: str, n: int = 20) -> float:
    return statistics.median(fetch(url)[2] for _ in range(n))


def paused_median(url: str, n: int = 7, pause: float = 0.5) -> float:
    """A warm request after ``pause`` s of nothing, as the first request after an upload comes
    after the wait for its recompute (the server's processes and this one idle meanwhile: caches
    cold, processes to wake); the median of ``n``."""
    out = []
    for _ in range(n):
        time.sleep(pause)
        out.append(fetch(url)[2])
    return statistics.median(out)


def push_phase(url: str, env: dict, tmp: Path, args, pages) -> dict:
    """The poll of /lag/final/ without a push and with one (p99, the time until the new round
    shows); then, the poll over, another round pushed and the first request of each page it
    changed, against warm ones."""

    def prepare() -> dict:
        out = run([PY, str(ROOT / "benchmarks" / "push_round.py"), "prepare", str(tmp)], env)
        return json.loads(out.strip().splitlines()[-1])

    def warm_up(paths) -> None:  # rendered since the round was taken back, and held by both
        for path in paths:
            for _ in range(4):
                fetch(url + path)
                time.sleep(0.3)

    team_page = next(p for label, p, _h, _b in pages if label == "team page")
    after = [p.format(team_page=team_page) for p in AFTER_PUSH]
    live = url + "/lag/final/"

    # the floor the server sets: the same poll of a static file of the page's size
    hall = next(len(b) for label, _p, _h, b in pages if label == "DM Lag final (the hall)")
    runs = []
    for _ in range(args.push_repeat):  # the machine's own noise: each run, and the median
        job = prepare()
        warm_up(["/lag/final/"])
        floor = wrk(url + f"/static/bench/size-{hall}.html", args.push_seconds, connections=200)
        print(f"  poll of a static file of its size (-c200): p99 {floor['p99']:.1f} ms", flush=True)
        baseline = wrk(live, args.push_seconds, connections=200)
        print(f"  poll of /lag/final/ (-c200), no push: p99 {baseline['p99']:.1f} ms", flush=True)
        poll = subprocess.Popen(
            wrk_cmd(live, args.push_seconds, connections=200), stdout=subprocess.PIPE, text=True
        )
        recomputed = recomputed_after(env, job)
        time.sleep(2)
        status, took = push(url, job)
        answered, answered_at = time.perf_counter(), time.time()
        new_round = f"Efter rond {job['round']}.".encode()
        shown = None
        while time.perf_counter() - answered < 30:
            if new_round in fetch(live)[0]:
                shown = time.perf_counter() - answered
                break
            time.sleep(0.01)
        recomputed.join(answered_at)
        during = parse_wrk(poll.communicate()[0])
        print(f"  with the push: p99 {during['p99']:.1f} ms; shown after {shown} s", flush=True)
        runs.append(
            {
                "round": job["round"],
                "status": status,
                "push_s": took,
                "floor": floor,
                "baseline": baseline,
                "during": during,
                "shown_s": shown,
                "recomputed_s": recomputed.seconds,
            }
        )
        time.sleep(2)  # the hall pages' lower-priority renders finish before the next run

    job2 = prepare()
    warm_up(after)
    warm = {path: warm_median(url + path) for path in after}
    paused = {path: paused_median(url + path) for path in after}
    recomputed2 = recomputed_after(env, job2)
    status2, took2 = push(url, job2)
    recomputed2.join(time.time())  # the upload's figures are in: the pages it changed are stale
    first, fresh = {}, {}
    for path in after:
        # the first request of the page after the upload, then until it was rendered again
        # (a hit of the new copy); one page at a time, so no render runs beside a first
        began = time.perf_counter()
        _body, headers, seconds = fetch(url + path)
        first[path] = (seconds, headers.get("X-Cache", ""))
        while time.perf_counter() - began < 30:
            _body, headers, _s = fetch(url + path)
            if headers.get("X-Cache") in ("hit", "miss"):
                fresh[path] = time.perf_counter() - began
                break
            time.sleep(0.01)
    median = sorted(runs, key=lambda r: r["during"]["p99"])[len(runs) // 2]
    return {
        **median,
        "runs": runs,
        "recomputed2_s": recomputed2.seconds,
        "round2": job2["round"],
        "status2": status2,
        "push2_s": took2,
        "first": first,
        "warm": warm,
        "paused": paused,
        "fresh": fresh,
    }


# --- One site ----------------------------------------------------------------------------------


def database_url(args, tmp: Path, size: str) -> tuple[str, callable]:
    """The site's database and how to drop it afterwards."""
    if args.database == "sqlite":
        return f"sqlite:///{tmp / 'db.sqlite3'}", lambda: None
    import psycopg

    name = f"ubf_cache_bench_{size}_{os.getpid()}"
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return f"postgres://postgres@127.0.0.1:5432/{name}", drop


def measure_site(size: str, args, build) -> tuple[list[tuple], dict | None]:
    """Build one site (``build(env)``), serve it, and measure it: the table's rows, and the
    push's figures."""
    tmp = Path(tempfile.mkdtemp(prefix=f"ubf-load-{size}-"))
    port = free_port()
    prefix = f"ubf-bench-{os.getpid()}-{size}"  # a shared Redis: nobody else's keys, no stale
    cache = f"{args.redis}?key_prefix={prefix}" if redis_up() else f"filecache://{tmp / 'cache'}"
    db, drop = database_url(args, tmp, size)
    base = {
        **os.environ,
        "DATABASE_URL": db,
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
    worker = None
    if args.recompute == "worker" and redis_up():  # as in production: a Celery worker
        prod["CELERY_BROKER_URL"] = args.redis.split("?")[0]
        celery = [str(Path(PY).with_name("celery")), "-A", "ubf", "worker", "-P", "solo"]
        celery += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING"]
    server = None
    try:
        t = time.monotonic()
        what = build(base)
        run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], prod)
        print(f"{size}: site built in {time.monotonic() - t:.0f} s ({what})", flush=True)

        gunicorn = [str(Path(PY).with_name("gunicorn")), "ubf.wsgi", "-w", str(args.workers)]
        gunicorn += ["-b", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120"]
        server = subprocess.Popen(gunicorn, env=prod, cwd=ROOT)
        url = f"http://127.0.0.1:{port}"
        wait_for(url + "/lag/")
        pages = discover(url) if "pages" in args.only or "push" in args.only else []
        reads = discover_api(url) if "api" in args.only else []
        # whitenoise serves what was collected when the server started: a static file of each
        # answer's size (its body as sent: the compressed one for a gzip row) goes in before a
        # restart
        static = tmp / "static" / "bench"
        static.mkdir(parents=True, exist_ok=True)
        for _label, _page, _headers, body in pages + reads:
            (static / f"size-{len(body)}.html").write_bytes(b"x" * len(body))
        server.terminate()
        server.wait(10)
        server = subprocess.Popen(gunicorn, env=prod, cwd=ROOT)
        if "CELERY_BROKER_URL" in prod and prod["CELERY_BROKER_URL"]:
            log = open(tmp / "celery.log", "w")  # noqa: SIM115 (closed with the worker)
            worker = subprocess.Popen(celery, env=prod, cwd=ROOT, stdout=log, stderr=log)
        wait_for(url + "/lag/")

        rows = []
        measured = (pages if "pages" in args.only else []) + reads
        for label, page, headers, body in measured:
            sent = dict(h.split(": ", 1) for h in headers[1::2])
            fetch(url + page, sent)  # the restarted worker's copy
            # the page and its same-size static file back to back, ``--rounds`` times in turn,
            # so that a change in the machine's load (shared by others) between runs does not
            # count as the page's; the median run of each
            statics, runs = [], []
            for _ in range(args.rounds):
                statics.append(wrk(url + f"/static/bench/size-{len(body)}.html", args.seconds))
                runs.append(wrk(url + page, args.seconds, headers))
            s_r = sorted(statics, key=lambda x: x["rps"])[len(statics) // 2]
            r = sorted(runs, key=lambda x: x["rps"])[len(runs) // 2]
            r["errors"] = sum(x["errors"] for x in runs)
            rows.append((size, label, page, len(body), r, r["rps"] / s_r["rps"], s_r["rps"]))
            print(
                f"  {label:<32}{len(body):>9} B{r['rps']:>8.0f} req/s  static {s_r['rps']:>8.0f}"
                f"  ratio {r['rps'] / s_r['rps']:.2f}  p99 {r['p99']:.1f} ms",
                flush=True,
            )
        pushed = push_phase(url, base, tmp, args, pages) if "push" in args.only else None
        return rows, pushed
    finally:
        for process in (server, worker):
            if process is not None:
                process.terminate()
                process.wait(20)
        drop()
        shutil.rmtree(tmp, ignore_errors=True)


def _ms(seconds: float | None) -> str:
    return "not within 60 s" if seconds is None else f"{seconds * 1000:.0f} ms"


def report_push(size: str, p: dict) -> list[str]:
    lines = []
    if len(p.get("runs", ())) > 1:
        lines.append(f"{size}: the push during the poll, {len(p['runs'])} runs:")
        for r in p["runs"]:
            shown = f"{r['shown_s'] * 1000:.0f} ms" if r["shown_s"] is not None else "not in 30 s"
            lines.append(
                f"  p99 static {r['floor']['p99']:.1f} / no push {r['baseline']['p99']:.1f} / "
                f"with the push {r['during']['p99']:.1f} ms; the round shown after {shown}, "
                f"stored after {_ms(r['recomputed_s'])}; answered in {r['push_s'] * 1000:.0f} ms"
            )
        lines.append(f"{size}: the median run (by its p99 with the push):")
    lines += [
        f"{size}: round {p['round']} pushed during the poll: {p['status']} in "
        f"{p['push_s'] * 1000:.0f} ms",
        f"  poll of /lag/final/ (wrk -c200): p99 {p['baseline']['p99']:.1f} ms without the push,"
        f" {p['during']['p99']:.1f} ms with it ({p['during']['rps']:.0f} req/s, "
        f"{p['during']['errors']} non-2xx{', ' + p['during']['socket'] if p['during']['socket'] else ''})"
        f" (target <= 100 ms: {'met' if p['during']['p99'] <= 100 else 'NOT met'}); a static "
        f"file of its size under the same poll: p99 {p['floor']['p99']:.1f} ms "
        f"({p['floor']['rps']:.0f} req/s)",
        "  the new round on /lag/final/ "
        + (
            f"{p['shown_s'] * 1000:.0f} ms after the push's answer"
            f" (target <= 1 s: {'met' if p['shown_s'] <= 1 else 'NOT met'})"
            if p["shown_s"] is not None
            else "not within 30 s"
        ),
    ]
    lines.append(f"  the recompute done {_ms(p['recomputed_s'])} after the push's answer")
    lines.append(
        f"{size}: round {p['round2']} pushed with no poll: {p['status2']} in "
        f"{p['push2_s'] * 1000:.0f} ms, the recompute done {_ms(p['recomputed2_s'])} after the "
        "answer; then, one page at a time, the first request of each page it changed:"
    )
    for path, (seconds, how) in p["first"].items():
        warm = p["warm"][path]
        paused = p["paused"][path]
        fresh = p["fresh"].get(path)
        lines.append(
            f"  first {path} {seconds * 1000:.1f} ms ({how}), warm "
            f"{warm * 1000:.1f} ms: {seconds / warm:.1f}x (target <= 3x: "
            f"{'met' if seconds <= 3 * warm else 'NOT met'}); a warm one after a 0.5 s pause "
            f"{paused * 1000:.1f} ms ({seconds / paused:.1f}x); rendered again "
            + (f"{fresh * 1000:.0f} ms after that request" if fresh is not None else "not in 30 s")
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each, in turn (median)")
    parser.add_argument("--push-seconds", type=int, default=8)
    parser.add_argument(
        "--push-repeat", type=int, default=3, help="runs of the push during the poll (median)"
    )
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn's (3: docker-compose.yml's web service)"
    )
    parser.add_argument("--date", default="2017-03-05", help="the demo's date (DEMO_DATE)")
    parser.add_argument(
        "--national", action="store_true", help="also a national-sized season (recompute.py's)"
    )
    parser.add_argument("--heats", type=int, default=200, help="its pairs heats (default 200)")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3", help="the cache's Redis")
    parser.add_argument("--only", default="pages,api,push", help="pages, api, push")
    parser.add_argument(
        "--recompute",
        choices=["worker", "in-process"],
        default="worker",
        help="a Celery worker on the Redis (as in production), or in the web worker",
    )
    parser.add_argument("--skip-demo", action="store_true", help="the national season alone")
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
    recompute = "a Celery worker" if args.recompute == "worker" and redis_up() else "in-process"
    print(
        f"cache: {cache}; database: {args.database}; gunicorn {args.workers} workers, DEBUG off; "
        f"recompute: {recompute}; wrk -t2 -c8 (reads: {args.rounds} x {args.seconds} s each, in turn with "
        "the static file, medians), -c200 (the push)"
    )
    rows, pushes = [], []
    sites = ([] if args.skip_demo else [("demo", demo)]) + (
        [("national", national)] if args.national else []
    )
    for size, build in sites:
        site_rows, pushed = measure_site(size, args, build)
        rows += site_rows
        if pushed is not None:
            pushes.append((size, pushed))
    load_after = os.getloadavg()

    print(
        f"\n{started}, {args.database}, recompute {recompute}, load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    head = f"{'size':<10}{'page':<34}{'bytes':>9}{'req/s':>9}{'static':>9}{'ratio':>7}"
    print(head + f"{'p50 ms':>9}{'p99 ms':>9}{'non-2xx':>9}  path")
    for size, label, page, length, r, ratio, static_rps in rows:
        print(
            f"{size:<10}{label:<34}{length:>9}{r['rps']:>9.0f}{static_rps:>9.0f}{ratio:>7.2f}"
            f"{r['p50']:>9.2f}{r['p99']:>9.2f}{r['errors']:>9}  {page}"
        )
    if rows:
        worst = min(rows, key=lambda row: row[5])
        below = [row for row in rows if row[5] < 0.8]
        print(
            f"\nworst ratio {worst[5]:.2f} ({worst[0]} {worst[1]}; target >= 0.80): "
            f"{'met' if worst[5] >= 0.8 else 'NOT met'}; {len(below)} of {len(rows)} below 0.80;"
            f" largest answer {max(row[3] for row in rows):,} B"
        )
    for size, pushed in pushes:
        print()
        print("\n".join(report_push(size, pushed)))


if __name__ == "__main__":
    main()
