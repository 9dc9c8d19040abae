"""Settings for Cardroom, read from the environment.

Defaults suit a developer's machine (``make run``): a SQLite file and the in-memory channel
layer. Production sets ``SECRET_KEY`` (required unless ``DEBUG`` is on), ``ALLOWED_HOSTS``,
``CSRF_TRUSTED_ORIGINS``, ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channel layer and
cache shared by every process). See the README's configuration table.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a yes/no environment variable ("1", "true", "yes", "on" are yes)."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable as a list of non-empty items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for development).")
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# Reverse proxies in front of the site that append to X-Forwarded-For and set
# X-Forwarded-Proto (0: none; the headers are then ignored). See cardroom.proxies.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "csp",
    "friendship",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    # After the others, as django-axes asks: it turns lockouts into a "too many attempts" page.
    "axes.middleware.AxesMiddleware",
    # Innermost and sync-only, so Django runs the whole chain in one thread rather than hopping
    # threads for each middleware: a page view costs a third less CPU (docs/benchmarks.md).
    "games.people.languages.AccountLanguageMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # Login throttling: counts failures per username and address, refuses after the limit.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_USERNAME_CALLABLE = "games.views.accounts.axes_username"
AXES_CLIENT_IP_CALLABLE = "cardroom.proxies.client_ip"

# A strict Content-Security-Policy: no inline script or style anywhere; htmx runs without eval
# (see the htmx-config meta tag in base.html).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "cardroom.urls"
ASGI_APPLICATION = "cardroom.asgi.application"
WSGI_APPLICATION = "cardroom.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.sanctions",
            ],
        },
    },
]

# Database: a SQLite file unless DATABASE_URL names another (PostgreSQL in production).
# Connections never outlive the work that opened them (CONN_MAX_AGE 0): under ASGI a
# connection kept past its request is never closed. On
# PostgreSQL they come from Django's pool, so a process holds at most DB_POOL_SIZE whatever the
# request rate; a request that finds them all busy waits DB_POOL_TIMEOUT seconds, then fails.
# DB_POOL_SIZE=0 opens one per request (for an external pooler, e.g. PgBouncer, that bounds them).
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
    )
}
DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", "10"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_SIZE > 0:
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL_SIZE,
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
        # An idle connection above min_size is closed after this many seconds.
        "max_idle": 60,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file (not in-memory) test database, so a live server in another process shares it.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

# HTTP requests run their sync code on reused threads; this many idle ones are kept by a process
# (cardroom/request_threads.py).
HTTP_THREADS = int(os.environ.get("HTTP_THREADS", "8"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and cache: in-process by default, Redis (shared by every process) when set.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis with a pool that waits when all its connections are busy; hundreds of
            # sockets joining their groups at once need many.
            "BACKEND": "cardroom.layers.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
                    }
                ]
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                "pool_class": "cardroom.cache_pool.ProcessPool",
                "max_connections": int(os.environ.get("REDIS_CACHE_CONNECTIONS", "50")),
                "timeout": 20,  # seconds a command waits for a free connection
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "cardroom.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("bg", _("Bulgarian")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["cardroom.formats"]
# The switcher's choice lasts a year (a logged-in player's also lives in their profile).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Serve straight from the apps' static folders in development (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Cardroom <noreply@localhost>")
# The site's public address, for links in mail sent with no request at hand (a public cup's
# reminder from manage.py start_due_events): by default the first trusted origin.
SITE_URL = os.environ.get("SITE_URL", "") or next(
    iter(CSRF_TRUSTED_ORIGINS), "http://localhost:8000"
)

# Security. Production (DEBUG off) is secure by default; TLS ends at the site itself or at
# trusted proxies that set X-Forwarded-Proto.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

# Limits per account and per address (games.people.limits; sockets: games.people.online):
# sockets open at once, tables waiting or playing at once, accounts created per hour, reports
# filed per hour, deal reviews worked out per hour (a review already kept is read freely),
# friend requests and invitations sent per hour, links confirming an e-mail address sent per
# hour.
MAX_SOCKETS_PER_ACCOUNT = int(os.environ.get("MAX_SOCKETS_PER_ACCOUNT", "20"))
MAX_OPEN_TABLES_PER_ACCOUNT = int(os.environ.get("MAX_OPEN_TABLES_PER_ACCOUNT", "10"))
SIGNUPS_PER_ADDRESS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_ADDRESS_PER_HOUR", "5"))
REPORTS_PER_USER_PER_HOUR = int(os.environ.get("REPORTS_PER_USER_PER_HOUR", "20"))
REVIEWS_PER_HOUR = int(os.environ.get("REVIEWS_PER_HOUR", "30"))
FRIEND_REQUESTS_PER_HOUR = int(os.environ.get("FRIEND_REQUESTS_PER_HOUR", "30"))
INVITATIONS_PER_HOUR = int(os.environ.get("INVITATIONS_PER_HOUR", "60"))
EMAIL_CONFIRMATIONS_PER_HOUR = int(os.environ.get("EMAIL_CONFIRMATIONS_PER_HOUR", "3"))

# Web Push (games/live/push.py): the site's VAPID key pair (base64url, as web-push tools make
# them: the raw private number and the uncompressed public point) and the contact address push
# services may write to. Without the keys push is off, except under DEBUG, which makes a key
# pair and keeps it in VAPID_DEVELOPMENT_KEYS. A player keeps MAX_PUSH_DEVICES devices.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:webmaster@localhost")
VAPID_DEVELOPMENT_KEYS = (
    os.environ.get("VAPID_DEVELOPMENT_KEYS", str(BASE_DIR / ".vapid-dev-keys")) if DEBUG else ""
)
MAX_PUSH_DEVICES = int(os.environ.get("MAX_PUSH_DEVICES", "10"))

# Computer players: the pause before a bot's move (so people can follow), its thinking time,
# how long a disconnected player's turn waits before a bot covers for them, and how many turns
# in a row a player's timer may run out (a bot making each move) before a bot covers for them.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
BOT_BUDGET = float(os.environ.get("BOT_BUDGET", "0.3"))
# Where computer players think (games/live/thinking.py): Channels workers when the channel
# layer reaches other processes (run `manage.py runworker bot-moves`), else a process pool.
BOTS_IN_WORKERS = env_bool("BOTS_IN_WORKERS", default=bool(REDIS_URL))
BOT_PROCESSES = int(os.environ.get("BOT_PROCESSES", "1"))
BOT_ANSWER_SECONDS = float(os.environ.get("BOT_ANSWER_SECONDS", "10"))
AWAY_GRACE_SECONDS = float(os.environ.get("AWAY_GRACE_SECONDS", "30"))
TIMEOUTS_BEFORE_COVER = int(os.environ.get("TIMEOUTS_BEFORE_COVER", "3"))

# The daily Belote: a new set of DAILY_DEALS deals opens at every midnight of DAILY_TIME_ZONE.
DAILY_TIME_ZONE = os.environ.get("DAILY_TIME_ZONE", "Europe/Sofia")
DAILY_DEALS = int(os.environ.get("DAILY_DEALS", "8"))

# Presence: each server process refreshes its heartbeat this often while it holds table
# sockets; a process silent for PRESENCE_STALE_SECONDS is taken for dead (killed, crashed) and
# its players for gone.
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "10"))
PRESENCE_STALE_SECONDS = float(os.environ.get("PRESENCE_STALE_SECONDS", "30"))

# Sockets of a process that may arrive at once, from handshake to first frame
# (games/live/arrivals.py); the others wait their turn.
ARRIVALS_AT_ONCE = int(os.environ.get("ARRIVALS_AT_ONCE", "4"))

# Prometheus metrics (cardroom/metrics.py): each process (server or bot worker) serves its own
# at this port and address; 0 serves none. Give every process of a machine its own port.
METRICS_PORT = int(os.environ.get("METRICS_PORT", "0"))
METRICS_ADDRESS = os.environ.get("METRICS_ADDRESS", "127.0.0.1")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
