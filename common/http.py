"""The client's address, the one way for every rate limit (login lockouts, API throttles), and
the public address of a page (QR codes, links sent by e-mail)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest

from .lan import lan_addresses


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


def public_url(request: HttpRequest, path: str) -> str:
    """The absolute address of ``path`` as a phone in the room reaches it: under
    ``PUBLIC_BASE_URL`` when set; else as the page was asked for, except that a loopback host
    (the director browsing on the server itself) becomes the machine's LAN address, same port,
    so a QR code printed from the laptop still works on the players' phones."""
    base = str(getattr(settings, "PUBLIC_BASE_URL", "") or "")
    if base:
        return base.rstrip("/") + path
    absolute = request.build_absolute_uri(path)
    parts = urlsplit(absolute)
    if parts.hostname in {"127.0.0.1", "localhost", "::1"}:
        addresses = lan_addresses()
        if addresses:
            netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
            return urlunsplit(parts._replace(netloc=netloc))
    return absolute
