"""TK's use cases around API tokens: create one (the key is returned once), revoke one.
Both are TK decisions, recorded in the decision log (R-GEN-3)."""

from __future__ import annotations

from django.db import transaction

from clubs import clock
from clubs.locks import lock_own_row
from clubs.permissions import is_tk
from clubs.services.base import record_decision, refuse, require
from ubf.rules.i18n import gettext_noop

from .models import ApiToken, hash_key, new_key


@transaction.atomic
def create_token(user, *, owner, name: str, club=None, heat=None, final_of=None):
    """A new token acting as ``owner`` within one scope: a club's heats, one heat, or the
    final of one competition. Returns ``(token, key)``; only the key's hash is stored, so the
    key is shown to TK this once."""
    require(is_tk(user), gettext_noop("Bara TK skapar API-nycklar."))
    if sum(x is not None for x in (club, heat, final_of)) != 1:
        raise refuse(
            "",
            gettext_noop(
                "En API-nyckel gäller en sak: en klubbs heat, ett heat eller en tävlings final."
            ),
        )
    if not (name or "").strip():
        raise refuse("", gettext_noop("Ge API-nyckeln ett namn."))
    key = new_key()
    token = ApiToken.objects.create(
        name=name.strip()[:100],
        key_hash=hash_key(key),
        key_prefix=key[:12],
        owner=owner,
        club=club,
        heat=heat,
        final_of=final_of,
        created_by=user,
    )
    record_decision(
        "api.token.created",
        token,
        user=user,
        reason=f"{token.name}: {owner}",
        owner=owner.pk,
        club=getattr(club, "pk", None),
        heat=getattr(heat, "pk", None),
        final_of=getattr(final_of, "pk", None),
    )
    return token, key


@transaction.atomic
def revoke_token(user, token: ApiToken, *, reason: str = "") -> ApiToken:
    """Revoke a token at once: it authenticates nothing any more. Revoking twice changes
    nothing."""
    require(is_tk(user), gettext_noop("Bara TK återkallar API-nycklar."))
    token = lock_own_row(ApiToken.objects.all(), token.pk)
    if token.revoked_at is not None:
        return token
    token.revoked_at = clock.now()
    token.save(update_fields=["revoked_at"])
    record_decision("api.token.revoked", token, user=user, reason=reason or token.name)
    return token
