from django.apps import AppConfig


class UbfConfig(AppConfig):
    name = "ubf"
    verbose_name = "UBF DM"

    def ready(self) -> None:
        from ubf import checks  # noqa: F401  (registers the production checks)
