"""The client's address, the one way for every rate limit (login lockouts, API throttles), and
the public address of a page (QR codes, links sent by e-mail)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.http import HttpRequest

from .lan import answers_on, lan_addresses


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


LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class PublicAddress:
    """Where phones in the room reach this server: ``base`` (``http://192.168.1.20:8000``, no
    trailing slash); ``phones_reach`` False when the server answers on this machine only (a
    ``make run`` on 127.0.0.1), and ``fix`` then the command that opens it to the club's Wi-Fi."""

    base: str
    phones_reach: bool = True
    fix: str = ""

    def url(self, path: str) -> str:
        return self.base + path


def public_address(request: HttpRequest) -> PublicAddress:
    """The address QR codes and invitation links carry, and whether phones reach it.

    ``PUBLIC_BASE_URL`` when set. Else the address the page was asked by, which the server
    answers on, since the page came from it. Only when that is a loopback name (the director
    browsing on the server itself) is another address needed: the machine's LAN address and
    the same port, if the server answers there (started on ``0.0.0.0``); if it does not (started
    on 127.0.0.1), no address works for a phone, so the loopback address stays (it does open on
    this machine) and ``phones_reach`` is False."""
    base = str(getattr(settings, "PUBLIC_BASE_URL", "") or "")
    if base:
        return PublicAddress(base.rstrip("/"))
    parts = urlsplit(request.build_absolute_uri("/"))
    own = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    if parts.hostname not in LOOPBACK:
        return PublicAddress(own)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    for address in lan_addresses():
        if answers_on(address, port):
            netloc = address + (f":{parts.port}" if parts.port else "")
            return PublicAddress(urlunsplit((parts.scheme, netloc, "", "", "")))
    fix = "make run HOST=0.0.0.0" + (f" PORT={port}" if port != 8000 else "")
    return PublicAddress(own, phones_reach=False, fix=fix)


def public_url(request: HttpRequest, path: str) -> str:
    """The absolute address of ``path`` as a phone in the room reaches it, when anything does
    (``public_address``)."""
    return public_address(request).url(path)
