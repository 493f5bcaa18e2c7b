"""The Celery app. Configuration comes from Django settings (``CELERY_*``), tasks are autodiscovered."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, signals

# The same default as config/wsgi.py: a worker started like the web server gets the same settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.after_setup_logger.connect
def show_task_durations(**_: Any) -> None:
    """A worker (or beat) has set up its logging: log each task's outcome and duration
    ("Task standings.tasks.compute_standings[…] succeeded in 0.041s: 7"). The settings keep
    ``celery.app.trace`` at WARNING for the web processes, where the embedded default runs
    every task inline and a line per hand would flood the log."""
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A trivial round trip used by health checks and the integration tests."""
    return value
