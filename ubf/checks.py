"""System checks of the production mode (registered in ``UbfConfig.ready``; ``ubf.wsgi`` runs
them before gunicorn serves a request).

Production (DEBUG off) serves static files through whitenoise's manifest storage: without
``collectstatic`` every page that names a static file would answer 500. ``check --deploy``
says so (ubf.E001), and ``ubf.wsgi`` collects them once when the manifest is missing (the
production steps of CONTRACT.md name no collectstatic), and refuses to start if it cannot.
The check is deploy-only so that ``manage.py migrate`` may run before ``collectstatic``."""

import fcntl
import logging
from pathlib import Path

from django.conf import settings
from django.core import checks


@checks.register(checks.Tags.staticfiles, deploy=True)
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


log = logging.getLogger(__name__)


def ensure_static_manifest() -> None:
    """For servers that run no system checks (gunicorn): collect the static files once when
    the manifest is missing (under a file lock, as every worker imports the application), and
    stop with the check's message when that did not give a manifest."""
    if not static_manifest():
        return
    from django.core.management import call_command

    root = Path(settings.STATIC_ROOT)
    try:
        root.mkdir(parents=True, exist_ok=True)
        with open(root / ".collectstatic.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if static_manifest():
                log.warning("Statiska filer saknas i %s: kör collectstatic", root)
                call_command("collectstatic", interactive=False, verbosity=0)
    except Exception as exc:  # any failure (unwritable root, storage error): refused below
        log.error("collectstatic misslyckades: %s", exc)
    errors = static_manifest()
    if errors:
        raise SystemExit(f"{errors[0].msg}\n{errors[0].hint}")
