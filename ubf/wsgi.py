import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ubf.settings")
application = get_wsgi_application()

# Production refuses to start without its collected static files (ubf.checks); imported after
# Django is set up.
from ubf.checks import refuse_without_static_manifest  # noqa: E402

refuse_without_static_manifest()
