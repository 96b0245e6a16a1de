"""Swedish first: the site is Swedish unless the visitor chose English.

``?lang=en`` (or ``?lang=sv``) on any page switches the language and remembers the choice in
the language cookie, as Django's set_language view does. The browser's Accept-Language header
is ignored, so a phone set to English still gets the Swedish site until its owner switches.
"""

from django.conf import settings
from django.utils import translation

from clubs import clock
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
    of a page that is stored for the current version is answered here, before sessions,
    authentication, CSRF and the view, in one cache round trip (or 304 for a matching ETag).
    Anything else, a miss included, goes down the stack, where ``public_page`` renders and
    stores it. Placed right after WhiteNoise."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        if request.method not in ("GET", "HEAD") or not caching.visitor(request):
            return self.get_response(request)
        chosen = request.GET.get("lang")
        lang = chosen if chosen in self.codes else None
        if lang is None:
            cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
            lang = cookie if cookie in self.codes else settings.LANGUAGE_CODE
        day = clock.today()
        version, stored = caching.lookup(lang, day, request.get_full_path())
        if stored is None:
            return self.get_response(request)
        response = caching.respond(request, version, lang, day, stored)
        if chosen == lang and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != lang:
            # as QueryLanguageMiddleware: remember the choice
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                lang,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


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
