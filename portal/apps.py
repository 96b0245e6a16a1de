from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PortalConfig(AppConfig):
    """What spans pairs and teams: fees, reminders, the club portal and the public pages."""

    name = "portal"
    verbose_name = _("Portal")

    def ready(self) -> None:
        from celery.signals import worker_process_init, worker_ready

        from clubs.recompute import recompute_expected, recompute_finished, recompute_starting
        from portal import caching

        # the hall pages' renderer ready before a Celery worker's first recompute
        worker_ready.connect(caching.prepare_warm, dispatch_uid="portal.caching.prepare_warm")
        worker_process_init.connect(caching.prepare_warm, dispatch_uid="portal.caching.prepare")

        recompute_expected.connect(caching.reserve, dispatch_uid="portal.caching.reserve")
        recompute_starting.connect(caching.hold, dispatch_uid="portal.caching.hold")
        recompute_finished.connect(caching.warm, dispatch_uid="portal.caching.warm")
