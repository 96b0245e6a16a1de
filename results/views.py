"""Upload pages: thin views around the upload service."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.permissions import can_manage_pair_heat, can_manage_team_heat, is_tk
from pairs.models import PairCompetition, PairHeat
from teams.models import TeamCompetition, TeamHeat

from .forms import ResultFileForm
from .models import ResultUpload
from .services.uploads import (
    UploadRejected,
    problem_dicts,
    upload_pair_final,
    upload_pair_heat,
    upload_team_results,
)


def _handle(request, *, target_label, history, allowed, do_upload, done_url):
    if not allowed:
        raise PermissionDenied
    problems = []
    form = ResultFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        f = form.cleaned_data["file"]
        try:
            outcome = do_upload(f.read(), f.name, form.cleaned_data.get("round"))
        except UploadRejected as exc:
            problems = problem_dicts(exc.problems, get_language() or "sv")
        else:
            if outcome.unchanged:
                messages.info(
                    request, _("Filen är identisk med den senast inlästa. Inget ändrades.")
                )
            else:
                messages.success(
                    request, _("Resultaten är inlästa. Ställningen räknas om och visas strax.")
                )
            for w in outcome.warnings:
                messages.warning(
                    request, f"{w.get('where') + ': ' if w.get('where') else ''}{w['text']}"
                )
            return redirect(done_url)
    return render(
        request,
        "results/upload.html",
        {"form": form, "problems": problems, "target_label": target_label, "history": history},
        status=400 if problems else 200,
    )


@login_required
def upload_pair_heat_view(request, heat_id: int):
    heat = get_object_or_404(PairHeat.objects.select_related("competition__season"), pk=heat_id)
    return _handle(
        request,
        target_label=f"{heat.competition} – {heat.name}",
        history=ResultUpload.objects.filter(heat=heat).select_related("uploaded_by")[:10],
        allowed=can_manage_pair_heat(request.user, heat),
        do_upload=lambda data, name, _round: upload_pair_heat(
            request.user, heat, data=data, filename=name
        ),
        done_url=request.path,
    )


@login_required
def upload_team_heat_view(request, heat_id: int):
    heat = get_object_or_404(TeamHeat.objects.select_related("competition__season"), pk=heat_id)
    return _handle(
        request,
        target_label=f"{heat.competition} – {heat.name}",
        history=ResultUpload.objects.filter(heat=heat).select_related("uploaded_by")[:10],
        allowed=can_manage_team_heat(request.user, heat),
        do_upload=lambda data, name, rnd: upload_team_results(
            request.user, heat=heat, data=data, filename=name, round=rnd
        ),
        done_url="/lag/",
    )


@login_required
def upload_team_final_view(request, competition_id: int):
    competition = get_object_or_404(TeamCompetition, pk=competition_id)
    return _handle(
        request,
        target_label=f"{competition} – {_('Final')}",
        history=ResultUpload.objects.filter(competition=competition, heat=None).select_related(
            "uploaded_by"
        )[:10],
        allowed=is_tk(request.user),
        do_upload=lambda data, name, rnd: upload_team_results(
            request.user, competition=competition, data=data, filename=name, round=rnd
        ),
        done_url="/lag/",
    )


@login_required
def upload_pair_final_view(request, competition_id: int):
    """The DM Par final's results (TK): pairs identified by their players' MIDs."""
    competition = get_object_or_404(
        PairCompetition.objects.select_related("season"), pk=competition_id
    )
    return _handle(
        request,
        target_label=f"{competition} – {_('Final')}",
        history=ResultUpload.objects.filter(competition=competition, heat=None).select_related(
            "uploaded_by"
        )[:10],
        allowed=is_tk(request.user),
        do_upload=lambda data, name, _round: upload_pair_final(
            request.user, competition, data=data, filename=name
        ),
        done_url="/par/",
    )
