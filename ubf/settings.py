"""Settings, all from the environment (django-environ).

Fails safe: without DEBUG=true this is production (DEBUG off), which needs SECRET_KEY and
ALLOWED_HOSTS and refuses to start without the collected static files (``ubf.checks``).
DEBUG=true, which ``make demo``, the Makefile's other commands and the test suite set
explicitly, is the embedded mode (SQLite under var/, Celery tasks in-process, mail to the
console). DATABASE_URL and CELERY_BROKER_URL switch to PostgreSQL and a real broker.
"""

from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from results.importers.detect import DEFAULT_MAX_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
env.read_env(BASE_DIR / ".env") if (BASE_DIR / ".env").exists() else None

DEBUG = env.bool("DEBUG", default=False)
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
    "axes",
    "csp",
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
    "csp.middleware.CSPMiddleware",
    "ubf.middleware.PermissionsPolicyMiddleware",
    # Before the page cache's fast path, so a cached page has X-Frame-Options too (issue 25).
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ubf.middleware.PublicPageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "ubf.middleware.QueryLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ubf.middleware.RequestBodyLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
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
# The public pages' cache (portal.caching, issue 21): a stale page is rendered again by one
# request while the others get the previous copy; in production by a thread of the worker, so
# that even that request is answered at once (off in the embedded mode: the tests' and the
# demo's request renders it itself). The render lock expires after that many seconds.
UBF_PAGE_RENDER_IN_BACKGROUND = env.bool("UBF_PAGE_RENDER_IN_BACKGROUND", default=PRODUCTION)
UBF_PAGE_RENDER_THREADS = env.int("UBF_PAGE_RENDER_THREADS", default=2)
UBF_PAGE_RENDER_LOCK_SECONDS = env.float("UBF_PAGE_RENDER_LOCK_SECONDS", default=10.0)
UBF_PAGE_WAIT_SECONDS = env.float("UBF_PAGE_WAIT_SECONDS", default=5.0)
# A worker serves a page it holds on the versions it read less than this long ago, without a
# round trip to Redis; another worker's write is seen within it (its own at once). Not in the
# embedded mode: its cache is the process's own memory (no round trip to save), and a test
# that empties the cache means it.
UBF_PAGE_VERSION_SECONDS = env.float(
    "UBF_PAGE_VERSION_SECONDS", default=0.25 if PRODUCTION else 0.0
)
# After a recompute in a Celery worker of the current season's DM Lag, that worker renders
# /lag/final/ and /lag/ again at once (refresh-ahead), not the web workers the hall polls.
UBF_PAGE_WARM = env.bool("UBF_PAGE_WARM", default=PRODUCTION)
# ... /lag/final/ in Swedish first; the others in a thread of this CPU niceness, which gives
# way to the web workers while the phones keep them busy (0: all in the worker's thread).
UBF_PAGE_WARM_NICE = env.int("UBF_PAGE_WARM_NICE", default=5 if PRODUCTION else 0)
# A hall page stored anew (by that worker or a web worker) is announced on Redis, and a thread
# of every web worker that serves it fetches the new copy at once: the first phone's request
# is served from the worker's own memory (portal.caching.Listener; off in the embedded mode,
# whose cache is the process's own).
UBF_PAGE_PREFETCH = env.bool("UBF_PAGE_PREFETCH", default=PRODUCTION)
# Redis unreachable (issue 25): nothing waits long for it. A dead host costs at most this
# many seconds once per process every few seconds (clubs.cache_health), after which pages
# are served uncached and the API unthrottled (logged once an outage).
if CACHES["default"]["BACKEND"].startswith("django_redis."):
    _cache_timeout = env.float("CACHE_SOCKET_TIMEOUT", default=1.0)
    CACHES["default"].setdefault("OPTIONS", {})
    CACHES["default"]["OPTIONS"].setdefault("SOCKET_CONNECT_TIMEOUT", _cache_timeout)
    CACHES["default"]["OPTIONS"].setdefault("SOCKET_TIMEOUT", _cache_timeout)

# --- The client's address (clubs.client_ip): how many proxies in front of gunicorn ---------
# 0 (the default): X-Forwarded-For is ignored. Behind the README's TLS proxy: 1. The API's
# throttles and the login lockout (django-axes) read the same address.
UBF_TRUSTED_PROXIES = env.int("UBF_TRUSTED_PROXIES", default=0)

# --- Login throttling (django-axes) -----------------------------------------------------------
# The site's login and /admin/: after 5 failed attempts for one username from one IP address,
# that username is locked from that address for 15 minutes (templates/registration/lockout.html,
# in Swedish, in the site's layout). Axes' backend comes first so that every authenticate()
# is checked; it needs the request, which Django's login views pass.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "portal.accounts.lockout"
AXES_VERBOSE = False
#: The client's address from UBF_TRUSTED_PROXIES, as for the API's throttles.
AXES_CLIENT_IP_CALLABLE = "clubs.client_ip.client_ip"
#: Password-reset mails to one address within an hour (portal.views.account, the cache).
UBF_PASSWORD_RESET_MAILS_PER_HOUR = env.int("UBF_PASSWORD_RESET_MAILS_PER_HOUR", default=3)
#: Days an invitation link (clubs.Invitation) stays valid.
UBF_INVITATION_DAYS = env.int("UBF_INVITATION_DAYS", default=14)

#: A refused form token gets the site's 403 page, in the reader's language.
CSRF_FAILURE_VIEW = "portal.accounts.csrf_failure"

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

# --- Request bodies (issue 14): capped before they are read ----------------------------------
# ubf.middleware.RequestBodyLimitMiddleware answers 413 to a Content-Length over the limit for
# the path before anything reads the body: the result uploads take the largest result file
# (results.importers.detect.DEFAULT_MAX_BYTES, 5 MB) plus room for the form, every other page
# (a heat's invitation PDF) 10 MB. Of a body within the limit, form fields may take 1 MB of
# memory and a file 1 MB before Django writes it to a temporary file instead.
RESULT_UPLOAD_MAX_BYTES = DEFAULT_MAX_BYTES
REQUEST_BODY_MAX_BYTES = env.int("REQUEST_BODY_MAX_BYTES", default=10 * 1024 * 1024)
REQUEST_BODY_LIMITS = {"/resultat/": RESULT_UPLOAD_MAX_BYTES + 64 * 1024}
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "portal:landing"
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
# Recovery within a minute with these defaults (issue 25; README "Running on PostgreSQL, Redis
# and Celery"). A recompute still pending UBF_REQUEUE_AFTER_SECONDS after it was asked for is
# sent again by the sweep (results.recompute.requeue_pending), which beat runs every
# UBF_REQUEUE_SWEEP_SECONDS: its task was lost to a broker outage or to a worker killed
# outright. A competition is sent again at most once per UBF_REQUEUE_AFTER_SECONDS, and a task
# whose competition a recompute has meanwhile counted does nothing (results.tasks), so a
# busy queue does not fill with repeats.
UBF_REQUEUE_AFTER_SECONDS = env.int(
    "UBF_REQUEUE_AFTER_SECONDS",
    # the former setting, in minutes, still counts where a deployment set it
    default=60 * env.int("UBF_REQUEUE_AFTER_MINUTES", default=0) or 30,
)
UBF_REQUEUE_SWEEP_SECONDS = env.int("UBF_REQUEUE_SWEEP_SECONDS", default=15)
# A task whose worker was killed outright (acks_late: not yet acknowledged) also goes back to
# the queue once the visibility timeout has passed (kombu's default is an hour). It must stay
# longer than the longest task, or a running recompute is handed out a second time: the
# longest, one competition of the national season (50 pairs heats), took 4.2 s cold on a
# loaded machine (benchmarks/recompute.py, README); 120 s leaves ample room. The sweep above
# usually comes first.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=120),
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = dict(CELERY_BROKER_TRANSPORT_OPTIONS)
from celery.schedules import crontab  # noqa: E402

CELERY_BEAT_SCHEDULE: dict = {
    # Deadline reminders (portal.services.reminders), daily at 07:00 in CELERY_TIMEZONE.
    "send-due-reminders": {
        "task": "portal.tasks.send_due_reminders",
        "schedule": crontab(hour=7, minute=0),
    },
    # Recomputes pending longer than UBF_REQUEUE_AFTER_SECONDS are sent again (lost tasks).
    "requeue-pending-recomputes": {
        "task": "results.recompute.requeue_pending",
        "schedule": float(UBF_REQUEUE_SWEEP_SECONDS),
        # a sweep not taken within one period is dropped: the next one comes
        "options": {"expires": float(UBF_REQUEUE_SWEEP_SECONDS)},
    },
}

# --- Content-Security-Policy (django-csp) and Permissions-Policy (ubf.middleware) -----------
# Scripts only from the site's own static files: no inline script, no eval (the templates'
# behaviour lives in static/js/ubf.js). Inline styles stay allowed: the admin's templates and
# htmx's indicator style use them.
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, "'unsafe-inline'"],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
#: Browser features the site never uses, switched off for every page.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), magnetometer=(), "
    "gyroscope=(), accelerometer=()"
)

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
    # The throttles' client (api.throttling uses clubs.client_ip, which follows the same rule).
    "NUM_PROXIES": UBF_TRUSTED_PROXIES,
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

# Error pages and error mails never show the settings (the broker's and database's URLs,
# passwords included), not even the DEBUG page of the demo.
DEFAULT_EXCEPTION_REPORTER_FILTER = "ubf.errors.NoSettingsExceptionReporterFilter"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
