"""Lagportalen: web pages for team captains and heat responsibles (who are not staff and so
cannot use the admin). Thin views around ``teams.services.entries``: the services check
permission (PermissionDenied → 403) and every rule (ServiceError → the form again with every
reason and its clause, status 400, nothing saved); warnings come back as messages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import clock, windows
from clubs.models import HeatStatus, Player, Season
from clubs.permissions import can_manage_team, can_manage_team_heat, club_ids_of, is_tk
from clubs.services.base import ServiceError
from teams.models import (
    Dispensation,
    Lineup,
    Match,
    RosterChangeRequest,
    Team,
    TeamEntryRequest,
    TeamHeat,
)
from teams.services.change_requests import request_roster_change
from teams.services.entries import (
    enter_team,
    record_lineup,
    request_extra_player,
    team_occasions,
    update_roster,
)
from teams.services.entry_requests import (
    confirm_team_entry,
    refuse_team_entry,
    request_team_entry,
)

from .forms import (
    EnterTeamForm,
    ExtraPlayerForm,
    LineupChangeRequestForm,
    LineupForm,
    RosterChangeRequestForm,
    RosterForm,
    tk_reason_field,
)
from .selectors import team_rows
from .selectors import violation_text as _text

_CLOSED_HEAT = (HeatStatus.REJECTED, HeatStatus.CANCELLED)


def _lang() -> str:
    return get_language() or "sv"


def _show_warnings(request, warnings) -> None:
    for w in warnings:
        messages.warning(request, _text(w))


# ------------------------------------------------------------------------------------------
# The index: every team with its status, in a constant number of queries
# ------------------------------------------------------------------------------------------


def _my_teams_and_heats(user, season: Season):
    teams = Team.objects.filter(competition__season=season)
    heats = TeamHeat.objects.filter(competition__season=season).exclude(status__in=_CLOSED_HEAT)
    if not is_tk(user):
        clubs = list(club_ids_of(user))
        teams = teams.filter(
            Q(captain_user=user)
            | Q(heat__responsible_user=user)
            | Q(heat__organisers__club_id__in=clubs)
        )
        heats = heats.filter(Q(responsible_user=user) | Q(organisers__club_id__in=clubs))
    teams = Team.objects.filter(pk__in=teams.values("pk")).order_by(
        "heat__first_date", "heat__name", "number", "name"
    )
    heats = TeamHeat.objects.filter(pk__in=heats.values("pk")).order_by("first_date", "name")
    return teams, list(heats)


@login_required
def index(request):
    season = Season.current()
    rows, heats, open_heats = [], [], []
    if season is not None:
        teams, heats = _my_teams_and_heats(request.user, season)
        rows = team_rows(teams, season)
        managed = {h.pk for h in heats}
        today = clock.today()
        open_heats = [
            h
            for h in TeamHeat.objects.filter(competition__season=season)
            .exclude(status__in=_CLOSED_HEAT)
            .select_related("competition__season")
            .order_by("first_date", "name")
            if h.pk not in managed and windows.heat_windows(h)["entries"].is_open(today)
        ]
    my_requests = TeamEntryRequest.objects.filter(requested_by=request.user).select_related(
        "heat", "team"
    )
    return render(
        request,
        "teams/index.html",
        {
            "season": season,
            "rows": rows,
            "heats": heats,
            "open_heats": open_heats,
            "entry_requests": list(my_requests[:20]),
        },
    )


# ------------------------------------------------------------------------------------------
# Entering a team
# ------------------------------------------------------------------------------------------


@login_required
def enter(request, heat_id: int):
    heat = get_object_or_404(TeamHeat.objects.select_related("competition__season"), pk=heat_id)
    if not can_manage_team_heat(request.user, heat):
        return _ask_for_entry(request, heat)
    form = EnterTeamForm(request.POST or None)
    if is_tk(request.user):
        form.fields["reason"] = tk_reason_field()
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            outcome = enter_team(request.user, heat, **form.cleaned_data)
        except ServiceError as exc:
            errors = exc.messages()
        else:
            team = outcome.team
            messages.success(
                request,
                _("%(team)s är anmält till %(heat)s som lag nr %(number)s.")
                % {"team": team.name, "heat": heat.name, "number": team.number},
            )
            _show_warnings(request, outcome.warnings)
            return redirect("teams:index")
    return render(
        request,
        "teams/enter.html",
        {
            "heat": heat,
            "form": form,
            "errors": errors,
            "deadline": windows.label(windows.heat_windows(heat)["entries"]),
        },
        status=400 if errors or form.errors else 200,
    )


def _ask_for_entry(request, heat: TeamHeat):
    """R-TEAM-REG-2: a captain enters the team with the heat responsible: the same form, sent
    as a request that the heat responsible confirms (``teams.services.entry_requests``)."""
    form = EnterTeamForm(request.POST or None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            asked = request_team_entry(request.user, heat, **form.cleaned_data)
        except ServiceError as exc:
            errors = exc.messages()
        else:
            messages.success(
                request,
                _(
                    "Anmälan av %(team)s är skickad till heatansvarig för %(heat)s (%(name)s). "
                    "Du ser beskedet här under Mina lag."
                )
                % {"team": asked.name, "heat": heat.name, "name": heat.responsible_name},
            )
            return redirect("teams:index")
    return render(
        request,
        "teams/request_entry.html",
        {
            "heat": heat,
            "form": form,
            "errors": errors,
            "deadline": windows.label(windows.heat_windows(heat)["entries"]),
        },
        status=400 if errors or form.errors else 200,
    )


@login_required
def answer_entry_request(request, request_id: int):
    """The heat responsible's one click on /klubb/: confirm (the team is entered by
    ``enter_team``, every check) or refuse with a reason. Refusals are shown; nothing saved."""
    if request.method != "POST":
        return redirect("portal:dashboard")
    asked = get_object_or_404(TeamEntryRequest.objects.select_related("heat"), pk=request_id)
    if not can_manage_team_heat(request.user, asked.heat):
        raise PermissionDenied
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    try:
        if request.POST.get("action") == "refuse":
            refuse_team_entry(request.user, asked, request.POST.get("reason", ""))
            messages.success(
                request,
                _("Anmälan av %(team)s är avböjd; lagkaptenen ser ditt skäl.")
                % {"team": asked.name},
            )
        else:
            outcome = confirm_team_entry(request.user, asked)
            messages.success(
                request,
                _("%(team)s är anmält till %(heat)s som lag nr %(number)s.")
                % {
                    "team": outcome.team.name,
                    "heat": asked.heat.name,
                    "number": outcome.team.number,
                },
            )
            _show_warnings(request, outcome.warnings)
    except ServiceError as exc:
        messages.error(
            request,
            _("Anmälan av %(team)s gick inte igenom. Inget har sparats.") % {"team": asked.name},
        )
        for text in exc.messages():
            messages.error(request, text)
    return redirect(back or "portal:dashboard")


# ------------------------------------------------------------------------------------------
# Roster and extra players
# ------------------------------------------------------------------------------------------


def _asks_tk(user, window) -> bool:
    """Whether the page offers "Begär ändring hos TK" instead of the direct change: its window
    has closed and the user is not TK (who makes the change directly, with a reason)."""
    return not window.is_open(clock.today()) and not is_tk(user)


def _change_requests(team: Team, match: Match | None = None):
    """The team's change requests (those of ``match`` when given), newest first, with the
    players asked for."""
    qs = RosterChangeRequest.objects.filter(team=team)
    if match is not None:
        qs = qs.filter(match=match)
    return list(qs.select_related("match__home", "match__away").prefetch_related("players__player"))


def _asked(request) -> None:
    messages.success(
        request,
        _("Ändringen är begärd hos TK. TK:s beslut och skäl visas här på sidan."),
    )


def _team(team_id: int) -> Team:
    return get_object_or_404(
        Team.objects.select_related("heat", "competition__season", "captain"), pk=team_id
    )


@login_required
def roster(request, team_id: int):
    team = _team(team_id)
    if not can_manage_team(request.user, team):
        raise PermissionDenied
    entries = list(team.roster.select_related("player").order_by("is_extra", "id"))
    regulars = [r.player for r in entries if not r.is_extra]
    action = request.POST.get("action") if request.method == "POST" else None
    roster_form = RosterForm(
        request.POST if action == "roster" else None, players=regulars, tk=is_tk(request.user)
    )
    extra_form = ExtraPlayerForm(
        request.POST if action == "extra" else None,
        occasions=team_occasions(team),
        today=clock.today(),
    )
    window = windows.roster_window(team)
    asks_tk = _asks_tk(request.user, window)
    request_form = RosterChangeRequestForm(
        request.POST if action == "request" else None, players=regulars
    )
    errors: list[str] = []
    if action == "request" and request_form.is_valid():
        data = request_form.cleaned_data
        try:
            request_roster_change(
                request.user,
                team,
                add_mids=data["add_mids"],
                remove_mids=data["remove_mids"],
                reason=data["request_reason"],
            )
        except ServiceError as exc:
            errors = exc.messages()
        else:
            _asked(request)
            return redirect("teams:roster", team_id=team.pk)
    elif action == "roster" and roster_form.is_valid():
        try:
            outcome = update_roster(
                request.user,
                team,
                add_mids=roster_form.cleaned_data["add_mids"],
                remove_mids=roster_form.cleaned_data["remove_mids"],
                reason=roster_form.cleaned_data.get("reason", ""),
            )
        except ServiceError as exc:
            errors = exc.messages()
        else:
            messages.success(request, _("Spelartruppen är ändrad."))
            _show_warnings(request, outcome.warnings)
            return redirect("teams:roster", team_id=team.pk)
    elif action == "extra" and extra_form.is_valid():
        errors = ask_for_extra_player(request, team, extra_form)
        if not errors:
            return redirect("teams:roster", team_id=team.pk)
    extra_requests = team.dispensations.filter(kind=Dispensation.Kind.EXTRA_PLAYER).select_related(
        "player"
    )
    invalid = errors or roster_form.errors or extra_form.errors or request_form.errors
    return render(
        request,
        "teams/roster.html",
        {
            "team": team,
            "entries": entries,
            "roster_form": roster_form,
            "extra_form": extra_form,
            "request_form": request_form,
            "asks_tk": asks_tk,
            "change_requests": _change_requests(team),
            "extra_requests": extra_requests.order_by("-occasion_date", "-id"),
            "deadline": windows.label(window),
            "errors": errors,
            "action": action,
        },
        status=400 if invalid else 200,
    )


# ------------------------------------------------------------------------------------------
# Line-up of a match
# ------------------------------------------------------------------------------------------


def _unchanged(form, initial: dict) -> bool:
    """The line-up form sends what is already saved (a save that would change nothing)."""
    saved = {k: set(v) for k, v in initial.items()}
    sent = {k: set(form.cleaned_data.get(k) or ()) for k in initial}
    return any(saved.values()) and saved == sent


@login_required
def lineup(request, team_id: int, match_id: int):
    team = _team(team_id)
    match = get_object_or_404(
        Match.objects.select_related("home", "away", "heat", "competition").filter(
            Q(home=team) | Q(away=team)
        ),
        pk=match_id,
    )
    user = request.user
    if not (
        can_manage_team(user, team)
        or (match.heat is not None and can_manage_team_heat(user, match.heat))
    ):
        raise PermissionDenied
    on = match.played_on or clock.today()
    granted = Player.objects.filter(
        pk__in=Dispensation.objects.filter(
            team=team,
            kind=Dispensation.Kind.EXTRA_PLAYER,
            status=Dispensation.Status.GRANTED,
            occasion_date=on,
        ).values("player_id")
    )
    players = [r.player for r in team.roster.select_related("player").order_by("is_extra", "id")]
    players += [p for p in granted if p.pk not in {q.pk for q in players}]
    current = list(
        Lineup.objects.filter(match=match, team=team)
        .select_related("player")
        .order_by("half", "id")
    )
    initial = {
        f"half{n}": [row.player.mid for row in current if row.half == n]
        for n in range(1, match.halves + 1)
    }
    asking = request.method == "POST" and request.POST.get("action") == "request"
    form = LineupForm(
        request.POST if request.method == "POST" and not asking else None,
        players=players,
        halves=match.halves,
        initial=initial,
        tk=is_tk(user),
    )
    request_form = LineupChangeRequestForm(
        request.POST if asking else None, players=players, halves=match.halves, initial=initial
    )
    window = windows.lineup_window(match)
    errors: list[str] = []
    if asking and request_form.is_valid():
        data = request_form.cleaned_data
        try:
            request_roster_change(
                user,
                team,
                match=match,
                half1_mids=data.get("half1", []),
                half2_mids=data.get("half2", []),
                reason=data["request_reason"],
            )
        except ServiceError as exc:
            errors = exc.messages()
        else:
            _asked(request)
            return redirect("teams:lineup", team_id=team.pk, match_id=match.pk)
    elif request.method == "POST" and not asking and form.is_valid() and _unchanged(form, initial):
        messages.info(request, _("Inget har ändrats: laguppställningen var redan sparad så."))
        return redirect("teams:lineup", team_id=team.pk, match_id=match.pk)
    elif request.method == "POST" and not asking and form.is_valid():
        try:
            outcome = record_lineup(
                user,
                match,
                team,
                half1_mids=form.cleaned_data.get("half1", []),
                half2_mids=form.cleaned_data.get("half2", []),
                reason=form.cleaned_data.get("reason", ""),
            )
        except ServiceError as exc:
            errors = exc.messages()
        else:
            messages.success(request, _("Laguppställningen för matchen är sparad."))
            _show_warnings(request, outcome.warnings)
            return redirect("teams:lineup", team_id=team.pk, match_id=match.pk)
    halves = [
        (n, [row.player for row in current if row.half == n]) for n in range(1, match.halves + 1)
    ]
    opponent = match.away if match.home_id == team.pk else match.home
    return render(
        request,
        "teams/lineup.html",
        {
            "team": team,
            "match": match,
            "opponent": opponent,
            "form": form,
            "request_form": request_form,
            "asks_tk": _asks_tk(user, window),
            "change_requests": _change_requests(team, match),
            "errors": errors,
            "deadline": windows.label(window),
            "current_halves": halves,
            "has_lineup": bool(current),
        },
        status=400 if errors or form.errors or request_form.errors else 200,
    )


def ask_for_extra_player(request, team, form) -> list[str]:
    """The dispensation for a 7th/8th player asked of TK from a valid ``ExtraPlayerForm``
    (the roster page and the captain's team page): ``[]`` with the success and the service's
    warnings shown, else the service's refusals (nothing saved)."""
    data = form.cleaned_data
    try:
        dispensation = request_extra_player(
            request.user,
            team,
            data["mid"],
            occasion=form.occasions.get(data["occasion_date"], ""),
            occasion_date=data["occasion_date"],
        )
    except ServiceError as exc:
        return exc.messages()
    messages.success(
        request,
        _("Dispens för %(player)s den %(date)s är begärd hos TK.")
        % {"player": dispensation.player, "date": dispensation.occasion_date},
    )
    for line in filter(None, dispensation.reason.splitlines()):
        messages.warning(request, line)
    return []
