"""A club's heat page (/klubb/parkval/<id>/, /klubb/lagkval/<id>/): what the arranging club
does with a heat it has registered. Before the registration deadline it moves or cancels the
heat itself; after it the page offers the change request to UBF TK instead (R-PAIR-KVAL-2). A
pairs heat records its invitation (R-PAIR-KVAL-3). The entries are listed, each with its
withdrawal (pairs: ``pairs.services.entries.withdraw_pair``, R-PAIR-KVAL-6; teams:
``teams.services.entries.withdraw_team``, R-TEAM-REPL-1).

Thin: one POST names its ``action``; the service decides permission and every rule. A refusal
shows every reason with its clause next to the form it came from (status 400), keeps what was
typed and saves nothing; a success redirects back with the outcome as a message."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs import clock
from clubs.models import HeatChangeRequest
from clubs.permissions import can_manage_pair_heat, can_manage_team_heat, is_tk
from clubs.services.base import ServiceError
from clubs.services.heats import ACTIVE
from pairs.models import PairEntry, PairHeat, ReserveNotice
from pairs.services import heats as pair_heats
from pairs.services.entries import notify_reserve, withdraw_pair
from portal.forms import (
    CancelHeatForm,
    HeatChangeRequestForm,
    InvitationForm,
    MoveHeatForm,
    ReserveNoticeForm,
    WithdrawForm,
)
from portal.views.club import _denied, _lang
from teams.models import Team, TeamHeat
from teams.services import heats as team_heats
from teams.services.entries import withdraw_team
from ubf.rules.heats import change_needs_tk_approval


@dataclass(frozen=True)
class _Kind:
    word: str
    model: type
    can_manage: Callable
    move: Callable
    cancel: Callable
    request_change: Callable


KINDS = {
    "parkval": _Kind(
        "parkval",
        PairHeat,
        can_manage_pair_heat,
        pair_heats.move_pair_heat,
        pair_heats.cancel_pair_heat,
        pair_heats.request_heat_change,
    ),
    "lagkval": _Kind(
        "lagkval",
        TeamHeat,
        can_manage_team_heat,
        team_heats.move_team_heat,
        team_heats.cancel_team_heat,
        team_heats.request_heat_change,
    ),
}


def _after_deadline(heat) -> bool:
    deadline = heat.competition.heat_registration_deadline
    return deadline is not None and change_needs_tk_approval(clock.today(), deadline)


def _reserves(kind: _Kind, heat) -> dict:
    """R-PAIR-RES-1: the reserves notified for each pair of the heat, by entry id."""
    if kind.word != "parkval":
        return {}
    out: dict = {}
    for n in (
        ReserveNotice.objects.filter(entry__heat=heat)
        .select_related("replaced_player", "reserve")
        .order_by("session", "pk")
    ):
        out.setdefault(n.entry_id, []).append(n)
    return out


def _entries(kind: _Kind, heat):
    if kind.word == "parkval":
        entries = list(PairEntry.objects.filter(heat=heat).select_related("player1", "player2"))
        reserves = _reserves(kind, heat)
        for e in entries:
            e.notified_reserves = reserves.get(e.pk, [])
        return entries
    return list(heat.teams.select_related("captain").order_by("number", "name"))


def _do(request, kind: _Kind, heat, action: str, forms: dict):
    """Run ``action`` with its bound form; the success message, or raise ServiceError."""
    user = request.user
    form = forms[action]
    if not form.is_valid():
        raise _Invalid
    d = form.cleaned_data
    if action == "move":
        kind.move(user, heat, first_date=d["first_date"], last_date=d["last_date"])
        heat.refresh_from_db()
        dates = [heat.first_date] + (
            [heat.last_date] if heat.last_date and heat.last_date != heat.first_date else []
        )
        return _("Heatet är flyttat: %(dates)s.") % {
            "dates": " – ".join(d.isoformat() for d in dates)
        }
    if action == "cancel":
        kind.cancel(user, heat, reason=d["reason"])
        return _("Heatet %(name)s är inställt.") % {"name": heat.name}
    if action == "request":
        kind.request_change(
            user,
            heat,
            d["kind"],
            new_first_date=d["new_first_date"],
            new_second_date=d["new_second_date"],
            reason=d["reason"],
        )
        return _("Ändringsbegäran är skickad till UBF TK, som godkänner eller avslår den.")
    if action == "invitation":
        pair_heats.record_invitation(
            user,
            heat,
            sent_on=d["sent_on"],
            url=d["url"],
            file=d["file"],
            last_registration_day=d["last_registration_day"],
            pair_limit=d["pair_limit"],
        )
        return _("Inbjudan är registrerad.")
    if action == "withdraw":
        if kind.word == "parkval":
            entry = get_object_or_404(PairEntry, pk=request.POST.get("entry"), heat=heat)
            withdraw_pair(user, entry, reason=d["reason"])
            return _("Paret %(pair)s är återtaget.") % {"pair": entry}
        team = get_object_or_404(Team, pk=request.POST.get("entry"), heat=heat)
        withdraw_team(user, team, reason=d["reason"])
        return _("Laget %(team)s är återtaget.") % {"team": team.name}
    if action == "reserve":
        # R-PAIR-RES-1: the pair starts with a reserve, notified before the session.
        entry = get_object_or_404(PairEntry, pk=request.POST.get("entry"), heat=heat)
        out = notify_reserve(
            user,
            entry,
            session=d["session"],
            replaced_mid=d["replaced_mid"],
            reserve_mid=d["reserve_mid"],
        )
        return _("Reserven %(reserve)s är anmäld för %(replaced)s i speltillfälle %(session)s.") % {
            "reserve": out.notice.reserve.mid,
            "replaced": out.notice.replaced_player.mid,
            "session": out.notice.session,
        }
    raise Http404(action)


class _Invalid(Exception):
    """A form's own errors (shown next to its fields)."""


@login_required
def heat_page(request, kind_word: str, heat_id: int):
    kind = KINDS.get(kind_word)
    if kind is None:
        raise Http404(kind_word)
    heat = get_object_or_404(kind.model.objects.select_related("competition__season"), pk=heat_id)
    if not kind.can_manage(request.user, heat):
        return _denied(request)
    post = request.POST if request.method == "POST" else None
    action = request.POST.get("action", "") if post is not None else ""

    def bound(name, form_class):
        if action == name:
            return form_class(post, request.FILES or None, prefix=name)
        return form_class(prefix=name)

    forms = {
        "move": bound("move", MoveHeatForm),
        "cancel": bound("cancel", CancelHeatForm),
        "request": bound("request", HeatChangeRequestForm),
        "invitation": bound("invitation", InvitationForm),
        "withdraw": bound("withdraw", WithdrawForm),
        "reserve": bound("reserve", ReserveNoticeForm),
    }
    errors: list[str] = []
    failed = ""
    if post is not None:
        if action not in forms or (action in ("invitation", "reserve") and kind.word != "parkval"):
            # Only a hand-made request names another action: refused, nothing saved.
            return HttpResponseBadRequest(_("Okänd åtgärd: inget har sparats."))
        try:
            done = _do(request, kind, heat, action, forms)
        except PermissionDenied as exc:
            return _denied(request, exc)
        except _Invalid:
            failed = action
        except ServiceError as exc:
            failed = action
            errors = exc.messages(_lang())
        else:
            messages.success(request, done)
            return redirect(request.path)
        heat.refresh_from_db()
    requests = list(heat.change_requests.order_by("-pk")[:5])
    return render(
        request,
        "portal/club_heat.html",
        {
            "kind": kind.word,
            "heat": heat,
            "forms": forms,
            "errors": errors,
            "failed": failed,
            "failed_entry": request.POST.get("entry", "")
            if failed in ("withdraw", "reserve")
            else "",
            "after_deadline": _after_deadline(heat),
            "deadline": heat.competition.heat_registration_deadline,
            "is_active": heat.status in ACTIVE,
            "entries": _entries(kind, heat),
            "requests": requests,
            "open_request": any(r.status == HeatChangeRequest.Status.REQUESTED for r in requests),
            "is_tk": is_tk(request.user),
        },
        status=400 if failed else 200,
    )
