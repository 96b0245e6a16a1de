"""Upload pages: thin views around the upload service."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from clubs.permissions import can_manage_pair_heat, can_manage_team_heat, is_tk
from pairs.models import PairCompetition, PairHeat
from teams.models import TeamCompetition, TeamHeat

from .forms import PairHeatFileForm, ResultFileForm, TeamResultFileForm
from .models import ResultUpload
from .services.uploads import (
    UploadRejected,
    problem_dicts,
    upload_pair_final,
    upload_pair_heat,
    upload_team_results,
)

MAX_LINES = 6
PER_KIND = 2


def _more_line(count: int, language: str, same_kind: bool) -> dict:
    with translation.override(language):
        if same_kind:
            text = ngettext(
                "… och %(count)s fel till av samma slag. Rätta i resultatprogrammet och "
                "exportera filen igen.",
                "… och %(count)s fel till av samma slag. Rätta i resultatprogrammet och "
                "exportera filen igen.",
                count,
            )
        else:
            text = ngettext(
                "… och %(count)s fel till. Rätta i resultatprogrammet och exportera filen igen.",
                "… och %(count)s fel till. Rätta i resultatprogrammet och exportera filen igen.",
                count,
            )
    return {"text": text % {"count": count}, "where": "", "clause": "", "severity": "error"}


def summarise_problems(problems, language: str = "sv") -> list[dict]:
    """A refused file's problems as at most a handful of lines: the first two of each kind,
    a count of the rest of that kind, and at most ``MAX_LINES`` lines in all."""
    groups: dict[str, list] = {}
    for p in problems:
        groups.setdefault(p.code or p.message_sv, []).append(p)
    lines: list[dict] = []
    shown = 0
    for items in groups.values():
        if len(lines) >= MAX_LINES - 1:
            break
        first = items[:PER_KIND]
        lines.extend(problem_dicts(first, language))
        shown += len(first)
        if len(items) > len(first):
            lines.append(_more_line(len(items) - len(first), language, same_kind=True))
            shown += len(items) - len(first)
    rest = len(problems) - shown
    if rest:
        lines = lines[: MAX_LINES - 1] + [_more_line(rest, language, same_kind=False)]
    return lines


def _handle(request, *, target_label, history, allowed, do_upload, done_url, form=None):
    """``do_upload(data, name, cleaned_data)`` calls the service with what the form read."""
    if not allowed:
        raise PermissionDenied
    problems = []
    if form is None:
        form = ResultFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        f = form.cleaned_data["file"]
        try:
            outcome = do_upload(f.read(), f.name, form.cleaned_data)
        except UploadRejected as exc:
            problems = summarise_problems(exc.problems, get_language() or "sv")
        else:
            if outcome.unchanged:
                messages.info(
                    request, _("Filen är identisk med den senast inlästa. Inget ändrades.")
                )
            else:
                messages.success(request, _("Sparat, resultatlistan uppdateras snart."))
            for w in outcome.warnings:
                text = w.get("shown") or w["text"]  # an upload stored before "shown": text
                messages.warning(request, f"{w['where']}: {text}" if w.get("where") else text)
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
        do_upload=lambda data, name, cleaned: upload_pair_heat(
            request.user, heat, data=data, filename=name, session=cleaned.get("session")
        ),
        done_url=request.path,
        form=PairHeatFileForm(request.POST or None, request.FILES or None, heat=heat),
    )


@login_required
def upload_team_heat_view(request, heat_id: int):
    heat = get_object_or_404(TeamHeat.objects.select_related("competition__season"), pk=heat_id)
    return _handle(
        request,
        target_label=f"{heat.competition} – {heat.name}",
        history=ResultUpload.objects.filter(heat=heat).select_related("uploaded_by")[:10],
        allowed=can_manage_team_heat(request.user, heat),
        do_upload=lambda data, name, cleaned: upload_team_results(
            request.user, heat=heat, data=data, filename=name, round=cleaned.get("round")
        ),
        done_url="/lag/",
        form=TeamResultFileForm(request.POST or None, request.FILES or None),
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
        do_upload=lambda data, name, cleaned: upload_team_results(
            request.user,
            competition=competition,
            data=data,
            filename=name,
            round=cleaned.get("round"),
        ),
        done_url="/lag/",
        form=TeamResultFileForm(request.POST or None, request.FILES or None),
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
        do_upload=lambda data, name, _cleaned: upload_pair_final(
            request.user, competition, data=data, filename=name
        ),
        done_url="/par/",
    )


def may_download(user, upload: ResultUpload) -> bool:
    """Who may have an uploaded file (names and MIDs of players): TK, and those who may upload
    the heat's results. A final's file: TK only."""
    if is_tk(user):
        return True
    if upload.heat_id is None:
        return False
    pair_heat = PairHeat.objects.filter(pk=upload.heat_id).first()
    if pair_heat is not None:
        return can_manage_pair_heat(user, pair_heat)
    team_heat = TeamHeat.objects.filter(pk=upload.heat_id).first()
    return team_heat is not None and can_manage_team_heat(user, team_heat)


@login_required
def upload_file_view(request, upload_id: int):
    """An uploaded result file, to those who may see it (never from ``/media/``)."""
    upload = get_object_or_404(ResultUpload, pk=upload_id)
    if not may_download(request.user, upload):
        raise PermissionDenied
    try:
        handle = upload.file.open("rb")
    except (OSError, ValueError) as exc:
        raise Http404(_("Filen finns inte längre.")) from exc
    response = FileResponse(handle, as_attachment=True, filename=upload.original_name)
    response["Cache-Control"] = "private, no-store"
    return response
