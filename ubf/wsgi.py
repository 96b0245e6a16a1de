import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
django_application = get_wsgi_application()

# A fresh cached public page is answered before Django's handler (issue 21).
from ubf.middleware import PageCacheFront  # noqa: E402

application = PageCacheFront(django_application)

# Production needs its collected static files (ubf.checks): collected once if missing, else it
# refuses to start. Imported after Django is set up.
from ubf.checks import ensure_static_manifest  # noqa: E402

ensure_static_manifest()

# Ready before the first request: the URLconf, the API and the importers (ubf.warmup).
from ubf.warmup import warm_up  # noqa: E402

warm_up()
