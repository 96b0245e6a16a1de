"""A web worker is ready before its first request (``ubf.warmup``, issue 21): the phones' polls
are answered by the public pages' cache before Django resolves a URL, so a worker that had only
served them had loaded neither the URLconf nor the API, and the first result file pushed to it
paid for the imports (0.6-0.8 s here, while that worker served no phone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What a pushed round needs that Django's set-up alone does not load.
NEEDED = [
    "ubf.urls",
    "api.views",
    "api.authentication",
    "api.throttling",
    "rest_framework.parsers",
    "results.services.uploads",
]


def _loaded(code: str) -> list[str]:
    probe = f"import sys; {code}; print(' '.join(m for m in {NEEDED!r} if m in sys.modules))"
    env = {**os.environ, "DEBUG": "true", "DJANGO_SETTINGS_MODULE": "ubf.settings"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_wsgi_application_loads_what_a_pushed_file_needs_before_any_request():
    assert _loaded("import django; django.setup()") == []  # Django alone loads none of it
    assert _loaded("import ubf.wsgi") == NEEDED
