"""``?lang=en`` on any page switches the language for that request and the session."""

from django.conf import settings
from django.utils import translation


class QueryLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.codes = {code for code, _ in settings.LANGUAGES}

    def __call__(self, request):
        lang = request.GET.get("lang")
        if lang in self.codes:
            # LocaleMiddleware reads the cookie; set it for this request and keep it.
            request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = lang
            translation.activate(lang)
            response = self.get_response(request)
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, lang, samesite="Lax")
            return response
        return self.get_response(request)
