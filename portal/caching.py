"""The public pages' cache (issue 12: every phone in the playing hall polls the standings;
issue 21: a commit makes stale only what it changed, and one request refills a page).

:func:`public_page` wraps a public view (and :func:`public_read` an API read): for a visitor
who is not logged in, the rendered page is stored in the cache under its language and its
path, with the **versions of what it shows**: while rendering, the view declares the
competitions and seasons it shows (:func:`shows`), and the page is stored with the version of
each of their keys (``clubs.public_cache``: one per competition, one per season, one per
season for the pages that list everything, and the global one), and the clock's day. A stored
page is *fresh* while every one of those versions is the current one and the day is today.
Those versions make the page's ETag: a request that brings it back (``If-None-Match``) is
answered ``304 Not Modified``. A view that declares nothing depends on every write.

:class:`ubf.middleware.PublicPageCacheMiddleware` serves a fresh page before sessions,
authentication and the rest of the stack run, in one cache round trip (the versions, and the
page when this process does not hold it); :func:`public_page` is the slow path that renders
and stores it. Logged-in users (whose navigation differs: any session cookie counts) and
requests carrying messages are rendered every time and never stored. ``GET`` and ``HEAD`` are
answered; anything else gets 405 (an API read passes other methods to its view). A stored
response keeps its content type and its ``Content-Disposition`` (the PDFs, portal.pdf).

**No stampede** (stale-while-revalidate): when a stored page is stale, the request that takes
the page's render lock (``cache.add``, expiring after ``RENDER_LOCK_SECONDS``, so a renderer
that dies does not hold it) renders it again, and every other request meanwhile gets the
previous copy with the previous ETag and ``X-Cache: stale``, never a body under a new ETag. In
production (``UBF_PAGE_RENDER_IN_BACKGROUND``, on unless ``DEBUG``) every request gets the
previous copy at once, and the lock is tried only once it is sent: its holder's page is
rendered by a thread of the worker (:data:`renderer`), through the same middleware stack, as
an internal request (:func:`render_later`). A page with no
copy at all (never rendered, or evicted) is rendered by the request that takes the lock; the
others wait for it up to ``WAIT_SECONDS``, then render too.

A render is stored only if what it shows did not change while it ran (its keys' versions
read before the render equal those read after it; for a page whose keys were not known
before, nothing in the site changed); else it is served without an ETag and not stored.

Two things keep a hit cheap however big the page (issue 12, the national season):

* each worker process keeps the pages it served last in its own memory (:class:`LocalPages`,
  at most ``LOCAL_BYTES``), so a hit fetches only the small versions from the shared cache,
  not the body, and unpickles nothing; a page is served from there only while it is fresh,
  exactly as from the shared cache;
* a text page is gzip-compressed once, when it is stored, and served compressed to a client
  that accepts gzip (``Content-Encoding: gzip``, ``Vary: Accept-Encoding``; its ETag ends in
  ``-gz``, as a compressed body is another representation).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import logging
import os
import queue
import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date
from functools import partial, wraps

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from django.core.handlers.wsgi import WSGIRequest
from django.db import connections
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from clubs import cache_health, clock, public_cache
from clubs.models import Competition

log = logging.getLogger(__name__)

#: Seconds a rendered page is kept. Its versions say whether it is fresh; a stale copy is
#: what the others get while one request renders it again, so it is kept long.
TIMEOUT = 24 * 3600
#: Bytes of pages one worker process keeps in its own memory (bodies and their gzip).
LOCAL_BYTES = 64 * 1024 * 1024
#: Content types compressed when stored; smaller bodies are not worth it.
GZIP_TYPES = ("text/", "application/json")
GZIP_MIN_BYTES = 1024
#: Response headers kept with a stored page (an API read's ``Allow`` and ``Vary: Accept``).
KEPT_HEADERS = ("Allow", "Vary", "Content-Language")


def render_lock_seconds() -> float:
    """How long a render lock is held at most: a renderer that dies leaves it this long."""
    return float(getattr(settings, "UBF_PAGE_RENDER_LOCK_SECONDS", 10))


def wait_seconds() -> float:
    """How long a request waits for another's render of a page that has no copy at all."""
    return min(render_lock_seconds(), float(getattr(settings, "UBF_PAGE_WAIT_SECONDS", 5)))


def version_seconds() -> float:
    """How long a worker trusts the versions it read for a page it holds (0: ask every time)."""
    return float(getattr(settings, "UBF_PAGE_VERSION_SECONDS", 0))


def in_background() -> bool:
    return bool(getattr(settings, "UBF_PAGE_RENDER_IN_BACKGROUND", False))


# --- A stored page ----------------------------------------------------------------------------
# A tuple (pickled small): (marks, body, content type, Content-Disposition, gzip body, headers)
# with marks = (day, ((key, version), ...)), the keys sorted.
MARKS, BODY, CONTENT_TYPE, DISPOSITION, GZ, HEADERS = range(6)


class LocalPages:
    """The pages this process served last, by cache key, least recently used dropped first
    beyond ``limit`` bytes; and, for every key it has seen, the version keys its page shows
    (:meth:`keys_of`), kept after the page is dropped, so a later lookup asks the shared cache
    for the page and its versions together."""

    HINTS = 20_000

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self.pages: OrderedDict[str, tuple] = OrderedDict()
        self.hints: OrderedDict[str, tuple[str, ...]] = OrderedDict()
        #: key -> (monotonic time, the stale copy's marks): when this process last found the
        #: page stale with its render lock held by another (:meth:`note_busy`).
        self.busy: dict[str, tuple[float, tuple]] = {}
        self.lock = threading.Lock()

    @staticmethod
    def _bytes(stored: tuple) -> int:
        return len(stored[BODY]) + len(stored[GZ] or b"")

    def get(self, key: str) -> tuple | None:
        with self.lock:
            stored = self.pages.get(key)
            if stored is not None:
                self.pages.move_to_end(key)
            return stored

    def keys_of(self, key: str) -> tuple[str, ...] | None:
        return self.hints.get(key)

    def put(self, key: str, stored: tuple) -> None:
        size = self._bytes(stored)
        with self.lock:
            self.hints[key] = tuple(k for k, _v in stored[MARKS][1])
            self.hints.move_to_end(key)
            while len(self.hints) > self.HINTS:
                self.hints.popitem(last=False)
            old = self.pages.pop(key, None)
            if old is not None:
                self.size -= self._bytes(old)
            if size > self.limit:
                return
            self.pages[key] = stored
            self.size += size
            while self.size > self.limit:
                _, dropped = self.pages.popitem(last=False)
                self.size -= self._bytes(dropped)

    def note_busy(self, key: str, marks) -> None:
        """The page (its copy with ``marks``) is stale and another renders it: until this
        process asks again (:meth:`busy_recently`), it serves the copy without a round trip."""
        with self.lock:
            if len(self.busy) > self.HINTS:
                self.busy.clear()
            self.busy[key] = (time.monotonic(), marks)

    def busy_recently(self, key: str, marks, within: float) -> bool:
        """Whether the copy with ``marks`` was found stale and being rendered by another less
        than ``within`` seconds ago."""
        seen = self.busy.get(key)
        return seen is not None and seen[1] == marks and time.monotonic() - seen[0] < within

    def drop(self, key: str) -> None:
        with self.lock:
            self.busy.pop(key, None)
            old = self.pages.pop(key, None)
            if old is not None:
                self.size -= self._bytes(old)

    def clear(self) -> None:
        with self.lock:
            self.pages.clear()
            self.hints.clear()
            self.busy.clear()
            self.size = 0


local_pages = LocalPages(LOCAL_BYTES)


def visitor(request) -> bool:
    """Not logged in and nothing to show only to them: no session at all, no messages."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def api_visitor(request) -> bool:
    """An API read that every anonymous reader gets alike: a visitor, without a token, asking
    for JSON (the browsable API's HTML page is the user's own, never stored)."""
    if not visitor(request) or "HTTP_AUTHORIZATION" in request.META:
        return False
    if "text/html" in request.META.get("HTTP_ACCEPT", ""):
        return False
    return request.GET.get("format", "json") == "json"


def page_of(request) -> tuple[str, str, str | None] | None:
    """What the cache answers a request with: ``(language, key path, the language chosen by
    ?lang=)`` for a visitor's GET or HEAD of a page or an anonymous API read of JSON; None for
    anything else, which goes down the stack. The language is the ``?lang=`` chosen, else (the
    API) Accept-Language, else the language cookie, else the site's."""
    if request.method not in ("GET", "HEAD"):
        return None
    api = request.path.startswith("/api/")
    if not (api_visitor(request) if api else visitor(request)):
        return None
    codes = dict(settings.LANGUAGES)
    chosen = request.GET.get("lang")
    lang = chosen if chosen in codes else None
    if lang is None and api:  # the API honours Accept-Language (as LocaleMiddleware)
        lang = translation.get_language_from_request(request)
    if lang is None:
        cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        lang = cookie if cookie in codes else settings.LANGUAGE_CODE
    return lang, api_path(request) if api else request.get_full_path(), chosen


def remembers(request, lang: str, chosen: str | None) -> bool:
    """Whether the answer must set the language cookie (a ``?lang=`` the cookie does not say
    yet), as QueryLanguageMiddleware does."""
    return chosen == lang and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != lang


def page_key(lang: str, path: str) -> str:
    """The path as it came, or its SHA-256 when long (a query string of any length must not
    make a key that a cache backend refuses)."""
    if len(path) > 150:
        path = "sha256:" + hashlib.sha256(path.encode()).hexdigest()
    return f"ubf:page:{lang}:{path}"


def api_path(request) -> str:
    """An API read's key path: its links are absolute (pagination, ``url``), so the scheme and
    the host it was asked on belong to it."""
    return f"{request.scheme}://{request.META.get('HTTP_HOST', '')}{request.get_full_path()}"


def etag(lang: str, marks) -> str:
    day, versions = marks
    digest = hashlib.sha256(repr(versions).encode()).hexdigest()[:12]
    return f'"v{digest}-{lang}-{day}"'


# --- What a page shows ------------------------------------------------------------------------


def shows(request, *, competitions=(), seasons=(), lists=()) -> None:
    """Called by a public view (or an API read) while it renders: the page shows these
    competitions (objects with their ``season_id``, or ids) with their seasons' own rows, these
    seasons' own rows (ids), and lists everything of the seasons ``lists`` (ids: home, the
    calendar). GLOBAL is always added. A view that never calls it depends on every write."""
    request = getattr(request, "_request", request)  # a REST framework request
    declared = getattr(request, "_ubf_shows", None) or set()
    declared.update(
        public_cache.page_keys(
            competitions=[c for c in competitions if c],
            seasons=[s for s in seasons if s],
            lists=[s for s in lists if s],
        )
    )
    request._ubf_shows = declared


def _declared(request) -> tuple[str, ...]:
    declared = getattr(request, "_ubf_shows", None)
    return tuple(sorted(declared)) if declared else public_cache.UNDECLARED


# --- Looking a page up ------------------------------------------------------------------------


@dataclass
class Plan:
    """One request's view of one page: the versions read (None: the cache is down), the
    stored copy (fresh or stale), and the render lock it holds."""

    lang: str
    path: str
    day: date
    key: str
    versions: dict[str, int] | None = None
    stored: tuple | None = None
    fresh: bool = False
    hint: tuple[str, ...] | None = None
    token: str | None = field(default=None, repr=False)
    #: stale, and another held its render lock a moment ago (:meth:`LocalPages.busy_recently`)
    busy: bool = False

    @property
    def lock_key(self) -> str:
        return self.key + ":render"

    def lock(self) -> bool:
        """Take the page's render lock (atomic ``add``: one winner); it expires by itself.
        Not even tried while another held it a moment ago (``busy``); when another holds it,
        this process notes so and serves its copy without asking for
        ``UBF_PAGE_VERSION_SECONDS`` (stale-while-revalidate costs no round trip either: the
        phones' hits stay as cheap while the hall's page is rendered again)."""
        if self.busy:
            return False
        token = secrets.token_hex(8)
        try:
            taken = cache.add(self.lock_key, token, timeout=render_lock_seconds())
        except Exception as exc:
            cache_health.failed("public page render lock", exc)
            return True  # nothing to coordinate with: render
        if taken:
            self.token = token
        elif self.stored is not None:
            local_pages.note_busy(self.key, self.stored[MARKS])
            self.busy = True
        return bool(taken)

    def unlock(self) -> None:
        token, self.token = self.token, None
        if token is None:
            return
        try:
            if cache.get(self.lock_key) == token:
                cache.delete(self.lock_key)
        except Exception as exc:  # it expires anyway
            cache_health.failed("public page render lock", exc)


def _fresh_marks(marks, versions: dict, day: date) -> bool:
    day_of, keys = marks
    return day_of == day.isoformat() and all(versions.get(k) == v for k, v in keys)


def holds(plan: Plan, token: str) -> bool:
    """Whether the page's render lock is the one ``token`` took."""
    try:
        return cache.get(plan.lock_key) == token
    except Exception as exc:
        cache_health.failed("public page render lock", exc)
        return False


def _is_fresh(stored, versions: dict, day: date) -> bool:
    return _fresh_marks(stored[MARKS], versions, day)


def marks_key(key: str) -> str:
    """Where the shared copy's marks are kept beside it: a worker whose own copy is stale
    learns whether the shared one is newer without fetching its body."""
    return key + ":marks"


def _versions_of(found: dict, marks) -> None:
    """Add to ``found`` the versions of a page's keys (its ``marks``) that it lacks: the keys
    this process had not asked for (one more round trip, only when there are any)."""
    more = [k for k, _v in marks[1] if k not in found]
    if more:
        found.update(cache.get_many(more))


def lookup(lang: str, path: str, day: date | None = None) -> Plan:
    """The page's plan: the current versions of what it shows and its stored copy. A page this
    process holds is served on the versions it read less than ``UBF_PAGE_VERSION_SECONDS``
    ago without a round trip; else one round trip asks for the versions and the shared copy's
    marks (this process holds the page) or the shared copy itself (it does not); a second
    only for the keys of a page this process has never seen, or for a newer shared copy.
    ``versions`` None when the cache cannot be reached."""
    day = day or clock.today()
    key = page_key(lang, path)
    plan = Plan(lang=lang, path=path, day=day, key=key)
    local = local_pages.get(key)
    plan.hint = local_pages.keys_of(key)
    if not cache_health.available():  # down a moment ago: render, uncached, without trying
        return plan
    if local is not None:  # versions this process read a moment ago: no round trip
        known = public_cache.recent(
            [public_cache.ANY, *(k for k, _v in local[MARKS][1])], version_seconds()
        )
        if known is not None and _is_fresh(local, known, day):
            plan.versions, plan.stored, plan.fresh = known, local, True
            return plan
        if known is not None and local_pages.busy_recently(key, local[MARKS], version_seconds()):
            plan.versions, plan.stored, plan.busy = known, local, True
            return plan
    try:
        wanted = {public_cache.ANY, *(plan.hint or ())}
        found = cache.get_many([*wanted, marks_key(key) if local else key])
        shared_marks = found.pop(marks_key(key), None)
        stored = local or found.pop(key, None)

        if stored is not None:
            _versions_of(found, stored[MARKS])
            if (
                local is not None
                and not _is_fresh(local, found, day)
                and shared_marks is not None
                and shared_marks != local[MARKS]
            ):  # another process stored it again since: take it if it is fresh
                _versions_of(found, shared_marks)
                if _fresh_marks(shared_marks, found, day):
                    shared = cache.get(key)
                    if shared is not None:
                        _versions_of(found, shared[MARKS])
                        stored = shared
        needed = set(wanted) | {k for k, _v in (stored[MARKS][1] if stored else ())}
        missing = [k for k in needed if found.get(k) is None]
        if missing:  # a new count (cache cleared or restarted): nothing stored is current
            found.update(public_cache.start(missing))
    except Exception as exc:  # the cache server is down: render, uncached (logged once)
        cache_health.failed("public page cache", exc)
        return plan
    cache_health.succeeded()
    plan.versions = {k: int(v) for k, v in found.items()}
    public_cache.note(plan.versions)
    plan.stored = stored
    if stored is not None:
        plan.fresh = _is_fresh(stored, plan.versions, day)
        if stored is not local:
            local_pages.put(key, stored)
        plan.hint = tuple(k for k, _v in stored[MARKS][1])
    return plan


# --- Answering --------------------------------------------------------------------------------


def compressed(body: bytes, content_type: str) -> bytes:
    """The body gzip-compressed (stored beside it), or b"" when not worth it."""
    if len(body) < GZIP_MIN_BYTES or not content_type.startswith(GZIP_TYPES):
        return b""
    packed = gzip.compress(body, compresslevel=6, mtime=0)
    return packed if len(packed) < len(body) else b""


def accepts_gzip(request) -> bool:
    return "gzip" in request.META.get("HTTP_ACCEPT_ENCODING", "")


def respond(request, lang: str, stored, *, stale: bool = False) -> HttpResponse:
    """The stored page (or 304 when the client has it), with its own ETag and caching headers;
    gzip-compressed when the client accepts it and a compressed body is stored. A stale copy
    (``stale``) keeps the ETag it was stored with and says ``X-Cache: stale``."""
    tag = etag(lang, stored[MARKS])
    packed = stored[GZ]
    gz = bool(packed) and accepts_gzip(request)
    if gz:
        tag = tag[:-1] + '-gz"'
    if tag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        response = HttpResponseNotModified()
    else:
        body = packed if gz else stored[BODY]
        response = HttpResponse(body, content_type=stored[CONTENT_TYPE])
        response["Content-Length"] = str(len(body))
        if gz:
            response["Content-Encoding"] = "gzip"
        if stored[DISPOSITION]:  # a PDF's inline file name
            response["Content-Disposition"] = stored[DISPOSITION]
    for name, value in stored[HEADERS]:
        response[name] = value
    response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"
    response["X-Cache"] = "stale" if stale else "hit"
    patch_vary_headers(response, ("Cookie", "Accept-Encoding") if packed else ("Cookie",))
    return response


def finish(response, tag: str | None):
    if tag is not None:
        response["ETag"] = tag
    response["Cache-Control"] = "public, no-cache"  # always revalidate: cheap with the ETag
    patch_vary_headers(response, ("Cookie",))
    return response


def _store(key: str, value) -> None:
    if not cache_health.available():
        return
    try:
        cache.set_many({key: value, marks_key(key): value[MARKS]}, TIMEOUT)
    except Exception as exc:  # served anyway; the next request renders again
        cache_health.failed("public page cache", exc)
        return
    if key in _hall_keys():
        announce(key)


def _forget(key: str) -> None:
    """The page is no longer what was stored (now a 404, or its render fails): drop the copy,
    so that nobody is served it while it is rendered again in vain."""
    local_pages.drop(key)
    try:
        cache.delete_many([key, marks_key(key)])
    except Exception as exc:
        cache_health.failed("public page cache", exc)


def _wait_for(plan: Plan) -> tuple | None:
    """Another request renders a page that had no copy: its copy, once stored, or None after
    ``wait_seconds``."""
    deadline = time.monotonic() + wait_seconds()
    while time.monotonic() < deadline:
        time.sleep(0.02)
        try:
            stored = cache.get(plan.key)
        except Exception as exc:
            cache_health.failed("public page cache", exc)
            return None
        if stored is not None and stored[MARKS][0] == plan.day.isoformat():
            local_pages.put(plan.key, stored)
            return stored
    return None


def _stored_tag(plan: Plan) -> str | None:
    """The ETag the page would have now, from the keys this process knows it shows (a phone's
    ``If-None-Match`` answered 304 without a render)."""
    if not plan.hint or plan.versions is None or any(k not in plan.versions for k in plan.hint):
        return None
    return etag(plan.lang, (plan.day.isoformat(), tuple((k, plan.versions[k]) for k in plan.hint)))


def _render(request, plan: Plan, view, args, kwargs):
    """Render the page, store it when what it shows did not change meanwhile, answer it."""
    request._ubf_shows = None
    try:
        response = view(request, *args, **kwargs)
        if hasattr(response, "render") and callable(response.render):
            response = response.render()
    except BaseException:
        if plan.stored is not None:
            _forget(plan.key)
        raise
    if response.status_code != 200 or response.streaming:
        if plan.stored is not None:
            _forget(plan.key)
        return response
    keys = _declared(request)
    after = public_cache.versions({*keys, public_cache.ANY})
    if after is None:
        return response
    before = plan.versions or {}
    if all(k in before for k in keys):
        unchanged = all(before[k] == after[k] for k in keys)
    else:
        unchanged = before.get(public_cache.ANY) == after[public_cache.ANY]
    if not unchanged:  # a write committed while it rendered: serve it, store nothing
        response["X-Cache"] = "miss"
        return finish(response, None)
    marks = (plan.day.isoformat(), tuple((k, after[k]) for k in keys))
    content_type = response["Content-Type"]
    stored = (
        marks,
        response.content,
        content_type,
        response.get("Content-Disposition", ""),
        compressed(response.content, content_type),
        tuple((h, response[h]) for h in KEPT_HEADERS if response.has_header(h)),
    )
    _store(plan.key, stored)
    local_pages.put(plan.key, stored)
    tag = etag(plan.lang, marks)
    if stored[GZ]:
        patch_vary_headers(response, ("Accept-Encoding",))
    response["X-Cache"] = "miss"
    if tag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        return finish(HttpResponseNotModified(), tag)
    return finish(response, tag)


def serve(request, plan: Plan, view, args, kwargs):
    """The slow path for a visitor: a fresh copy, a stale one while another renders, or a
    render (see the module's docstring)."""
    if plan.versions is None:  # the cache is down: render, uncached
        return view(request, *args, **kwargs)
    if plan.fresh:
        return respond(request, plan.lang, plan.stored)
    if plan.token is not None:  # the middleware took the lock for this render
        return _render(request, plan, view, args, kwargs)
    if plan.stored is not None:
        if not plan.lock():
            return respond(request, plan.lang, plan.stored, stale=True)
        try:
            return _render(request, plan, view, args, kwargs)
        finally:
            plan.unlock()
    tag = _stored_tag(plan)
    if tag is not None and tag in request.META.get("HTTP_IF_NONE_MATCH", ""):
        return finish(HttpResponseNotModified(), tag)
    if plan.lock():
        try:
            return _render(request, plan, view, args, kwargs)
        finally:
            plan.unlock()
    stored = _wait_for(plan)
    if stored is not None:
        return respond(request, plan.lang, stored)
    return _render(request, plan, view, args, kwargs)


def _cached(view, *, api: bool):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            if api:
                return view(request, *args, **kwargs)
            return HttpResponseNotAllowed(["GET", "HEAD"])
        if not (api_visitor(request) if api else visitor(request)) or (
            hasattr(request, "user") and request.user.is_authenticated
        ):
            response = view(request, *args, **kwargs)
            response["Cache-Control"] = "private, no-cache"
            return response
        lang = get_language() or "sv"
        path = api_path(request) if api else request.get_full_path()
        plan = request.META.get("ubf.plan")  # the cache's middleware's
        if plan is None or (plan.lang, plan.path) != (lang, path):
            plan = lookup(lang, path)
        return serve(request, plan, view, args, kwargs)

    return wrapped


def public_page(view):
    """A public page: cached for visitors (see the module's docstring); GET and HEAD only."""
    return _cached(view, api=False)


def public_read(view):
    """An API read (``api.views``): cached for anonymous readers of JSON like a page, with
    the same versions; other methods and other readers go to the view."""
    return _cached(view, api=True)


# --- Rendering in the background ----------------------------------------------------------------


class Renderer:
    """A few daemon threads per worker process that render stale pages again while the
    requests are answered with the previous copy. Each job is an internal request through the
    middleware stack below the cache (sessions, language, the view), so the page is rendered
    exactly as for a visitor. A page already queued here is not queued twice."""

    def __init__(self, threads: int = 2):
        self.threads = threads
        self.jobs: queue.Queue = queue.Queue()
        self.queued: set[str] = set()
        self.lock = threading.Lock()
        self.pid: int | None = None
        self.idle = threading.Condition(self.lock)
        self.running = 0

    def _start(self) -> None:
        if self.pid == os.getpid():
            return
        with self.lock:
            if self.pid == os.getpid():
                return
            self.jobs, self.queued, self.running = queue.Queue(), set(), 0  # after a fork
            for n in range(self.threads):
                threading.Thread(target=self._work, name=f"ubf-render-{n}", daemon=True).start()
            self.pid = os.getpid()

    def submit(self, key: str, job) -> bool:
        """Queue ``job`` for the page ``key``; False when it is queued already."""
        self._start()
        with self.lock:
            if key in self.queued:
                return False
            self.queued.add(key)
            self.running += 1
        self.jobs.put((key, job))
        return True

    def _work(self) -> None:
        while True:
            key, job = self.jobs.get()
            try:
                job()
            except Exception:  # logged; the lock expires, the stale copy stays until then
                log.exception("Rendering %s in the background failed", key)
            finally:
                connections.close_all()  # this thread's own connections
                with self.lock:
                    self.queued.discard(key)
                    self.running -= 1
                    self.idle.notify_all()

    def wait(self, timeout: float = 30) -> bool:
        """Until no render is queued or running (tests, benchmarks)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.running:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.idle.wait(left)
        return True


renderer = Renderer(int(getattr(settings, "UBF_PAGE_RENDER_THREADS", 2)))


def render_later(request, plan: Plan, get_response):
    """What renders ``plan``'s stale page again in a renderer thread, to call once the previous
    copy is sent (a response's closer: the render does not hold up that answer, one
    interpreter lock for both): the page's render lock taken there, so that the answer waits
    for one round trip (the versions), not two (issue 21: the first request after an upload);
    when another holds it, nothing is rendered (and this process serves its copy asking
    nothing for a moment, ``Plan.lock``); else an internal copy of ``request`` through
    ``get_response`` (the stack below the cache's middleware, or the whole stack from
    ``ubf.middleware.PageCacheFront``) with the plan, which holds the lock, released however
    the render ends. A page this process queued already is not queued again."""
    internal = internal_request(request)
    internal.META["ubf.plan"] = plan  # the lock's holder, for the cache's middleware

    def job() -> None:
        if not plan.lock():
            return  # another renders it
        try:
            get_response(internal)
        finally:
            plan.unlock()

    return partial(renderer.submit, plan.key, job)


def internal_request(request) -> WSGIRequest:
    """A copy of a visitor's GET, to render its page again in the background."""
    environ = {k: v for k, v in request.META.items() if isinstance(k, str)}
    environ["wsgi.input"] = io.BytesIO(b"")
    environ["CONTENT_LENGTH"] = "0"
    environ["REQUEST_METHOD"] = "GET"
    environ.pop("HTTP_IF_NONE_MATCH", None)
    return WSGIRequest(environ)


# --- The hall's pages rendered again where the recompute ran ---------------------------------

#: What the hall polls while the DM Lag final is played: rendered again, in both languages, by
#: the worker that recomputed the current season's DM Lag (:func:`warm`).
HALL_PAGES = ("/lag/final/", "/lag/")


class _Stack(BaseHandler):
    """The whole middleware stack and the views, for an internal request: without the
    request_started/finished signals a WSGI server's request sends (which close the worker's
    database connection, and a test's)."""

    def __init__(self):
        super().__init__()
        self.load_middleware()


_stack: list[_Stack] = []


def warming() -> bool:
    return bool(getattr(settings, "UBF_PAGE_WARM", False))


#: The render locks :func:`hold` took, by competition: (page key, token).
_held: dict[int, list[tuple[str, str]]] = {}


def _hall(competition_id, eager) -> bool:
    """The current season's DM Lag, recomputed in a worker, with warming on."""
    if eager or not warming() or competition_id is None:
        return False
    competition = Competition.objects.select_related("season").filter(pk=competition_id).first()
    return (
        competition is not None
        and competition.discipline == Competition.Discipline.TEAMS
        and competition.season.is_current
    )


def _hall_pages() -> list[tuple[str, str]]:
    """The hall's pages as (path, language): the hall's own page first, each in the site's
    language first."""
    site = settings.LANGUAGE_CODE
    langs = [site, *(code for code, _name in settings.LANGUAGES if code != site)]
    return [(path, lang) for path in HALL_PAGES for lang in langs]


def _hall_keys():
    return [page_key(lang, path) for path, lang in _hall_pages()]


def _reserved(competition_id) -> str:
    return f"reserved:{competition_id}"


def reserve(sender=None, competition_id=None, **kwargs) -> None:
    """``clubs.recompute.recompute_expected``: a change that asks for the current season's
    DM Lag's recompute is about to be written (a results file, before its transaction; any
    other change when it asks). Its rows make the hall pages stale at once (``public_cache``
    bumps the competition's version at each write), but what they show changes again when the
    recompute is stored: so their render locks are taken now, for the recompute's worker
    (:func:`hold` takes them over), and no web worker the phones are polling renders them in
    between; the phones get the previous copy. The locks expire after
    ``UBF_PAGE_RENDER_LOCK_SECONDS`` (a change that fails, a worker that is slow to start: then
    the web workers render them as any stale page). Only where :func:`warm` will render them
    (a Celery worker, not in-process)."""
    if not _hall(competition_id, bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))):
        return
    marker = _reserved(competition_id)
    try:
        cache.set_many({key + ":render": marker for key in _hall_keys()}, render_lock_seconds())
    except Exception as exc:
        cache_health.failed("public page render lock", exc)


def hold(sender=None, competition_id=None, eager=False, **kwargs) -> None:
    """``clubs.recompute.recompute_starting``: take the hall pages' render locks before the
    recompute commits (or take them over from :func:`reserve`), so that no web worker starts
    rendering them when their versions change: the phones get the previous copy until
    :func:`warm` stores the new one (the locks expire after ``UBF_PAGE_RENDER_LOCK_SECONDS`` if
    this worker dies)."""
    if not _hall(competition_id, eager):
        return
    taken = []
    marker = _reserved(competition_id)
    for key in _hall_keys():
        token = secrets.token_hex(8)
        lock = key + ":render"
        try:
            if cache.add(lock, token, timeout=render_lock_seconds()) or (
                cache.get(lock) == marker
                and cache.set(lock, token, timeout=render_lock_seconds()) is not False
            ):
                taken.append((key, token))
        except Exception as exc:
            cache_health.failed("public page render lock", exc)
    _held[competition_id] = taken


def prepare_warm(**kwargs) -> None:
    """The middleware stack :func:`warm` renders through, built once per worker process (when
    it starts: Celery's ``worker_ready`` / ``worker_process_init``, ``portal.apps``), not
    during the first push."""
    if warming() and not _stack:
        _stack.append(_Stack())


def warm_nice() -> int:
    """The CPU niceness (``nice``) of the thread that renders the hall pages after the first;
    0: every page in the worker's own thread, one after the other."""
    return int(getattr(settings, "UBF_PAGE_WARM_NICE", 0))


#: The thread rendering the hall's pages after the first (:func:`warm`), for tests and
#: benchmarks to wait on.
warming_thread: threading.Thread | None = None


def _warm_page(path: str, lang: str, token: str | bool) -> None:
    try:
        _stack[0].get_response(WSGIRequest(warm_request(path, lang, token)))
    except Exception:  # the next visitor renders it
        log.exception("Rendering %s (%s) after the recompute failed", path, lang)


def _warm_rest(pages: list[tuple[str, str, str | bool]], nice: int) -> None:
    """The hall pages after the first, in a thread of lower CPU priority (Linux: a thread's
    own niceness), so that while the phones keep the web workers busy they give way to them;
    each page's render lock renewed before it is rendered."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: as it is
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
    try:
        for path, lang, token in pages:
            if isinstance(token, str):
                try:
                    cache.touch(page_key(lang, path) + ":render", render_lock_seconds())
                except Exception as exc:
                    cache_health.failed("public page render lock", exc)
            _warm_page(path, lang, token)
    finally:
        connections.close_all()  # this thread's own


def warm(sender=None, competition_id=None, eager=False, **kwargs) -> None:
    """``clubs.recompute.recompute_finished``: the current season's DM Lag was recomputed in a
    Celery worker; render its hall pages again there, now, each as a visitor's internal
    request through the whole stack (``warm_request``), under the render lock :func:`hold`
    took, so that the phones polling them get the new round as soon as their worker sees the
    new versions, instead of waiting for one of the web workers they keep busy to render it
    (refresh-ahead; stale-while-revalidate stays for everything else). A page whose lock
    another holds is left to it, and one with no copy at all (nobody asked for it: an English
    /lag/final/ when no phone chose English) to its first visitor. The hall's own page
    (/lag/final/) in the site's language
    first, in the worker's thread; the others after it, in a thread of lower CPU priority
    (``UBF_PAGE_WARM_NICE``, 5 in production; 0: in the worker's thread too). Skipped
    in-process (``eager``: the request that asked for it would wait) and unless
    ``UBF_PAGE_WARM`` (production)."""
    global warming_thread
    held = dict(_held.pop(competition_id, ()))
    if not _hall(competition_id, eager):
        return
    prepare_warm()
    pages = [(path, lang, held.get(page_key(lang, path), True)) for path, lang in _hall_pages()]
    _warm_page(*pages[0])
    nice = warm_nice()
    if nice <= 0:
        for page in pages[1:]:
            _warm_page(*page)
        return
    warming_thread = threading.Thread(
        target=_warm_rest, args=(pages[1:], nice), name="ubf-warm", daemon=True
    )
    warming_thread.start()


def warm_request(path: str, lang: str, token: str | bool = True) -> dict:
    """The WSGI environ of a visitor's GET of ``path`` in ``lang``, marked ``ubf.warm`` (which
    no client can send: it is no header) with the render lock's token when :func:`hold` took
    it, so the cache's middleware renders and stores it."""
    hosts = [h.lstrip(".") for h in settings.ALLOWED_HOSTS if h not in ("*", "")]
    host = hosts[0] if hosts else "localhost"
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "HTTP_HOST": host,
        "HTTP_COOKIE": f"{settings.LANGUAGE_COOKIE_NAME}={lang}",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "https",
        "HTTP_X_FORWARDED_PROTO": "https",  # behind the TLS proxy (SECURE_PROXY_SSL_HEADER)
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        "ubf.warm": token,
    }


# --- The hall's pages fetched by every web worker as soon as they are stored -------------------
#
# When the Celery worker (or a web worker) stores a new copy of a hall page, the first phone to
# ask each web worker for it would fetch it from Redis: the versions and the shared copy's marks,
# then the copy itself (issue 21: the first /lag/ after an upload, 3-5x a warm request on the
# national season). Instead the storer announces the page on a Redis channel, and a thread of
# every web worker that holds a copy of it fetches the new copy and the versions at once: the
# phone's request is then served from the worker's own memory like any other.


def prefetching() -> bool:
    return bool(getattr(settings, "UBF_PAGE_PREFETCH", False))


def _channel(client) -> str:
    """The channel of this cache (its key prefix and Redis database: a channel is seen by
    every database of the server)."""
    db = client.connection_pool.connection_kwargs.get("db", 0)
    return f"{cache.make_key('ubf:page:stored')}:{db}"


def announce(key: str) -> None:
    """Tell every web worker that the hall page ``key`` was stored anew (:class:`Listener`)."""
    if not prefetching():
        return
    try:
        client = public_cache.redis_client()
        if client is not None:
            client.publish(_channel(client), key)
    except Exception as exc:  # the workers fetch it on the first request instead
        cache_health.failed("public page announcement", exc)


def prefetch(key: str) -> bool:
    """Fetch the shared copy of ``key`` and the versions of what it shows, in one round trip,
    and keep them in this process (the page in :data:`local_pages`, the versions as read now,
    ``public_cache.note``) when the copy is fresh and this process served the page before
    (and still holds a copy of it); True when it did."""
    hint = local_pages.keys_of(key)
    local = local_pages.get(key)
    if hint is None or local is None:
        return False  # a page this process does not serve: its first request fetches it
    found = cache.get_many([public_cache.ANY, *hint, key])
    stored = found.pop(key, None)
    if stored is None or stored[MARKS] == local[MARKS]:
        return False
    _versions_of(found, stored[MARKS])
    versions = {k: int(v) for k, v in found.items()}
    if not _is_fresh(stored, versions, clock.today()):
        return False  # overtaken by a write already: the next request finds out
    local_pages.put(key, stored)
    public_cache.note(versions)
    return True


class Listener:
    """A daemon thread per web worker process (started by ``ubf.middleware.PageCacheFront``,
    again after a fork), subscribed to the announcements of :func:`announce`, that fetches
    each announced page (:func:`prefetch`). A lost connection is opened again after a second;
    an announcement missed meanwhile costs the first request of that page the round trips it
    cost without the thread."""

    POLL_SECONDS = 1.0

    def __init__(self):
        self.pid: int | None = None
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.subscribed = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        if self.pid == os.getpid() or not prefetching():
            return
        with self.lock:
            if self.pid == os.getpid():
                return
            self.pid = os.getpid()
            self.stopping.clear()
            self.subscribed.clear()
            self.thread = threading.Thread(target=self._run, name="ubf-prefetch", daemon=True)
            self.thread.start()

    def stop(self, timeout: float = 5) -> None:
        """Stop the thread (tests)."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout)
        self.pid, self.thread = None, None

    def _run(self) -> None:
        failing = False
        while not self.stopping.is_set():
            pubsub = None
            try:
                client = public_cache.redis_client()
                if client is None:
                    return  # not Redis: nothing is announced
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(_channel(client))
                if failing:
                    log.warning("Public page announcements: listening again")
                    failing = False
                self.subscribed.set()
                while not self.stopping.is_set():
                    message = pubsub.get_message(timeout=self.POLL_SECONDS)
                    if message is not None and message["type"] == "message":
                        prefetch(message["data"].decode())
            except Exception:  # logged once an outage; tried again every second
                if not failing:
                    log.warning("Public page announcements: not heard", exc_info=True)
                failing = True
                self.subscribed.clear()
                self.stopping.wait(1)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()


listener = Listener()
