"""The site's own error handlers (``handler500`` in ``ubf.urls``)."""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.template import loader
from django.views import defaults

log = logging.getLogger(__name__)

#: Seconds a client is asked to wait before trying again while the database is unreachable.
RETRY_AFTER = 30


def server_error(request, template_name: str = "500.html"):
    """Django's 500 page, except when the database cannot be reached: then 503 with the page
    that says nothing was saved (Swedish first, English below; rendered without the request's
    context, which needs the database). The service's transaction was never committed.
    Under /api/ the same as problem details (``api.problems.server_error``)."""
    exc = sys.exc_info()[1]
    database_down = isinstance(exc, OperationalError | InterfaceError)
    if request.path.startswith("/api/"):  # a program reads problem details, not a page
        from api.problems import server_error as api_server_error

        if database_down:
            log.error("Database unreachable: %s", exc)
        return api_server_error(request, database_down)
    if database_down:
        log.error("Database unreachable: %s", exc)
        response = defaults.HttpResponseServerError(loader.get_template("503.html").render())
        response.status_code = 503
        response.reason_phrase = "Service Unavailable"
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return defaults.server_error(request, template_name)
