"""/tk/direktfinal/ (issue 22): TK decides, per competition, whether it is played as a direct
final (R-PAIR-DF-1, R-TEAM-DF-1), with the clause, the clubs arranging heats and the deadline
beside the decision. Thin: ``portal.selectors.direct_finals`` reads,
``clubs.services.heats.decide_direct_final`` checks, records and asks for the recompute."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.permissions import is_tk
from clubs.services.base import ServiceError
from clubs.services.heats import decide_direct_final
from portal.forms import DirectFinalForm
from portal.selectors.direct_finals import direct_final_rows


def _denied(request):
    return render(request, "portal/denied.html", {"message": ""}, status=403)


@login_required
def direct_final_view(request):
    if not is_tk(request.user):
        return _denied(request)
    rows = direct_final_rows()
    status = 200
    posted = None
    errors: list[str] = []
    if request.method == "POST":
        posted = DirectFinalForm(request.POST)
        row = None
        if posted.is_valid():
            row = next(
                (
                    r
                    for r in rows
                    if r.competition.pk == posted.cleaned_data["competition"] and not r.is_dam
                ),
                None,
            )
            if row is None:
                errors = [_("Okänd tävling: inget har sparats.")]
        if row is not None:
            direct = posted.cleaned_data["direct"] == "yes"
            try:
                decide_direct_final(
                    row.kind, request.user, row.competition, direct, posted.cleaned_data["reason"]
                )
            except PermissionDenied:
                return _denied(request)
            except ServiceError as exc:
                errors = exc.messages(get_language() or "sv")
            else:
                messages.success(
                    request,
                    (
                        _("%(competition)s: direktfinal beslutad (%(clause)s).")
                        if direct
                        else _("%(competition)s: kvalen spelas (%(clause)s).")
                    )
                    % {"competition": row.competition, "clause": row.clause},
                )
                return redirect("portal:tk_direct_final")
        status = 400
    shown_with_row = False
    for r in rows:
        bound = (
            posted is not None
            and not r.is_dam
            and posted.data.get("competition") == str(r.competition.pk)
        )
        shown_with_row = shown_with_row or bound
        r.form = (
            posted
            if bound
            else DirectFinalForm(
                initial={
                    "competition": r.competition.pk,
                    "direct": "yes" if (r.notice or r.competition.is_direct_final) else "no",
                },
                auto_id=f"id_df{r.competition.pk}_%s",
            )
        )
        r.errors = errors if bound else []
    return render(
        request,
        "portal/tk_direct_final.html",
        {"rows": rows, "errors": [] if shown_with_row else errors},
        status=status,
    )
