"""A team heat with too few teams when entries closed (R-TEAM-KVAL-2): TK's page
(/tk/kvalheat/<heat>/) where each of its teams is offered a place in another heat that has not
started, TK records a team's answer when it came by phone or mail, and the heat is cancelled
once no team is left; and the captain's answer to an offer (POST
/mitt-lag/<team>/kvalplats/<offer>/, shown on the captain's page). Thin: the services
(``teams.services.heats``) check and record each step as a decision with the clause."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from teams.models import HeatPlaceOffer, Team, TeamHeat
from teams.services.heats import (
    answer_heat_offer,
    cancel_short_heat,
    heats_with_room,
    offer_other_heat,
    short_heat_problems,
)


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _errors(request, exc: ServiceError) -> None:
    for text in exc.messages(get_language() or "sv"):
        messages.error(request, text)


def _done(offer: HeatPlaceOffer, accept: bool) -> str:
    if accept:
        return _("%(team)s tackade ja och spelar nu i %(heat)s (R-TEAM-KVAL-2).") % {
            "team": offer.team,
            "heat": offer.to_heat,
        }
    return _("%(team)s tackade nej och stannar i %(heat)s (R-TEAM-KVAL-2).") % {
        "team": offer.team,
        "heat": offer.from_heat,
    }


@login_required
def short_heat_page(request, heat_id: int):
    """GET: the heat, why TK may act or not, its teams with their offers. POST ``action``:
    ``offer`` (``team``, ``to_heat``, ``reason``), ``answer`` (``offer``, ``decision`` yes or
    no, ``reason``: how the answer came) or ``cancel`` (``reason``)."""
    if not is_tk(request.user):
        return _denied(request)
    heat = get_object_or_404(TeamHeat.objects.select_related("competition__season"), pk=heat_id)
    if request.method == "POST":
        action = request.POST.get("action", "")
        reason = request.POST.get("reason", "")
        try:
            if action == "offer":
                team = get_object_or_404(Team, pk=request.POST.get("team"), heat=heat)
                to_heat = get_object_or_404(
                    TeamHeat, pk=request.POST.get("to_heat"), competition=heat.competition
                )
                offer_other_heat(request.user, team, to_heat, reason)
                done = _("%(team)s har erbjudits plats i %(heat)s (R-TEAM-KVAL-2).") % {
                    "team": team,
                    "heat": to_heat,
                }
            elif action == "answer" and request.POST.get("decision") in ("yes", "no"):
                offer = get_object_or_404(
                    HeatPlaceOffer, pk=request.POST.get("offer"), from_heat=heat
                )
                accept = request.POST["decision"] == "yes"
                answer_heat_offer(request.user, offer, accept, reason)
                done = _done(offer, accept)
            elif action == "cancel":
                cancel_short_heat(request.user, heat, reason)
                done = _("%(heat)s är inställt (R-TEAM-KVAL-2).") % {"heat": heat}
            else:
                messages.error(request, _("Okänt beslut: inget har sparats."))
                return redirect("portal:tk_short_heat", heat_id=heat.pk)
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            _errors(request, exc)
        else:
            messages.success(request, done)
        return redirect("portal:tk_short_heat", heat_id=heat.pk)
    rules = heat.competition.season.rules()
    teams = list(heat.teams.select_related("captain").order_by("number", "name"))
    offers = {}
    for offer in HeatPlaceOffer.objects.filter(from_heat=heat).select_related(
        "to_heat", "offered_by", "recorded_by"
    ):
        offers.setdefault(offer.team_id, []).append(offer)
    moved = list(
        HeatPlaceOffer.objects.filter(from_heat=heat, answer=HeatPlaceOffer.Answer.ACCEPTED)
        .select_related("team", "to_heat")
        .order_by("answered_at")
    )
    for team in teams:
        team.offers = offers.get(team.pk, [])
        team.waiting = any(o.answer == HeatPlaceOffer.Answer.PENDING for o in team.offers)
    entered = [t for t in teams if t.status == Team.Status.ENTERED]
    return render(
        request,
        "portal/tk_short_heat.html",
        {
            "heat": heat,
            "minimum": rules.heat_min_teams,
            "problems": short_heat_problems(heat),
            "teams": entered,
            "moved": moved,
            "others": heats_with_room(heat),
        },
    )


@login_required
@require_POST
def captain_heat_offer(request, team_id: int, offer_id: int):
    """The captain's yes or no to a place offered in another heat (``decision``)."""
    offer = get_object_or_404(
        HeatPlaceOffer.objects.select_related("team", "to_heat", "from_heat"),
        pk=offer_id,
        team_id=team_id,
    )
    user = request.user
    if not (is_tk(user) or offer.team.captain_user_id == user.id):
        return _denied(request)  # the service decides the same; nothing is read before it
    decision = request.POST.get("decision")
    if decision not in ("yes", "no"):
        messages.error(request, _("Svara ja eller nej: inget har sparats."))
    else:
        try:
            answer_heat_offer(
                request.user, offer, decision == "yes", request.POST.get("reason", "")
            )
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            _errors(request, exc)
        else:
            messages.success(request, _done(offer, decision == "yes"))
    return redirect(reverse("portal:captain_team", args=[team_id]) + "#annat-heat")
