"""Settings for klawerjas-league, read from the environment (one module, no per-host files).

Environment variables (all optional for a local run):

``DATABASE_URL``
    Unset: a SQLite file ``db.sqlite3`` in the project folder (the embedded default).
    Example: ``postgres://postgres@127.0.0.1:5432/klawerjas``.
``REDIS_URL``
    Unset: Celery runs tasks in-process (``task_always_eager``) and the cache is local memory.
    Set: Redis is Celery's broker and result backend, and Django's cache.
``SECRET_KEY``
    Required unless ``DEBUG`` is on, when a development key is used. ``DEBUG`` defaults to on only
    when ``SECRET_KEY`` is unset (a development checkout), off otherwise.
``DEBUG``, ``ALLOWED_HOSTS`` (comma-separated), ``TIME_ZONE`` (default ``Africa/Johannesburg``),
``CONN_MAX_AGE`` (seconds a database connection is kept, default 60), ``TABLE_SIGN_IN_RATE`` (table-device
sign-ins per address, default ``600/hour``), ``NUM_PROXIES`` (proxies adding X-Forwarded-For, default 0),
``CELERY_TASK_DEFAULT_QUEUE`` (default ``klawerjas``), ``CELERY_VISIBILITY_TIMEOUT`` (seconds before Redis
redelivers a task a dead worker took; default 3600), ``CELERY_BROKER_KEY_PREFIX`` (default none),
``EMAIL_URL`` (default: the console backend), ``SITE_URL`` (the site's public address, ``https://league.example``:
links in shared pages, previews, calendars and e-mails; default: ``http://`` and the first of ``ALLOWED_HOSTS``),
``CALENDAR_UID_DOMAIN`` (the domain in calendar events' UIDs; default: ``SITE_URL``'s host).
Errors, logs and metrics (issue 37; docs/operate/health.md): ``SENTRY_DSN``, ``SENTRY_ENVIRONMENT``,
``SENTRY_RELEASE``, ``SENTRY_TRACES_SAMPLE_RATE``, ``ADMINS``, ``SERVER_EMAIL``, ``LOG_FORMAT`` (``plain`` or ``json``),
``LOG_LEVEL``, ``METRICS_ALLOWED_ADDRESSES``; scheduled backups: ``BACKUP_DIR``, ``BACKUP_KEEP``, ``BACKUP_HOUR``,
``BACKUP_MINUTE``, ``BACKUP_AGE_RECIPIENT``, ``BACKUP_AGE_RECIPIENTS_FILE``, ``BACKUP_AGE_IDENTITY`` (the drill only).
Health and the worker (issue 37; docs/operate/health.md "Health, the operator's page and the clock without a worker"):
``CELERY_UNACKED_RESTORE_SECONDS`` (default 10), ``BEAT_HEARTBEAT_SECONDS`` (default 60),
``BEAT_HEARTBEAT_MAX_AGE_SECONDS`` (default 180), ``OUTBOX_MAX_AGE_SECONDS`` (default 600).
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from plumbing.cache import caches_config
from plumbing.observability import (
    RequestIdCeleryIntegration,
    admins_from_env,
    git_commit,
    logging_config,
    sentry_init,
)

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

# With no environment at all this is a development checkout: DEBUG on, a development key.
# A deployment sets SECRET_KEY, which turns DEBUG off unless DEBUG says otherwise.
SECRET_KEY = env.str("SECRET_KEY", default="")
DEBUG = env.bool("DEBUG", default=not SECRET_KEY)

_DEV_SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (set DEBUG=1 for a development key).")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else [])

# The site's public address, never a request's Host header (issue 38): absolute links in OpenGraph tags, WhatsApp
# texts, calendar events and e-mails sent without a request. Calendar events' UIDs end in CALENDAR_UID_DOMAIN, so
# a phone that subscribed through another address (or a proxy) sees each fixture once.
_FIRST_HOST = next((h for h in ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")), "")
SITE_URL = env.str("SITE_URL", default=f"http://{_FIRST_HOST}" if _FIRST_HOST else "http://127.0.0.1:8000").rstrip("/")
CALENDAR_UID_DOMAIN = env.str("CALENDAR_UID_DOMAIN", default="") or (urlsplit(SITE_URL).hostname or "localhost")

INSTALLED_APPS = [
    # Django's admin with two-step sign-in for the site's administrators (accounts.two_step.TwoStepAdminSite).
    "accounts.apps.TwoStepAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_htmx",
    "axes",
    # Two-step sign-in (accounts/two_step.py): authenticator apps (TOTP) and recovery codes (static).
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    # The request id (X-Request-ID) in every log line, the response and the tasks a request starts (issue 37).
    "django_guid",
    # The plumbing (label klawerjas_league: the outbox, task receipts, the user's language), then signing in.
    "plumbing",
    "accounts",
    "clubs",
    "matches",
    "referee",
    "tables",
    "appeals",
    "records",
    "drives",
    "office",
    "privacy",
    "demo",
]

MIDDLEWARE = [
    # First, so that every answer carries X-Request-ID and is counted: a client's own request id is dropped
    # unless a trusted proxy is in front (NUM_PROXIES), then django-guid keeps or makes one; the metrics.
    "plumbing.observability.RequestIdTrustMiddleware",
    "django_guid.middleware.guid_middleware",
    "plumbing.metrics.MetricsMiddleware",
    # A poll's 204 or 304 loses the headers that only a body needs (plumbing/middleware.py, issue 40).
    "plumbing.middleware.EmptyAnswerMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Pages and JSON leave gzipped for phones on prepaid data (issue 40); Django's own, which adds random bytes
    # against BREACH, and CSRF tokens are masked per request. Behind the shipped nginx the proxy compresses
    # instead (it asks for plain answers, keeps them in its micro-cache and gzips on the way out).
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session (the language cookie and the user's stored choice) and before CommonMiddleware.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): whether this session gave a two-step code (django-otp).
    "django_otp.middleware.OTPMiddleware",
    # Sets the language cookie to a user's stored choice on sign-in; Vary: Accept-Language, Cookie everywhere.
    "plumbing.language.LanguageCookieMiddleware",
    # A signed-in person's answer, or one with a session or a cookie, is Cache-Control: private (issue 40).
    "plumbing.middleware.PrivateWhenSignedInMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Two-step sign-in: a session without the code, of a user who has two-step or must have it, reaches only the
    # two-step pages (accounts/two_step.py).
    "accounts.two_step.TwoStepMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # A lost database connection answers 503 "try again", not 500 (plumbing/middleware.py).
    "plumbing.middleware.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "klawerjas_league.urls"

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
                "django.template.context_processors.csp",
                "plumbing.sharing.sharing_context",
            ],
        },
    },
]

WSGI_APPLICATION = "klawerjas_league.wsgi.application"
ASGI_APPLICATION = "klawerjas_league.asgi.application"

# --- Database: PostgreSQL (or any dj-database-url) from DATABASE_URL, else embedded SQLite.
DATABASES = {"default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Connections are kept open between requests (a minute; CONN_MAX_AGE=0 closes each): on a match night phones poll
# the live pages hundreds of times a second, and opening a connection per request cost more than the request
# (bench/match_night_load.py). Health checks drop a connection the database has closed before it is reused.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A match night writes from many devices at once. On SQLite a write transaction takes the write lock when it
    # begins (IMMEDIATE), and a busy database is waited for (up to 20 s) rather than refused: writes queue up
    # instead of failing with "database is locked". The tests use a file too (not SQLite's shared in-memory
    # database, whose table locks are not waited for), so the browser tests' concurrent requests queue alike.
    # Write-ahead logging (issue 23): a commit appends to the log and syncs it once, where the default rollback
    # journal synced the journal and the database file, several times (about 15 ms a commit on this project's
    # server, 2.6 ms in WAL); readers no longer wait for a writer. synchronous=FULL keeps every commit on disk
    # (a power cut loses no acknowledged going-on). scripts/backup copies online; scripts/restore clears the log.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE", timeout=20, init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    )
    DATABASES["default"].setdefault("TEST", {}).setdefault(
        "NAME", str(Path("/dev/shm" if Path("/dev/shm").is_dir() else "/tmp") / f"klawerjas-test-{os.getpid()}.sqlite3")
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: broker, result backend and cache when REDIS_URL is set; in-process otherwise.
REDIS_URL = env.str("REDIS_URL", default="")
# The cache is only a speed-up: when Redis cannot be reached, reads miss and writes do nothing, and pages come from
# the database (plumbing/cache.py; /healthz still says 503 naming the cache). CACHE_SOCKET_TIMEOUT (seconds)
# bounds how long a request waits for an unreachable Redis. The per-address limits (failed sign-ins, wrong table
# codes, table sign-ins) count in a cache of their own, "limits": on Redis, and in each process's memory while
# Redis cannot be reached, so no limit is off while Redis is down (plumbing/limits.py).
CACHES = caches_config(redis_url=REDIS_URL, key_prefix=env.str("CACHE_KEY_PREFIX", default="klawerjas"),
                       socket_timeout=env.float("CACHE_SOCKET_TIMEOUT", default=0.5))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="klawerjas")
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_TIME_LIMIT = 5 * 60
CELERY_TASK_SOFT_TIME_LIMIT = 4 * 60
# A task's message is acknowledged when the task has finished, not when it starts (acks_late), so a worker
# killed half-way loses nothing: the message goes back to the queue, and every task is idempotent (a receipt
# or a unique constraint in the same transaction as the effect; docs/operate/deployment.md). With Redis, a message a
# dead worker took is delivered again once CELERY_VISIBILITY_TIMEOUT seconds (default 1 hour) have passed
# since it was taken; keep it above the longest ETA (the clock timers are ETA'd at most ~75 minutes ahead;
# an early redelivery is harmless, as the timers are idempotent). CELERY_BROKER_KEY_PREFIX puts the broker's
# keys under a prefix, for several installations (or test runs) on one Redis database.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600)}
if env.str("CELERY_BROKER_KEY_PREFIX", default=""):
    CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"] = env.str("CELERY_BROKER_KEY_PREFIX")
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A request never waits long for an unreachable broker: one quick retry, short socket timeouts. What it queued
# is in the outbox (plumbing/outbox.py) and is sent when the broker is back.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BROKER_TRANSPORT_OPTIONS.update(socket_connect_timeout=2, socket_timeout=5)
# A worker looks for messages taken and not acknowledged for longer than the visibility timeout (a worker that
# died, or a Redis restart that cut the connection under a held clock timer) every CELERY_UNACKED_RESTORE_SECONDS
# (default 10; one cheap ZRANGE) instead of kombu's default of every 100 s.
CELERY_BROKER_TRANSPORT_OPTIONS.update(
    unacked_restore_interval=env.int("CELERY_UNACKED_RESTORE_SECONDS", default=10), unacked_restore_throttle=1)
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 5
# The outbox: its flush runs every OUTBOX_FLUSH_SECONDS (beat) and re-sends a message handed to the broker more
# than OUTBOX_REDISPATCH_SECONDS ago that has not run yet (a Redis that lost it); at most OUTBOX_BATCH a flush.
OUTBOX_FLUSH_SECONDS = env.float("OUTBOX_FLUSH_SECONDS", default=30)
OUTBOX_REDISPATCH_SECONDS = env.float("OUTBOX_REDISPATCH_SECONDS", default=300)
OUTBOX_BATCH = env.int("OUTBOX_BATCH", default=500)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker's consumer survives a Redis restart while it holds a clock timer (Celery 5.7.0 exited then; issue 37).
CELERY_WORKER_CONSUMER = "klawerjas_league.worker:Consumer"
# Health (klawerjas_league/health.py, /healthz and the operator's page): beat's heartbeat task runs every
# BEAT_HEARTBEAT_SECONDS and health names beat when none ran for BEAT_HEARTBEAT_MAX_AGE_SECONDS; it names the
# outbox when a message has waited longer than OUTBOX_MAX_AGE_SECONDS.
BEAT_HEARTBEAT_SECONDS = env.float("BEAT_HEARTBEAT_SECONDS", default=60)
BEAT_HEARTBEAT_MAX_AGE_SECONDS = env.float("BEAT_HEARTBEAT_MAX_AGE_SECONDS", default=3 * BEAT_HEARTBEAT_SECONDS)
OUTBOX_MAX_AGE_SECONDS = env.float("OUTBOX_MAX_AGE_SECONDS", default=600)
# BACKUP_DIR (where scripts/backup writes; the operator's page shows the newest) is set with the scheduled backups.
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TIMEZONE = env.str("TIME_ZONE", default="Africa/Johannesburg")

# --- Auth, with sign-in throttling (accounts/sign_in.py). django-axes locks an account from one address
# (username and address together) after AXES_FAILURE_LIMIT wrong passwords for AXES_COOLOFF_MINUTES, and tries
# during the lockout do not lengthen it: nobody elsewhere can lock a referee out, and a lockout costs minutes. Each
# client address may fail SIGN_IN_FAILURES_PER_ADDRESS sign-ins in SIGN_IN_WINDOW_MINUTES (any usernames). The
# client address is REMOTE_ADDR, or behind NUM_PROXIES trusted proxies the one they put in X-Forwarded-For
# (plumbing/limits.py; every per-address limit uses it).
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
# Shared caches (issue 40): a public page or live part that is the same for everyone may be answered by a
# reverse proxy or CDN for SHARED_CACHE_SECONDS, and SHARED_CACHE_STALE_SECONDS more while it fetches the next
# (plumbing/page_cache.py; deploy/nginx/klawerjas-league.conf keeps them). 0 turns sharing off. One second: a
# phone polling every 3 s then shows a change within about 4 s (3 + 1 + the fetch; with 2, the national final's
# phones took up to 5.01 s: bench/national_final.py).
SHARED_CACHE_SECONDS = env.int("SHARED_CACHE_SECONDS", default=1)
SHARED_CACHE_STALE_SECONDS = env.int("SHARED_CACHE_STALE_SECONDS", default=5)
# A public live poll (the match page's live part, /api/fixtures/{id}/live/) reuses its match's live version, read
# in this process less than LIVE_VERSION_REUSE_SECONDS ago, without a query (plumbing/recent.py; issue 40): another
# worker's write shows that much later at most (the writer's own process at once). 0 reads it on every poll.
LIVE_VERSION_REUSE_SECONDS = env.float("LIVE_VERSION_REUSE_SECONDS", default=1.0)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("AXES_COOLOFF_MINUTES", default=5))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "plumbing.limits.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_LOCKOUT_CALLABLE = "accounts.sign_in.lockout_response"
# No "AXES: BEGIN version ..." banner on standard error at start-up (a command such as `manage.py adjudicate`
# prints only its own messages there) and no per-attempt chatter in the logs.
AXES_VERBOSE = env.bool("AXES_VERBOSE", default=False)
SIGN_IN_FAILURES_PER_ADDRESS = env.int("SIGN_IN_FAILURES_PER_ADDRESS", default=30)
SIGN_IN_WINDOW_MINUTES = env.float("SIGN_IN_WINDOW_MINUTES", default=10)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"  # klawerjas_league.views.dashboard: each role to its own pages
LOGOUT_REDIRECT_URL = "home"
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=12 * 3600)  # a match night, then sign in again

# --- Two-step sign-in (django-otp; accounts/two_step.py, docs/operate/security.md). Anyone may turn it on
# (an authenticator app, and 10 recovery codes); a union's setting Union.two_step_required makes it required for its
# officials and referees, and ADMIN_TWO_STEP_REQUIRED for the site's administrators (superusers and staff: /admin/
# and every page). ADMIN_TWO_STEP_REQUIRED is on in production and off in a development checkout (DEBUG), where the
# administrator is the developer. A wrong code makes the next try wait 1, 2, 4, 8 … seconds (django-otp's
# throttling, OTP_*_THROTTLE_FACTOR seconds); the password step must be followed by the code within
# TWO_STEP_PENDING_SECONDS. OTP_TOTP_ISSUER is the name the authenticator app shows beside the account.
ADMIN_TWO_STEP_REQUIRED = env.bool("ADMIN_TWO_STEP_REQUIRED", default=not DEBUG)
TWO_STEP_PENDING_SECONDS = env.int("TWO_STEP_PENDING_SECONDS", default=300)
OTP_TOTP_ISSUER = env.str("OTP_TOTP_ISSUER", default="klawerjas-league")
OTP_TOTP_THROTTLE_FACTOR = 1
OTP_STATIC_THROTTLE_FACTOR = 1
# The admin lists users' authenticators and recovery codes (to delete them for someone who lost both) but never
# shows a secret or a code.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# --- Security. Production (DEBUG off) gets HTTPS-only cookies, HSTS and a redirect to HTTPS; a proxy that
# terminates TLS must send X-Forwarded-Proto. SECURE_SSL_REDIRECT=0 where TLS is handled elsewhere entirely.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = not DEBUG
SESSION_COOKIE_HTTPONLY = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# Content Security Policy (Django's own): scripts and styles from this site, or inline with the request's nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# --- Internationalisation: English (the source language) and Afrikaans (docs/use/languages.md).
# A request's language: a signed-in user's stored choice, else the language cookie (the AF/EN switch; a table
# device has only this), else the browser's Accept-Language, else English. The codes are "en" and "af" so that
# <html lang> says so; their date and number formats are South Africa's (klawerjas_league/formats/).
LANGUAGE_CODE = "en-za"
LANGUAGES = [("en", "English"), ("af", "Afrikaans")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["klawerjas_league.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a table device keeps its language for the season
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = env.str("TIME_ZONE", default="Africa/Johannesburg")
USE_I18N = True
USE_TZ = True

# --- Static files
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Email (Django 6.1 MAILERS): the console by default; SMTP when EMAIL_URL is set,
# e.g. smtp+tls://user:password@mail.example.org:587
_email = env.email_url("EMAIL_URL", default="consolemail://")
_smtp_options = {
    "host": _email.get("EMAIL_HOST"),
    "port": _email.get("EMAIL_PORT"),
    "username": _email.get("EMAIL_HOST_USER"),
    "password": _email.get("EMAIL_HOST_PASSWORD"),
    "use_tls": _email.get("EMAIL_USE_TLS"),
    "use_ssl": _email.get("EMAIL_USE_SSL"),
}
MAILERS = {
    "default": {
        "BACKEND": _email["EMAIL_BACKEND"],
        "OPTIONS": {k: v for k, v in _smtp_options.items() if v not in (None, "")}
        if _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
        else {},
    }
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="klawerjas-league <noreply@klawerjas-league.invalid>")
# An invitation's link (office.invitations) works once, for this many days after it was (last) sent.
INVITATION_VALID_DAYS = env.int("INVITATION_VALID_DAYS", default=7)

# --- Django REST Framework
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "knox.auth.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's three parsers, the JSON one bounded: a body nested too deep is a 400, not a 500 (issue 35, finding 6).
    "DEFAULT_PARSER_CLASSES": [
        "plumbing.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "plumbing.api_schema.AutoSchema",  # summaries and refusals (issue 38)
    # Sign-ins of table devices per client address (a hall's Wi-Fi shares one address: 60 matches are 240 phones).
    "DEFAULT_THROTTLE_RATES": {"table-sign-in": env.str("TABLE_SIGN_IN_RATE", default="600/hour")},
    # Proxies in front of the site that add X-Forwarded-For (0: trust none, the client is REMOTE_ADDR).
    "NUM_PROXIES": NUM_PROXIES,
}
# API tokens (django-rest-knox, accounts/api_auth.py): one per sign-in, stored as a digest, expiring after
# API_TOKEN_TTL_HOURS (default 12: a match night), at most API_TOKENS_PER_USER live at once per user.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.float("API_TOKEN_TTL_HOURS", default=12)),
    "TOKEN_LIMIT_PER_USER": env.int("API_TOKENS_PER_USER", default=50),
    "AUTO_REFRESH": False,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "klawerjas-league API",
    "DESCRIPTION": "Unions, clubs, teams, fixtures, results and standings for SAKBOC Klawerjas leagues.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from our own static files (no CDN), so /api/docs/ works offline and under the CSP.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "CompetitionKindEnum": "matches.models.Competition.Kind",
        "AwardKindEnum": "matches.models.Award.Kind",
        "BoemStatusEnum": "matches.models.Boem.Status",
        "BoemEntryKindEnum": "matches.models.BoemEntry.Kind",
        "MatchSideEnum": "referee.models.Side",
        "SeatRoleEnum": "referee.models.Role",
        "RulingDecisionEnum": "referee.models.Ruling.Decision",
        "DisciplinaryOffenceEnum": "clubs.models.DisciplinaryRecord.Offence",
        "InvitationRoleEnum": "office.models.Invitation.Role",
        "StrafOffenceEnum": "referee.hand_check.SAKBOC_OFFENCE_CHOICES",
        "LineStateEnum": ["provisional", "confirmed", "disputed", "struck"],
        # A deal's sides: the league's table names them home/away, a club drive's table 0/1 (issue 24).
        "DealSideEnum": ["home", "away"],
        "DriveSideEnum": "drives.models.SIDES",
        "RulesetEnum": "matches.models.RULESET_CHOICES",
        "DriveRulesetEnum": "drives.models.makers_ruleset_choices",
    },
}

# --- Errors, logs and metrics (issue 37; plumbing/observability.py and metrics.py, docs/operate/health.md "Errors, logs
# and metrics"). Errors go to Sentry when SENTRY_DSN is set (nothing personal: POPIA s19), else Django e-mails each
# 500 to ADMINS ("Name <a@example.org>, b@example.org") through the mail settings above, from SERVER_EMAIL.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env.str("SENTRY_ENVIRONMENT", default="development" if DEBUG else "production")
SENTRY_RELEASE = env.str("SENTRY_RELEASE", default="") or (git_commit(BASE_DIR) if SENTRY_DSN else "")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
ADMINS = [] if SENTRY_DSN else admins_from_env(env.str("ADMINS", default=""))
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# Logs: one line per record on standard error with the time (UTC), level, logger and request id; LOG_FORMAT=json
# writes each as a JSON object. The request id: django-guid, header X-Request-ID (taken from the request only behind
# a trusted proxy: plumbing.observability.RequestIdTrustMiddleware), passed on to the Celery tasks a request
# starts; the worker logs with these settings too (use_django_logging).
LOG_FORMAT = env.str("LOG_FORMAT", default="plain")
LOGGING = logging_config(log_format=LOG_FORMAT, level=env.str("LOG_LEVEL", default="INFO"))
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "RETURN_HEADER": True,
    "EXPOSE_HEADER": False,
    "INTEGRATIONS": [RequestIdCeleryIntegration(use_django_logging=True)],
}
# Prometheus metrics at /metrics (plumbing/metrics.py), for these addresses or CIDR blocks only (the client
# address of plumbing.limits.client_address); anyone else gets 404.
METRICS_ALLOWED_ADDRESSES = env.list("METRICS_ALLOWED_ADDRESSES", default=["127.0.0.1", "::1"])

# --- Scheduled backups (Celery beat, "backup-daily" below; docs/operate/backups.md): every day at BACKUP_HOUR:
# BACKUP_MINUTE (TIME_ZONE) scripts/backup writes the database, encrypted with age to BACKUP_AGE_RECIPIENT (or the
# keys in BACKUP_AGE_RECIPIENTS_FILE), into BACKUP_DIR, and the newest BACKUP_KEEP are kept. No recipient: skipped,
# with a warning in the log. BACKUP_AGE_IDENTITY is read only by the restore drill (manage.py backup_drill).
BACKUP_DIR = Path(env.str("BACKUP_DIR", default=str(BASE_DIR / "backups")))
BACKUP_KEEP = env.int("BACKUP_KEEP", default=14)
BACKUP_HOUR = env.int("BACKUP_HOUR", default=3)
BACKUP_MINUTE = env.int("BACKUP_MINUTE", default=15)
BACKUP_AGE_RECIPIENT = env.str("BACKUP_AGE_RECIPIENT", default="")
BACKUP_AGE_RECIPIENTS_FILE = env.str("BACKUP_AGE_RECIPIENTS_FILE", default="")
BACKUP_AGE_IDENTITY = env.str("BACKUP_AGE_IDENTITY", default="")

# --- Celery beat: re-arm the match-clock timers from the database every minute (matches/tasks.py), so a
# worker restart loses no deadline (interval due, grace expiry, full time).
CELERY_BEAT_SCHEDULE = {
    "match-clock-rearm": {"task": "matches.match_clock_rearm", "schedule": 60.0, "options": {"expires": 55}},
    # Team sheets due within 24 h and results unconfirmed 24 h after: once each (matches/notifications.py).
    "captain-reminders": {"task": "matches.captain_reminders", "schedule": 900.0, "options": {"expires": 840}},
    # Send what the outbox holds (work queued while the broker was down, or lost by it; plumbing/outbox.py).
    "outbox-flush": {"task": "klawerjas_league.outbox_flush", "schedule": OUTBOX_FLUSH_SECONDS,
                     "options": {"expires": max(OUTBOX_FLUSH_SECONDS - 5, 1)}},
    # Appeals past their decision deadline go to the overdue list; the committee is reminded once (appeals/tasks.py).
    "appeals-overdue": {"task": "appeals.appeals_overdue_close", "schedule": 3600.0, "options": {"expires": 3500}},
    # Optional data (e-mail, phone) of players inactive longer than their union keeps it, once a day (POPIA s14;
    # privacy/retention.py).
    "privacy-retention": {"task": "privacy.retention_sweep", "schedule": 86400.0, "options": {"expires": 82800}},
    # The daily backup, encrypted, into BACKUP_DIR, keeping the newest BACKUP_KEEP (plumbing/backups.py).
    "backup-daily": {"task": "klawerjas_league.backup_scheduled",
                     "schedule": crontab(hour=BACKUP_HOUR, minute=BACKUP_MINUTE), "options": {"expires": 3600}},
    # Beat's heartbeat: health names beat when it stops (klawerjas_league/health.py).
    "beat-heartbeat": {"task": "klawerjas_league.beat_heartbeat", "schedule": BEAT_HEARTBEAT_SECONDS,
                       "options": {"expires": max(BEAT_HEARTBEAT_SECONDS - 5, 1)}},
}

# Errors to Sentry from here on (it reads the settings above: nothing is sent when SENTRY_DSN is unset).
sentry_init(dsn=SENTRY_DSN, environment=SENTRY_ENVIRONMENT, release=SENTRY_RELEASE,
            traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE)
