"""Idempotent writes: a write that carries an ``Idempotency-Key`` header is answered once; the
same request with the same key again gets the first answer (``Idempotent-Replayed: true``)
and changes nothing. The same key with another request is refused (422). A refused request
stores nothing, so it may be sent again. Uploads are idempotent without a key too: an
identical file (its SHA-256, which the upload service computes) changes nothing and answers
the upload it repeats."""

from __future__ import annotations

import functools
import hashlib
import json

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.response import Response

from clubs.locks import lock_own_row

from .models import IdempotentRequest
from .problems import problem_response
from .scopes import token_of

HEADER = "Idempotency-Key"
MAX_KEY = 200


def fingerprint(request) -> str:
    """The request as a hash: method, path, the form's fields and each file's SHA-256 (a
    multipart body's boundary differs between two sends of the same request)."""
    digest = hashlib.sha256()
    digest.update(f"{request.method} {request.path}\n".encode())
    data = request.data
    files = getattr(request, "FILES", {}) or {}
    if hasattr(data, "lists"):
        fields = {k: v for k, v in data.lists() if k not in files}
    else:
        fields = data
    digest.update(json.dumps(fields, sort_keys=True, default=str).encode())
    for name in sorted(files):
        for f in files.getlist(name):
            h = hashlib.sha256()
            for chunk in f.chunks():
                h.update(chunk)
            f.seek(0)
            digest.update(f"{name}:{f.name}:{h.hexdigest()}\n".encode())
    return digest.hexdigest()


def idempotent(handler):
    """Wrap a write handler of a view (``self, request, ...``)."""

    @functools.wraps(handler)
    def wrapper(self, request, *args, **kwargs):
        key = request.headers.get(HEADER, "").strip()
        if not key:
            return handler(self, request, *args, **kwargs)
        if len(key) > MAX_KEY:
            return problem_response(
                400,
                "idempotency-key",
                _("Ogiltig Idempotency-Key"),
                _("En Idempotency-Key har högst %(n)s tecken.") % {"n": MAX_KEY},
            )
        print_ = fingerprint(request)
        try:
            with transaction.atomic():
                stored = lock_own_row(IdempotentRequest.objects.filter(user=request.user, key=key))
                if stored is not None:
                    if stored.fingerprint != print_:
                        return problem_response(
                            422,
                            "idempotency-key-reused",
                            _("Idempotency-Key redan använd"),
                            _(
                                "Nyckeln användes för en annan begäran. Skicka en ny begäran "
                                "med en ny nyckel."
                            ),
                        )
                    return Response(
                        stored.response,
                        status=stored.status,
                        headers={"Idempotent-Replayed": "true"},
                    )
                response = handler(self, request, *args, **kwargs)
                if 200 <= response.status_code < 300:
                    IdempotentRequest.objects.create(
                        key=key,
                        user=request.user,
                        token=token_of(request),
                        method=request.method,
                        path=request.path[:300],
                        fingerprint=print_,
                        status=response.status_code,
                        response=response.data,
                    )
                return response
        except IntegrityError:
            return problem_response(
                409,
                "idempotency-conflict",
                _("Samma begäran pågår redan"),
                _("En begäran med samma Idempotency-Key behandlas just nu. Försök igen strax."),
            )

    return wrapper
