"""Accounts by invitation (issue 13, item 5): TK invites club officials, a club official
invites captains; the invitee follows the mailed link, sets a password, and has an account
linked to the club (``clubs.ClubOfficial``) or to the player's teams (``Team.captain_user``).

One service per use case, each in one transaction: permission, every check, then the writes;
a refusal (:class:`~clubs.services.base.ServiceError`) saves nothing. Sending and accepting
are recorded in the decision log (``clubs.invitation.sent`` / ``.accepted``). The link's token
is ``secrets.token_urlsafe``; only its SHA-256 is stored, so the database alone opens nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from clubs import clock
from clubs.locks import lock_own_row
from clubs.models import Club, ClubOfficial, Invitation, Season
from clubs.permissions import can_act_for_club, is_tk
from clubs.selectors import lookup_players, normalise_mid
from clubs.services.base import error, raise_on_errors, record_decision, require
from teams.models import Team
from ubf.rules.i18n import gettext_noop

#: Invitations apply no clause of the regulations; their messages name none.
CLAUSE = ""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _email_problems(email: str) -> list:
    if not email:
        return [error(CLAUSE, gettext_noop("Ange e-postadressen."), field="email")]
    try:
        validate_email(email)
    except ValidationError:
        return [
            error(
                CLAUSE,
                gettext_noop("E-postadressen %(email)s är inte giltig."),
                params={"email": email},
                field="email",
            )
        ]
    if get_user_model().objects.filter(email__iexact=email).exists():
        return [
            error(
                CLAUSE,
                gettext_noop(
                    "Det finns redan ett konto med e-postadressen %(email)s. Den som har det "
                    "loggar in med det; TK kan koppla kontot till klubben eller laget."
                ),
                params={"email": email},
                field="email",
            )
        ]
    return []


def _valid_username(username: str) -> bool:
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError:
        return False
    return len(username) <= 150


def _open_invitation(email: str, role: str, club: Club):
    return Invitation.objects.filter(
        email__iexact=email,
        role=role,
        club=club,
        accepted_at__isnull=True,
        expires_at__gt=clock.now(),
    ).first()


@transaction.atomic
def invite(
    user,
    *,
    email: str,
    role: str,
    club: Club,
    site_url: str,
    club_role: str = ClubOfficial.Role.CONTACT,
    player_mid: str = "",
    language: str = "sv",
) -> Invitation:
    """Invite ``email`` to make an account and mail the link (in ``language``, the inviter's).

    Who: TK invites club officials (``role`` club_official, for ``club`` in ``club_role``); TK
    or an official of ``club`` invites a captain (``role`` captain, the player by MID).
    Refused (nothing saved, no mail): an invalid address, an address that already has an
    account, an open invitation to the same address for the same role and club, an unknown
    MID for a captain."""
    email = (email or "").strip()
    if role == Invitation.Role.CLUB_OFFICIAL:
        require(is_tk(user), gettext_noop("Bara TK bjuder in klubbfunktionärer till nya konton."))
    else:
        require(
            can_act_for_club(user, club.pk),
            gettext_noop("Du kan bara bjuda in lagkaptener för din egen klubb."),
        )
    problems = _email_problems(email)
    player = None
    if role == Invitation.Role.CAPTAIN:
        mid = normalise_mid(player_mid)
        if not mid:
            problems.append(
                error(CLAUSE, gettext_noop("Ange lagkaptenens MID."), field="player_mid")
            )
        else:
            found, unknown = lookup_players([mid], clause=CLAUSE)
            problems += [replace(v, data={**v.data, "field": "player_mid"}) for v in unknown]
            player = found.get(mid)
        club_role = ""
    elif club_role not in ClubOfficial.Role.values:
        problems.append(error(CLAUSE, gettext_noop("Välj en roll i klubben."), field="club_role"))
    if email and not problems and _open_invitation(email, role, club) is not None:
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "%(email)s har redan en inbjudan som ännu gäller; den behöver inte skickas "
                    "igen."
                ),
                params={"email": email},
                field="email",
            )
        )
    raise_on_errors(problems)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        email=email,
        role=role,
        club=club,
        club_role=club_role,
        player=player,
        token_hash=_hash(token),
        expires_at=clock.now() + timedelta(days=settings.UBF_INVITATION_DAYS),
        invited_by=user,
        language=language if language in {"sv", "en"} else "sv",
    )
    link = site_url.rstrip("/") + reverse("portal:accept_invitation", args=[token])
    _send(invitation, link)
    record_decision(
        "clubs.invitation.sent",
        invitation,
        user=user,
        season=Season.current(),
        email=email,
        role=role,
        club=club.name,
        club_role=club_role,
        mid=player.mid if player else "",
    )
    return invitation


def _send(invitation: Invitation, link: str) -> None:
    with translation.override(invitation.language):
        context = {"invitation": invitation, "link": link}
        subject = render_to_string("portal/email/account_invitation_subject.txt", context)
        body = render_to_string("portal/email/account_invitation.txt", context)
    EmailMessage(" ".join(subject.split()), body, to=[invitation.email]).send()


# ------------------------------------------------------------------------------------------
# Following the link
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """What a link leads to: the invitation (None for an unknown token) and whether it can
    still be used (``state``: "open", "used", "expired" or "unknown")."""

    invitation: Invitation | None
    state: str


def find(token: str) -> Found:
    invitation = (
        Invitation.objects.select_related("club", "player", "invited_by")
        .filter(token_hash=_hash(token or ""))
        .first()
    )
    if invitation is None:
        return Found(None, "unknown")
    if invitation.accepted_at is not None:
        return Found(invitation, "used")
    if invitation.expires_at <= clock.now():
        return Found(invitation, "expired")
    return Found(invitation, "open")


@transaction.atomic
def accept(token: str, *, username: str, password1: str, password2: str):
    """Make the invitee's account: ``username`` (free), a password that passes Django's
    password validators (typed twice), linked as the invitation says (a ClubOfficial of the
    club, or the captain of every team of this season whose captain is the player). Refused,
    nothing saved: an unknown, used or expired link, a taken username, a weak or mistyped
    password. Returns the new user."""
    found = find(token)
    if found.state != "open":
        raise_on_errors(
            [error(CLAUSE, gettext_noop("Länken gäller inte längre."), state=found.state)]
        )
    invitation = lock_own_row(Invitation.objects.all(), found.invitation.pk)
    if invitation.accepted_at is not None:
        raise_on_errors([error(CLAUSE, gettext_noop("Länken gäller inte längre."))])
    User = get_user_model()
    username = (username or "").strip()
    problems = []
    if not username:
        problems.append(error(CLAUSE, gettext_noop("Välj ett användarnamn."), field="username"))
    elif not _valid_username(username):
        problems.append(
            error(
                CLAUSE,
                gettext_noop(
                    "Användarnamnet får bara innehålla bokstäver, siffror och @ . + - _ "
                    "(högst 150 tecken)."
                ),
                field="username",
            )
        )
    elif User.objects.filter(username__iexact=username).exists():
        problems.append(
            error(
                CLAUSE,
                gettext_noop("Användarnamnet %(username)s är upptaget; välj ett annat."),
                params={"username": username},
                field="username",
            )
        )
    player = invitation.player
    user = User(
        username=username,
        email=invitation.email,
        first_name=player.first_name if player else "",
        last_name=player.last_name if player else "",
    )
    if password1 != password2:
        problems.append(
            error(CLAUSE, gettext_noop("De två lösenorden är inte lika."), field="password2")
        )
    else:
        try:
            validate_password(password1, user)
        except ValidationError as exc:
            for message in exc.messages:
                problems.append(
                    error(CLAUSE, "%(message)s", params={"message": message}, field="password1")
                )
    raise_on_errors(problems)
    user.set_password(password1)
    user.save()
    teams: list[str] = []
    if invitation.role == Invitation.Role.CLUB_OFFICIAL:
        ClubOfficial.objects.get_or_create(
            user=user, club=invitation.club, role=invitation.club_role or ClubOfficial.Role.CONTACT
        )
    else:
        season = Season.current()
        mine = Team.objects.filter(captain=player)
        if season is not None:
            mine = mine.filter(competition__season=season)
        teams = list(mine.values_list("name", flat=True))
        mine.update(captain_user=user)
    invitation.accepted_at = clock.now()
    invitation.user = user
    invitation.save(update_fields=["accepted_at", "user"])
    record_decision(
        "clubs.invitation.accepted",
        invitation,
        user=user,
        season=Season.current(),
        username=username,
        role=invitation.role,
        club=invitation.club.name,
        teams=teams,
    )
    return user
