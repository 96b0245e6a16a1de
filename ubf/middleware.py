"""Swedish first: the site is Swedish unless the visitor chose English.

``?lang=en`` (or ``?lang=sv``) on any page switches the language and remembers the choice in
the language cookie, as Django's set_language view does. The browser's Accept-Language header
is ignored, so a phone set to English still gets the Swedish site until its owner switches.
"""

from decimal import Decimal
from functools import partial

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import translation

from portal import caching


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
    renders the page again; the request that takes the page's render lock renders it in the
    background (``caching.renderer``, production) or goes down the stack to render it itself.
    Anything else, a page with no copy included, goes down the stack, where ``public_page``
    (``public_read``) renders and stores it. Placed right after WhiteNoise."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        api = request.path.startswith("/api/")
        if not (caching.api_visitor(request) if api else caching.visitor(request)):
            return self.get_response(request)
        chosen = request.GET.get("lang")
        lang = chosen if chosen in self.codes else None
        if lang is None and api:  # the API honours Accept-Language (as LocaleMiddleware)
            lang = translation.get_language_from_request(request)
        if lang is None:
            cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
            lang = cookie if cookie in self.codes else settings.LANGUAGE_CODE
        path = caching.api_path(request) if api else request.get_full_path()
        plan = caching.lookup(lang, path)
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
            request._ubf_plan = plan
            try:
                return self.get_response(request)
            finally:
                plan.unlock()
        if plan.fresh:
            response = caching.respond(request, lang, plan.stored)
        elif plan.stored is not None and plan.lock():
            if not caching.in_background():
                request._ubf_plan = plan  # this request renders it; the others get the copy
                try:
                    return self.get_response(request)
                finally:
                    plan.unlock()
            internal = caching.internal_request(request)
            internal._ubf_plan = plan
            response = caching.respond(request, lang, plan.stored, stale=True)
            # queued once the previous copy is sent (the server closes the response), so the
            # render does not hold up this answer (one interpreter lock for both)
            response._resource_closers.append(
                partial(caching.renderer.submit, plan.key, partial(self._render, internal, plan))
            )
        elif plan.stored is not None:
            response = caching.respond(request, lang, plan.stored, stale=True)
        else:
            request._ubf_plan = plan
            return self.get_response(request)
        if chosen == lang and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != lang:
            # as QueryLanguageMiddleware: remember the choice
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                lang,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response

    def _render(self, internal, plan) -> None:
        """In a renderer thread: the page rendered again through the stack below, which stores
        it (``caching.serve``: the plan holds the lock); the lock released however it ends.
        (A page this process queued already is not queued again: its lock expires.)"""
        try:
            self.get_response(internal)
        finally:
            plan.unlock()


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
