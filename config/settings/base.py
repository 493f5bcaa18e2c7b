"""Settings shared by every way of running the product, read from the environment.

With nothing set this is the *embedded default*: a SQLite file, Celery in eager mode (tasks run
inline) and a local-memory cache. Setting ``DATABASE_URL`` and ``REDIS_URL`` switches to
PostgreSQL and to Redis as Celery broker, result backend and cache.
"""

from __future__ import annotations

import datetime
import warnings
from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONCE

from common.lan import LOOPBACK_HOSTS, lan_host_names
from config.env import (
    get_bool,
    get_database,
    get_int,
    get_list,
    get_public_url,
    get_push_url,
    get_rate,
    get_redis_url,
    get_str,
)

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = get_str("DJANGO_SECRET_KEY", "embedded-default-not-for-production")
# Off unless asked for (DJANGO_DEBUG=1 on a developer's machine): the debug pages show settings,
# queries and source to whoever reaches the server, and `make run` may well be reached by a room.
DEBUG = get_bool("DJANGO_DEBUG", False)
# Hosts: unless DJANGO_ALLOWED_HOSTS lists them, the loopback names and this machine's names and
# addresses on the local network, so phones on the club's Wi-Fi reach `make run HOST=0.0.0.0`
# (common/lan.py). Production requires the list (config/settings/production.py).
ALLOWED_HOSTS = get_list("DJANGO_ALLOWED_HOSTS", [*LOOPBACK_HOSTS, *lan_host_names()])
CSRF_TRUSTED_ORIGINS = get_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# The address players' phones reach this server by (PUBLIC_BASE_URL, e.g. http://192.168.1.20:8000):
# QR codes and links in e-mails are built from it. Unset: from the address the page was asked
# by, or, when that is a loopback name (the director's own laptop), from the machine's LAN
# address and the same port (common.urls.public_url).
PUBLIC_BASE_URL = get_public_url("PUBLIC_BASE_URL")
if PUBLIC_BASE_URL:
    _public_host = urlsplit(PUBLIC_BASE_URL).hostname or ""
    ALLOWED_HOSTS.append(f"[{_public_host}]" if ":" in _public_host else _public_host)
    CSRF_TRUSTED_ORIGINS.append(PUBLIC_BASE_URL)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    # PostgreSQL's search lookups (trigram similarity: search/); harmless on SQLite
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, not a CDN
    "axes",  # login attempts: lockout after repeated failures (AXES_* below)
    "allauth",  # sign-up, e-mail confirmation, password reset (ACCOUNT_* below)
    "allauth.account",
    "csp",  # Content-Security-Policy header (CONTENT_SECURITY_POLICY below)
    # Project apps, lowest layer first (docs/architecture.md "Layers", measured by
    # tests/config/test_layers.py); each imports only from earlier ones. The pure packages
    # below them (rules_engine, pairing, ranking, formats) are not Django apps.
    "clubs",
    "tournaments",
    "scoring",
    "conduct",
    "standings",
    "draw",
    "events",
    "league",
    "archive",
    "following",
    "series",
    "registrations",
    "profiles",
    "privacy",
    "public",
    "search",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Cache-Control: no-store on the table API and a person's own data (common.middleware).
    "common.middleware.NoStoreMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A body over REQUEST_MAX_BYTES: a 413 before anything reads it; a NUL character in a query
    # parameter or form field: a 400 before anything reads it.
    "common.middleware.RequestSizeMiddleware",
    "common.middleware.NulCharacterMiddleware",
    # The standings poll of a public event, answered from the cache before the session, the
    # user and the URL resolver (95 % of a live event's requests; standings/middleware.py).
    # Compression is per view, not here: only pages without secrets or a CSRF token are
    # gzipped (standings.views.compressed: BREACH).
    "standings.middleware.StandingsVersionMiddleware",
    # Public pages of public events: ETag, 304 from one query, Cache-Control public; everything
    # else private. Before the session, CSRF and messages, to see every cookie they set
    # (public/caching.py).
    "public.caching.PublicCacheMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language cookie or the browser's Accept-Language (after the session, before
    # CommonMiddleware, as Django asks); refined below once the user and the page are known.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "public.middleware.ClubTimeZoneMiddleware",  # a club's pages in the club's time zone
    # the account's language, else a club's pages in the club's language (after the user)
    "public.middleware.ReaderLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "common.middleware.IdempotencyKeyMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before checking it
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",  # user name or e-mail address
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
                "csp.context_processors.nonce",
            ],
            # common has no models and is no app: its tags are named here
            "libraries": {"money": "common.templatetags.money",
                          "numbers": "common.templatetags.numbers"},
            # {% translate %} and {% blocktranslate %} in every template without a {% load %}.
            "builtins": ["django.templatetags.i18n", "common.templatetags.labels"],
        },
    },
]

DATABASES = {"default": get_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = get_int("DATABASE_CONN_MAX_AGE", 0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default takes concurrent writers (every table's phone saving at once): the
    # write-ahead log lets readers and one writer work together, a transaction takes the write
    # lock when it begins (a read lock upgraded mid-transaction fails at once with "database is
    # locked", whatever the timeout) and a writer waits its turn for up to the timeout.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": get_int("SQLITE_BUSY_TIMEOUT_SECONDS", 20, minimum=1),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Accounts (django-allauth; clubs/accounts.py fits it to the product). Anyone may sign up with a
# user name, an e-mail address and a password, and signs in once the address is confirmed
# (accounts an administrator made without an address sign in as before); sign in by user name
# or e-mail address; forgotten passwords are reset by e-mail.
ACCOUNT_ADAPTER = "clubs.accounts.AccountAdapter"
ACCOUNT_FORMS = {"login": "clubs.accounts.LoginForm"}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True  # the confirming browser is signed in and sent on
ACCOUNT_SESSION_REMEMBER = True  # signed in until logging out, as before (phones at the table)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Pinochle scoring] "
# Failed sign-ins are counted and locked out by django-axes alone (AXES_* below): allauth's own
# login limits would answer first, with another page, and per address rather than per account.
ACCOUNT_RATE_LIMITS = {"login": None, "login_failed": None}

# E-mail (confirmations, password resets). Embedded default: the console backend, so whoever runs
# `make run` finds the confirmation link in the terminal. EMAIL_HOST set: SMTP through it
# (STARTTLS on 587 unless told otherwise). DJANGO_EMAIL_BACKEND overrides the choice.
EMAIL_HOST = get_str("EMAIL_HOST", "")
EMAIL_BACKEND = get_str(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = get_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = get_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = get_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = get_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = get_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_SSL:
    EMAIL_USE_TLS = False  # SSL on connect (port 465) and STARTTLS exclude each other
EMAIL_TIMEOUT = get_int("EMAIL_TIMEOUT_SECONDS", 10, minimum=1)
DEFAULT_FROM_EMAIL = get_str("DEFAULT_FROM_EMAIL", "Pinochle scoring <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Web Push (following/: a player's own phone told where to sit). VAPID_PRIVATE_KEY: the raw P-256
# private key, base64url (`manage.py vapid_keys` makes a pair); VAPID_PUBLIC_KEY: its public
# point (derived when unset); VAPID_SUBJECT: a mailto: or https: address push services may
# write to. Unset keys: derived from SECRET_KEY while VAPID_FROM_SECRET_KEY is on (the embedded
# default and the tests; production turns it off, so there Web Push needs the keys set).
VAPID_PRIVATE_KEY = get_str("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = get_str("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = get_str("VAPID_SUBJECT", "mailto:noreply@localhost")
VAPID_FROM_SECRET_KEY = True
# Sending a round's notices (following.tasks): each push or mail gives up after this long, a
# batch of followers is sent by this many threads at once, and a task that has run this long
# hands the rest of the round's followers to a new task.
FOLLOW_SEND_TIMEOUT_SECONDS = get_int("FOLLOW_SEND_TIMEOUT_SECONDS", 5, minimum=1)
FOLLOW_SEND_THREADS = get_int("FOLLOW_SEND_THREADS", 8, minimum=1)
FOLLOW_TASK_BUDGET_SECONDS = get_int("FOLLOW_TASK_BUDGET_SECONDS", 20, minimum=1)
# A push's whole time (resolving, connecting, sending, the answer), however its push service
# answers (following.push); a run of the round's notices cut short (a killed worker) and
# untouched this long is taken up again, for what it had not sent (the beat, every minute).
FOLLOW_PUSH_DEADLINE_SECONDS = get_int("FOLLOW_PUSH_DEADLINE_SECONDS", 8, minimum=1)
FOLLOW_NOTICE_RESUME_SECONDS = get_int("FOLLOW_NOTICE_RESUME_SECONDS", 120, minimum=30)
# Tests only (never from the environment; production refuses it): push endpoints on loopback
# addresses, over http, are allowed (the tests' own push service on 127.0.0.1).
FOLLOW_PUSH_ALLOW_LOCAL = False
# "E-mail me too" on a follow page mails the address typed (a confirmation link): at most this
# many to one address, and this many asked by one client address (following.views).
FOLLOW_EMAIL_RATE_ADDRESS = get_rate("FOLLOW_EMAIL_RATE_ADDRESS", "3/hour")
FOLLOW_EMAIL_RATE_CLIENT = get_rate("FOLLOW_EMAIL_RATE_CLIENT", "10/hour")

# Trusted reverse proxies in front of the web processes (each appends to X-Forwarded-For): the
# client's address, for login lockouts and API rate limits, is the one the outermost saw
# (common.http.client_ip). 0: REMOTE_ADDR itself.
NUM_PROXIES = get_int("DJANGO_NUM_PROXIES", 0)

# Uploads: the largest request body read at all (an event archive is at most 25 MB, plus the
# form around it); archives above ARCHIVE_INLINE_MAX_BYTES are imported by the worker, never in
# a web request, at most ARCHIVE_MAX_HANDS hands each (archive.services).
REQUEST_MAX_BYTES = get_int("REQUEST_MAX_BYTES", 26 * 1024 * 1024, minimum=1024 * 1024)
ARCHIVE_MAX_BYTES = 25 * 1024 * 1024
ARCHIVE_MAX_HANDS = get_int("ARCHIVE_MAX_HANDS", 20_000, minimum=1)
ARCHIVE_INLINE_MAX_BYTES = get_int("ARCHIVE_INLINE_MAX_BYTES", 1024 * 1024, minimum=0)
ARCHIVE_IMPORT_TIME_LIMIT = get_int("ARCHIVE_IMPORT_TIME_LIMIT", 600, minimum=30)

# Login lockout (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one user name from
# one address, that pair is refused for the cool-off time (other addresses and names are not,
# so nobody can lock a director out from elsewhere); a right password resets the count. After
# LOGIN_ADDRESS_FAILURE_LIMIT wrong passwords from one address, whatever the names, every name
# that failed there is refused from it too (higher: a club room shares one address; a name that
# never failed there still signs in with its right password). Two limits: clubs.lockout.
AXES_FAILURE_LIMIT = get_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
LOGIN_ADDRESS_FAILURE_LIMIT = get_int("LOGIN_ADDRESS_FAILURE_LIMIT", 50, minimum=1)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=get_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], ["ip_address"]]
AXES_HANDLER = "clubs.lockout.LockoutHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "common.http.client_ip"
# The sign-in form's field is allauth's `login` (a user name or an e-mail address); the callable
# counts both as the one account they name (clubs.accounts.login_identifier).
AXES_USERNAME_FORM_FIELD = "login"
AXES_USERNAME_CALLABLE = "clubs.accounts.login_identifier"
AXES_VERBOSE = False  # no banner on every start; lockouts are still logged

# Languages: English (the default) and German. Who reads in which: the account's own choice
# (clubs.AccountSettings, or the language cookie the switcher sets), then on a club's pages,
# walls and mails the club's language (Club.language), then the browser's Accept-Language,
# then English (public.middleware.ReaderLanguageMiddleware). The catalogs live in locale/
# (.po and the compiled .mo are both committed; `manage.py compilemessages` rebuilds them).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and numbers follow the reader's language (config/formats/<lang>/formats.py: a German
# page writes 28.11.2026 and 1.234; English keeps its dates and ungrouped numbers). Grouping is
# asked for where a figure is shown ({{ value|grouped }}, common.templatetags.numbers), never
# globally: ids in URLs and data-* attributes must stay plain digits.
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(get_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# The embedded default serves static files from the app folders (no collectstatic step), with
# DEBUG on or off; production serves the collected, hashed files only.
WHITENOISE_USE_FINDERS = True
# ... so an absent STATIC_ROOT is expected there, not worth WhiteNoise's start-up warning.
warnings.filterwarnings("ignore", message="No directory at: ", category=UserWarning)
# manage.py load_demo (users with known passwords): refused under the production settings.
DEMO_DATA_ALLOWED = True

REDIS_URL = get_redis_url("REDIS_URL")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "common.cache.RedisCache",  # Django's, keeping its clients
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery: every task setting lives here, in one place. ---------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
# kombu's Redis transport with one fix: a worker holding messages when Redis goes away keeps
# running instead of dying (config/celery.py, RedisTransport).
CELERY_BROKER_TRANSPORT = "config.celery:RedisTransport" if REDIS_URL else None
CELERY_RESULT_BACKEND = REDIS_URL  # None: eager mode keeps results in memory
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the message for another worker
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker's CPU priority below the web processes' (nice; 0 leaves it as started): see
# config/celery.py, lower_worker_priority.
WORKER_NICENESS = get_int("WORKER_NICENESS", 10, minimum=0)
# A worker's child process is replaced after this many tasks (0: never), as gunicorn replaces a
# web worker after GUNICORN_MAX_REQUESTS: memory a long day leaves behind in one is given back (the
# next standings run of an event then reads it in full once: standings.incremental).
CELERY_WORKER_MAX_TASKS_PER_CHILD = get_int("CELERY_MAX_TASKS_PER_CHILD", 1000, minimum=0) or None
CELERY_TASK_SOFT_TIME_LIMIT = get_int("CELERY_TASK_SOFT_TIME_LIMIT", 30, minimum=1)
CELERY_TASK_TIME_LIMIT = get_int("CELERY_TASK_TIME_LIMIT", 60, minimum=1)
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing from a web process gives up after one immediate retry when Redis is away (the hand
# is saved either way; reconcile catches up), instead of kombu's default of retrying for the
# whole connect timeout. Workers reconnect by their own loop and keep retrying, without limit
# (CELERY_BROKER_CONNECTION_MAX_RETRIES = None): a worker must outlive a Redis restart.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float] = {
    "visibility_timeout": 300,
    "max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_MAX_RETRIES: int | None = None
# Retry policy shared by tasks that touch the database (see standings.tasks).
TASK_RETRY_POLICY = {"max_retries": 5, "countdown": 2}
# Beat writes a heartbeat to the cache on every tick (`manage.py beat_health` checks it).
CELERY_BEAT_SCHEDULER = "standings.beat:HeartbeatScheduler"
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {
        "task": "standings.tasks.reconcile_standings",
        "schedule": float(get_int("STANDINGS_RECONCILE_SECONDS", 30, minimum=1)),
    },
    # An automatic advance lost with a killed worker or an absent broker (draw.tasks).
    "reconcile-advances": {
        "task": "draw.tasks.reconcile_advances",
        "schedule": float(get_int("ADVANCE_RECONCILE_SECONDS", 15, minimum=1)),
    },
    # A round's notices whose run a killed worker cut short (following.tasks).
    "resume-follow-notices": {
        "task": "following.tasks.notices_resume",
        "schedule": 60.0,
    },
}
# Push (standings/push.py, standings/push_server.py): where browsers open the standings stream, a path
# like /push/ (a proxy sends it to the ASGI process, `uvicorn config.asgi:application`) or the
# push process's own address. Unset: the pages poll, the only mechanism of the embedded default.
# Push needs Redis (pub/sub); a stream's token is valid for PUSH_TOKEN_SECONDS (a wall screen
# left open longer falls back to polling until it is reloaded).
PUSH_URL = get_push_url("PUSH_URL") if REDIS_URL else ""
PUSH_TOKEN_SECONDS = get_int("PUSH_TOKEN_SECONDS", 24 * 3600, minimum=60)
# Standings updates (standings.services): a queued update waits this long before it runs, so a
# burst of entries is folded into one run; the "update queued" mark lasts at most this long.
# With push the pages see a new snapshot at once, so the wait is the largest part of the delay
# between a saved hand and the room seeing it: shorter then, but not much (each run costs a
# fetch by every open page; 500 ms saturated two cores at 64 tables); polling, it matters less.
STANDINGS_DEBOUNCE_SECONDS = get_int("STANDINGS_DEBOUNCE_MS", 750 if PUSH_URL else 1000,
                                     minimum=0) / 1000
STANDINGS_PENDING_SECONDS = 30
# The push process sends an event's snapshots to its streams at most this often: the newest of
# those that came sooner goes out when the interval is over (standings.push_server; 0: each).
PUSH_COALESCE_SECONDS = get_int("PUSH_COALESCE_MS", 0, minimum=0) / 1000
# Ratings (league.ratings): a confirmation's run waits this long, so a round's end (a
# confirmation at every table within seconds) is rated in one run (common.tasks).
RATINGS_DEBOUNCE_SECONDS = get_int("RATINGS_DEBOUNCE_MS", 2000, minimum=0) / 1000
# What the pages poll, kept in the cache (standings/status.py): an entry not written for
# this long is read from the database again.
STANDINGS_STATUS_CACHE_SECONDS = 30
# Result-store trouble must not hold a request for the backend's default 20 × 1 s.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1},
}

REST_FRAMEWORK = {
    # DRF's JSON parser less the bodies that crashed requests (deep nesting, lone surrogates).
    "DEFAULT_PARSER_CLASSES": [
        "common.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Rate limits (common.throttles): per address for anonymous callers, per user when signed
    # in, per table for the table endpoints (the room's phones share one address). Over the
    # limit the answer is 429 with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": [
        "common.throttles.AnonThrottle",
        "common.throttles.UserThrottle",
        "common.throttles.ScopedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": get_rate("API_RATE_ANON", "300/min"),
        "user": get_rate("API_RATE_USER", "1200/min"),
        "table": get_rate("API_RATE_TABLE", "600/min"),
        # the self check-in page's searches and "I'm here" (common.throttles.page_allowed): per
        # address, and a room's phones share one; about 3 searches and a tap per player
        "self_checkin": get_rate("API_RATE_SELF_CHECKIN", "240/min"),
        # "I'm here" taps of one event in all, page and API (common.throttles.keyed_wait)
        "self_checkin_event": get_rate("API_RATE_SELF_CHECKIN_EVENT", "120/min"),
        # registering for an event without an account (the form and the API's create), and
        # asking for one's registration link again: per address, each a mail sent
        "registration": get_rate("API_RATE_REGISTRATION", "20/min"),
    },
    "NUM_PROXIES": NUM_PROXIES,
    # Token first: its ``WWW-Authenticate: Token`` header makes a missing, wrong, regenerated
    # or inactive user's credential a 401 (the REST convention); a signed-in browser's session
    # is still read when no token is sent. A refusal of a known user stays a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "clubs.authentication.AccountTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pinochle scoring API",
    "DESCRIPTION": "Clubs, events, tables, hands and live standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Seats appear as dealer, bidder and renege seat: one enum named Seat in the schema.
    "ENUM_NAME_OVERRIDES": {"SeatEnum": "common.labels.SEATS",
                            # the partnerships of a four-handed game (a forfeit's side)
                            "SideEnum": "common.labels.SIDES",
                            # a member's role (four) and an invitation's (three)
                            "MembershipRoleEnum": "clubs.models.Membership.Role",
                            "InvitationRoleEnum": "clubs.models.Invitation.Role",
                            # an event's self check-in (its field, and the switch's body)
                            "SelfCheckInEnum": "tournaments.models.Event.SelfCheckIn"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "common.schema.document_common_responses",  # 429 everywhere, 400 for a bad body
    ],
}

# Content-Security-Policy (django-csp middleware).
# Scripts: our own files, and inline <script> elements only with the page's nonce
# ({{ CSP_NONCE }}). Inline event handlers (onclick=...) are refused everywhere: pages use
# data-confirm and data-print (static/js/site.js). Styles: our own files and inline style attributes (the
# templates and the live standings fragments use them; style injection is not script
# injection). Images: ours and data: URLs (Swagger UI's icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        # the follow page's service worker (/sw.js, following/): our own script only
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
if PUSH_URL.startswith(("http://", "https://")):
    # The page's EventSource connects to another origin: the policy must allow it.
    _push = urlsplit(PUSH_URL)
    _directives: dict[str, list[str]] = CONTENT_SECURITY_POLICY["DIRECTIVES"]  # type: ignore[assignment]
    _directives["connect-src"].append(f"{_push.scheme}://{_push.netloc}")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"no_4xx_traceback": {"()": "common.logging.NoTracebackFor4xx"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": get_str("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        # Each eager task would log a line per hand; a worker lowers this to INFO as it sets up
        # its logging, so its log shows every task's duration (config/celery.py).
        "celery.app.trace": {"level": "WARNING"},
        # A 403 is one line ("Forbidden (Permission denied): /path"), not a traceback.
        "django.request": {"filters": ["no_4xx_traceback"]},
        "django.security": {"filters": ["no_4xx_traceback"]},
        # django-axes logs every login at INFO; its lockouts are warnings.
        "axes": {"level": "WARNING"},
    },
}
