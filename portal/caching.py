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

Two things keep a hit cheap however big the page (issue 12, the national season):

* each worker process keeps the pages it served last in its own memory (:class:`LocalPages`,
  at most ``LOCAL_BYTES``), so a hit fetches only the small version from the shared cache, not
  the body, and unpickles nothing; a page is served from there only while its version is the
  current one, exactly as from the shared cache;
* a text page is gzip-compressed once, when it is stored, and served compressed to a client
  that accepts gzip (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``; its ETag ends in
  ``-gz``, as a compressed body is another representation).
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict
from datetime import date
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from clubs import cache_health, clock, public_cache

#: Seconds a rendered page is kept; a new version makes it stale long before.
TIMEOUT = 600
#: Bytes of pages one worker process keeps in its own memory (bodies and their gzip).
LOCAL_BYTES = 64 * 1024 * 1024
#: Content types compressed when stored; smaller bodies are not worth it.
GZIP_TYPES = ("text/", "application/json")
GZIP_MIN_BYTES = 1024


class LocalPages:
    """The pages this process served last, by cache key, least recently used dropped first
    beyond ``limit`` bytes. An entry is the stored tuple (version first): whoever reads it
    compares the version with the current one."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self.pages: OrderedDict[str, tuple] = OrderedDict()
        self.lock = threading.Lock()

    @staticmethod
    def _bytes(stored: tuple) -> int:
        return len(stored[1]) + (len(stored[4]) if len(stored) > 4 and stored[4] else 0)

    def get(self, key: str) -> tuple | None:
        with self.lock:
            stored = self.pages.get(key)
            if stored is not None:
                self.pages.move_to_end(key)
            return stored

    def put(self, key: str, stored: tuple) -> None:
        size = self._bytes(stored)
        if size > self.limit:
            return
        with self.lock:
            old = self.pages.pop(key, None)
            if old is not None:
                self.size -= self._bytes(old)
            self.pages[key] = stored
            self.size += size
            while self.size > self.limit:
                _, dropped = self.pages.popitem(last=False)
                self.size -= self._bytes(dropped)

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()
            self.size = 0


local_pages = LocalPages(LOCAL_BYTES)


def visitor(request) -> bool:
    """Not logged in and nothing to show only to them: no session at all, no messages."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def page_key(lang: str, day: date, path: str) -> str:
    """The path as it came, or its SHA-256 when long (a query string of any length must not
    make a key that a cache backend refuses)."""
    if len(path) > 150:
        path = "sha256:" + hashlib.sha256(path.encode()).hexdigest()
    return f"ubf:page:{lang}:{day.isoformat()}:{path}"


def etag(version: int, lang: str, day: date) -> str:
    return f'"v{version}-{lang}-{day.isoformat()}"'


def lookup(lang: str, day: date, path: str) -> tuple[int | None, tuple | None]:
    """The current version and the page stored for it (or None), in one cache round trip:
    the version alone when this process holds the page (:data:`local_pages`), else the
    version and the page together; ``(None, None)`` when the cache cannot be reached."""
    key = page_key(lang, day, path)
    local = local_pages.get(key)
    if not cache_health.available():  # down a moment ago: render, uncached, without trying
        return None, None
    try:
        found = cache.get_many([public_cache.KEY] if local else [public_cache.KEY, key])
    except Exception as exc:  # the cache server is down: render, uncached (logged once)
        cache_health.failed("public page cache", exc)
        return None, None
    cache_health.succeeded()
    version = found.get(public_cache.KEY)
    if version is None:  # a new count (cache cleared or restarted): nothing stored is current
        local_pages.clear()
        version = public_cache.version()
        return version, None
    version = int(version)
    if local is not None:
        if local[0] == version:
            return version, local
        try:
            found = cache.get_many([key])
        except Exception as exc:
            cache_health.failed("public page cache", exc)
            return version, None
    stored = found.get(key)
    if stored is None or stored[0] != version:
        return version, None
    local_pages.put(key, stored)
    return version, stored


def compressed(body: bytes, content_type: str) -> bytes:
    """The body gzip-compressed (stored beside it), or b"" when not worth it."""
    if len(body) < GZIP_MIN_BYTES or not content_type.startswith(GZIP_TYPES):
        return b""
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    return packed if len(packed) < len(body) else b""


def accepts_gzip(request) -> bool:
    return "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "")


def respond(request, version: int, lang: str, day: date, stored) -> HttpResponse:
    """The stored page (or 304 when the client has it), with its ETag and caching headers;
    gzip-compressed when the client accepts it and a compressed body is stored."""
    tag = etag(version, lang, day)
    packed = stored[4] if len(stored) > 4 else b""
    gz = bool(packed) and accepts_gzip(request)
    if gz:
        tag = tag[:-1] + '-gz"'
    if tag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        response = HttpResponseNotModified()
    else:
        body = packed if gz else stored[1]
        response = HttpResponse(body, content_type=stored[2])
        response["Content-Length"] = str(len(body))
        if gz:
            response["Content-Encoding"] = "gzip"
        if len(stored) > 3 and stored[3]:  # a PDF's inline file name
            response["Content-Disposition"] = stored[3]
    response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"
    response["Vary"] = "Cookie, Accept-Encoding" if packed else "Cookie"
    return response


def finish(response, tag: str):
    response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"  # always revalidate: cheap with the ETag
    patch_vary_headers(response, ("Cookie",))
    return response


def _store(key: str, value) -> None:
    if not cache_health.available():
        return
    try:
        cache.set(key, value, TIMEOUT)
    except Exception as exc:  # served anyway; the next request renders again
        cache_health.failed("public page cache", exc)


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
                compressed(response.content, response["Content-Type"]),
            )
            key = page_key(lang, day, path)
            _store(key, stored)
            local_pages.put(key, stored)
            if stored[4]:
                patch_vary_headers(response, ("Accept-Encoding",))
        return finish(response, tag)

    return wrapped
