"""The Celery app. Without CELERY_BROKER_URL tasks run in-process (eager), see settings."""

import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")

app = Celery("ubf")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
@worker_process_init.connect
def prepare(**kwargs) -> None:
    """The hall pages' renderer ready before the first recompute (``portal.caching.warm``)."""
    from portal.caching import prepare_warm

    prepare_warm()


@app.task(name="ubf.ping")
def ping(value: int) -> int:
    """A round-trip check for the worker: returns value + 1."""
    return value + 1
