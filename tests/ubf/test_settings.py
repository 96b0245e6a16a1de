"""The settings modes: embedded default, PostgreSQL, eager vs real Celery, production."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import requires_postgres

ROOT = Path(__file__).resolve().parents[2]


def run_python(code: str, **env) -> subprocess.CompletedProcess:
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
    }
    base.update(env)
    base["DJANGO_SETTINGS_MODULE"] = "ubf.settings"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True
    )


SHOW = (
    "import django; django.setup(); from django.conf import settings as s; "
    "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG, "
    "s.LANGUAGE_CODE, s.TIME_ZONE, s.EMAIL_BACKEND)"
)


def test_no_variables_means_production_which_refuses_to_start_without_its_secrets():
    # fails safe: DEBUG defaults to off, and production needs SECRET_KEY and ALLOWED_HOSTS
    out = run_python(SHOW)
    assert out.returncode != 0
    assert "SECRET_KEY" in out.stderr


def test_debug_true_means_sqlite_eager_console_mail_swedish():
    out = run_python(SHOW, DEBUG="true")
    assert out.returncode == 0, out.stderr
    engine, eager, debug, lang, tz, mail = out.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert eager == "True"
    assert debug == "True"
    assert (lang, tz) == ("sv", "Europe/Stockholm")
    assert mail.endswith("console.EmailBackend")


def test_database_url_selects_postgresql_and_broker_disables_eager():
    out = run_python(
        SHOW,
        DEBUG="true",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ubf",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
    )
    assert out.returncode == 0, out.stderr
    engine, eager, *_ = out.stdout.split()
    assert engine == "django.db.backends.postgresql"
    assert eager == "False"


def test_production_refuses_to_start_without_secret_key():
    out = run_python(SHOW, DEBUG="false", ALLOWED_HOSTS="dm.example.se")
    assert out.returncode != 0
    assert "SECRET_KEY" in out.stderr


def test_production_check_deploy_has_no_warnings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(
        DEBUG="false",
        SECRET_KEY="x" * 20 + "-prod-secret-key-with-enough-entropy-" + "7q!Zr#9kLm2@",
        ALLOWED_HOSTS="dm.upplandsbridge.se",
        STATIC_ROOT=str(tmp_path / "static"),
    )
    # the production steps: collectstatic first (without its manifest the check fails)
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert collected.returncode == 0, collected.stderr
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


@requires_postgres
def test_suite_runs_on_postgresql_when_database_url_says_so():
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@pytest.mark.django_db
def test_current_database_answers():
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("select 1")
        assert cur.fetchone()[0] == 1
