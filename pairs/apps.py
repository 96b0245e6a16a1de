from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PairsConfig(AppConfig):
    name = "pairs"
    verbose_name = _("DM Par")
