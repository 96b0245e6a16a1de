"""Settings, all from the environment (django-environ).

No variables at all: the embedded mode (SQLite under var/, Celery tasks in-process, mail to
the console, DEBUG on). DATABASE_URL and CELERY_BROKER_URL switch to PostgreSQL and a real
broker. DEBUG=false is production: SECRET_KEY and ALLOWED_HOSTS are then required.
"""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=True)
PRODUCTION = not DEBUG

if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("Production (DEBUG=false) needs SECRET_KEY of 50+ characters.")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("Production (DEBUG=false) needs ALLOWED_HOSTS.")
else:
    SECRET_KEY = env.str("SECRET_KEY", default="dev-only-insecure-key-do-not-use-in-production")
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

# --- The clock (clubs.clock) -------------------------------------------------------------------
# DEMO_DATE=2016-11-18 serves the demo season as of that day (``make demo`` sets it; TK can move
# it in the admin). Production runs on the real date: the clock cannot be moved there.
if PRODUCTION and (env.str("DEMO_DATE", default="") or env.str("UBF_CLOCK_OVERRIDE", default="")):
    raise ImproperlyConfigured("Production (DEBUG=false) runs on the real date: unset DEMO_DATE.")
UBF_DEMO_DATE = "" if PRODUCTION else env.str("DEMO_DATE", default="")
#: Seconds between two polls of the DM Lag final's block while it is played (issue 12).
UBF_LIVE_POLL_SECONDS = env.int("UBF_LIVE_POLL_SECONDS", default=30)
UBF_CLOCK_OVERRIDE = None if PRODUCTION else (env.str("UBF_CLOCK_OVERRIDE", default="") or None)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "crispy_forms",
    "crispy_bootstrap5",
    "simple_history",
    "clubs",
    "pairs",
    "teams",
    "results",
    "portal",
    "api",
    "ubf",
]

MIDDLEWARE = [
    "ubf.middleware.HeadWithoutBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ubf.middleware.PublicPageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "ubf.middleware.QueryLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
]

ROOT_URLCONF = "ubf.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubs.context_processors.demo_clock",
                "portal.context_processors.workplaces",
            ],
        },
    },
]

WSGI_APPLICATION = "ubf.wsgi.application"

# --- Database: SQLite under var/ unless DATABASE_URL says otherwise ---------------------------
VAR_DIR.mkdir(exist_ok=True)
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'ubf.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# SQLite cannot create the "NULLS NOT DISTINCT" unique constraints of StandingSnapshot and
# AllocationRun; there the recompute's row lock and update_or_create keep one row per scope.
SILENCED_SYSTEM_CHECKS = ["models.W047"] if "sqlite" in DATABASES["default"]["ENGINE"] else []

# --- Cache: CACHE_URL (e.g. redis://127.0.0.1:6379/1), else local memory -------------------
# The public pages' cache and its version (clubs.public_cache) must be shared by every worker
# process: in production without CACHE_URL the Redis broker is used, local memory only where
# one process serves (the demo's runserver, the tests).
_broker = env.str("CELERY_BROKER_URL", default="")
_cache_default = (
    _broker if PRODUCTION and _broker.startswith(("redis://", "rediss://")) else "locmemcache://ubf"
)
CACHES = {"default": env.cache("CACHE_URL", default=_cache_default)}
CACHES["default"].setdefault("KEY_PREFIX", "ubf")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Language: Swedish first, English too ----------------------------------------------------
LANGUAGE_CODE = "sv"
LANGUAGES = [("sv", _("Svenska")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Stockholm"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = env.path("STATIC_ROOT", default=str(VAR_DIR / "staticfiles"))
if DEBUG:
    Path(STATIC_ROOT).mkdir(parents=True, exist_ok=True)  # whitenoise warns when it is missing
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(VAR_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/lag/"
LOGOUT_REDIRECT_URL = "/lag/"

# --- Mail: console unless EMAIL_URL ----------------------------------------------------------
EMAIL_CONFIG = env.email("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="tk@upplandsbridge.se")

# --- Celery: eager (in-process) without a broker ---------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
from celery.schedules import crontab  # noqa: E402

CELERY_BEAT_SCHEDULE: dict = {
    # Deadline reminders (portal.services.reminders), daily at 07:00 in CELERY_TIMEZONE.
    "send-due-reminders": {
        "task": "portal.tasks.send_due_reminders",
        "schedule": crontab(hour=7, minute=0),
    },
}

# --- DRF -------------------------------------------------------------------------------------
# The API (api/, docs/architecture.md "The API"): scoring programs authenticate with a token
# (api.ApiToken, created by TK), the site with its session; errors are problem details.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonThrottle",
        "api.throttling.UserThrottle",
        "api.throttling.TokenThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("UBF_API_RATE_ANON", default="120/min"),
        "user": env.str("UBF_API_RATE_USER", default="600/min"),
        "token": env.str("UBF_API_RATE_TOKEN", default="600/min"),
    },
    "EXCEPTION_HANDLER": "api.problems.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "UBF DM API",
    "VERSION": "1.0.0",
    "DESCRIPTION": "DM Par och DM Lag: public reads, authenticated writes (docs/architecture.md).",
    # Swagger UI from the sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {"MatchStatusEnum": "teams.models.Match.Status"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.problem_responses",
    ],
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# --- Production hardening (passes `manage.py check --deploy`) --------------------------------
if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
