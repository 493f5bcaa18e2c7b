"""Production: secrets and hosts have no defaults; PostgreSQL and Redis are expected."""

from __future__ import annotations

from config.env import ConfigError, get_bool, get_list, get_str

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

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = get_bool("DJANGO_SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
