"""The public pages' cache (issue 12: every phone in the playing hall polls the standings).

:func:`public_page` wraps a public view: for a visitor who is not logged in, the rendered page
is stored in the cache under its language, the day of the project's clock and its path,
together with the version of what the pages show (:mod:`clubs.public_cache`), which every
committed write bumps. A stored page is served only while its version is the current one.
The version is also the page's ETag: a request that brings it back (``If-None-Match``) is
answered ``304 Not Modified``.

:class:`ubf.middleware.PublicPageCacheMiddleware` serves a stored page before sessions,
authentication and the rest of the stack run (one cache round trip for the version and the
page together); :func:`public_page` is the slow path that renders and stores it. Logged-in
users (whose navigation differs: any session cookie counts) and requests carrying messages are
rendered every time and never stored. ``GET`` and ``HEAD`` are answered; anything else gets 405. A stored response keeps its
content type and its ``Content-Disposition`` (the result lists' PDFs, portal.pdf).
"""

from __future__ import annotations

from contextlib import suppress
from datetime import date
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from clubs import clock, public_cache

#: Seconds a rendered page is kept; a new version makes it stale long before.
TIMEOUT = 600


def visitor(request) -> bool:
    """Not logged in and nothing to show only to them: no session at all, no messages."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def page_key(lang: str, day: date, path: str) -> str:
    return f"ubf:page:{lang}:{day.isoformat()}:{path}"


def etag(version: int, lang: str, day: date) -> str:
    return f'"v{version}-{lang}-{day.isoformat()}"'


def lookup(lang: str, day: date, path: str) -> tuple[int | None, tuple | None]:
    """The current version and the page stored for it (or None), in one cache round trip;
    ``(None, None)`` when the cache cannot be reached."""
    key = page_key(lang, day, path)
    try:
        found = cache.get_many([public_cache.KEY, key])
    except Exception:  # the cache server is down: render, uncached
        return None, None
    version = found.get(public_cache.KEY)
    if version is None:
        version = public_cache.version()
        return version, None
    stored = found.get(key)
    if stored is None or stored[0] != version:
        return int(version), None
    return int(version), stored


def respond(request, version: int, lang: str, day: date, stored) -> HttpResponse:
    """The stored page (or 304 when the client has it), with its ETag and caching headers."""
    tag = etag(version, lang, day)
    if tag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(stored[1], content_type=stored[2])
        if len(stored) > 3 and stored[3]:  # a PDF's inline file name
            response["Content-Disposition"] = stored[3]
    response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Cookie"
    return response


def finish(response, tag: str):
    response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"  # always revalidate: cheap with the ETag
    patch_vary_headers(response, ("Cookie",))
    return response


def _store(key: str, value) -> None:
    with suppress(Exception):  # served anyway; the next request renders again
        cache.set(key, value, TIMEOUT)


def public_page(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if not visitor(request) or request.user.is_authenticated:
            response = view(request, *args, **kwargs)
            response["Cache-Control"] = "private, no-cache"
            return response
        lang, day, path = get_language() or "sv", clock.today(), request.get_full_path()
        version, stored = lookup(lang, day, path)
        if version is None:
            return view(request, *args, **kwargs)
        if stored is not None:
            return respond(request, version, lang, day, stored)
        tag = etag(version, lang, day)
        if tag in request.headers.get("If-None-Match", ""):
            return finish(HttpResponseNotModified(), tag)
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
        if response.status_code == 200 and not response.streaming:
            stored = (
                version,
                response.content,
                response["Content-Type"],
                response.get("Content-Disposition", ""),
            )
            _store(page_key(lang, day, path), stored)
        return finish(response, tag)

    return wrapped
