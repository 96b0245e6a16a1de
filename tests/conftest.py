"""Shared fixtures. Ordinary tests run Celery tasks in-process (eager) even when a broker is
configured; tests marked ``celery_worker`` talk to the real broker and a real worker."""

import os
import shutil

import pytest
from django.conf import settings


@pytest.fixture(autouse=True)
def _media_in_tmp(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path / "media")


@pytest.fixture(autouse=True)
def _eager_celery(request):
    from ubf.celery import app

    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    # Settings come from Django with the CELERY_ namespace, so set the namespaced key.
    old = app.conf.task_always_eager
    app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    app.conf.CELERY_TASK_ALWAYS_EAGER = old


def broker_url() -> str:
    return os.environ.get("CELERY_BROKER_URL", "")


requires_broker = pytest.mark.skipif(
    not broker_url(),
    reason="needs CELERY_BROKER_URL (a real Redis broker); .ci/run sets it",
)

requires_postgres = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs DATABASE_URL=postgres://...; .ci/run sets it",
)

has_chromium = shutil.which("chromium") is not None
