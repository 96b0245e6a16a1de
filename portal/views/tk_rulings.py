"""/tk/domslut/ and /tk/protester/ (issue 22): rulings and appeals (R-RULING-1..3) and
protests (R-TEAM-RES-5) on TK's own pages. TK records the tournament director's ruling for a
match or a board, takes the appeal to the jury (drawn by lot from the teams not involved),
records the jury's decision, the appeal to SBF's Lagkommission and its final decision, and,
where a decision changes the score, the adjusted IMPs (the standings are recomputed). A
protest against an illegal player is filed with its last day. Thin: every step is one service
in ``teams.services.decisions``; a refusal shows every reason and saves nothing."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs import clock
from clubs.decision_log import decision_log
from clubs.models import Decision, Season
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from clubs.windows import protest_window
from teams.models import Match, Ruling, Team, TeamCompetition
from teams.services import decisions

#: The steps a case can take from its stage (R-RULING-1..3).
NEXT_STEPS = {
    Ruling.Stage.RULED: ("appeal", "adjust"),
    Ruling.Stage.APPEALED: ("draw_jury", "jury"),
    Ruling.Stage.JURY: ("lagkommission", "adjust"),
    Ruling.Stage.LAGKOMMISSION: ("lagkommission_decision",),
    Ruling.Stage.FINAL: ("adjust",),
}


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


def _errors(request, exc: ServiceError) -> None:
    for text in exc.messages(get_language() or "sv"):
        messages.error(request, text)


def _matches(season):
    if season is None:
        return Match.objects.none()
    return (
        Match.objects.filter(competition__season=season)
        .select_related("home", "away", "heat")
        .order_by("stage", "heat__name", "round", "pk")
    )


@login_required
def rulings_view(request):
    """The season's rulings, open cases first, and the form for a new ruling (R-RULING-1)."""
    if not is_tk(request.user):
        return _denied(request)
    season = Season.current()
    if request.method == "POST":
        pk = request.POST.get("match", "")
        match = _matches(season).filter(pk=pk).first() if pk.isdigit() else None
        board = request.POST.get("board_number", "").strip()
        if match is None or (board and not board.isdigit()):
            messages.error(request, _("Välj en match (och ett bricknummer): inget har sparats."))
            return redirect("portal:tk_rulings")
        fields = ("td_names", "td_category", "hands", "auction", "play", "why_called", "ruling")
        try:
            ruling = decisions.record_ruling(
                request.user,
                match,
                board_number=int(board) if board else None,
                **{f: request.POST.get(f, "") for f in fields},
            )
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            _errors(request, exc)
            return redirect("portal:tk_rulings")
        messages.success(request, _("Domslutet är registrerat: %(ruling)s.") % {"ruling": ruling})
        return redirect("portal:tk_ruling", pk=ruling.pk)
    rulings = (
        Ruling.objects.filter(match__competition__season=season)
        .select_related("match__home", "match__away")
        .order_by("-recorded_at")
        if season
        else Ruling.objects.none()
    )
    open_stages = (Ruling.Stage.APPEALED, Ruling.Stage.LAGKOMMISSION)
    context = {
        "season": season,
        "open": [r for r in rulings if r.stage in open_stages],
        "decided": [r for r in rulings if r.stage not in open_stages],
        "matches": _matches(season),
        "categories": Ruling.TdCategory.choices,
    }
    return render(request, "portal/tk_rulings.html", context)


def _step(request, ruling: Ruling, step: str) -> str:
    """Run ``step`` of the case; returns the message saying what was done."""
    post = request.POST
    user = request.user
    if step == "appeal":
        decisions.appeal_to_jury(
            user,
            ruling,
            appeal_grounds=post.get("appeal_grounds", ""),
            other_side_view=post.get("other_side_view", ""),
            involved=post.get("involved", ""),
        )
        return _("Överklagandet har gått till juryn.")
    if step == "draw_jury":
        decisions.draw_jury(user, ruling, seed=post.get("seed", "").strip() or None)
        names = ", ".join(t.name for t in ruling.jury_teams.order_by("name"))
        return _("Juryn är lottad: %(teams)s.") % {"teams": names}
    if step == "jury":
        decisions.record_jury_decision(user, ruling, decision=post.get("decision", ""))
        return _("Juryns beslut är registrerat.")
    if step == "lagkommission":
        decisions.appeal_to_lagkommission(user, ruling, grounds=post.get("grounds", ""))
        return _("Juryns beslut är överklagat till SBF:s Lagkommission.")
    if step == "lagkommission_decision":
        decisions.record_lagkommission_decision(user, ruling, decision=post.get("decision", ""))
        return _("Lagkommissionens beslut är registrerat (slutgiltigt).")
    decisions.adjust_score(
        user,
        ruling,
        imps_home=post.get("imps_home", ""),
        imps_away=post.get("imps_away", ""),
        reason=post.get("reason", ""),
    )
    match = Match.objects.get(pk=ruling.match_id)
    # The figures as the page writes them (40,00 on a Swedish page, 40.00 on an English one).
    return _("Resultatet är ändrat: %(home)s–%(away)s IMP, %(vp_home)s–%(vp_away)s VP.") % {
        "home": number_format(match.imps_home, 2),
        "away": number_format(match.imps_away, 2),
        "vp_home": number_format(match.vp_home, 2),
        "vp_away": number_format(match.vp_away, 2),
    }


STEPS = frozenset(s for steps in NEXT_STEPS.values() for s in steps)


@login_required
def ruling_view(request, pk: int):
    """One case: its steps so far (date, who, clause, text) and the form of the next step."""
    if not is_tk(request.user):
        return _denied(request)
    ruling = get_object_or_404(
        Ruling.objects.select_related("match__home", "match__away", "match__heat"), pk=pk
    )
    if request.method == "POST":
        step = request.POST.get("step", "")
        if step not in STEPS:
            messages.error(request, _("Okänt steg: inget har sparats."))
        else:
            try:
                messages.success(request, _step(request, ruling, step))
            except PermissionDenied:
                return _denied(request)
            except ServiceError as exc:
                _errors(request, exc)
        return redirect(reverse("portal:tk_ruling", args=[ruling.pk]))
    board = None
    if ruling.board_number:
        board = ruling.match.board_results.filter(board_number=ruling.board_number).first()
    context = {
        "ruling": ruling,
        "match": ruling.match,
        "board": board,
        "steps": NEXT_STEPS.get(ruling.stage, ()),
        "jury": list(ruling.jury_teams.order_by("name")),
        "candidates": decisions.jury_candidates(ruling)
        if ruling.stage == Ruling.Stage.APPEALED
        else [],
        "log": list(decision_log(ruling).select_related("decided_by").order_by("decided_at")),
    }
    return render(request, "portal/tk_ruling.html", context)


#: R-TEAM-RES-5: what a protest against an illegal player concerns.
PROTEST_KINDS = ("sm_semifinal", "sm_final")


def protest_summary(season) -> dict:
    """R-TEAM-RES-5, R-RULING-2/3: for TK's queue and the protests page: the open appeals, the
    protests filed and each kind's last day (:func:`clubs.windows.protest_window`)."""
    if season is None:
        return {"open_appeals": 0, "protests": [], "deadlines": []}
    competition = TeamCompetition.objects.filter(season=season).first()
    deadlines = []
    for kind in PROTEST_KINDS:
        window = protest_window(competition, kind) if competition else None
        deadlines.append((kind, window.closes if window else None))
    protests = list(
        Decision.objects.filter(action="teams.protest.filed", season=season)
        .select_related("decided_by")
        .order_by("-decided_at")
    )
    open_appeals = Ruling.objects.filter(
        match__competition__season=season,
        stage__in=(Ruling.Stage.APPEALED, Ruling.Stage.LAGKOMMISSION),
    ).count()
    return {"open_appeals": open_appeals, "protests": protests, "deadlines": deadlines}


@login_required
def protests_view(request):
    """/tk/protester/: TK records a protest against an illegal player (R-TEAM-RES-5) for a
    team, refused after the last day for everyone, TK included (SPEC: "Later protests are
    refused"); the protests filed, each with its deadline."""
    if not is_tk(request.user):
        return _denied(request)
    season = Season.current()
    teams = (
        Team.objects.filter(competition__season=season).order_by("name")
        if season
        else Team.objects.none()
    )
    if request.method == "POST":
        pk = request.POST.get("team", "")
        team = teams.filter(pk=pk).first() if pk.isdigit() else None
        try:
            filed_on = date.fromisoformat(request.POST.get("filed_on", ""))
        except ValueError:
            filed_on = None
        if team is None or filed_on is None:
            messages.error(request, _("Välj ett lag och ett datum: inget har sparats."))
            return redirect("portal:tk_protests")
        try:
            decisions.file_protest(
                request.user,
                team,
                concerning=request.POST.get("concerning", ""),
                text=request.POST.get("text", ""),
                filed_on=filed_on,
            )
        except PermissionDenied:
            return _denied(request)
        except ServiceError as exc:
            _errors(request, exc)
        else:
            messages.success(request, _("Protesten är registrerad."))
        return redirect("portal:tk_protests")
    context = {
        "season": season,
        "teams": teams,
        "today": clock.today(),
        **protest_summary(season),
    }
    return render(request, "portal/tk_protests.html", context)
