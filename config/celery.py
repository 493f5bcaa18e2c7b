"""The Celery app. Configuration comes from Django settings (``CELERY_*``), tasks are autodiscovered."""

from __future__ import annotations

import os

from celery import Celery

# The same default as config/wsgi.py: a worker started like the web server gets the same settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A trivial round trip used by health checks and the integration tests."""
    return value
