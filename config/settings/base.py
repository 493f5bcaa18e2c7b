"""Settings shared by every way of running the product, read from the environment.

With nothing set this is the *embedded default*: a SQLite file, Celery in eager mode (tasks run
inline) and a local-memory cache. Setting ``DATABASE_URL`` and ``REDIS_URL`` switches to
PostgreSQL and to Redis as Celery broker, result backend and cache.
"""

from __future__ import annotations

from pathlib import Path

from config.env import get_bool, get_database, get_int, get_list, get_redis_url, get_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = get_str("DJANGO_SECRET_KEY", "embedded-default-not-for-production")
DEBUG = get_bool("DJANGO_DEBUG", True)
ALLOWED_HOSTS = get_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = get_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files, not a CDN
    # Project apps, lowest layer first (see README "Layers"); each imports only from earlier ones.
    "clubs",
    "tournaments",
    "scoring",
    "standings",
    "draw",
    "public",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
            ],
        },
    },
]

DATABASES = {"default": get_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = get_int("DATABASE_CONN_MAX_AGE", 0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
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

REDIS_URL = get_redis_url("REDIS_URL")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery: every task setting lives here, in one place. ---------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = REDIS_URL  # None: eager mode keeps results in memory
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True  # a worker killed mid-task leaves the message for another worker
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
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
CELERY_BEAT_SCHEDULE = {
    "reconcile-standings": {
        "task": "standings.tasks.reconcile_standings",
        "schedule": float(get_int("STANDINGS_RECONCILE_SECONDS", 30, minimum=1)),
    },
}
# Standings updates (standings.services): a queued update waits this long before it runs, so a
# burst of entries is folded into one run; the "update queued" mark lasts at most this long.
STANDINGS_DEBOUNCE_SECONDS = 1.0
STANDINGS_PENDING_SECONDS = 30
# Result-store trouble must not hold a request for the backend's default 20 × 1 s.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
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
    "ENUM_NAME_OVERRIDES": {"SeatEnum": "common.labels.SEATS"},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": get_str("DJANGO_LOG_LEVEL", "INFO")},
    # Each eager task would log a line per hand; the worker logs its own tasks anyway.
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}
