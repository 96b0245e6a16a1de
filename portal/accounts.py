"""Accounts: the throttle on password-reset mails (issue 14). Login throttling itself is
django-axes (settings ``AXES_*``); this is the small rate limit axes does not cover: at most
``UBF_PASSWORD_RESET_MAILS_PER_HOUR`` reset mails to one address in an hour, counted in the
cache. Above it the page answers exactly as before ("Titta i din e-post") and sends nothing, so
it tells no one whether the address has an account."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.shortcuts import render

_HOUR = 3600


def _key(email: str) -> str:
    digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    return f"password-reset-mails:{digest}"


def reset_mail_allowed(email: str) -> bool:
    """Count one reset mail to ``email``; False once the hour's limit is reached (the count
    starts with the first mail and lapses an hour later)."""
    key = _key(email)
    cache.add(key, 0, _HOUR)
    try:
        sent = cache.incr(key)
    except ValueError:  # the entry lapsed between add and incr
        cache.set(key, 1, _HOUR)
        sent = 1
    return sent <= settings.UBF_PASSWORD_RESET_MAILS_PER_HOUR


class ThrottledPasswordResetForm(PasswordResetForm):
    """Django's reset form, sending no mail to an address that had its hour's share."""

    def get_users(self, email):
        users = list(super().get_users(email))
        if users and not reset_mail_allowed(email):
            return []
        return users


def lockout(request, original_response=None, credentials=None):
    """django-axes' answer to a locked-out login (``AXES_LOCKOUT_CALLABLE``): the site's page
    in the reader's language, status 429, saying how long the lock lasts."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/lockout.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes},
        status=429,
    )
