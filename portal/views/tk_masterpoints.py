"""/tk/sasong/mastarpoang/ (issue 22): SBF's masterpoint table for the season's pairs finals
(R-PAIR-MP-1, R-GEN-1), seen and replaced by TK: a file or pasted text, read and checked row by
row (``ubf.rules.mp_table``), every problem with its row number and nothing saved on any; saved
by ``clubs.services.season.load_mp_table`` (logged old → new, the pairs finals recomputed)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.models import Season
from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from clubs.services.season import load_mp_table, mp_table
from portal.forms import MpTableForm
from ubf.rules.mp_table import TableUnreadable, grid, read_mp_table

#: The largest file TK may load (a table of 400 fields is far smaller).
MAX_BYTES = 1_000_000


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


@login_required
def mp_table_view(request):
    if not is_tk(request.user):
        return _denied(request)
    season = Season.current()
    if season is None:
        raise Http404(_("Ingen säsong finns."))
    english = (get_language() or "sv").startswith("en")
    form = MpTableForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            upload = form.cleaned_data.get("file")
            try:
                if upload is not None:
                    if upload.size > MAX_BYTES:
                        raise TableUnreadable([])
                    table = read_mp_table(upload.read(), upload.name)
                    source = upload.name[-100:]
                else:
                    table = read_mp_table(form.cleaned_data["text"])
                    source = _("inklistrad")
            except TableUnreadable as exc:
                problems = [p.message_en if english else p.message_sv for p in exc.problems] or [
                    _("Filen är för stor för en mästarpoängtabell.")
                ]
            else:
                problems = [p.message_en if english else p.message_sv for p in table.problems]
                if not problems:
                    try:
                        changes = load_mp_table(
                            request.user,
                            season,
                            table.points,
                            reason=form.cleaned_data["reason"],
                            source=source,
                        )
                    except PermissionDenied:
                        return _denied(request)
                    except ServiceError as exc:
                        problems = exc.messages(get_language() or "sv")
                    else:
                        if changes:
                            messages.success(
                                request,
                                _(
                                    "Mästarpoängtabellen är sparad: %(n)s värden ändrade (%(sizes)s "
                                    "par). Parfinalernas mästarpoäng räknas om."
                                )
                                % {
                                    "n": len(changes),
                                    "sizes": ", ".join(map(str, table.sizes)),
                                },
                            )
                        else:
                            messages.info(request, _("Inget ändrades."))
                        return redirect("portal:tk_mp_table")
    places, rows = grid(mp_table(season))
    context = {
        "season": season,
        "form": form,
        "problems": problems,
        "places": places,
        "rows": rows,
    }
    return render(request, "portal/tk_mp_table.html", context, status=status)
