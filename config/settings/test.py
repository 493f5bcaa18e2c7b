"""Test settings: fast hashing; the database and Redis come from the environment `make test` sets."""

from __future__ import annotations

from .base import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Unit tests run Celery tasks inline; integration tests talk to the real worker through
# their own Celery app configured from REDIS_URL (see tests/integration/conftest.py).
CELERY_TASK_ALWAYS_EAGER = True
# Serve static files from the app folders without a collectstatic step.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
