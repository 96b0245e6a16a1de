"""/klubb/parfinal/<competition>/reserver/: R-PAIR-RES-2 and R-PAIR-RES-3, a pair that holds a
seat in the DM Par final plays it with a reserve. The pair's club official (an official of a
club one of its regulars represents this season) notifies it for TK's chair (R-GEN-3), or TK
does; the notice is the heat page's reserve notice (``pairs.services.entries.notify_reserve``)
for the final's one session, up to the final's day.

Thin: ``pairs.selectors.final_reserve_rows`` lists the pairs (a club official sees his clubs'
pairs, TK all), ``notify_reserve`` decides permission and every rule; a refusal lists each
reason with its clause (status 400), keeps what was typed and saves nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs import clock
from clubs.i18n import render_with_clause
from clubs.services.base import ServiceError
from pairs.models import FINAL_SESSION, PairCompetition, PairEntry
from pairs.selectors import final_reserve_rows
from pairs.services.entries import notify_reserve
from portal.forms import FinalReserveForm
from portal.views.club import _denied, _lang, club_scope


@login_required
def final_reserves_view(request, competition_id: int):
    competition = get_object_or_404(
        PairCompetition.objects.select_related("season"), pk=competition_id
    )
    user = request.user
    clubs = club_scope(user)
    if clubs == []:
        return _denied(request)
    errors: list[str] = []
    failed_entry = ""
    form = FinalReserveForm(prefix="reserve")
    if request.method == "POST":
        failed_entry = request.POST.get("entry", "")
        entry = (
            PairEntry.objects.select_related("player1", "player2")
            .filter(pk=failed_entry, competition=competition)
            .first()
            if failed_entry.isdigit()
            else None
        )
        form = FinalReserveForm(request.POST, prefix="reserve")
        if entry is None:
            errors = [_("Välj ett par som har plats i finalen (R-PAIR-RES-2).")]
        elif form.is_valid():
            try:
                out = notify_reserve(
                    user,
                    entry,
                    session=FINAL_SESSION,
                    replaced_mid=form.cleaned_data["replaced_mid"],
                    reserve_mid=form.cleaned_data["reserve_mid"],
                )
            except PermissionDenied as exc:
                return _denied(request, exc)
            except ServiceError as exc:
                errors = exc.messages(_lang())
            else:
                messages.success(
                    request,
                    _("%(reserve)s spelar DM-finalen i stället för %(replaced)s (%(pair)s).")
                    % {
                        "reserve": out.notice.reserve.full_name,
                        "replaced": out.notice.replaced_player.full_name,
                        "pair": entry,
                    },
                )
                for warning in out.warnings:
                    messages.warning(request, render_with_clause(warning))
                return redirect(request.path)
        else:
            errors = [f"{form[name].label}: {e}" for name, es in form.errors.items() for e in es]
    return render(
        request,
        "portal/club_final_reserves.html",
        {
            "competition": competition,
            "rows": final_reserve_rows(competition, club_ids=clubs),
            "errors": errors,
            "failed_entry": failed_entry,
            "form": form,
            "closed": clock.today() > competition.final_date,
        },
        status=400 if errors else 200,
    )
