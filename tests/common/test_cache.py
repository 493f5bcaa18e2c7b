"""common.cache.RedisCache against the real Redis `make test` starts: Django's backend, with one
redis client per pool kept instead of one built per operation, and nothing else changed."""

from __future__ import annotations

import time
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


def test_a_rate_limit_counts_in_a_true_sliding_window(cache: RedisCache) -> None:
    """window_hit: a log of the requests let in, trimmed to the window, in one script; a refused
    request is not logged and is told when the oldest ages out."""
    assert [cache.window_hit("w", 3, 1.0)[0] for _ in range(5)] == [True, True, True,
                                                                    False, False]
    client = cache._cache.get_client()
    assert client.zcard(cache.make_key("w")) == 3  # the refused two are not counted
    assert 0 < client.pttl(cache.make_key("w")) <= 1000
    allowed, wait = cache.window_hit("w", 3, 1.0)
    assert not allowed and 0 < wait <= 1.0
    time.sleep(wait + 0.05)
    # the first three (within a few ms) aged out: three more fit, not four
    assert [cache.window_hit("w", 3, 1.0)[0] for _ in range(4)] == [True, True, True, False]
