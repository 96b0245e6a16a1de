"""The SM Lag semifinal venues (R-TEAM-SEMI-1): TK's page in the hall (/tk/sm-semifinal/),
where the teams' answers are recorded in turn and corrected with a reason; SBF's venues and
UBF's number of places (/tk/sm-semifinal/orter/); the list for SBF
(/tk/sm-semifinal/lista.csv, .xlsx); and the captain's own answer when the team's turn comes
(POST /mitt-lag/<team>/sm-semifinal/, shown on the captain's page). Thin: the services
(``results.services.semifinal``, ``teams.services.semifinal``) check and record."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.i18n import render as render_message
from clubs.models import Season
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from portal.forms import SemifinalPlacesForm, SemifinalVenueFormSet
from results.services.semifinal import (
    correct_semifinal_choice,
    record_semifinal_choice,
    semifinal_board,
    semifinal_list_csv,
    semifinal_list_xlsx,
)
from teams.models import SemifinalChoice, SemifinalVenue, Team, TeamCompetition
from teams.services.semifinal import VenueRow, save_semifinal_venues

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _competition() -> TeamCompetition:
    season = Season.current()
    competition = (
        TeamCompetition.objects.select_related("season").filter(season=season).first()
        if season
        else None
    )
    if competition is None:
        raise Http404(_("Ingen DM Lag denna säsong."))
    return competition


def _venue(board, value: str) -> SemifinalVenue | None:
    """The venue picked in a form (one of the board's), or None."""
    return next((v for v in board.venues if str(v.pk) == value), None)


def _errors(request, exc: ServiceError, prefix: str = "") -> None:
    for text in exc.messages(get_language() or "sv"):
        messages.error(request, f"{prefix}{text}")


@login_required
def semifinal_page(request):
    """GET: the choosing in turn. POST ``action``: ``choose`` (``team``, ``venue``),
    ``decline`` (``team``, ``reason``) or ``correct`` (``choice``, ``venue`` or "decline",
    ``reason``)."""
    if not is_tk(request.user):
        return _denied(request)
    competition = _competition()
    if request.method == "POST":
        board = semifinal_board(competition)
        action = request.POST.get("action", "")
        reason = request.POST.get("reason", "")
        try:
            if action in ("choose", "decline"):
                team = get_object_or_404(Team, pk=request.POST.get("team"), competition=competition)
                venue = _venue(board, request.POST.get("venue", ""))
                record_semifinal_choice(
                    request.user, team, venue=venue, decline=action == "decline", reason=reason
                )
                done = (
                    _("%(team)s tackade nej till sin plats (R-TEAM-SEMI-1).") % {"team": team}
                    if action == "decline"
                    else _("%(team)s valde %(venue)s (R-TEAM-SEMI-1).")
                    % {"team": team, "venue": venue}
                )
            elif action == "correct":
                choice = get_object_or_404(
                    SemifinalChoice, pk=request.POST.get("choice"), competition=competition
                )
                picked = request.POST.get("venue", "")
                correct_semifinal_choice(
                    request.user,
                    choice,
                    venue=_venue(board, picked),
                    decline=picked == "decline",
                    reason=reason,
                )
                choice.refresh_from_db()
                done = _("Rättat: %(choice)s.") % {"choice": choice}
            else:
                messages.error(request, _("Okänt beslut: inget har sparats."))
                return redirect("portal:tk_semifinal")
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            _errors(request, exc)
        else:
            messages.success(request, done)
        return redirect(reverse("portal:tk_semifinal") + "#val")
    board = semifinal_board(competition, with_teams=True)
    return render(request, "portal/tk_semifinal.html", {"competition": competition, "board": board})


def _venue_rows(formset) -> list[VenueRow]:
    rows = []
    for form in formset.forms:
        data = form.cleaned_data
        rows.append(
            VenueRow(
                pk=data.get("pk"),
                name=data.get("name") or "",
                first_date=data.get("first_date"),
                last_date=data.get("last_date"),
                places=data.get("places"),
                delete=bool(data.get("delete")),
            )
        )
    return rows


@login_required
def venues_page(request):
    """SBF's venues and UBF's places: a formset (a card per venue, two empty ones to add),
    saved all at once through ``save_semifinal_venues`` with TK's reason."""
    if not is_tk(request.user):
        return _denied(request)
    competition = _competition()
    venues = list(SemifinalVenue.objects.filter(competition=competition))
    initial = [
        {
            "pk": v.pk,
            "name": v.name,
            "first_date": v.first_date,
            "last_date": v.last_date,
            "places": v.places,
        }
        for v in venues
    ]
    if request.method == "POST":
        formset = SemifinalVenueFormSet(request.POST, initial=initial)
        form = SemifinalPlacesForm(request.POST)
        if formset.is_valid() and form.is_valid():
            try:
                changes = save_semifinal_venues(
                    request.user,
                    competition,
                    _venue_rows(formset),
                    places=form.cleaned_data["places"],
                    reason=form.cleaned_data["reason"],
                )
            except PermissionDenied:
                return _denied(request)
            except ServiceError as exc:
                _errors(request, exc)
            else:
                if changes:
                    messages.success(
                        request,
                        _("Sparat: %(changes)s.")
                        % {"changes": "; ".join(render_message(c) for c in changes)},
                    )
                else:
                    messages.info(request, _("Inget ändrades."))
                return redirect("portal:tk_semifinal_venues")
        status = 400
    else:
        formset = SemifinalVenueFormSet(initial=initial)
        form = SemifinalPlacesForm(initial={"places": competition.sm_semifinal_places})
        status = 200
    return render(
        request,
        "portal/tk_semifinal_venues.html",
        {"competition": competition, "formset": formset, "form": form},
        status=status,
    )


@require_safe
@login_required
def semifinal_list(request, fmt: str):
    """The list TK reports to SBF (R-TEAM-SEMI-1): one row per player, in choosing order."""
    if not is_tk(request.user):
        return _denied(request)
    competition = _competition()
    board = semifinal_board(competition, with_teams=True)
    if fmt == "csv":
        response = HttpResponse(semifinal_list_csv(board), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(semifinal_list_xlsx(board), content_type=XLSX_TYPE)
    name = slugify(f"sm-semifinal-{competition.season.name}")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


@login_required
@require_POST
def captain_semifinal(request, team_id: int):
    """The captain's own answer when the team's turn comes (``venue``, or ``decline`` with a
    ``reason``); the service refuses anyone but TK and the team's captain."""
    team = get_object_or_404(Team.objects.select_related("competition"), pk=team_id)
    board = semifinal_board(team.competition)
    decline = request.POST.get("action") == "decline"
    venue = _venue(board, request.POST.get("venue", ""))
    try:
        record_semifinal_choice(
            request.user, team, venue=venue, decline=decline, reason=request.POST.get("reason", "")
        )
    except PermissionDenied:
        return _denied(request)
    except ServiceError as exc:
        _errors(request, exc)
    else:
        messages.success(
            request,
            _("Laget har tackat nej till sin plats i SM-semifinalen.")
            if decline
            else _("Laget har valt %(venue)s som SM-semifinalort.") % {"venue": venue},
        )
    return redirect(reverse("portal:captain_team", args=[team.pk]) + "#sm-semifinal")
