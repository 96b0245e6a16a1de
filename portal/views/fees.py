"""Fee lists for the heat responsible and TK: a page and CSV/XLSX downloads (R-TEAM-FEE-1..3,
R-PAIR-FEE-1/2). Permission is decided by the service (:func:`portal.services.fees.fee_list_for`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.services.fees import fee_list_csv, fee_list_for, fee_list_xlsx

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


_SCOPES = {"heat": ("parkval", "lagkval"), "final": ("parfinal", "lagfinal")}


def _load(request, scope: str, kind: str, pk):
    if kind not in _SCOPES.get(scope, ()):
        raise Http404(kind)
    try:
        return fee_list_for(request.user, kind, pk)
    except ObjectDoesNotExist as exc:
        raise Http404(str(exc)) from exc


@require_safe
@login_required
def fee_list_page(request, scope: str, kind: str, pk: int):
    """/avgifter/<heat|final>/<kind>/<id>/: the list on screen with download links."""
    fee_list = _load(request, scope, kind, int(pk))
    return render(request, "portal/fee_list.html", {"fee_list": fee_list, "scope": scope})


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
