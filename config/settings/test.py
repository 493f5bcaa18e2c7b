"""Test settings: fast hashing; the database and Redis come from the environment `make test` sets."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CACHES, REDIS_URL

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Unit tests run Celery tasks inline; integration tests talk to the real worker through
# the project's Celery app made live (the celery_app_live fixture, tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = True
# Serve static files from the app folders without a collectstatic step.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# `make test` runs the in-process tests in several pytest-xdist runners at once against one
# Redis. Each runner takes a Redis database of its own (gw0 → 1, gw1 → 2, ...; the serial run and
# the Celery worker keep 0), so the cache clear around every test (a FLUSHDB) empties that
# runner's keys only. pytest-django gives each runner its own test database the same way
# (test_pinochle_gw0, ...).
# Two lanes may share one Redis (the in-process and the browser lane share the quiet one):
# TEST_REDIS_DB_OFFSET moves the second lane's runners past the first's.
_RUNNER = os.environ.get("PYTEST_XDIST_WORKER", "")
_OFFSET = int(os.environ.get("TEST_REDIS_DB_OFFSET", "0"))
if _RUNNER and REDIS_URL:
    _number = int(_RUNNER.removeprefix("gw")) + 1 + _OFFSET
    if _number > 15:
        raise ImproperlyConfigured(
            f"PYTEST_XDIST_WORKER={_RUNNER}, TEST_REDIS_DB_OFFSET={_OFFSET}: Redis has "
            "databases 0-15, so at most 15 test runners in all can each have one"
        )
    REDIS_URL = urlunsplit(urlsplit(REDIS_URL)._replace(path=f"/{_number}"))
    CACHES["default"]["LOCATION"] = REDIS_URL
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL

# A database migrated once (scripts/test.sh) that each runner's test database is copied from
# (PostgreSQL's CREATE DATABASE ... TEMPLATE): the runners' migrate then finds nothing to do.
if os.environ.get("TEST_DATABASE_TEMPLATE"):
    DATABASES["default"]["TEST"] = {"TEMPLATE": os.environ["TEST_DATABASE_TEMPLATE"]}  # noqa: F405
