"""A web worker made ready before its first request (issue 21): the phones' polls are answered
by the public pages' cache before Django resolves a URL, so a worker that only served them had
loaded neither the URLconf nor the API; the first result file pushed to it paid for all of it
(0.6-0.8 s of imports on this machine, while that worker served no phone). Called once per
process by ``ubf.wsgi``."""

from __future__ import annotations

import importlib

from ubf.celery import app

#: Imported inside functions where they are used; loaded here before the first upload.
LAZY_MODULES = ("results.services.uploads", "api.views")

#: The REST framework's classes, imported on first use.
API_SETTINGS = (
    "DEFAULT_AUTHENTICATION_CLASSES",
    "DEFAULT_PERMISSION_CLASSES",
    "DEFAULT_PARSER_CLASSES",
    "DEFAULT_RENDERER_CLASSES",
    "DEFAULT_THROTTLE_CLASSES",
    "DEFAULT_FILTER_BACKENDS",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS",
    "DEFAULT_PAGINATION_CLASS",
    "DEFAULT_METADATA_CLASS",
    "DEFAULT_VERSIONING_CLASS",
)


def warm_up() -> None:
    """Load the URLconf (every view module) with its patterns, the API's classes, the upload
    service and Celery's sending side (its result backend and producer pool: created, not
    connected, so a broker that is down costs nothing here)."""
    from django.urls import get_resolver
    from rest_framework.settings import api_settings

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 (imports every view)
    resolver._populate()
    for name in API_SETTINGS:
        getattr(api_settings, name)
    for module in LAZY_MODULES:
        importlib.import_module(module)
    app.backend  # noqa: B018
    app.amqp.producer_pool  # noqa: B018
