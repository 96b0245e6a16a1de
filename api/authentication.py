"""Token authentication for scoring programs: ``Authorization: Token <key>`` (or ``Bearer``).
The request acts as the token's owner; ``request.auth`` is the :class:`ApiToken`, whose scope
the write views check (``api.scopes``)."""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from clubs import clock

from .models import ApiToken, hash_key

KEYWORDS = ("token", "bearer")
#: ``last_used`` is written at most this often per token (one UPDATE, not one per request).
TOUCH_EVERY = timedelta(minutes=1)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].decode(errors="replace").lower() not in KEYWORDS:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                _("Ange nyckeln så här: Authorization: Token <nyckel>.")
            )
        key = header[1].decode(errors="replace")
        token = (
            ApiToken.objects.select_related("owner")
            .filter(key_hash=hash_key(key), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.owner.is_active:
            raise exceptions.AuthenticationFailed(_("Okänd eller återkallad API-nyckel."))
        now = clock.now()
        if token.last_used is None or now - token.last_used > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return token.owner, token

    def authenticate_header(self, request):
        return "Token"
