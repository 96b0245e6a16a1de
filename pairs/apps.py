from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairsConfig(AppConfig):
    name = "pairs"
    verbose_name = _("DM Par")

    def ready(self) -> None:
        from clubs.services.seats import seat_given_up
        from pairs.services.entries import on_seat_given_up

        seat_given_up.connect(on_seat_given_up, dispatch_uid="pairs.direct_qualifier")
