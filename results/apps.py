from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResultsConfig(AppConfig):
    name = "results"
    verbose_name = _("Resultat")

    def ready(self) -> None:
        from clubs.recompute import recompute_requested
        from results.recompute import on_recompute_requested

        recompute_requested.connect(on_recompute_requested, dispatch_uid="results.recompute")
