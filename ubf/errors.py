"""What an error report may show: never the settings (``DEFAULT_EXCEPTION_REPORTER_FILTER``).

Django masks settings whose names look secret (KEY, PASS, TOKEN ...), but not
``CELERY_BROKER_URL`` or ``DATABASES``, whose URLs can carry passwords; the DEBUG page of the
demo and the error mails leave the settings out altogether."""

from django.views.debug import SafeExceptionReporterFilter


class NoSettingsExceptionReporterFilter(SafeExceptionReporterFilter):
    def get_safe_settings(self) -> dict:
        return {}
