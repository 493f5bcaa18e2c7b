"""common.cache.RedisCache against the real Redis `make test` starts: Django's backend, with one
redis client per pool kept instead of one built per operation, and nothing else changed."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.core.cache import caches

from common.cache import RedisCache

pytestmark = pytest.mark.integration


@pytest.fixture
def cache() -> RedisCache:
    assert settings.REDIS_URL, "make test starts Redis and sets REDIS_URL"
    return RedisCache(settings.REDIS_URL, {"OPTIONS": {"socket_timeout": 1},
                                          "KEY_PREFIX": f"t-{uuid.uuid4().hex}"})


def test_the_default_cache_is_ours_on_redis() -> None:
    assert isinstance(caches["default"], RedisCache)


def test_every_operation_uses_the_same_client_and_pool(cache: RedisCache) -> None:
    client = cache._cache.get_client()
    cache.set("a", {"version": 3}, 30)
    assert cache.get("a") == {"version": 3}
    assert cache.add("a", 1, 30) is False and cache.add("b", 1, 30) is True
    assert cache.get_many(["a", "b", "c"]) == {"a": {"version": 3}, "b": 1}
    assert cache.incr("b") == 2
    cache.delete("a")
    assert cache.get("a", "gone") == "gone"
    assert cache._cache.get_client() is client
    assert cache._cache.get_client(write=True) is client  # one server: one pool, one client
    assert client.connection_pool is cache._cache._get_connection_pool(False)


def test_the_kept_client_works_again_after_redis_restarts(servers, cache: RedisCache) -> None:
    cache.set("before", 1, 60)
    client = cache._cache.get_client()
    servers.stop_redis()
    try:
        with pytest.raises(Exception):  # noqa: B017, PT011 - whatever redis-py raises when away
            cache.get("before")
    finally:
        servers.start_redis()
    cache.set("after", 2, 60)  # the server started empty (no persistence)
    assert cache.get("after") == 2 and cache.get("before") is None
    assert cache._cache.get_client() is client


def test_a_rate_limit_counts_in_one_round_trip(cache: RedisCache) -> None:
    """count_in_window: the previous window's count and one more on the current one, the
    counter created at 0 with its time to live and kept as the backend's own integers."""
    assert cache.count_in_window("w2", "w1", 120) == (0, 1)
    assert cache.count_in_window("w2", "w1", 120) == (0, 2)
    assert cache.get("w2") == 2 and cache.incr("w2") == 3  # Django reads and adds to it
    client = cache._cache.get_client()
    assert 0 < client.ttl(cache.make_key("w2")) <= 120
    assert cache.count_in_window("w3", "w2", 120) == (3, 1)
    cache.set("w3", 7, 30)  # an existing counter keeps its value and its time to live
    assert cache.count_in_window("w3", "w2", 120) == (3, 8)
    assert client.ttl(cache.make_key("w3")) <= 30
