"""ASGI entry point."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

from config.startup import guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = guarded(get_asgi_application)
