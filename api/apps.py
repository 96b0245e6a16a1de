from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    """The REST API under /api/v1/ (issue 14): thin views over the pages' selectors and
    services, tokens for scoring programs, idempotent writes, problem details."""

    name = "api"
    verbose_name = _("API")

    def ready(self) -> None:
        from api import schema  # noqa: F401  (registers the token scheme)
