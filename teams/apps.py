from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("DM Lag")

    def ready(self) -> None:
        from clubs.services.season import season_configured
        from clubs.services.seats import seat_taken
        from teams.services.decisions.walkovers import on_season_configured
        from teams.services.entries import on_seat_taken

        season_configured.connect(on_season_configured, dispatch_uid="teams.walkovers")
        seat_taken.connect(on_seat_taken, dispatch_uid="teams.final_matches")
