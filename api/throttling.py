"""DRF throttling with the rates read from settings at each request (``REST_FRAMEWORK``'s
``DEFAULT_THROTTLE_RATES``: ``anon``, ``user``, ``token``), so a test or a deployment can
change them without reimporting DRF."""

from __future__ import annotations

from rest_framework import throttling
from rest_framework.settings import api_settings

from .scopes import token_of


class _SettingsRate:
    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    pass


class UserThrottle(_SettingsRate, throttling.UserRateThrottle):
    """Signed-in users of the site (session); token requests have their own rate."""

    def get_cache_key(self, request, view):
        if token_of(request) is not None:
            return None
        return super().get_cache_key(request, view)


class TokenThrottle(_SettingsRate, throttling.SimpleRateThrottle):
    """Per token: a scoring program pushing results."""

    scope = "token"

    def get_cache_key(self, request, view):
        token = token_of(request)
        if token is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": token.pk}
