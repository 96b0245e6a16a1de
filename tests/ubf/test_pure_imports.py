"""The rulebook and the result formats import without Django or Celery (DESIGN's bottom layer,
CONTRACT's "no Django imports"), in a clean interpreter; and the Celery app is still where the
worker command ``celery -A ubf worker`` (CONTRACT) looks for it, with the recompute task."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = sorted(p.stem for p in (ROOT / "ubf" / "rules").glob("*.py") if p.stem != "__init__")
FORBIDDEN = ("django", "celery", "kombu", "rest_framework")


def run(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def loaded_after(modules: list[str]) -> set[str]:
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"print(' '.join(k for k in sys.modules if k.split('.')[0] in {FORBIDDEN!r}))"
    )
    return set(run(code).split())


def test_the_rulebook_imports_without_django_or_celery():
    assert len(RULES) > 10  # the probe sees the modules
    assert loaded_after([f"ubf.rules.{name}" for name in RULES]) == set()


def test_the_result_formats_import_without_django_or_celery():
    assert loaded_after(["results.importers"]) == set()


def test_the_probe_sees_a_django_import():
    assert "django" in loaded_after(["django.db"])


def test_the_worker_command_finds_the_app_and_the_recompute_task():
    # what `celery -A ubf worker` does: find_app("ubf"), then the worker imports the task
    # modules (the Django fix-up sets Django up, autodiscovery imports each app's tasks.py)
    code = (
        "from celery.app.utils import find_app\n"
        "app = find_app('ubf')\n"
        "app.loader.import_default_modules()\n"
        "app.autodiscover_tasks(force=True)\n"
        "print(app.main, 'results.tasks.recompute_competition' in app.tasks,"
        " 'portal.tasks.send_due_reminders' in app.tasks)"
    )
    assert run(code) == "ubf True True"


def test_shared_tasks_bind_to_the_project_app_inside_django():
    # Django started as gunicorn or manage.py start it (no import of ubf.celery by hand)
    code = (
        "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'ubf.settings')\n"
        "import django; django.setup()\n"
        "from results.tasks import recompute_competition\n"
        "print(recompute_competition.app.main)"
    )
    assert run(code) == "ubf"
