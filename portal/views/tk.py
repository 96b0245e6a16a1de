"""TK's work queue (/tk/): staff only; a read of ``portal.selectors.tk_queue``, and the
decisions taken from it (POST /tk/beslut/), each through the service that owns it: the view
only picks the service, the service checks TK, the rules and the reason, and records the
decision."""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs import clock
from clubs.models import Competition, Season, SeatOffer
from clubs.models import Decision as AuditRow
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from clubs.services.flags import decide_flag
from clubs.services.season import configure_season, current_values
from clubs.services.seats import answer_offer
from clubs.spreadsheets import safe_cell
from pairs.models import PairHeat, PairHeatChangeRequest
from pairs.services.heats import decide_heat_change as decide_pair_heat_change
from pairs.services.heats import decide_pair_heat
from portal.forms import SeasonConfigForm
from portal.selectors.decision_log import decision_rows, kinds
from portal.selectors.tk_queue import tk_queue
from portal.views.tk_season_data import competition_dates_form, save_competition_dates
from results.services.lots import draw_lot, record_hand_drawn_lot
from teams.models import (
    Dispensation,
    Match,
    Penalty,
    RosterChangeRequest,
    TeamCompetition,
    TeamHeat,
    TeamHeatChangeRequest,
    WalkOver,
)
from teams.services.change_requests import decide_roster_change
from teams.services.decisions import (
    award_walkover,
    decide_dispensation,
    lift_penalty,
    revoke_walkover,
)
from teams.services.heats import decide_heat_change as decide_team_heat_change
from teams.services.heats import decide_team_heat


def _answer(yes: bool) -> str:
    return SeatOffer.Answer.ACCEPTED if yes else SeatOffer.Answer.DECLINED


@dataclass(frozen=True)
class Decision:
    model: type
    decide: Callable  # (user, obj, yes, reason)
    group: str
    yes: str
    no: str
    yes_done: str = gettext_lazy("godkänt")
    no_done: str = gettext_lazy("avslaget")


#: Every decision /tk/ takes, by the ``action`` of its queue item.
DECISIONS: dict[str, Decision] = {
    "pair_heat": Decision(
        PairHeat,
        decide_pair_heat,
        "heats",
        gettext_lazy("Godkänn"),
        gettext_lazy("Avslå"),
    ),
    "team_heat": Decision(
        TeamHeat,
        decide_team_heat,
        "heats",
        gettext_lazy("Godkänn"),
        gettext_lazy("Avslå"),
    ),
    "pair_change": Decision(
        PairHeatChangeRequest,
        decide_pair_heat_change,
        "heat_changes",
        gettext_lazy("Godkänn"),
        gettext_lazy("Avslå"),
    ),
    "team_change": Decision(
        TeamHeatChangeRequest,
        decide_team_heat_change,
        "heat_changes",
        gettext_lazy("Godkänn"),
        gettext_lazy("Avslå"),
    ),
    "roster_change": Decision(
        RosterChangeRequest,
        decide_roster_change,
        "roster_changes",
        gettext_lazy("Godkänn"),
        gettext_lazy("Avslå"),
        gettext_lazy("godkänd och genomförd"),
        gettext_lazy("avslagen"),
    ),
    "dispensation": Decision(
        Dispensation,
        decide_dispensation,
        "dispensations",
        gettext_lazy("Bevilja"),
        gettext_lazy("Avslå"),
        gettext_lazy("beviljad"),
        gettext_lazy("avslagen"),
    ),
    "flag": Decision(
        AuditRow,
        decide_flag,
        "flags",
        gettext_lazy("Åtgärdas"),
        gettext_lazy("Ingen åtgärd"),
        gettext_lazy("hanterad: åtgärdas"),
        gettext_lazy("hanterad: ingen åtgärd"),
    ),
    "seat_offer": Decision(
        SeatOffer,
        lambda user, offer, yes, reason: answer_offer(user, offer, _answer(yes), reason=reason),
        "offers",
        gettext_lazy("Tackade ja"),
        gettext_lazy("Tackade nej"),
        gettext_lazy("svaret registrerat: tackade ja"),
        gettext_lazy("svaret registrerat: tackade nej"),
    ),
}


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


@login_required
def queue(request):
    if not is_tk(request.user):
        return _denied(request)
    groups = tk_queue()
    for group in groups:
        for item in group.items:
            item.decision = DECISIONS.get(item.action)
    season = Season.current()
    return render(
        request,
        "portal/tk_queue.html",
        {
            "groups": groups,
            # R-REPL-3, R-REPL-5: each final's seats and offers, where TK decides on them
            "finals": list(
                Competition.objects.filter(season=season).select_related("season").order_by("id")
            )
            if season
            else [],
            "total": sum(len(g.items) for g in groups if g.waiting),
            "today": clock.today(),
            "team_competition": TeamCompetition.objects.filter(season=season).first()
            if season
            else None,
        },
    )


@login_required
@require_POST
def decide(request):
    """One decision from the queue: ``action`` and ``pk`` name the item, ``decision`` is
    ``yes`` or ``no``, ``reason`` is TK's reason (the service says when one is required)."""
    if not is_tk(request.user):
        return _denied(request)
    decision = DECISIONS.get(request.POST.get("action", ""))
    if decision is None or request.POST.get("decision") not in ("yes", "no"):
        messages.error(request, _("Okänt beslut: inget har sparats."))
        return redirect("portal:tk_queue")
    obj = get_object_or_404(decision.model, pk=request.POST.get("pk"))
    yes = request.POST["decision"] == "yes"
    reason = request.POST.get("reason", "").strip()
    try:
        decision.decide(request.user, obj, yes, reason)
    except PermissionDenied:
        return _denied(request)
    except ServiceError as exc:
        for text in exc.messages(get_language() or "sv"):
            messages.error(request, f"{obj}: {text}")
    else:
        messages.success(
            request,
            _("%(object)s: %(decision)s.")
            % {"object": obj, "decision": decision.yes_done if yes else decision.no_done},
        )
    return redirect(f"{reverse('portal:tk_queue')}#{decision.group}")


def _run(request, group: str, call: Callable[[], str], label: str = ""):
    """Run one decision from the queue: ``call`` calls the service and returns the message
    that says what changed; a refusal shows every reason and nothing has changed."""
    try:
        done = call()
    except PermissionDenied:
        return _denied(request)
    except ServiceError as exc:
        for text in exc.messages(get_language() or "sv"):
            messages.error(request, f"{label}: {text}" if label else text)
    else:
        messages.success(request, done)
    return redirect(f"{reverse('portal:tk_queue')}#{group}")


def _vp(value) -> str:
    return number_format(value, 2) if value is not None else "–"


@login_required
@require_POST
def award_walkover_view(request):
    """R-TEAM-WO-1: a W.O. for the match TK picked from the list (``match``), given by its
    home or away team (``offender``), with TK's reason."""
    if not is_tk(request.user):
        return _denied(request)
    pk = request.POST.get("match", "")
    match = (
        Match.objects.select_related("home", "away").filter(pk=pk).first() if pk.isdigit() else None
    )
    side = request.POST.get("offender")
    if match is None or side not in ("home", "away"):
        messages.error(request, _("Välj en match och laget som lämnade W.O.: inget har sparats."))
        return redirect(f"{reverse('portal:tk_queue')}#walkovers")
    offender = match.home if side == "home" else match.away

    def call() -> str:
        award_walkover(
            request.user,
            match,
            offender,
            reason=request.POST.get("reason", ""),
            force_majeure=request.POST.get("force_majeure") == "on",
        )
        match.refresh_from_db()
        return _("W.O. utdömd: %(match)s, %(home)s–%(away)s VP (lämnad av %(team)s).") % {
            "match": match,
            "home": _vp(match.vp_home),
            "away": _vp(match.vp_away),
            "team": offender,
        }

    return _run(request, "walkovers", call, str(match))


@login_required
@require_POST
def revoke_walkover_view(request, pk: int):
    if not is_tk(request.user):
        return _denied(request)
    walkover = get_object_or_404(WalkOver.objects.select_related("match"), pk=pk)

    def call() -> str:
        revoke_walkover(request.user, walkover, reason=request.POST.get("reason", ""))
        return _("W.O. återkallat: %(match)s.") % {"match": walkover.match}

    return _run(request, "walkovers_given", call, str(walkover.match))


@login_required
@require_POST
def lift_penalty_view(request, pk: int):
    if not is_tk(request.user):
        return _denied(request)
    penalty = get_object_or_404(Penalty.objects.select_related("team"), pk=pk)

    def call() -> str:
        lift_penalty(request.user, penalty, reason=request.POST.get("reason", ""))
        return _("VP-avdraget hävt: %(penalty)s.") % {"penalty": penalty}

    return _run(request, "penalties", call, str(penalty))


@login_required
@require_POST
def draw_lot_view(request, competition_id: int):
    """R-ALLOC-5: "Dra lott" for the tie among ``among`` (the venue keys the queue item
    carries) of the competition's allocation; with ``standing``, a tie inside that table
    (R-TEAM-TIE-1, R-PAIR-TIE-1: the entries' keys)."""
    if not is_tk(request.user):
        return _denied(request)
    competition = get_object_or_404(Competition.objects.select_related("season"), pk=competition_id)
    among = [k for k in request.POST.get("among", "").split(",") if k]

    def call() -> str:
        lot = draw_lot(
            request.user,
            competition,
            among=among,
            witnesses=request.POST.get("witnesses", ""),
            standing=request.POST.get("standing", ""),
        )
        names = [lot.labels.get(k, k) for k in lot.winners]
        if lot.standing:  # R-TEAM-TIE-1: the whole tied group ordered
            return _("Lotten är dragen (seed %(seed)s): ordningen blev %(order)s.") % {
                "seed": lot.seed,
                "order": ", ".join(names),
            }
        return _("Lotten är dragen (seed %(seed)s): %(winners)s vann.") % {
            "seed": lot.seed,
            "winners": ", ".join(names),
        }

    return _run(request, "lots", call, str(competition))


@login_required
@require_POST
def hand_lot_view(request, competition_id: int):
    """R-ALLOC-5: a lot drawn by hand, entered by ticking its winners among the tied venues;
    with ``standing``, the order the hall's lot gave a tie inside that table (R-TEAM-TIE-1,
    R-PAIR-TIE-1)."""
    if not is_tk(request.user):
        return _denied(request)
    competition = get_object_or_404(Competition.objects.select_related("season"), pk=competition_id)
    among = [k for k in request.POST.get("among", "").split(",") if k]

    def call() -> str:
        lot = record_hand_drawn_lot(
            request.user,
            competition,
            among=among,
            winners=request.POST.getlist("winners"),
            explanation=request.POST.get("explanation", ""),
            standing=request.POST.get("standing", ""),
        )
        if lot.standing:  # R-TEAM-TIE-1: the whole tied group ordered
            return _("Handlottningen är registrerad: ordningen blev %(order)s.") % {
                "order": ", ".join(lot.labels.get(k, k) for k in lot.winners)
            }
        return _("Handlottningen är registrerad: %(winners)s vann.") % {
            "winners": ", ".join(lot.labels.get(k, k) for k in lot.winners)
        }

    return _run(request, "lots", call, str(competition))


@login_required
def season_view(request):
    """/tk/sasong/: the current season's configuration, each number with its clause; saved
    through ``clubs.services.season.configure_season``."""
    if not is_tk(request.user):
        return _denied(request)
    season = Season.current()
    if season is None:
        raise Http404(_("Ingen säsong finns."))
    dates_form = competition_dates_form(season)
    if request.method == "POST" and "competition_dates" in request.POST:
        # The competitions' own dates (issue 23), a form of their own under the numbers.
        result = save_competition_dates(request, season)
        if isinstance(result, HttpResponse):
            return result
        context = {"form": SeasonConfigForm(initial=current_values(season)), "season": season}
        context["dates_form"] = result
        return render(request, "portal/tk_season.html", context, status=400)
    initial = current_values(season)
    form = SeasonConfigForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                changes = configure_season(
                    request.user, season, form.values(), reason=form.cleaned_data["reason"]
                )
            except PermissionDenied:
                return _denied(request)
            except ServiceError as exc:
                form.add_violations(exc.violations, get_language() or "sv")
                status = 400
            else:
                if changes:
                    messages.success(
                        request,
                        _("Säsongens inställningar sparade: %(changes)s.")
                        % {
                            "changes": "; ".join(
                                f"{form.fields[k].label}: {old} → {new}"
                                for k, (old, new) in changes.items()
                            )
                        },
                    )
                else:
                    messages.info(request, _("Inget ändrades."))
                return redirect("portal:tk_season")
        else:
            status = 400
    context = {"form": form, "season": season, "dates_form": dates_form}
    return render(request, "portal/tk_season.html", context, status=status)


@login_required
def log(request, fmt: str = ""):
    """/tk/logg/ (and /tk/logg.csv): TK's decisions in words, newest first; ``?kind=`` one
    kind of decision, ``?q=`` a text in the object's name (a team, a club, a player)."""
    if not is_tk(request.user):
        return _denied(request)
    kind = request.GET.get("kind", "")
    if kind not in dict(kinds()):
        kind = ""
    text = request.GET.get("q", "").strip()[:100]
    rows = decision_rows(kind=kind, text=text)
    if fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="tk-beslut.csv"'
        response.write("\ufeff")  # Excel reads UTF-8 with a byte order mark
        writer = csv.writer(response, delimiter=";")
        writer.writerow([_("Tid"), _("Vem"), _("Beslut"), _("Motivering"), _("Regel")])
        for r in rows:
            at = timezone.localtime(r.at).strftime("%Y-%m-%d %H:%M")
            writer.writerow([safe_cell(v) for v in (at, r.who, r.sentence, r.reason, r.clause)])
        return response
    return render(
        request,
        "portal/tk_log.html",
        {"rows": rows, "kinds": kinds(), "kind": kind, "q": text},
    )
