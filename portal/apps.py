from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PortalConfig(AppConfig):
    """What spans pairs and teams: fees, reminders, the club portal and the public pages."""

    name = "portal"
    verbose_name = _("Portal")

    def ready(self) -> None:
        from clubs.recompute import recompute_expected, recompute_finished, recompute_starting
        from portal import caching

        recompute_expected.connect(caching.reserve, dispatch_uid="portal.caching.reserve")
        recompute_starting.connect(caching.hold, dispatch_uid="portal.caching.hold")
        recompute_finished.connect(caching.warm, dispatch_uid="portal.caching.warm")
