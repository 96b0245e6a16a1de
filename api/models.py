"""The API's own rows: the tokens scoring programs authenticate with, and the stored answers
of idempotent writes."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs import clock
from clubs.models import Club, Competition, Heat

#: What a token's key starts with: a reader (and a secret scanner) knows what it is.
KEY_PREFIX = "ubf_"


def hash_key(key: str) -> str:
    """The stored form of a token's key: its SHA-256 (the key itself is shown once)."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


class ApiToken(models.Model):
    """A token for a scoring program, created and revoked by TK. It acts as its ``owner`` (the
    services check the owner's permissions, as on the pages) and only within its scope: the
    heats of one club, one heat, or the final of one competition. Only the key's hash is
    stored; the key is shown once, when TK creates it."""

    name = models.CharField(_("namn"), max_length=100, help_text=_("t.ex. Ruter i Enköping"))
    key_hash = models.CharField(_("nyckel (SHA-256)"), max_length=64, unique=True, editable=False)
    #: The first characters of the key, so TK can tell tokens apart.
    key_prefix = models.CharField(_("nyckelns början"), max_length=12, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("ägare"),
    )
    club = models.ForeignKey(
        Club,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("klubbens heat"),
    )
    heat = models.ForeignKey(
        Heat,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("heat"),
    )
    final_of = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("finalen i"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("skapad av"),
    )
    created_at = models.DateTimeField(_("skapad"), default=clock.now, editable=False)
    revoked_at = models.DateTimeField(_("återkallad"), null=True, blank=True, editable=False)
    last_used = models.DateTimeField(_("senast använd"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("API-nyckel")
        verbose_name_plural = _("API-nycklar")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(club__isnull=False, heat__isnull=True, final_of__isnull=True)
                    | Q(club__isnull=True, heat__isnull=False, final_of__isnull=True)
                    | Q(club__isnull=True, heat__isnull=True, final_of__isnull=False)
                ),
                name="api_token_one_scope",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.key_prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class IdempotentRequest(models.Model):
    """The first answer to a write that carried an ``Idempotency-Key``: a repeat of the same
    request gets this answer again and changes nothing; the same key with another request is
    refused."""

    key = models.CharField(max_length=200)
    #: Who sent it: a user (session or token owner) and the token, if any.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.ForeignKey(
        ApiToken, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=300)
    #: SHA-256 of the request's body (and content type): the same key with another body is
    #: another request.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    response = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=clock.now, editable=False)

    class Meta:
        verbose_name = _("idempotent begäran")
        verbose_name_plural = _("idempotenta begäranden")
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="one_answer_per_user_and_key")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} ({self.key})"
