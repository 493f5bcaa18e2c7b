"""API rate limits (DRF throttles), counted in the cache (Redis in production).

* anonymous callers: ``anon`` per client address; signed-in users: ``user`` per user;
* the table endpoints (a table's token in the URL, no login; views with ``throttle_scope =
  "table"``): ``table`` per table, and only that. Every phone of a club room usually shares one
  public address (the venue's router), so an address-wide limit would stop a busy night; a
  token is worth nothing to guess (144 random bits), so one table's own traffic is what to cap.

Rates are read from the settings on every request (DRF's own classes read them once, at import),
so a test can lower them with the ``settings`` fixture.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle

TABLE_SCOPE = "table"


def _rate(scope: str | None) -> str | None:
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    rate = rates.get(scope or "")
    if rate is None:
        raise ImproperlyConfigured(f"No throttle rate set for scope {scope!r}")
    return str(rate)


def _scoped(view: Any) -> bool:
    return bool(getattr(view, "throttle_scope", None))


class AnonThrottle(AnonRateThrottle):
    """Anonymous callers, per address; views with their own scope are left to it."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        return _scoped(view) or super().allow_request(request, view)


class UserThrottle(UserRateThrottle):
    """Signed-in users, per user (anonymous ones are the anon throttle's)."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        if _scoped(view) or not (request.user and request.user.is_authenticated):
            return True
        return super().allow_request(request, view)


class ScopedThrottle(ScopedRateThrottle):
    """Views with ``throttle_scope``: per table for the table endpoints (their ``token`` URL
    argument), else per user or address."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = getattr(view, "kwargs", {}).get("token")
        if self.scope == TABLE_SCOPE and token:
            digest = hashlib.sha256(str(token).encode("utf-8", "replace")).hexdigest()[:32]
            return self.cache_format % {"scope": self.scope, "ident": f"table-{digest}"}
        return super().get_cache_key(request, view)
