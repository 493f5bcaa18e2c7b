"""Production: secrets and hosts have no defaults; PostgreSQL and Redis are expected."""

from __future__ import annotations

import warnings

from config.env import ConfigError, get_bool, get_int, get_list, get_str

from .base import *  # noqa: F403
from .base import DATABASES, REDIS_URL

SECRET_KEY = get_str("DJANGO_SECRET_KEY")
if len(SECRET_KEY) < 32:
    raise ConfigError("DJANGO_SECRET_KEY must be at least 32 characters long")
DEBUG = False
ALLOWED_HOSTS = get_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ConfigError("DJANGO_ALLOWED_HOSTS must list at least one host name")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    raise ConfigError("DATABASE_URL must point at PostgreSQL in production")
if REDIS_URL is None:
    raise ConfigError("REDIS_URL is required in production")
# Web Push signs with VAPID_PRIVATE_KEY only: no pair derived from the secret key here.
VAPID_FROM_SECRET_KEY = False
# Push endpoints on the public internet only (following.push): never the tests' loopback.
FOLLOW_PUSH_ALLOW_LOCAL = False
# Database connections: each web worker and each Celery worker child keeps its connection for
# DATABASE_CONN_MAX_AGE seconds instead of opening one per request (a PostgreSQL backend start
# per request was half the CPU under load), and checks it before reusing it after a request
# that ended (a restarted PostgreSQL costs one failed check, not one failed request).
# Persistent connections rather than a psycopg pool: a gunicorn sync worker serves one request
# at a time, so a pool in each process would only hold the one connection it uses (plus a
# maintenance thread); one connection per worker process (per thread with threads) is the same
# reuse without the extra package. 0 closes after each request, as before.
DATABASES["default"]["CONN_MAX_AGE"] = get_int("DATABASE_CONN_MAX_AGE", 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = get_bool("DATABASE_CONN_HEALTH_CHECKS", True)

# HTTPS: the proxy in front terminates TLS and says so in X-Forwarded-Proto. Plain-HTTP
# requests are redirected (except the health check, which load balancers make over HTTP);
# browsers are told to keep to HTTPS for DJANGO_SECURE_HSTS_SECONDS (0: no HSTS header; raise it
# step by step once HTTPS is known to work, as the header cannot be taken back).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = get_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_HSTS_SECONDS = get_int("DJANGO_SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = get_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = get_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = get_bool("DJANGO_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_HTTPONLY = True
# E-mail (config/settings/base.py reads EMAIL_HOST and the rest): links in confirmation and
# password-reset mails say https whenever the site is HTTPS-only, also when asked for over
# plain HTTP; PUBLIC_BASE_URL, when set, gives the whole address instead.
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SECURE_SSL_REDIRECT else "http"
# Demo data (manage.py load_demo: known passwords) never goes into a production database.
DEMO_DATA_ALLOWED = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False  # the collected, hashed files only
# Here a missing STATIC_ROOT is a mistake (no collectstatic): let WhiteNoise say so again.
warnings.filterwarnings("default", message="No directory at: ", category=UserWarning)
