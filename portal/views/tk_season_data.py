"""/tk/register/ (issue 23): TK uploads the federation's member register (or club list), sees
the preview (new, changed old → new, unchanged, missing, unknown clubs, every row's problem)
and applies it. Thin: ``clubs.services.register`` reads, compares and saves. The previewed
file waits under MEDIA_ROOT/register/ by a random name kept in TK's session, so the file
applied is the file previewed (its SHA-256 is posted back and checked)."""

from __future__ import annotations

import hashlib
import re
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.models import ReigningChampion, Season
from clubs.permissions import is_tk
from clubs.services import register as service
from clubs.services.base import ServiceError
from pairs.models import PairCompetition
from pairs.services.entries import register_direct_qualifier
from portal.forms import CompetitionDatesForm, RegisterUploadForm
from results.services.competition_dates import (
    clauses_of,
    configure_competition_dates,
    season_competitions,
)
from results.services.next_season import (
    awaiting_champions,
    create_next_season,
    plan_next_season,
)
from teams.models import TeamCompetition
from teams.services.entries import register_direct_team
from ubf.rules.register import RegisterUnreadable

SESSION_KEY = "tk_register_upload"


def _folder() -> Path:
    folder = Path(settings.MEDIA_ROOT) / "register"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _waiting(request) -> tuple[dict, bytes] | None:
    """The file previewed in this session (its record and bytes), if any."""
    record = request.session.get(SESSION_KEY)
    if not record:
        return None
    path = _folder() / record["token"]
    if not path.is_file():
        return None
    return record, path.read_bytes()


@login_required
def register_view(request):
    if not is_tk(request.user):
        return _denied(request)
    language = get_language() or "sv"
    context = {"form": RegisterUploadForm(), "preview": None, "kind": "register"}
    status = 200
    if request.method == "POST" and "apply" in request.POST:
        waiting = _waiting(request)
        if waiting is None or request.POST.get("sha256") != waiting[0]["sha256"]:
            messages.error(request, _("Filen att spara finns inte längre: ladda upp den igen."))
            return redirect("portal:tk_register")
        record, data = waiting
        try:
            if record["kind"] == "clubs":
                preview = service.apply_clubs(
                    request.user, service.read_club_file(data, record["name"])
                )
            else:
                season = Season.objects.get(pk=record["season"])
                preview = service.apply_register(
                    request.user, season, service.read_file(data, record["name"])
                )
        except PermissionDenied:
            return _denied(request)
        except (ServiceError, RegisterUnreadable, Season.DoesNotExist) as exc:
            for text in _texts(exc, language):
                messages.error(request, text)
            return redirect("portal:tk_register")
        (_folder() / record["token"]).unlink(missing_ok=True)
        del request.session[SESSION_KEY]
        messages.success(request, _("Sparat: %(summary)s.") % {"summary": preview.summary()})
        return redirect("portal:tk_register")
    if request.method == "POST":
        form = RegisterUploadForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            kind = form.cleaned_data["kind"]
            season = form.cleaned_data["season"] or Season.current()
            try:
                if kind == "clubs":
                    preview = service.preview_clubs(service.read_club_file(data, upload.name))
                else:
                    if season is None:
                        raise ServiceError(_("Ingen säsong finns."))
                    service.require_open_season(season)
                    preview = service.preview_register(season, service.read_file(data, upload.name))
            except (ServiceError, RegisterUnreadable) as exc:
                for text in _texts(exc, language):
                    form.add_error("file", text)
                status = 400
            else:
                token = secrets.token_hex(16)
                (_folder() / token).write_bytes(data)
                old = request.session.get(SESSION_KEY)
                if old:
                    (_folder() / old["token"]).unlink(missing_ok=True)
                sha = hashlib.sha256(data).hexdigest()
                request.session[SESSION_KEY] = {
                    "token": token,
                    "sha256": sha,
                    "name": upload.name[-100:],
                    "kind": kind,
                    "season": season.pk if season else None,
                }
                context.update(preview=preview, kind=kind, sha256=sha, filename=upload.name)
        else:
            status = 400
    return render(request, "portal/tk_register.html", context, status=status)


def _texts(exc, language: str) -> list[str]:
    if isinstance(exc, ServiceError):
        return exc.messages(language)
    if isinstance(exc, RegisterUnreadable):
        return [p.message_en if language.startswith("en") else p.message_sv for p in exc.problems]
    return [str(exc)]


@login_required
def next_season_view(request):
    """/tk/nasta-sasong/: the plan of the season after the current one (every copied value,
    old → new, for review), saved by ``results.services.next_season.create_next_season``; the
    champions awaiting registration are listed for the current season."""
    if not is_tk(request.user):
        return _denied(request)
    language = get_language() or "sv"
    season = Season.current()
    if season is None:
        return render(request, "portal/tk_next_season.html", {"season": None}, status=404)
    errors: list[str] = []
    status = 200
    if request.method == "POST" and request.POST.get("register_champion"):
        # R-DIRECT-1: a reigning pair registered through the existing service, which checks
        # that the pair is intact and the deadline (the listed MIDs are the champions).
        try:
            _register_champion(request.user, season, request.POST["register_champion"])
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            errors = exc.messages(language)
            status = 400
        else:
            messages.success(request, _("De regerande mästarna är anmälda."))
            return redirect("portal:tk_next_season")
    elif request.method == "POST" and "register_team_champion" in request.POST:
        # R-TEAM-DIRECT-1: the reigning DM Lag team registered through the existing service,
        # which checks two thirds of last season's roster and the deadline.
        try:
            _register_team_champion(request.user, season, request.POST)
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            errors = exc.messages(language)
            status = 400
        else:
            messages.success(request, _("De regerande mästarna är anmälda."))
            return redirect("portal:tk_next_season")
    elif request.method == "POST":
        try:
            new, plan = create_next_season(
                request.user, season, reason=request.POST.get("reason", "")
            )
        except PermissionDenied:
            return _denied(request)
        except (ServiceError, ValueError) as exc:
            errors = exc.messages(language) if isinstance(exc, ServiceError) else [str(exc)]
            status = 400
        else:
            messages.success(request, _("Sparat: %(summary)s.") % {"summary": plan.summary()})
            return redirect("portal:tk_next_season")
    plan = None
    if not season.is_finished:
        try:
            plan = plan_next_season(season)
        except ValueError as exc:
            errors.append(str(exc))
    context = {
        "season": season,
        "plan": plan,
        "errors": errors,
        "awaiting": awaiting_champions(season),
        "reason": request.POST.get("reason", ""),
        "posted": request.POST if request.method == "POST" else {},
    }
    return render(request, "portal/tk_next_season.html", context, status=status)


def _register_champion(user, season, champion_id: str):
    champion = ReigningChampion.objects.filter(
        pk=int(champion_id) if champion_id.isdigit() else 0, competition__season=season
    ).first()
    competition = (
        PairCompetition.objects.filter(pk=champion.competition_id).first() if champion else None
    )
    if competition is None or len(champion.mids) != 2:
        raise ServiceError(_("Okända regerande mästare."))
    return register_direct_qualifier(
        user, competition, champion.mids[0], champion.mids[1], champion_mids=champion.mids
    )


def _register_team_champion(user, season, post):
    """The DM Lag champions' team (R-TEAM-DIRECT-1) from the form under their line on
    /tk/nasta-sasong/: the entry's data as for any team (R-TEAM-REG-2), the players by MID
    (one a line or separated by commas), checked against last season's roster."""
    champion_id = post.get("register_team_champion", "")
    champion = ReigningChampion.objects.filter(
        pk=int(champion_id) if champion_id.isdigit() else 0, competition__season=season
    ).first()
    competition = (
        TeamCompetition.objects.filter(pk=champion.competition_id).first() if champion else None
    )
    if competition is None:
        raise ServiceError(_("Okända regerande mästare."))
    players = [m for m in re.split(r"[\s,;]+", post.get("player_mids", "")) if m]
    return register_direct_team(
        user,
        competition,
        name=post.get("name", "").strip(),
        captain_mid=post.get("captain_mid", "").strip(),
        address=post.get("address", "").strip(),
        phone=post.get("phone", "").strip(),
        email=post.get("email", "").strip(),
        player_mids=players,
        last_season_roster_mids=champion.mids,
    )


def competition_dates_form(season, data=None):
    """The form of the competitions' dates shown on /tk/sasong/ under the season's numbers."""

    return CompetitionDatesForm(season_competitions(season), data, clauses_of=clauses_of)


def save_competition_dates(request, season):
    """POST /tk/sasong/ with ``competition_dates``: the dates saved through
    ``results.services.competition_dates.configure_competition_dates``. Returns a response,
    or the bound form with its errors (to show on the page with status 400)."""

    form = competition_dates_form(season, request.POST)
    if not form.is_valid():
        return form
    try:
        changes = configure_competition_dates(
            request.user, season, form.values(), reason=form.cleaned_data["dates_reason"]
        )
    except PermissionDenied:
        return _denied(request)
    except ServiceError as exc:
        form.add_violations(exc.violations, get_language() or "sv")
        return form
    if changes:
        messages.success(
            request,
            _("Tävlingarnas datum sparade: %(changes)s.")
            % {
                "changes": "; ".join(
                    f"{competition}: "
                    + ", ".join(f"{old or '—'} → {new or '—'}" for old, new in fields.values())
                    for competition, fields in changes.items()
                )
            },
        )
    else:
        messages.info(request, _("Inget ändrades."))
    return redirect("portal:tk_season")
