from django.apps import AppConfig


class UbfConfig(AppConfig):
    name = "ubf"
    verbose_name = "UBF DM"

    def ready(self) -> None:
        from ubf import (
            celery,  # noqa: F401  (the Celery app: @shared_task binds to it)
            checks,  # noqa: F401  (registers the production checks)
        )
