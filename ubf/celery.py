"""The Celery app. Without CELERY_BROKER_URL tasks run in-process (eager), see settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")

app = Celery("ubf")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="ubf.ping")
def ping(value: int) -> int:
    """A round-trip check for the worker: returns value + 1."""
    return value + 1
