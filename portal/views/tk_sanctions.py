"""TK's sanctions page (/tk/sanktioner/, R-TEAM-RES-1..4): a VP penalty for a match in which
an unpaid player played, and a team's disqualification on one of the three grounds, each
with a reason and the clause beside it, the team and match picked from lists. Thin: the
services (teams.services.decisions.sanctions) check the facts and record the decision; the
recompute follows on commit. Lifting a penalty stays in the queue (portal.views.tk)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Season
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from portal.selectors.sanctions import sanctions_for
from teams.models import Match, Team
from teams.services.decisions import disqualify_team, impose_penalty

#: The grounds for disqualification, with the clause's text beside each (SPEC R-TEAM-RES-1..3).
GROUNDS = (
    (
        "R-TEAM-RES-1",
        gettext_lazy(
            "Obetald medlemsavgift: laget spelade med en spelare som inte betalat SBF-avgiften, "
            "och avgiften hade inte nått SBF 14 dagar efter första förseelsen."
        ),
    ),
    (
        "R-TEAM-RES-2",
        gettext_lazy(
            "Spelare i två lag: laget spelade med en spelare som tidigare under säsongen spelat "
            "för ett annat lag. Upptäcks det innan SM-semifinalplatserna är fastställda räknas "
            "laget inte i UBF:s kvot."
        ),
    ),
    (
        "R-TEAM-RES-3",
        gettext_lazy(
            "7:e eller 8:e spelare utan dispens: laget spelade med en spelare för mycket."
        ),
    ),
)

PENALTY_TEXT = gettext_lazy(
    "R-TEAM-RES-1: ett lag som spelat med en spelare utan betald SBF-avgift förlorar 5 VP för "
    "varje match där spelaren spelat en eller båda halvlekarna; avdraget görs efter omräkningen "
    "till VP och kan ge under 0 VP (R-VP-4)."
)

CONSEQUENCE_TEXT = gettext_lazy(
    "R-TEAM-RES-4: lagets resultat i etappen stryks och motståndarna vinner på W.O.; "
    "avgifterna återbetalas inte; mästarpoäng för spelade matcher ges efter de verkliga "
    "resultaten."
)


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _season_teams(season):
    return list(
        Team.objects.filter(competition__season=season)
        .exclude(status=Team.Status.WITHDRAWN)
        .select_related("heat")
        .order_by("name")
    )


def _penalty_choices(season) -> list[tuple[str, str]]:
    """One choice per (played match, one of its teams): ``"<match>:<team>"`` and its label."""
    out = []
    for m in (
        Match.objects.filter(competition__season=season, status=Match.Status.PLAYED)
        .select_related("home", "away", "heat")
        .order_by("stage", "heat__name", "round", "id")
    ):
        stage = m.heat.name if m.heat_id else m.get_stage_display()
        when = f", {m.played_on.isoformat()}" if m.played_on else ""
        label = f"{stage}, r{m.round}{when}: {m.home} – {m.away}"
        for team in (m.home, m.away):
            out.append(
                (
                    f"{m.pk}:{team.pk}",
                    _("%(match)s: avdrag för %(team)s") % {"match": label, "team": team},
                )
            )
    return out


@login_required
def sanctions_page(request):
    """GET: the two forms (``?team=<id>&clause=R-TEAM-RES-1`` preselects the disqualification,
    as the queue's unpaid-member item links it) and the sanctions in force."""
    if not is_tk(request.user):
        return _denied(request)
    season = Season.current()
    teams = _season_teams(season) if season else []
    return render(
        request,
        "portal/tk_sanctions.html",
        {
            "season": season,
            "teams": [t for t in teams if t.status != Team.Status.DISQUALIFIED],
            "choices": _penalty_choices(season) if season else [],
            "grounds": GROUNDS,
            "penalty_text": PENALTY_TEXT,
            "consequence_text": CONSEQUENCE_TEXT,
            "sanctions": sanctions_for(teams),
            "picked_team": request.GET.get("team", ""),
            "picked_clause": request.GET.get("clause", ""),
            "picked_match": request.GET.get("pick", ""),
        },
    )


def _back(anchor: str):
    return redirect(f"{reverse('portal:tk_sanctions')}#{anchor}")


def _run(request, anchor: str, call) -> object:
    try:
        done = call()
    except PermissionDenied:
        return _denied(request)
    except ServiceError as exc:
        for text in exc.messages(get_language() or "sv"):
            messages.error(request, text)
    else:
        messages.success(request, done)
    return _back(anchor)


@login_required
@require_POST
def impose_penalty_view(request):
    """R-TEAM-RES-1: a VP penalty for the match and team TK picked (``pick``), the regulations'
    5 VP unless ``vp`` says otherwise, with TK's reason."""
    if not is_tk(request.user):
        return _denied(request)
    match_id, _sep, team_id = request.POST.get("pick", "").partition(":")
    match = (
        Match.objects.select_related("home", "away").filter(pk=match_id).first()
        if match_id.isdigit()
        else None
    )
    team = None
    if match is not None and team_id.isdigit() and int(team_id) in (match.home_id, match.away_id):
        team = match.home if int(team_id) == match.home_id else match.away
    raw_vp = request.POST.get("vp", "").strip().replace(",", ".")
    try:
        vp = Decimal(raw_vp) if raw_vp else None
    except InvalidOperation:
        vp = False
    if team is None or vp is False:
        messages.error(
            request,
            _("Välj en match och ett lag, och ange avdraget som ett tal: inget har sparats."),
        )
        return _back("avdrag")

    def call() -> str:
        penalty = impose_penalty(
            request.user, team, match, vp=vp, reason=request.POST.get("reason", "")
        )
        return _("Avdrag beslutat: %(team)s −%(vp)s VP i matchen %(match)s (R-TEAM-RES-1).") % {
            "team": team,
            "vp": penalty.vp,
            "match": match,
        }

    return _run(request, "avdrag", call)


@login_required
@require_POST
def disqualify_view(request):
    """R-TEAM-RES-1..3 → R-TEAM-RES-4: the team TK picked, on the ground picked, with TK's
    reason; the service checks the facts (the 14 days, the line-ups, the dispensations)."""
    if not is_tk(request.user):
        return _denied(request)
    pk = request.POST.get("team", "")
    team = Team.objects.filter(pk=pk).first() if pk.isdigit() else None
    clause = request.POST.get("clause", "")
    if team is None or clause not in dict(GROUNDS):
        messages.error(
            request, _("Välj ett lag och en grund för diskvalificering: inget har sparats.")
        )
        return _back("diskvalificera")

    def call() -> str:
        disqualify_team(request.user, team, clause=clause, reason=request.POST.get("reason", ""))
        return _(
            "%(team)s är diskvalificerat enligt %(clause)s: resultaten stryks och motståndarna "
            "vinner på W.O. (R-TEAM-RES-4)."
        ) % {"team": team, "clause": clause}

    return _run(request, "diskvalificera", call)
