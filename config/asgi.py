"""ASGI entry point: the push streams under ``PUSH_URL``'s path, the site for everything else.

Production runs the pages on gunicorn (``config.wsgi``) and this under uvicorn for the push
streams (``uvicorn config.asgi:application``; README, "Beyond one machine"): the proxy in front
sends ``/push/`` here. Everything else this app is asked is the ordinary Django site, so one
ASGI server alone can also serve the whole product.
"""

from __future__ import annotations

import os
from typing import Any

from django.core.asgi import get_asgi_application

from config.startup import guarded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
django_application = guarded(get_asgi_application)

from standings.push_server import application as push_application  # noqa: E402 - after setup
from standings.push_server import push_prefix  # noqa: E402

PUSH_PREFIX = push_prefix()


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan" or (
            scope["type"] == "http" and scope["path"].startswith(PUSH_PREFIX)):
        await push_application(scope, receive, send)
    else:
        await django_application(scope, receive, send)
