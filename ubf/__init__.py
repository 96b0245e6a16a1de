"""UBF district championships: the Django project package.

Nothing is imported here, so that the rulebook (``ubf.rules``) imports without Django or
Celery. The Celery app lives in ``ubf.celery``: the worker command ``celery -A ubf worker``
finds it there (Celery looks for ``ubf.app``, ``ubf.celery``, then the submodule
``ubf.celery``'s ``app``), and inside Django ``ubf.apps.UbfConfig.ready`` imports it, so that
``@shared_task`` binds to it when Django starts (what Celery's "First steps with Django" does
from the project's ``__init__``).
"""
