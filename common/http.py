"""The client's address, the one way for every rate limit (login lockouts, API throttles)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """``REMOTE_ADDR``, or behind ``NUM_PROXIES`` trusted proxies the address the outermost of
    them saw (counted from the right of ``X-Forwarded-For``, which a client can prefix at will)."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "NUM_PROXIES", 0) or 0)
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")]
    forwarded = [part for part in forwarded if part]
    if not forwarded:
        return remote
    return forwarded[-min(proxies, len(forwarded))]
