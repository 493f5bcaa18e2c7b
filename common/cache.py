"""The Redis cache backend, with one client object per connection pool instead of one per call.

Django's ``RedisCache`` builds a new ``redis.Redis`` for every operation (``get_client``), and
building one is not free: redis-py fills its table of reply handlers each time, a few hundred
string operations. A busy room pays it on nearly every request (the standings poll reads the
cache, a save is rate-limited and announced through it, about five clients in all); profiled
in-process it was a sixth of a save's CPU. The client is only a front to its pool (it holds no
connection of its own), is safe to share between threads, and its pool reconnects after Redis
comes back and after a fork, so keeping it changes nothing else: the same pools, timeouts and
errors as Django's backend.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _ClientPerPool(RedisCacheClient):
    # _get_connection_pool_index, _get_connection_pool and _client are Django's own (the stubs
    # leave private members out).
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django_client: Any = self
        index = django_client._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django_client._get_connection_pool(write)
            client = django_client._client(connection_pool=pool)
            self._clients[index] = client
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` that keeps its clients
    (``CACHES["default"]["BACKEND"] = "common.cache.RedisCache"``)."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ClientPerPool
        self._scripts: dict[int, Any] = {}

    def window_hit(self, key: str, limit: int, seconds: float) -> tuple[bool, float]:
        """One request against ``limit`` in any ``seconds``, counted in a true sliding window
        (``WINDOW_SCRIPT``: atomic, one round trip, Redis's clock): ``(allowed, seconds until
        the oldest counted request ages out)``. A refused request is not counted. What a rate
        limit asks on every API request (``common.throttles``)."""
        name = self.make_and_validate_key(key)
        client: Any = self._cache  # type: ignore[attr-defined]  # Django's, left out of the stubs
        redis = client.get_client(name, write=True)
        script = self._scripts.get(id(redis))
        if script is None:
            script = self._scripts[id(redis)] = redis.register_script(WINDOW_SCRIPT)
        allowed, wait_ms = script(keys=[name],
                                  args=[int(seconds * 1000), int(limit), uuid.uuid4().hex])
        return bool(allowed), max(int(wait_ms), 0) / 1000


    def pending_add(self, key: str, member: int, *, seconds: int) -> None:
        """Put ``member`` in the sorted set ``key`` unless it is there already (it keeps the
        time it was first put there: the oldest is taken first), the set kept ``seconds``
        after the last addition. One round trip. What ``common.tasks`` marks an event waiting
        for its standings with."""
        name = self.make_and_validate_key(key)
        client: Any = self._cache  # type: ignore[attr-defined]  # Django's, left out of the stubs
        pipe = client.get_client(name, write=True).pipeline(transaction=False)
        pipe.zadd(name, {str(member): time.time()}, nx=True)
        pipe.expire(name, seconds)
        pipe.execute()

    def pending_take(self, key: str) -> list[int]:
        """Take every member of the sorted set ``key`` out at once (``ZPOPMIN``: atomic, so two
        takers never get the same member), oldest first."""
        name = self.make_and_validate_key(key)
        client: Any = self._cache  # type: ignore[attr-defined]
        taken = client.get_client(name, write=True).zpopmin(name, PENDING_TAKE_MAX)
        return [int(member) for member, _ in taken]


# The most members one ``pending_take`` takes (the rest wait for the next).
PENDING_TAKE_MAX = 10_000

# A sliding log per key (a sorted set of the requests' times in ms, by Redis's clock): the
# requests older than the window are dropped, the rest counted; under the limit the request is
# added. Run as one script, so no two requests can both see room for one.
WINDOW_SCRIPT = """
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {0, tonumber(oldest[2]) + window - now}
"""
