"""Swedish first: the site is Swedish unless the visitor chose English.

``?lang=en`` (or ``?lang=sv``) on any page switches the language and remembers the choice in
the language cookie, as Django's set_language view does. The browser's Accept-Language header
is ignored, so a phone set to English still gets the Swedish site until its owner switches.
"""

import io
import logging
from collections.abc import Callable
from decimal import Decimal

from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.module_loading import import_string

from portal import caching

log = logging.getLogger(__name__)


class QueryLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        if not request.path.startswith("/api/"):
            # The site stays Swedish whatever the browser prefers; the API answers a program
            # in the language it asks for (Accept-Language), as its errors' contract says.
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        lang = request.GET.get("lang")
        if lang not in self.codes:
            return self.get_response(request)
        # LocaleMiddleware (next) reads the cookie: set it for this request and keep it.
        request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = lang
        translation.activate(lang)
        response = self.get_response(request)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            lang,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
        return response


class PublicPageCacheMiddleware:
    """The fast path of the public pages' cache (``portal.caching``): a visitor's GET or HEAD
    of a page (or an anonymous API read of JSON) that is stored fresh is answered here, before
    sessions, authentication, CSRF, the API's throttles and the view, in one cache round trip
    (or 304 for a matching ETag). A stale copy is answered here too while another request
    renders the page again; in production every stale request is answered the copy and,
    once it is sent, the page is rendered in the background (``caching.renderer``) if this
    process takes its render lock; in the embedded mode the request that takes the lock goes
    down the stack to render it itself.
    Anything else, a page with no copy included, goes down the stack, where ``public_page``
    (``public_read``) renders and stores it. Placed right after WhiteNoise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        page = caching.page_of(request)
        if page is None:
            return self.get_response(request)
        lang, path, chosen = page
        plan = request.META.get("ubf.plan")  # PageCacheFront looked it up already
        if plan is None or (plan.lang, plan.path) != (lang, path):
            plan = caching.lookup(lang, path)
            request.META["ubf.plan"] = plan  # for public_page below, if it goes down
        warm = request.META.get("ubf.warm")
        if warm:  # portal.caching.warm: render it unless fresh, under its lock
            if isinstance(warm, str) and caching.holds(plan, warm):
                plan.token = warm  # portal.caching.hold took it before the recompute
            if (
                plan.fresh
                or plan.versions is None
                or plan.stored is None  # nobody asked for it: left to its first visitor
                or (plan.token is None and not plan.lock())
            ):
                plan.unlock()
                return HttpResponse(status=204)
            return self._render(request, plan)
        if plan.token is not None:  # PageCacheFront's render (caching.render_later)
            return self._render(request, plan)
        if plan.fresh:
            response = caching.respond(request, lang, plan.stored)
        elif plan.stored is not None and caching.in_background():
            response = caching.respond(request, lang, plan.stored, stale=True)
            if not plan.busy:  # queued once the previous copy is sent, if its lock is free
                response._resource_closers.append(
                    caching.render_later(request, plan, self.get_response)
                )
        elif plan.stored is not None and plan.lock():
            return self._render(request, plan)  # this request; the others get the copy
        elif plan.stored is not None:
            response = caching.respond(request, lang, plan.stored, stale=True)
        else:
            return self.get_response(request)
        if caching.remembers(request, lang, chosen):  # as QueryLanguageMiddleware
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                lang,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response

    def _render(self, request, plan):
        """Down the stack, where ``public_page`` renders the page under the lock ``plan``
        holds (``request.META["ubf.plan"]``), released however it ends."""
        try:
            return self.get_response(request)
        finally:
            plan.unlock()


class PageCacheFront:
    """WSGI, in front of Django's handler (``ubf.wsgi``): a visitor's GET or HEAD of a public
    page (or API read) that this worker process holds is answered here, without the handler,
    its signals and the middleware, when it is fresh, or stale while another renders it, or
    stale (in production): then, once the copy is sent, this process takes the page's render
    lock and, if it gets it, renders the page again through the whole stack
    (``caching.render_later``). The
    phones polling the hall's page cost a fraction of a request through Django (issue 21: a
    push's p99 with 200 pollers), and so does the first request after an upload. It answers
    exactly what :class:`PublicPageCacheMiddleware` would (``caching.respond``), with the
    headers the middleware above the cache adds (security, CSP, Permissions-Policy,
    X-Frame-Options) taken once per scheme by passing an empty answer through that same
    middleware (:meth:`stamp`), and HEAD without the body.

    Anything else goes to Django: a page this process never stored (a static file, a new
    page), one rendered while the request waits (the embedded mode), one that sets the
    language cookie, a logged-in user, an error here. A page it looked up goes with its plan
    (``ubf.plan``), so the middleware does not ask the cache again."""

    CACHE_MIDDLEWARE = "ubf.middleware.PublicPageCacheMiddleware"

    def __init__(self, app):
        self.app = app
        #: request.is_secure() -> the headers to add, or None: no fast path (a redirect)
        self.stamps: dict[bool, tuple[tuple[str, str], ...] | None] = {}

    def __call__(self, environ, start_response):
        caching.listener.start()  # this process's, once (the hall's pages fetched when stored)
        answer = None
        if environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            try:
                answer = self.answer(environ)
            except Exception:  # Django answers it, and reports what it finds
                log.exception("page cache front")
                environ.pop("ubf.plan", None)
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body, after = answer
        start_response(status, headers)
        return _Sent(body, after)

    def answer(self, environ) -> tuple[str, list, bytes, Callable | None] | None:
        request = WSGIRequest(environ)
        page = caching.page_of(request)
        if page is None:
            return None
        lang, path, chosen = page
        if caching.local_pages.keys_of(caching.page_key(lang, path)) is None:
            return None  # never stored by this process: no round trip here
        plan = caching.lookup(lang, path)
        environ["ubf.plan"] = plan
        if plan.stored is None or caching.remembers(request, lang, chosen):
            return None
        stamp = self.stamp(request)
        if stamp is None:
            return None
        after = None
        if not (plan.fresh or plan.busy):  # stale: rendered again, here or by another
            if not caching.in_background():
                return None  # Django renders it, or finds who does
            # the first request after an upload: the copy now; once it is sent, the render
            # lock, and the render if this process took it
            after = caching.render_later(request, plan, self.app.get_response)
        del environ["ubf.plan"]
        response = caching.respond(request, lang, plan.stored, stale=not plan.fresh)
        for name, value in stamp:
            response.headers.setdefault(name, value)
        body = response.content
        if request.method == "HEAD":  # as HeadWithoutBodyMiddleware
            response.headers.setdefault("Content-Length", str(len(body)))
            body = b""
        status = f"{response.status_code} {response.reason_phrase}"
        return status, [*response.items()], body, after

    def stamp(self, request) -> tuple[tuple[str, str], ...] | None:
        secure = request.is_secure()
        if secure not in self.stamps:
            self.stamps[secure] = self._stamp(request)
        return self.stamps[secure]

    def _stamp(self, request) -> tuple[tuple[str, str], ...] | None:
        """The headers the middleware above the cache's adds to an answer of the cache: an
        empty 200 passed through that middleware (built anew, as Django builds it) for a GET
        like ``request``. None when it answers anything else (an HTTPS redirect) or sets a
        cookie: such requests go to Django."""
        if self.CACHE_MIDDLEWARE not in settings.MIDDLEWARE:
            return None
        blank = HttpResponse()
        own = set(blank.headers)

        def handler(_request):
            return blank

        for name in reversed(
            settings.MIDDLEWARE[: settings.MIDDLEWARE.index(self.CACHE_MIDDLEWARE)]
        ):
            handler = import_string(name)(handler)
        probe = WSGIRequest({**request.META, "REQUEST_METHOD": "GET", "wsgi.input": io.BytesIO()})
        response = handler(probe)
        if response is not blank or response.status_code != 200 or response.cookies:
            return None
        return tuple((name, value) for name, value in response.items() if name not in own)


class _Sent(list):
    """A WSGI body that calls ``after`` once the server has sent it (``close``)."""

    def __init__(self, body: bytes, after: Callable | None):
        super().__init__([body])
        self.after = after

    def close(self) -> None:
        if self.after is not None:
            self.after()


class HeadWithoutBodyMiddleware:
    """HEAD is answered like GET, without the body (RFC 9110 9.3.2), on every page: the views
    accept HEAD (``require_safe``), and this, the outermost middleware, drops the body after
    the rest have run, keeping the GET's headers (Content-Length included). Servers such as
    gunicorn would drop it too; the test client and this middleware make it true everywhere."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method == "HEAD" and not response.streaming:
            length = response.get("Content-Length", str(len(response.content)))
            response.content = b""
            response["Content-Length"] = length
        return response


class RequestBodyLimitMiddleware:
    """A request body is capped before anything reads it (issue 14): a POST whose
    ``Content-Length`` is over the limit for its path is answered 413 with a page in the
    reader's language, and its body is never read (Django would otherwise parse a 200 MB
    upload into a temporary file before the form could refuse it).

    The limit is ``settings.REQUEST_BODY_LIMITS`` (path prefix → bytes; the result uploads
    under ``/resultat/``: the largest result file plus room for the form) or else
    ``settings.REQUEST_BODY_MAX_BYTES``. A body without a length is not read by Django at all
    (it reads ``Content-Length`` bytes), and the memory a body may take is capped by
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` / ``FILE_UPLOAD_MAX_MEMORY_SIZE``. Placed after the
    authentication middleware (lazy, it reads no body), so the page has its navigation."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads no body for a length it cannot read either
        limit = self.limit(request.path)
        if length > limit:
            return render(
                request,
                "413.html",
                {"size_mb": _mb(length), "limit_mb": _mb(limit)},
                status=413,
            )
        return self.get_response(request)

    @staticmethod
    def limit(path: str) -> int:
        for prefix, limit in settings.REQUEST_BODY_LIMITS.items():
            if path.startswith(prefix):
                return limit
        return settings.REQUEST_BODY_MAX_BYTES


def _mb(size: int) -> Decimal:
    """Megabytes with one decimal (the page's ``|num`` writes them in the reader's language)."""
    return (Decimal(size) / (1024 * 1024)).quantize(Decimal("0.1"))


class PermissionsPolicyMiddleware:
    """The ``Permissions-Policy`` header (``settings.PERMISSIONS_POLICY``) on every response,
    cached public pages included (placed before the cache's fast path)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = settings.PERMISSIONS_POLICY

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", self.policy)
        return response
