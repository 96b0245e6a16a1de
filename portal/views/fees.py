"""Fee lists for the heat responsible and TK: a page and CSV/XLSX downloads (R-TEAM-FEE-1..3,
R-PAIR-FEE-1/2). Permission is decided by the service (:func:`portal.services.fees.fee_list_for`).
The page shows one row per pair or team (its players, its amount, its status) where the club
marks "inbetald" and "vidarebefordrad till UBF", a row at a time or all at once
(:func:`portal.services.fees.mark_fee_rows`). ``/avgifter/`` sends the user to their club's
page, where each heat links its list.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs import clock
from clubs.services.base import ServiceError
from portal.forms import DateInput
from portal.services.fees import (
    COLLECTED,
    PASSED,
    fee_list_csv,
    fee_list_for,
    fee_list_xlsx,
    mark_fee_rows,
)

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


_SCOPES = {"heat": ("parkval", "lagkval"), "final": ("parfinal", "lagfinal")}


class MarkFeesForm(forms.Form):
    """What one click on the fee list asks: a step, the rows (none: all) and the day."""

    step = forms.ChoiceField(choices=[(COLLECTED, COLLECTED), (PASSED, PASSED)])
    row = forms.CharField(required=False)
    on = forms.DateField(label=_("Datum"), required=False, widget=DateInput())


def _load(request, scope: str, kind: str, pk):
    if kind not in _SCOPES.get(scope, ()):
        raise Http404(kind)
    try:
        return fee_list_for(request.user, kind, pk)
    except ObjectDoesNotExist as exc:
        raise Http404(str(exc)) from exc


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def fee_list_page(request, scope: str, kind: str, pk: int):
    """/avgifter/<heat|final>/<kind>/<id>/: the list on screen with download links; a POST
    marks rows collected or passed to UBF and comes back to the list."""
    fee_list = _load(request, scope, kind, int(pk))
    errors: list[str] = []
    form = MarkFeesForm(request.POST or None)
    if request.method == "POST":
        if not form.is_valid():
            errors = [str(e) for es in form.errors.values() for e in es]
        else:
            d = form.cleaned_data
            try:
                rows = mark_fee_rows(
                    request.user,
                    fee_list,
                    d["step"],
                    keys=[d["row"]] if d["row"] else None,
                    on=d["on"],
                )
            except ServiceError as exc:
                errors = exc.messages(get_language() or "sv")
            else:
                text = (
                    ngettext(
                        "%(n)d rad markerad som inbetald.",
                        "%(n)d rader markerade som inbetalda.",
                        len(rows),
                    )
                    if d["step"] == COLLECTED
                    else ngettext(
                        "%(n)d rad markerad som vidarebefordrad till UBF.",
                        "%(n)d rader markerade som vidarebefordrade till UBF.",
                        len(rows),
                    )
                )
                messages.success(request, text % {"n": len(rows)})
                return redirect(request.path)
    return render(
        request,
        "portal/fee_list.html",
        {
            "fee_list": fee_list,
            "scope": scope,
            "errors": errors,
            "COLLECTED": COLLECTED,
            "PASSED": PASSED,
            "today": clock.today(),
            "all_collected": all(r.collected_on for r in fee_list.rows),
            "any_to_pass": any(r.collected_on and not r.passed_to_ubf_on for r in fee_list.rows),
        },
        status=400 if errors else 200,
    )


@require_safe
@login_required
def fee_overview(request):
    """/avgifter/: the club's page lists each heat with its fee list."""
    return redirect("portal:dashboard")


@require_safe
@login_required
def fee_list_download(request, scope: str, kind: str, pk: int, fmt: str):
    """/avgifter/<heat|final>/<kind>/<id>.csv or .xlsx, e.g. avgifter-lagkval-<slug>.xlsx."""
    fee_list = _load(request, scope, kind, int(pk))
    if fmt == "csv":
        response = HttpResponse(fee_list_csv(fee_list), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(fee_list_xlsx(fee_list), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{fee_list.filename(fmt)}"'
    return response
