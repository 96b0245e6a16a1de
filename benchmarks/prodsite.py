"""What the fault scripts of issue 25 share (benchmarks/api_redis_down.py, xff_bypass.py):
the site in production mode (DEBUG off, gunicorn with two workers) on PostgreSQL and a Redis
of its own that the script starts and stops, and a Celery worker and beat when asked.

Defaults (each an environment variable): ``DATABASE_URL``
postgres://postgres@127.0.0.1:5432/ubf_apifaults, ``FAULT_REDIS_PORT`` 6391 (a redis-server
this script starts: ``--save "" --appendonly no``), Redis DB 2 on it, the site on
``FAULT_PORT`` 8211. The database and that Redis are EMPTIED: use throwaway ones.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ubf_apifaults")
REDIS_PORT = int(os.environ.get("FAULT_REDIS_PORT", "6391"))
REDIS_URL = f"redis://127.0.0.1:{REDIS_PORT}/2"
PORT = int(os.environ.get("FAULT_PORT", "8211"))
BASE = f"http://127.0.0.1:{PORT}"
WORK = Path(tempfile.mkdtemp(prefix="ubf-faults-"))


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())} UTC] {text}", flush=True)


def production_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DEMO_DATE", "CACHE_URL"}}
    env.update(
        DEBUG="false",
        SECRET_KEY="fault-benchmark-" + "k" * 40 + "-not-a-real-secret",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=DATABASE_URL,
        CELERY_BROKER_URL=REDIS_URL,
        STATIC_ROOT=str(ROOT / "var" / "staticfiles"),
        DJANGO_SETTINGS_MODULE="ubf.settings",
        LOG_LEVEL="INFO",
    )
    env.update({k: str(v) for k, v in extra.items()})
    return env


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def redis_start() -> None:
    if not shutil.which("redis-server"):
        sys.exit("needs redis-server (apt-get install redis-server)")
    if not port_open(REDIS_PORT):
        subprocess.run(
            ["redis-server", "--port", str(REDIS_PORT), "--save", "", "--appendonly", "no"]
            + ["--daemonize", "yes"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    for _ in range(50):
        if port_open(REDIS_PORT):
            return
        time.sleep(0.1)
    sys.exit(f"redis-server did not start on {REDIS_PORT}")


def redis_stop() -> None:
    subprocess.run(
        ["redis-cli", "-p", str(REDIS_PORT), "shutdown", "nosave"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(50):
        if not port_open(REDIS_PORT):
            return
        time.sleep(0.1)


def setup_django(*, prepare: bool = True):
    """Django in this process (DEBUG on, the same database and broker) for the fixtures."""
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["CELERY_BROKER_URL"] = REDIS_URL
    os.environ["DEBUG"] = "true"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    if prepare:
        prepare_database()


def prepare_database() -> None:
    """This benchmark's database migrated and EMPTIED."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("flush", interactive=False, verbosity=0)


def start(name: str, cmd: list[str], env: dict) -> subprocess.Popen:
    out = open(WORK / f"{name}.log", "w")  # noqa: SIM115  (kept open for the process)
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def gunicorn(env: dict) -> subprocess.Popen:
    proc = start(
        "gunicorn",
        [PY, "-m", "gunicorn", "ubf.wsgi", "-w", "2", "-b", f"127.0.0.1:{PORT}", "--timeout", "60"],
        env,
    )
    for _ in range(600):
        if port_open(PORT):
            return proc
        if proc.poll() is not None:
            sys.exit("gunicorn stopped: " + (WORK / "gunicorn.log").read_text()[-2000:])
        time.sleep(0.1)
    sys.exit("gunicorn did not start")


def celery(kind: str, env: dict) -> subprocess.Popen:
    if kind == "worker":
        cmd = [PY, "-m", "celery", "-A", "ubf", "worker", "-P", "solo", "-l", "INFO"]
        cmd += ["--without-gossip", "--without-mingle"]
    else:
        cmd = [PY, "-m", "celery", "-A", "ubf", "beat", "-l", "INFO"]
        cmd += ["-s", str(WORK / "beat-schedule")]
    return start(f"celery-{kind}", cmd, env)


def stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        if proc is not None and proc.poll() is None:
            proc.terminate()
    for proc in procs:
        if proc is None:
            continue
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def request(path: str, *, data: bytes | None = None, headers: dict | None = None):
    """(status, content type, body, seconds) of one request to the site."""
    req = urllib.request.Request(BASE + path, data=data, headers=headers or {})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            body = resp.read()
            return (
                resp.status,
                resp.headers.get("Content-Type", ""),
                body,
                time.monotonic() - started,
            )
    except urllib.error.HTTPError as err:
        body = err.read()
        return err.code, err.headers.get("Content-Type", ""), body, time.monotonic() - started


def multipart(fields: dict, files: dict) -> tuple[bytes, str]:
    boundary = "ubf-fault-boundary-7q"
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    for name, (filename, content) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts.append(head.encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def log_lines(name: str, needle: str) -> int:
    path = WORK / f"{name}.log"
    return path.read_text(errors="replace").count(needle) if path.exists() else 0
