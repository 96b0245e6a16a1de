"""System checks of the production mode (registered in ``UbfConfig.ready``; ``ubf.wsgi`` runs
them before gunicorn serves a request).

Production (DEBUG off) serves static files through whitenoise's manifest storage: without
``collectstatic`` every page that names a static file answers 500. So it refuses to start."""

from pathlib import Path

from django.conf import settings
from django.core import checks


@checks.register()
def static_manifest(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if not getattr(settings, "PRODUCTION", False):
        return []
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.is_file():
        return []
    return [
        checks.Error(
            f"De statiska filerna är inte insamlade: {manifest} saknas. Kör "
            "`manage.py collectstatic --noinput` innan webbplatsen startas.",
            hint=(
                "Production (DEBUG=false) needs the static manifest: run "
                "`manage.py collectstatic --noinput` (kör collectstatic) before starting."
            ),
            id="ubf.E001",
        )
    ]


def refuse_without_static_manifest() -> None:
    """For servers that run no system checks (gunicorn): stop with the check's message."""
    errors = static_manifest()
    if errors:
        raise SystemExit(f"{errors[0].msg}\n{errors[0].hint}")
