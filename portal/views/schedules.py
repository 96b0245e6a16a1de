"""A team heat's schedule (/klubb/lagkval/<id>/spelschema/: whoever manages the heat) and the
DM Lag final's (/tk/lagfinal/<id>/spelschema/: TK), issue 22: the saved schedule, a proposal
(R-TEAM-KVAL-4: everyone meets everyone, else seeded; R-TEAM-FINAL-1: the final by its seats),
the rounds to adjust (days, matches) and save. Thin: ``teams.services.schedule`` proposes,
checks and saves; a refusal lists every reason and the form keeps what was typed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.i18n import render_with_clause
from clubs.permissions import can_manage_team_heat, is_tk
from clubs.services.base import ServiceError
from portal.forms import ScheduleProposalForm, ScheduleRoundsForm
from teams.models import TeamCompetition, TeamHeat
from teams.services.schedule import (
    final_schedule,
    heat_schedule,
    propose_final_schedule,
    propose_heat_schedule,
    save_final_schedule,
    save_heat_schedule,
)


def _denied(request, message=""):
    return render(request, "portal/denied.html", {"message": message}, status=403)


@login_required
def heat_schedule_view(request, heat_id: int):
    heat = get_object_or_404(TeamHeat.objects.select_related("competition__season"), pk=heat_id)
    if not can_manage_team_heat(request.user, heat):
        return _denied(
            request, _("Bara UBF TK och den som ansvarar för heatet ser dess spelschema här.")
        )
    return _page(
        request,
        saved=heat_schedule(heat),
        propose=lambda form: propose_heat_schedule(
            heat,
            rounds=form.cleaned_data["rounds"],
            seeds=form.seeds(),
            boards=form.cleaned_data["boards"],
        ),
        save=lambda rounds, boards, reason: save_heat_schedule(
            request.user, heat, rounds, boards=boards, reason=reason
        ),
    )


@login_required
def final_schedule_view(request, competition_id: int):
    competition = get_object_or_404(
        TeamCompetition.objects.select_related("season"), pk=competition_id
    )
    if not is_tk(request.user):
        return _denied(request)
    return _page(
        request,
        saved=final_schedule(competition),
        propose=lambda form: propose_final_schedule(
            competition, boards=form.cleaned_data.get("boards")
        ),
        save=lambda rounds, boards, reason: save_final_schedule(
            request.user, competition, rounds, boards=boards, reason=reason
        ),
    )


def _page(request, *, saved, propose, save):
    """GET: the saved schedule and, to adjust, its rounds (or, when none is saved, a first
    proposal). POST ``propose``: a new proposal in the rounds form (nothing saved). POST
    ``save``: the rounds as entered, through the service."""
    language = get_language() or "sv"
    status = 200
    errors: list[str] = []
    shown = saved
    proposal_form = ScheduleProposalForm(schedule=saved)
    if request.method == "POST" and "propose" in request.POST:
        proposal_form = ScheduleProposalForm(request.POST, schedule=saved)
        if proposal_form.is_valid():
            try:
                shown = propose(proposal_form)
            except ServiceError as exc:
                errors = exc.messages(language)
                status = 400
        else:
            status = 400
        rounds_form = ScheduleRoundsForm(schedule=shown)
    elif request.method == "POST":
        count = request.POST.get("round_count", "")
        rounds_form = ScheduleRoundsForm(
            request.POST, schedule=saved, count=int(count) if count.isdigit() else 0
        )
        valid = rounds_form.is_valid()
        entered = rounds_form.entered() if valid else []
        if valid and rounds_form.is_valid():  # a line that could not be read is an error
            try:
                done = save(
                    entered, rounds_form.cleaned_data["boards"], rounds_form.cleaned_data["reason"]
                )
            except PermissionDenied:
                return _denied(request)
            except ServiceError as exc:
                rounds_form.add_violations(exc.violations, language)
                status = 400
            else:
                if done.changed:
                    messages.success(
                        request,
                        _("Spelschemat är sparat: %(rounds)s ronder, %(matches)s matcher.")
                        % {"rounds": len(done.rounds), "matches": done.match_count},
                    )
                else:
                    messages.info(request, _("Inget ändrades."))
                for v in done.warnings:
                    messages.warning(request, render_with_clause(v, language))
                return redirect(request.path)
        else:
            status = 400
    else:
        if not saved.saved and not saved.locked and len(saved.teams) > 1:
            try:
                shown = propose(_Initial(saved))
            except ServiceError:
                shown = saved
        rounds_form = ScheduleRoundsForm(schedule=shown)
    context = {
        "saved": saved,
        "shown": shown,
        "is_proposal": shown is not saved,
        "proposal_form": proposal_form,
        "rounds_form": rounds_form,
        "errors": errors,
        "problems": [(v.is_error, render_with_clause(v, language)) for v in shown.problems],
        "locked": [render_with_clause(v, language) for v in saved.locked],
    }
    return render(request, "portal/schedule.html", context, status=status)


class _Initial:
    """The first proposal's inputs: everyone meets everyone, the seeds in number order, the
    boards the heat (or the final) has now."""

    def __init__(self, schedule):
        self.cleaned_data = {"rounds": None, "boards": None}
        self._numbers = [t.number for t in schedule.teams]

    def seeds(self) -> list[int]:
        return self._numbers
