"""Accounts by invitation (issue 13, item 5): TK invites club officials (/tk/inbjudan/), a
club official invites captains (/klubb/inbjudan/), and the invitee sets a password at the
mailed link (/konto/inbjudan/<token>/). Thin views around ``portal.services.invitations``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import clock
from clubs.models import UBF_DISTRICT_CODE, Club, Invitation
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from portal.accounts import (
    AcceptInvitationForm,
    CaptainInvitationForm,
    OfficialInvitationForm,
    errors_to_form,
)
from portal.services import invitations


def _sent(request, invitation: Invitation) -> None:
    messages.success(
        request,
        _("Inbjudan är skickad till %(email)s. Länken gäller till %(date)s.")
        % {"email": invitation.email, "date": f"{invitation.expires_at:%Y-%m-%d}"},
    )


def _invite_page(request, *, form, role, clubs, template, listed, url_name):
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            invitation = invitations.invite(
                request.user,
                email=data["email"],
                role=role,
                club=data["club"],
                club_role=data.get("club_role", ""),
                player_mid=data.get("player_mid", ""),
                site_url=request.build_absolute_uri("/"),
                language=get_language() or "sv",
            )
        except ServiceError as exc:
            errors = errors_to_form(form, exc)
        else:
            _sent(request, invitation)
            return redirect(url_name)
    return render(
        request,
        template,
        {"form": form, "errors": errors, "invitations": listed, "now_value": clock.now()},
        status=400 if errors or form.errors else 200,
    )


@login_required
def tk_invite(request):
    """TK invites a club official of a UBF club."""
    if not is_tk(request.user):
        raise PermissionDenied
    clubs = Club.objects.filter(district__code=UBF_DISTRICT_CODE).order_by("name")
    listed = Invitation.objects.filter(role=Invitation.Role.CLUB_OFFICIAL).select_related(
        "club", "invited_by"
    )[:30]
    return _invite_page(
        request,
        form=OfficialInvitationForm(request.POST or None, clubs=clubs),
        role=Invitation.Role.CLUB_OFFICIAL,
        clubs=clubs,
        template="portal/invite_official.html",
        listed=listed,
        url_name="portal:tk_invite",
    )


@login_required
def club_invite(request):
    """A club official (or TK) invites a captain for the club."""
    own = Q(officials__user=request.user)
    if is_tk(request.user):
        own |= Q(district__code=UBF_DISTRICT_CODE)
    clubs = list(Club.objects.filter(own).distinct().order_by("name"))
    if not clubs:
        raise PermissionDenied
    listed = Invitation.objects.filter(role=Invitation.Role.CAPTAIN, club__in=clubs).select_related(
        "club", "player", "invited_by"
    )[:30]
    club_qs = Club.objects.filter(pk__in=[c.pk for c in clubs]).order_by("name")
    return _invite_page(
        request,
        form=CaptainInvitationForm(request.POST or None, clubs=club_qs),
        role=Invitation.Role.CAPTAIN,
        clubs=club_qs,
        template="portal/invite_captain.html",
        listed=listed,
        url_name="portal:club_invite",
    )


def accept_invitation(request, token: str):
    """The invitee's page: a form for username and password while the link is open; a clear
    page (410, or 404 for a link that never was) once it is used or expired."""
    found = invitations.find(token)
    if found.state != "open":
        return render(
            request,
            "portal/invitation_closed.html",
            {"state": found.state, "invitation": found.invitation},
            status=404 if found.state == "unknown" else 410,
        )
    invitation = found.invitation
    form = AcceptInvitationForm(request.POST or None, initial={"username": invitation.email})
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            user = invitations.accept(token, **form.cleaned_data)
        except ServiceError as exc:
            errors = errors_to_form(form, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Välkommen! Ditt konto är klart och du är inloggad."))
            if invitation.role == Invitation.Role.CAPTAIN:
                return redirect("teams:index")
            return redirect("portal:dashboard")
    return render(
        request,
        "portal/invitation_accept.html",
        {"form": form, "errors": errors, "invitation": invitation},
        status=400 if errors or form.errors else 200,
    )
