"""Accounts: the throttle on password-reset mails (issue 14). Login throttling itself is
django-axes (settings ``AXES_*``); this is the small rate limit axes does not cover: at most
``UBF_PASSWORD_RESET_MAILS_PER_HOUR`` reset mails to one address in an hour, counted in the
cache. Above it the page answers exactly as before ("Titta i din e-post") and sends nothing, so
it tells no one whether the address has an account."""

from __future__ import annotations

import hashlib

from django import forms
from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from clubs import cache_health
from clubs.i18n import render_with_clause
from clubs.models import Club, ClubOfficial

_HOUR = 3600


def _key(email: str) -> str:
    digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    return f"password-reset-mails:{digest}"


def reset_mail_allowed(email: str) -> bool:
    """Count one reset mail to ``email``; False once the hour's limit is reached (the count
    starts with the first mail and lapses an hour later). With the cache unreachable the mail
    is sent, uncounted (``clubs.cache_health``, as the API's throttles): the page must work."""
    if not cache_health.available():
        return True
    key = _key(email)
    try:
        cache.add(key, 0, _HOUR)
        try:
            sent = cache.incr(key)
        except ValueError:  # the entry lapsed between add and incr
            cache.set(key, 1, _HOUR)
            sent = 1
    except Exception as exc:  # the cache server is down
        cache_health.failed("password-reset mail count", exc)
        return True
    cache_health.succeeded()
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


# ------------------------------------------------------------------------------------------
# Invitation forms (portal.views.accounts): they collect; portal.services.invitations checks.
# ------------------------------------------------------------------------------------------


class OfficialInvitationForm(forms.Form):
    """TK invites a club official: the address, the club and the role in it."""

    email = forms.EmailField(label=_("E-post"))
    club = forms.ModelChoiceField(label=_("Klubb"), queryset=Club.objects.none())
    club_role = forms.ChoiceField(
        label=_("Roll i klubben"),
        choices=ClubOfficial.Role.choices,
        initial=ClubOfficial.Role.CONTACT,
    )

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs if clubs is not None else Club.objects.none()


class CaptainInvitationForm(forms.Form):
    """A club official invites a captain: the address and the player's MID."""

    email = forms.EmailField(label=_("E-post"))
    player_mid = forms.CharField(
        label=_("Lagkaptenens MID"),
        max_length=20,
        help_text=_("Kontot kopplas till spelaren och till lagen där hen är lagkapten."),
    )
    club = forms.ModelChoiceField(label=_("Klubb"), queryset=Club.objects.none())

    def __init__(self, *args, clubs=None, **kwargs):
        super().__init__(*args, **kwargs)
        clubs = clubs if clubs is not None else Club.objects.none()
        self.fields["club"].queryset = clubs
        if len(clubs) == 1:
            self.fields["club"].initial = clubs[0].pk


class AcceptInvitationForm(forms.Form):
    """The invitee chooses a username and a password (typed twice)."""

    username = forms.CharField(label=_("Användarnamn"), max_length=150)
    password1 = forms.CharField(
        label=_("Lösenord"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Minst 8 tecken, inte bara siffror och inte ett vanligt lösenord."),
    )
    password2 = forms.CharField(
        label=_("Lösenordet igen"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


def errors_to_form(form: forms.Form, exc) -> list[str]:
    """Put a ServiceError's reasons next to their fields (``data["field"]``); the others are
    returned for the list above the form."""
    rest = []
    for v in exc.violations:
        field = v.data.get("field")
        if field in form.fields:
            form.add_error(field, render_with_clause(v))
        else:
            rest.append(render_with_clause(v))
    return rest


def csrf_failure(request, reason=""):
    """``CSRF_FAILURE_VIEW``: a form sent without its security token (an old tab, cookies
    turned off) gets the site's own 403 page in the reader's language, not Django's bare
    English "403 Forbidden"; nothing was saved."""
    return render(request, "403.html", {"csrf_failed": True}, status=403)
