"""/klubb/sm-partner/<competition>/: R-PAIR-RES-4, the SM partner choice of a player who played
the DM qualifiers with several partners. The player's club official (or TK) picks one of those
partners by the end of the DM final's day; without a declaration the DM final line-up goes on.

Thin: ``pairs.services.entries.players_with_several_partners`` lists the players (a club
official sees his own clubs' players, TK all), ``declare_sm_partner`` decides permission and
every rule; a refusal shows the reasons (status 400) and saves nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs import clock
from clubs.i18n import render as render_message
from clubs.services.base import ServiceError
from pairs.models import PairCompetition
from pairs.services.entries import declare_sm_partner, players_with_several_partners
from portal.views.club import _denied, _lang, club_scope


@login_required
def sm_partner_view(request, competition_id: int):
    competition = get_object_or_404(
        PairCompetition.objects.select_related("season"), pk=competition_id
    )
    user = request.user
    clubs = club_scope(user)
    if clubs == []:
        return _denied(request)
    errors: list[str] = []
    failed_player = ""
    if request.method == "POST":
        failed_player = request.POST.get("player", "")
        try:
            decl = declare_sm_partner(
                user, competition, failed_player, request.POST.get("partner", "")
            )
        except PermissionDenied as exc:
            return _denied(request, exc)
        except ServiceError as exc:
            errors = exc.messages(_lang())
        else:
            messages.success(
                request,
                _("%(player)s spelar SM med %(partner)s.")
                % {"player": decl.player.full_name, "partner": decl.partner.full_name},
            )
            return redirect(request.path)
    rows = players_with_several_partners(competition, club_ids=clubs)
    lang = _lang()
    return render(
        request,
        "portal/club_sm_partner.html",
        {
            "competition": competition,
            "rows": [
                {
                    "player": r.player,
                    "partners": r.partners,
                    "partner": r.choice.partner,
                    "why": render_message(r.choice.text, lang),
                }
                for r in rows
            ],
            "errors": errors,
            "failed_player": failed_player,
            "closed": clock.today() > competition.final_date,
        },
        status=400 if errors else 200,
    )
