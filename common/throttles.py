"""API rate limits (DRF throttles), counted in the cache (Redis in production).

* anonymous callers: ``anon`` per client address; signed-in users: ``user`` per user;
* the table endpoints (a table's token in the URL, no login; views with ``throttle_scope =
  "table"``): ``table`` per table, and only that. Every phone of a club room usually shares one
  public address (the venue's router), so an address-wide limit would stop a busy night; a
  token is worth nothing to guess (144 random bits), so one table's own traffic is what to cap.

Rates are read from the settings on every request (DRF's own classes read them once, at import),
so a test can lower them with the ``settings`` fixture.

**Counting is atomic and exact.** DRF's throttles read a list of request times from the cache
and write it back: parallel requests all read the same list, so 974 of 1,500 parallel table
requests got through a limit of 600 a minute. A counter per fixed window weighed with the
window before (the approximation most limiters use) let about a fifth more through when a burst
crossed a minute (724 hand posts against 600 a minute). Here each key is a true sliding window:
a log of the times of the requests let in (a Redis sorted set), trimmed of those older than
the window and counted in one Lua script (``common.cache.WINDOW_SCRIPT``, Redis's clock), so
no ``duration`` seconds ever hold more than the rate, however the requests fall. A refused
request is not logged, so a client hammering past the limit is let in again once its earlier
requests age out; ``Retry-After`` says when the oldest does. Without Redis (the embedded
default's memory cache, one process) the same log is kept in the cache under a lock.

The counts are an optimisation of the cache, not a gate on it: when the cache is unreachable
(Redis stopped in the middle of a club night) a request is let through with a warning in the log,
rather than answered with a 500 — the room keeps entering hands, unmetered, until it is back.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from typing import Any

from django.core.cache import cache as default_cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.exceptions import ImproperlyConfigured
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import (
    AnonRateThrottle,
    ScopedRateThrottle,
    SimpleRateThrottle,
    UserRateThrottle,
)

logger = logging.getLogger(__name__)

TABLE_SCOPE = "table"


class CacheUnreachable(Exception):
    """The throttle's cache could not be read or written."""


class _GuardedCache(BaseCache):
    """The default cache as DRF's throttles use it (``get``, ``set``), with any error of the
    cache turned into :class:`CacheUnreachable`, so only the cache's own failures are let
    through by :func:`_allow` (a bug in the throttle's arithmetic still fails loudly)."""

    def __init__(self) -> None:
        super().__init__({})

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        try:
            return default_cache.get(key, default, version)
        except Exception as exc:  # noqa: BLE001 - whatever the backend raises when it is away
            raise CacheUnreachable(str(exc)) from exc

    def set(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT,
            version: int | None = None) -> None:
        try:
            default_cache.set(key, value, timeout, version)
        except Exception as exc:  # noqa: BLE001
            raise CacheUnreachable(str(exc)) from exc

    def add(self, key: str, value: Any, timeout: float | None = DEFAULT_TIMEOUT,
            version: int | None = None) -> bool:
        try:
            return bool(default_cache.add(key, value, timeout, version))
        except Exception as exc:  # noqa: BLE001
            raise CacheUnreachable(str(exc)) from exc

    def window_hit(self, key: str, limit: int, seconds: float) -> tuple[bool, float]:
        """``(allowed, seconds until the oldest logged request ages out)`` for one more request
        against ``limit`` in any ``seconds`` (the module docstring): in one Redis script
        (``common.cache.RedisCache.window_hit``), else a log kept in the cache under a lock."""
        hit = getattr(default_cache, "window_hit", None)
        try:
            if hit is not None:
                allowed, wait = hit(key, limit, seconds)
                return bool(allowed), float(wait)
            return _window_hit_local(key, limit, seconds)
        except Exception as exc:  # noqa: BLE001
            raise CacheUnreachable(str(exc)) from exc

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        try:
            return int(default_cache.incr(key, delta, version))
        except ValueError:
            raise  # the key expired between add and incr: the caller starts it again
        except Exception as exc:  # noqa: BLE001
            raise CacheUnreachable(str(exc)) from exc


_LOCAL_LOCK = threading.Lock()


def _window_hit_local(key: str, limit: int, seconds: float) -> tuple[bool, float]:
    """The sliding log of :meth:`_GuardedCache.window_hit` in a cache without scripts (the
    embedded default's memory cache, which lives in one process: the lock makes it atomic)."""
    with _LOCAL_LOCK:
        now = time.time()
        log = [t for t in (default_cache.get(key) or []) if t > now - seconds]
        if len(log) < limit:
            log.append(now)
            default_cache.set(key, log, math.ceil(seconds))
            return True, 0.0
        return False, max(log[0] + seconds - now, 0.0)


def atomic_allow(throttle: Any, request: Request, view: Any) -> bool:
    """A throttle's ``allow_request`` with an atomic, exact sliding-window count (module
    docstring); the throttle is a DRF ``SimpleRateThrottle`` (its ``rate``, ``num_requests``,
    ``duration``, ``get_cache_key`` and ``cache``)."""
    if throttle.rate is None:
        return True
    throttle.key = throttle.get_cache_key(request, view)
    if throttle.key is None:
        return True
    allowed, wait = throttle.cache.window_hit(f"{throttle.key}:log", int(throttle.num_requests),
                                              float(throttle.duration))
    throttle.retry_after = wait
    if allowed:
        return True
    return bool(throttle.throttle_failure())


def _wait(throttle: SimpleRateThrottle) -> float | None:
    """Seconds until the oldest request counted ages out (the Retry-After header)."""
    wait = getattr(throttle, "retry_after", None)
    if wait is None:
        return None
    return max(1.0, math.ceil(wait))


def _allow(throttle: Any, request: Request, view: Any) -> bool:
    """:func:`atomic_allow`, or True (logged) when the cache holding the counts is away."""
    try:
        return atomic_allow(throttle, request, view)
    except CacheUnreachable as exc:
        logger.warning("rate limit %r not applied to %s: the cache is unreachable (%s)",
                       throttle.scope, request.path, exc)
        return True


def _rate(scope: str | None) -> str | None:
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    rate = rates.get(scope or "")
    if rate is None:
        raise ImproperlyConfigured(f"No throttle rate set for scope {scope!r}")
    return str(rate)


def _scoped(view: object) -> bool:
    return bool(getattr(view, "throttle_scope", None))


class AnonThrottle(AnonRateThrottle):
    """Anonymous callers, per address; views with their own scope are left to it."""

    cache = _GuardedCache()

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def wait(self) -> float | None:
        return _wait(self)

    def allow_request(self, request: Request, view: object) -> bool:
        return _scoped(view) or _allow(self, request, view)


class UserThrottle(UserRateThrottle):
    """Signed-in users, per user (anonymous ones are the anon throttle's)."""

    cache = _GuardedCache()

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def wait(self) -> float | None:
        return _wait(self)

    def allow_request(self, request: Request, view: object) -> bool:
        if _scoped(view) or not (request.user and request.user.is_authenticated):
            return True
        return _allow(self, request, view)


class ScopedThrottle(ScopedRateThrottle):
    """Views with ``throttle_scope``: per table for the table endpoints (their ``token`` URL
    argument), else per user or address."""

    cache = _GuardedCache()

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def wait(self) -> float | None:
        return _wait(self)

    def allow_request(self, request: Request, view: object) -> bool:
        # as DRF's ScopedRateThrottle: the scope (and so the rate) comes from the view
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return _allow(self, request, view)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = getattr(view, "kwargs", {}).get("token")
        if self.scope == TABLE_SCOPE and token:
            digest = hashlib.sha256(str(token).encode("utf-8", "replace")).hexdigest()[:32]
            return self.cache_format % {"scope": self.scope, "ident": f"table-{digest}"}
        return super().get_cache_key(request, view)


SELF_CHECK_IN_SCOPE = "self_checkin"
# "I'm here" taps of one event, whoever taps (a phone without cookies counts here too)
SELF_CHECK_IN_EVENT_SCOPE = "self_checkin_event"


def keyed_wait(scope: str, ident: str) -> float | None:
    """One more request under ``scope``'s rate (``DEFAULT_THROTTLE_RATES``) for ``ident`` (an
    event, say, rather than a user or an address): None when it may go on, else the seconds
    until it may (the Retry-After). Let through when the cache is unreachable, as every
    limit here."""
    num, duration = ScopedRateThrottle().parse_rate(_rate(scope))
    if num is None or duration is None:
        return None
    try:
        allowed, wait = _GuardedCache().window_hit(f"throttle_{scope}_{ident}:log", int(num),
                                                   float(duration))
    except CacheUnreachable as exc:
        logger.warning("rate limit %r not applied to %s: the cache is unreachable (%s)",
                       scope, ident, exc)
        return None
    return None if allowed else max(1.0, math.ceil(wait))


class _PageView:
    """What a throttle asks of a view, for a page (a Django view, not an API view)."""

    def __init__(self, scope: str) -> None:
        self.throttle_scope = scope
        self.kwargs: dict[str, object] = {}


def page_allowed(request: Any, scope: str) -> bool:
    """May this page request go on under the API's rate ``scope`` (per user, else per client
    address, counted with the API's own throttles)? The anonymous pages that write (the self
    check-in's "I'm here") and search a roster ask this first and answer 429 when not."""
    return ScopedThrottle().allow_request(request, _PageView(scope))


def key_allowed(key: str, rate: str) -> bool:
    """One more action counted against ``rate`` (``"5/hour"``) under ``key`` (whatever it
    counts: an e-mail address, a client), in the same sliding window as the API's limits. True,
    with a warning in the log, when the cache holding the counts is away."""
    count, period = rate.split("/", 1)
    seconds = {"s": 1, "m": 60, "h": 3600, "d": 86400}[period.strip()[0]]
    try:
        allowed, _ = _GuardedCache().window_hit(f"limit:{key}", int(count), float(seconds))
    except CacheUnreachable as exc:
        logger.warning("limit %r not applied: the cache is unreachable (%s)", key, exc)
        return True
    return allowed
