"""Where a Web Push may go, and the one POST that takes it there.

A push subscription is given by an anonymous phone: its endpoint is any address the phone
chose. Sent as is, the worker would POST wherever it was told (a service on the worker's own
machine, the club's router, a cloud's metadata address) and wait on whatever answered. So:

* **Only ``https`` endpoints on public addresses.** The endpoint's host is resolved and every
  address it resolves to must be public (not private, loopback, link-local, shared, reserved,
  documentation, multicast or unspecified; for IPv6 also the IPv4 address a mapped, 6to4,
  Teredo or NAT64 address carries). Checked when the phone subscribes (a refusal naming
  ``subscription.endpoint``) and again when each push is sent, since a name can resolve
  elsewhere by then.
* **The POST goes to the address that was checked** (:class:`PinnedSession`): the connection is
  made to that address, the TLS certificate is checked against the host's name, no redirect is
  followed, so a name that resolves anew between the check and the connection changes nothing.
* **Each push has a total deadline** (``FOLLOW_PUSH_DEADLINE_SECONDS``), not only a socket
  timeout: a resolver that does not answer is given up at it, and a push service trickling
  its answer a byte at a time is cut off when the deadline passes (a watchdog shuts the socket
  down), whatever it sends.

``FOLLOW_PUSH_ALLOW_LOCAL`` (a test setting, never read from the environment and refused in
production) lets ``http`` endpoints on loopback addresses through: the tests' own push service
on 127.0.0.1 (``tests/following/push_receiver.py``). Other private addresses stay refused.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext

from common.errors import DomainError

ENDPOINT_FIELD = "subscription.endpoint"
RESPONSE_MAX_BYTES = 4096  # what is read of a push service's answer (its status is what counts)
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def _local_allowed() -> bool:
    return bool(getattr(settings, "FOLLOW_PUSH_ALLOW_LOCAL", False))


def address_public(address: str) -> bool:
    """Is ``address`` (an IPv4 or IPv6 address) one the open internet routes to?"""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        embedded: list[ipaddress.IPv4Address] = []
        if ip.ipv4_mapped is not None:
            embedded.append(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            embedded.append(ip.sixtofour)
        if ip.teredo is not None:
            embedded.extend(ip.teredo)
        if ip in NAT64:
            embedded.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if not all(address_public(str(inner)) for inner in embedded):
            return False
    return bool(ip.is_global and not ip.is_multicast)


def _allowed(address: str) -> bool:
    if address_public(address):
        return True
    if _local_allowed():
        try:
            return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
        except ValueError:
            return False
    return False


@dataclass(frozen=True)
class Target:
    """A checked endpoint: its parts and the address the POST connects to."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


# One answer of ``socket.getaddrinfo``: family, type, protocol, canonical name, address.
AddrInfo: TypeAlias = tuple[socket.AddressFamily, socket.SocketKind, int, str,
                            tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes]]


def _resolve(host: str, port: int, timeout: float | None) -> list[AddrInfo]:
    """``getaddrinfo``, given up after ``timeout`` seconds (a resolver that does not answer
    must not outlast the push's deadline: the lookup is left to finish in its own thread)."""
    if timeout is None:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[AddrInfo] = []
    failed: list[BaseException] = []

    def lookup() -> None:
        try:
            found.extend(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except BaseException as exc:  # noqa: BLE001  # handed to the caller
            failed.append(exc)

    thread = threading.Thread(target=lookup, daemon=True)
    thread.start()
    thread.join(max(timeout, 0.0))
    if thread.is_alive():
        raise PushDeadline(f"the host {host} was not resolved within {timeout:g} s")
    if failed:
        raise failed[0]
    return found


def endpoint_target(endpoint: str, *, timeout: float | None = None) -> Target:
    """The endpoint checked (scheme, host, every address it resolves to), or a refusal naming
    ``subscription.endpoint``; resolving it given up (``PushDeadline``) after ``timeout``
    seconds when given."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise DomainError(gettext("The endpoint is not a valid address."), field=ENDPOINT_FIELD) from None
    schemes = ("https", "http") if _local_allowed() else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise DomainError(gettext("The endpoint must be an https address."), field=ENDPOINT_FIELD)
    if parts.username is not None or parts.password is not None:
        raise DomainError(gettext("The endpoint must not carry a user name or password."),
                          field=ENDPOINT_FIELD)
    host = parts.hostname
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        found = _resolve(host, port, timeout)
    except PushDeadline:
        raise
    except (OSError, UnicodeError):
        raise DomainError(gettext("The endpoint's host could not be found."),
                          field=ENDPOINT_FIELD) from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses or not all(_allowed(address) for address in addresses):
        raise DomainError(gettext("The endpoint must be a push service on the public internet."),
                          field=ENDPOINT_FIELD)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(parts.scheme, host, port, path, addresses[0])


@dataclass
class PushResponse:
    """What pywebpush reads of an answer (``requests.Response``'s names)."""

    status_code: int
    reason: str
    text: str
    headers: dict[str, str] = field(default_factory=dict)


class _Watchdog:
    """Shuts the connection's socket down when the deadline passes, so a blocked read returns."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self.connection = connection
        self.fired = False
        self.timer = threading.Timer(max(seconds, 0.0), self._fire)
        self.timer.daemon = True

    def _fire(self) -> None:
        self.fired = True
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> _Watchdog:
        self.timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.timer.cancel()


class PushDeadline(OSError):
    """A push took longer than its total deadline."""


def _connection(target: Target, timeout: float) -> http.client.HTTPConnection:
    connection: http.client.HTTPConnection
    if target.scheme == "https":
        connection = http.client.HTTPSConnection(target.host, target.port, timeout=timeout,
                                                 context=ssl.create_default_context())
    else:
        connection = http.client.HTTPConnection(target.host, target.port, timeout=timeout)
    pinned = target.address

    def create(address: tuple[str, int], timeout: float | None = None,
               source: tuple[str, int] | None = None) -> socket.socket:
        return socket.create_connection((pinned, address[1]), timeout, source)

    # http.client connects through this attribute: to the checked address, while the Host
    # header and the certificate's name stay the endpoint's host
    connection._create_connection = create  # type: ignore[attr-defined]
    return connection


def push_post(endpoint: str, *, data: bytes | None, headers: dict[str, str],
              deadline: float) -> PushResponse:
    """POST ``data`` to ``endpoint`` (checked again here) within ``deadline`` seconds in all.
    Raises ``DomainError`` for an endpoint not allowed, ``OSError`` for a network failure or
    the deadline."""
    started = time.monotonic()
    target = endpoint_target(endpoint, timeout=deadline)
    left = deadline - (time.monotonic() - started)
    if left <= 0:
        raise PushDeadline("the push deadline passed while resolving its host")
    socket_timeout = min(float(settings.FOLLOW_SEND_TIMEOUT_SECONDS), left)
    connection = _connection(target, socket_timeout)
    try:
        with _Watchdog(connection, left) as watchdog:
            try:
                connection.connect()
                if watchdog.fired:  # the connection came as the deadline passed
                    raise PushDeadline(f"no answer within {deadline:g} s")
                connection.request("POST", target.path, body=data, headers=dict(headers))
                response = connection.getresponse()
                body = response.read(RESPONSE_MAX_BYTES)
            except (OSError, http.client.HTTPException) as exc:
                if watchdog.fired:
                    raise PushDeadline(f"no answer within {deadline:g} s") from exc
                raise OSError(str(exc)) from exc
            if watchdog.fired:
                raise PushDeadline(f"no answer within {deadline:g} s")
    finally:
        connection.close()
    return PushResponse(response.status, response.reason or "",
                        body.decode("utf-8", "replace"),
                        {k: v for k, v in response.getheaders()})


class PinnedSession:
    """What pywebpush posts through (its ``requests_session``): :func:`push_post`, with the
    deadline of this push."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline

    def post(self, url: str, *, data: bytes | None = None,
             headers: Mapping[str, str] | None = None, timeout: object = None) -> PushResponse:
        return push_post(url, data=data, headers=dict(headers or {}), deadline=self.deadline)
