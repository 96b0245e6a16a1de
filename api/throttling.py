"""DRF throttling with the rates read from settings at each request (``REST_FRAMEWORK``'s
``DEFAULT_THROTTLE_RATES``: ``anon``, ``user``, ``token``), so a test or a deployment can
change them without reimporting DRF.

The client is ``clubs.client_ip.client_ip`` (``UBF_TRUSTED_PROXIES``), as for the login
lockout. The counts live in the shared cache (Redis); when it cannot be reached the throttles
let every request through (``clubs.cache_health``: logged once an outage), so the API keeps
answering, reads and uploads alike (issue 25)."""

from __future__ import annotations

from django.core.cache import cache as default_cache
from rest_framework import throttling
from rest_framework.settings import api_settings

from clubs import cache_health
from clubs.client_ip import client_ip

from .scopes import token_of


class _SoftCache:
    """The cache as the throttles use it (``get``, ``set``), never raising: unreachable, a
    ``get`` is an empty history and a ``set`` is dropped."""

    def get(self, key, default=None):
        if not cache_health.available():
            return default
        try:
            value = default_cache.get(key, default)
        except Exception as exc:  # redis-py's, django-redis's or the socket's errors
            cache_health.failed("API throttle", exc)
            return default
        cache_health.succeeded()
        return value

    def set(self, key, value, timeout=None):
        if not cache_health.available():
            return
        try:
            default_cache.set(key, value, timeout)
        except Exception as exc:
            cache_health.failed("API throttle", exc)


class _Soft:
    cache = _SoftCache()

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        return client_ip(request)


class AnonThrottle(_Soft, throttling.AnonRateThrottle):
    pass


class UserThrottle(_Soft, throttling.UserRateThrottle):
    """Signed-in users of the site (session); token requests have their own rate."""

    def get_cache_key(self, request, view):
        if token_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class TokenThrottle(_Soft, throttling.SimpleRateThrottle):
    """Per token: a scoring program pushing results."""

    scope = "token"

    def get_cache_key(self, request, view):
        token = token_of(request)
        if token is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
