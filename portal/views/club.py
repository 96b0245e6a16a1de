"""The club portal (/klubb/): web pages for club officials (who are not staff) around the
existing heat and entry services. Thin views: the services decide permission and every rule;
a refusal (PermissionDenied) is a 403 page, a ServiceError re-renders the form with every
reason listed (status 400) and nothing is saved."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import clock, windows
from clubs.i18n import render_with_clause
from clubs.models import UBF_DISTRICT_CODE, Club, Season
from clubs.permissions import can_manage_pair_heat, is_tk, workplace
from clubs.selectors import player_lookup_rows, search_players
from clubs.services.base import ServiceError
from pairs.models import PairCompetition, PairEntry, PairHeat
from pairs.selectors import final_seat_holders
from pairs.services.entries import enter_direct_final_pair, enter_pair
from pairs.services.heats import invitation_problems, register_pair_heat
from portal.forms import DirectFinalPairForm, EnterPairForm, PairHeatForm, TeamHeatForm
from teams.forms import tk_reason_field
from teams.models import Team, TeamHeat, TeamHeatOrganiser
from teams.services.heats import register_team_heat


def _lang() -> str:
    return get_language() or "sv"


def _denied(request, exc: PermissionDenied | None = None):
    text = str(exc) if exc is not None and str(exc) else ""
    return render(request, "portal/denied.html", {"message": text}, status=403)


def _portal_clubs(user):
    """The clubs the user acts for; TK: every UBF club (and any club they are official of)."""
    own = Q(officials__user=user)
    if is_tk(user):
        own |= Q(district__code=UBF_DISTRICT_CODE)
    return Club.objects.filter(own).distinct().order_by("name")


def club_scope(user) -> list[int] | None:
    """Whose rows a club page lists: None for TK (every club), else the ids of the clubs the
    user is an official of; an empty list for anyone else, whom the page denies."""
    if is_tk(user):
        return None
    return list(_portal_clubs(user).values_list("pk", flat=True))


# ---------------------------------------------------------------------------------------------
# Dashboard
# ---------------------------------------------------------------------------------------------


@login_required
def dashboard(request):
    """The user's clubs and, for the current season, each club's pair and team heats with
    status, dates, invitation problems (R-PAIR-KVAL-3) and entry counts. A constant number of
    queries however many heats there are."""
    season = Season.current()
    clubs = list(_portal_clubs(request.user))
    club_ids = [c.pk for c in clubs]
    today = clock.today()
    pair_heats: list[PairHeat] = []
    team_heats: list[TeamHeat] = []
    if season is not None and club_ids:
        pair_heats = list(
            PairHeat.objects.filter(
                competition__season=season,
                pk__in=PairHeat.clubs.through.objects.filter(club_id__in=club_ids).values(
                    "pairheat_id"
                ),
            )
            .select_related("competition__season")
            .prefetch_related("clubs")
            .annotate(
                entry_count=Count(
                    "entries",
                    filter=~Q(entries__status=PairEntry.Status.WITHDRAWN),
                    distinct=True,
                )
            )
            .order_by("first_date", "name")
        )
        team_heats = list(
            TeamHeat.objects.filter(
                competition__season=season,
                pk__in=TeamHeatOrganiser.objects.filter(club_id__in=club_ids).values("heat_id"),
            )
            .select_related("competition__season")
            .prefetch_related("clubs")
            .annotate(
                team_count=Count(
                    "teams", filter=Q(teams__status=Team.Status.ENTERED), distinct=True
                )
            )
            .order_by("first_date", "name")
        )
    for heat in pair_heats:
        heat.problems = [render_with_clause(p) for p in invitation_problems(heat, today)]
    rows = []
    for club in clubs:
        rows.append(
            {
                "club": club,
                "pair_heats": [h for h in pair_heats if club in h.clubs.all()],
                "team_heats": [h for h in team_heats if club in h.clubs.all()],
            }
        )
    direct_finals = (
        list(
            PairCompetition.objects.filter(season=season, is_direct_final=True).order_by(
                "final_date"
            )
        )
        if season is not None and club_ids
        else []
    )
    return render(
        request,
        "portal/dashboard.html",
        {
            "season": season,
            "rows": rows,
            "direct_finals": direct_finals,
            # R-PAIR-RES-4: each competition's SM partner page (portal.views.club_sm_partner).
            "pair_competitions": list(
                PairCompetition.objects.filter(season=season).order_by("final_date", "pk")
            )
            if season is not None and club_ids
            else [],
            "is_tk": is_tk(request.user),
        },
    )


# ---------------------------------------------------------------------------------------------
# Registering heats
# ---------------------------------------------------------------------------------------------


def _register(request, *, form_class, template, title, call):
    """Shared flow of the two heat registrations."""
    clubs = _portal_clubs(request.user)
    if not clubs.exists():
        return _denied(
            request,
            PermissionDenied(_("Du är inte registrerad som funktionär för någon klubb.")),
        )
    season = Season.current()
    form = form_class(request.POST or None, request.FILES or None, season=season, clubs=clubs)
    if is_tk(request.user):
        form.fields["reason"] = tk_reason_field()
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            heat = call(form.cleaned_data)
        except PermissionDenied as exc:
            return _denied(request, exc)
        except ServiceError as exc:
            errors = exc.messages(_lang())
        else:
            messages.success(
                request,
                _("Kvalheatet %(name)s är anmält till UBF TK och väntar på beslut.")
                % {"name": heat.name},
            )
            return redirect("portal:dashboard")
    # The deadline that applies, per competition (clubs.windows): "... stänger 1 dec".
    deadlines = [
        (c, windows.label(windows.competition_windows(c)["heat_registration"]))
        for c in form.fields["competition"].queryset
    ]
    return render(
        request,
        template,
        {
            "form": form,
            "errors": errors,
            "title": title,
            "season": season,
            "deadlines": deadlines,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def register_pair_heat_view(request):
    """/klubb/parkval/ny/: R-PAIR-KVAL-1, -3, -5, -6 via ``register_pair_heat``."""

    def call(d):
        return register_pair_heat(
            request.user,
            d["competition"],
            list(d["clubs"]),
            name=d["name"],
            heat_type=d["heat_type"],
            first_date=d["first_date"],
            last_date=d["last_date"],
            venue=d["venue"],
            table_fee=d["table_fee"],
            invitation_url=d["invitation_url"],
            invitation_file=d["invitation_file"],
            requires_preregistration=d["requires_preregistration"],
            last_registration_day=d["last_registration_day"],
            pair_limit=d["pair_limit"],
            reason=d.get("reason", ""),
        )

    return _register(
        request,
        form_class=PairHeatForm,
        template="portal/heat_form.html",
        title=_("Anmäl kvalheat (par)"),
        call=call,
    )


@login_required
def register_team_heat_view(request):
    """/klubb/lagkval/ny/: R-TEAM-REG-1, R-TEAM-KVAL-1..5, R-TEAM-FEE-1/-2 via
    ``register_team_heat``."""

    def call(d):
        return register_team_heat(
            request.user,
            d["competition"],
            list(d["clubs"]),
            name=d["name"],
            venue=d["venue"],
            responsible_name=d["responsible_name"],
            responsible_email=d["responsible_email"],
            responsible_phone=d["responsible_phone"],
            boards_per_match=d["boards_per_match"],
            dealt_at_table=d["dealt_at_table"],
            first_date=d["first_date"],
            last_date=d["last_date"],
            entries_close=d["entries_close"],
            start_fee=d["start_fee"],
            table_fee_per_match=d["table_fee_per_match"],
            invitation_url=d["invitation_url"],
            invitation_file=d["invitation_file"],
            reason=d.get("reason", ""),
        )

    return _register(
        request,
        form_class=TeamHeatForm,
        template="portal/heat_form.html",
        title=_("Anmäl kvalheat (lag)"),
        call=call,
    )


# ---------------------------------------------------------------------------------------------
# Entering pairs
# ---------------------------------------------------------------------------------------------


@login_required
def enter_pair_view(request, heat_id: int):
    """/klubb/parkval/<id>/anmal/: a pair entered by two MIDs via ``enter_pair``; its warnings
    (out-of-district pair, struck second qualifier, ...) are shown as messages."""
    heat = get_object_or_404(PairHeat.objects.select_related("competition__season"), pk=heat_id)
    if not can_manage_pair_heat(request.user, heat):
        return _denied(request)
    form = EnterPairForm(request.POST or None)
    if is_tk(request.user):
        form.fields["reason"] = tk_reason_field()
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            outcome = enter_pair(
                request.user,
                heat,
                d["mid1"],
                d["mid2"],
                pair_number=d["pair_number"] or None,
                takes_part_in_qualifier=d["takes_part_in_qualifier"],
                reason=d.get("reason", ""),
            )
        except PermissionDenied as exc:
            return _denied(request, exc)
        except ServiceError as exc:
            errors = exc.messages(_lang())
        else:
            messages.success(
                request,
                _("Paret %(pair)s är anmält (par %(number)s).")
                % {"pair": outcome.entry, "number": outcome.entry.pair_number},
            )
            for w in outcome.warnings:
                messages.warning(request, render_with_clause(w))
            return redirect("portal:enter_pair", heat_id=heat.pk)
    entries = PairEntry.objects.filter(heat=heat).select_related("player1", "player2")
    return render(
        request,
        "portal/enter_pair.html",
        {
            "heat": heat,
            "form": form,
            "errors": errors,
            "entries": entries,
            "deadline": windows.label(windows.heat_windows(heat)["entries"]),
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def enter_direct_final_view(request, competition_id: int):
    """/klubb/direktfinal/<id>/anmal/: R-PAIR-DF-1, a pair entered straight into a direct final
    (a discipline without heats) via ``enter_direct_final_pair``, which decides who may (TK or
    an official of either player's club) and every rule; the pairs holding a seat are listed."""
    competition = get_object_or_404(
        PairCompetition.objects.select_related("season"), pk=competition_id
    )
    if not (is_tk(request.user) or _portal_clubs(request.user).exists()):
        return _denied(request)
    form = DirectFinalPairForm(request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            seat = enter_direct_final_pair(request.user, competition, d["mid1"], d["mid2"])
        except PermissionDenied as exc:
            return _denied(request, exc)
        except ServiceError as exc:
            errors = exc.messages(_lang())
        else:
            messages.success(
                request,
                _("%(p1)s – %(p2)s är anmälda till %(competition)s.")
                % {
                    "p1": seat.holder.player1.full_name,
                    "p2": seat.holder.player2.full_name,
                    "competition": competition,
                },
            )
            return redirect("portal:enter_direct_final", competition_id=competition.pk)
    if competition.is_direct_final:
        if not windows.direct_final_window(competition).is_open(clock.today()):
            deadline = _("Stängt: finalen spelades %(date)s.") % {
                "date": competition.final_date.isoformat()
            }
        else:
            deadline = _("Anmälan öppen till och med finaldagen %(date)s.") % {
                "date": competition.final_date.isoformat()
            }
    else:
        deadline = _("%(competition)s har kvalheat: paren anmäls till ett kval.") % {
            "competition": competition
        }
    return render(
        request,
        "portal/enter_direct_final.html",
        {
            "competition": competition,
            "form": form,
            "errors": errors,
            "holders": final_seat_holders(competition),
            "deadline": deadline,
        },
        status=400 if request.method == "POST" else 200,
    )


# ---------------------------------------------------------------------------------------------
# Player look-up (R-GEN-2: players are entered by MID; the look-up finds the MID)
# ---------------------------------------------------------------------------------------------


@require_safe
@login_required
def player_lookup(request):
    """/klubb/spelare/?q=: players by name (parts of first or last name, any case, å ä ö too)
    or MID (leading zeros do not count), with this season's club and whether the season's SBF
    membership is paid. For club officials, captains and TK. ``?format=json`` answers JSON,
    ``?format=options`` the ``<option>``s of a MID field's datalist (:class:`clubs.forms.MidInput`
    sends the field's own value, whatever its name); otherwise the list as an HTML fragment
    for htmx (``HX-Request``) or, without it, on a page of its own with the search box."""
    if workplace(request.user) is None:
        return _denied(request)
    fmt = request.GET.get("format", "")
    query = request.GET.get("q")
    if query is None:
        query = next((v for k, v in request.GET.items() if k not in ("format", "lang")), "")
    season = Season.current()
    rows = player_lookup_rows(season, search_players(query))
    if fmt == "json":
        return JsonResponse({"query": query, "players": rows})
    if fmt == "options":
        template = "clubs/player_options.html"
    elif request.headers.get("HX-Request"):
        template = "portal/_player_lookup.html"
    else:
        template = "portal/player_lookup.html"
    return render(request, template, {"players": rows, "query": query})
