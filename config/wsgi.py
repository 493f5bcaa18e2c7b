"""WSGI entry point (gunicorn config.wsgi)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from config.startup import guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = guarded(get_wsgi_application)
