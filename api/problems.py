"""Errors as problem details (RFC 9457, ``application/problem+json``): ``type``, ``title``,
``status``, ``detail`` in the request's language (``Accept-Language`` or ``?lang=``), the
``clause`` of the regulations a refusal applies, ``problems`` (every reason: an upload's
problems as the upload page lists them, ``results.services.uploads.problem_dicts``, or a
service's violations) and ``errors`` (a form field's messages)."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response

from clubs.i18n import render
from clubs.services.base import ServiceError
from results.services.uploads import UploadRejected, problem_dicts

CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "/api/problems/"
#: Seconds a client is asked to wait while the database is unreachable (as ubf.views).
RETRY_AFTER = 30
request_log = logging.getLogger("django.request")


def _language() -> str:
    return (get_language() or "sv")[:2]


def problem_response(
    status_code: int,
    kind: str,
    title: str,
    detail: str = "",
    *,
    clause: str = "",
    problems: list[dict] | None = None,
    errors: dict | None = None,
    headers: dict | None = None,
) -> Response:
    body = {
        "type": TYPE_BASE + kind,
        "title": title,
        "status": status_code,
        "detail": detail or title,
        "clause": clause,
    }
    if problems is not None:
        body["problems"] = problems
    if errors is not None:
        body["errors"] = errors
    response = Response(body, status=status_code, headers=headers)
    response.problem = True
    return response


def _violations(violations) -> list[dict]:
    language = _language()
    return [
        {
            "text": render(v, language),
            "where": "",
            "clause": v.clause or "",
            "severity": str(getattr(v, "severity", "error")),
        }
        for v in violations
    ]


def _flat(detail) -> dict:
    if isinstance(detail, dict):
        return {
            str(k): [str(x) for x in (v if isinstance(v, list) else [v])] for k, v in detail.items()
        }
    items = detail if isinstance(detail, list) else [detail]
    return {"non_field_errors": [str(x) for x in items]}


def exception_handler(exc, context):
    """DRF's exception handler, answering every refusal as a problem detail."""
    if isinstance(exc, UploadRejected):
        problems = problem_dicts(exc.problems, _language())
        clause = next((p["clause"] for p in problems if p["clause"]), "")
        return problem_response(
            status.HTTP_400_BAD_REQUEST,
            "upload-rejected",
            _("Filen togs inte emot"),
            problems[0]["text"] if problems else "",
            clause=clause,
            problems=problems,
        )
    if isinstance(exc, ServiceError):
        problems = _violations(exc.violations)
        clause = next((p["clause"] for p in problems if p["clause"]), "")
        return problem_response(
            status.HTTP_400_BAD_REQUEST,
            "refused",
            _("Begäran avvisades"),
            " ".join(p["text"] for p in problems),
            clause=clause,
            problems=problems,
        )
    if isinstance(exc, Http404 | exceptions.NotFound):
        return problem_response(status.HTTP_404_NOT_FOUND, "not-found", _("Finns inte"))
    if isinstance(exc, PermissionDenied):
        return problem_response(
            status.HTTP_403_FORBIDDEN,
            "forbidden",
            _("Ingen behörighet"),
            str(exc) or _("Du har inte behörighet för detta."),
        )
    if isinstance(exc, exceptions.ValidationError):
        errors = _flat(exc.detail)
        first = next((m for ms in errors.values() for m in ms), "")
        return problem_response(
            status.HTTP_400_BAD_REQUEST, "invalid", _("Ogiltig begäran"), first, errors=errors
        )
    if isinstance(exc, exceptions.APIException):
        return _api_exception(exc, context)
    return _unexpected(exc, context)


def _unexpected(exc, context):
    """Anything else (a bug, the database gone): logged as Django logs a 500 (with the
    traceback, to the admins' mail where configured), answered as a problem detail, never
    Django's HTML page. The database unreachable is 503 with Retry-After, as on the pages;
    nothing of the request was committed (its transaction rolled back)."""
    request = context.get("request")
    path = getattr(request, "path", "")
    if isinstance(exc, OperationalError | InterfaceError):
        request_log.error("Database unreachable: %s (%s)", exc, path)
        return problem_response(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            "unavailable",
            _("Tillfälligt otillgänglig"),
            _("Databasen svarar inte just nu. Inget av det du skickade har sparats."),
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    request_log.error(
        "Internal Server Error: %s", path, exc_info=(type(exc), exc, exc.__traceback__)
    )
    return server_error_problem()


def server_error_problem() -> Response:
    return problem_response(
        status.HTTP_500_INTERNAL_SERVER_ERROR,
        "server-error",
        _("Serverfel"),
        _("Något gick fel hos oss. Försök igen om en stund; meddela TK om felet står kvar."),
    )


def _api_exception(exc, context):
    """DRF's own refusals (401, 405, 406, 415, 429, …) with their text in our catalogue."""
    request = context.get("request")
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None) is not None:
        headers["Retry-After"] = str(int(exc.wait))
    titles = {
        401: _("Inte inloggad"),
        403: _("Ingen behörighet"),
        405: _("Metoden är inte tillåten"),
        406: _("Kan inte svara i det formatet"),
        415: _("Fel innehållstyp"),
        429: _("För många anrop"),
    }
    details = {
        exceptions.NotAuthenticated: _(
            "Logga in, eller skicka en API-nyckel: Authorization: Token <nyckel>."
        ),
        exceptions.MethodNotAllowed: _("Metoden %(method)s är inte tillåten här.")
        % {"method": getattr(request, "method", "")},
        exceptions.UnsupportedMediaType: _(
            "Skicka JSON (application/json) eller ett formulär (multipart/form-data)."
        ),
        exceptions.NotAcceptable: _("API:t svarar med JSON (application/json)."),
        exceptions.ParseError: _("Begäran kunde inte läsas: kontrollera JSON-texten."),
    }
    detail = next((t for k, t in details.items() if isinstance(exc, k)), None)
    if detail is None and isinstance(exc, exceptions.Throttled):
        detail = _("För många anrop. Försök igen om %(seconds)s sekunder.") % {
            "seconds": int(exc.wait or 1)
        }
    if detail is None:
        detail = str(exc.detail) if isinstance(exc.detail, str) else ""
    return problem_response(
        exc.status_code,
        exc.default_code.replace("_", "-"),
        titles.get(exc.status_code, _("Ogiltig begäran")),
        detail,
        headers=headers,
    )


def json_problem(status_code: int, kind: str, title: str, detail: str = "") -> JsonResponse:
    """A problem detail outside DRF's views (Django's error handlers, a plain view)."""
    body = {
        "type": TYPE_BASE + kind,
        "title": title,
        "status": status_code,
        "detail": detail or title,
        "clause": "",
    }
    return JsonResponse(body, status=status_code, content_type=CONTENT_TYPE)


@csrf_exempt
def not_found(request, *args, **kwargs):
    """A path under /api/ that names nothing: a problem detail, not the site's HTML page."""
    return json_problem(404, "not-found", _("Finns inte"))


def server_error(request, database_down: bool):
    """``ubf.views.server_error`` for a path under /api/: an error outside the API's views
    (a middleware's) is a problem detail too."""
    if database_down:
        response = json_problem(
            503,
            "unavailable",
            _("Tillfälligt otillgänglig"),
            _("Databasen svarar inte just nu. Inget av det du skickade har sparats."),
        )
        response["Retry-After"] = str(RETRY_AFTER)
        return response
    return json_problem(
        500,
        "server-error",
        _("Serverfel"),
        _("Något gick fel hos oss. Försök igen om en stund; meddela TK om felet står kvar."),
    )
