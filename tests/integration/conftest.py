"""Integration fixtures: the real PostgreSQL, Redis and Celery worker started by `make test`.

Tests here use committed transactions (``transaction=True``) so the worker, a separate process
connected to the same test database, sees their rows. Nothing here is mocked or skipped: run
outside `make test`, the fixtures fail with a sentence saying so.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from testservers import Servers  # noqa: E402


@pytest.fixture(scope="session")
def servers() -> Servers:
    return Servers.from_env()


@pytest.fixture
def celery_app_live(servers: Servers) -> Iterator[object]:
    """The project's Celery app publishing to the real Redis (not eager)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield app
    finally:
        app.conf.task_always_eager = previous
        settings.CELERY_TASK_ALWAYS_EAGER = previous
