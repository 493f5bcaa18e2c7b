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

    def count_in_window(self, key: str, previous_key: str, timeout: int) -> tuple[int, int]:
        """One more on the counter ``key`` (created at 0 to last ``timeout`` seconds when
        missing) and the counter ``previous_key`` as it stands, in one round trip: ``(previous,
        new count)``. What a rate limit asks on every API request (``common.throttles``), where
        three round trips to Redis were an eleventh of a busy room's web time."""
        current = self.make_and_validate_key(key)
        before = self.make_and_validate_key(previous_key)
        client: Any = self._cache  # type: ignore[attr-defined]  # Django's, left out of the stubs
        pipe = client.get_client(current, write=True).pipeline(transaction=False)
        pipe.get(before)
        pipe.set(current, 0, nx=True, ex=max(int(timeout), 1))
        pipe.incr(current)
        previous, _, count = pipe.execute()
        return (int(previous) if previous is not None else 0), int(count)
