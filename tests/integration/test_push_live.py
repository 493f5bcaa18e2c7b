"""Push through the real servers `make test` starts: the push process (uvicorn serving
``config.asgi``), Redis pub/sub and the Celery worker, which publishes each new snapshot."""

from __future__ import annotations

import base64
import gzip
import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from django.utils.html import escape

from standings.fragments import PUSHED_VIEWS
from standings.models import StandingsSnapshot
from standings.push import push_fragments_store, push_publish, push_token
from tests.integration.sse import SseStream
from tests.integration.test_standings_live import build_event, enter, wait_until
from tournaments.models import Event
from tournaments.services import event_results_changed

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def push_url(servers) -> str:
    assert servers.push_url, "the push process was not started (TEST_PUSH_PORT)"
    return str(servers.push_url)


def stream(push_url: str, event_id: int, token: str | None = None, view: str = ""
           ) -> SseStream:
    return SseStream(f"{push_url}events/{event_id}/?token={token or push_token(event_id)}"
                     + (f"&view={view}" if view else ""))


def test_a_published_status_reaches_the_open_streams_of_its_event_only(push_url) -> None:
    mine, other = stream(push_url, 424242), stream(push_url, 424243)
    try:
        assert mine.status == 200
        assert mine.headers["content-type"].startswith("text/event-stream")
        assert mine.headers["access-control-allow-origin"] == "*"
        assert mine.next(timeout=0.5) is None and "open" in mine.comments
        with override_settings(PUSH_URL=push_url):
            assert push_publish(424242, {"event": 424242, "version": 7})
        message = mine.next_of("standings")
        assert message is not None and message.json() == {"event": 424242, "version": 7}
        assert other.next(timeout=1) is None  # another event's stream heard nothing
    finally:
        mine.close()
        other.close()


def test_a_stream_without_a_valid_token_is_refused_naming_the_field(push_url) -> None:
    for token in ("", "forged", push_token(5)):
        request = urllib.request.Request(f"{push_url}events/6/?token={token}")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 403
        assert json.loads(refused.value.read())["field"] == "token"


def test_the_push_health_check_says_it_is_subscribed(push_url) -> None:
    with urllib.request.urlopen(f"{push_url}health/", timeout=10) as answer:
        body = json.loads(answer.read())
    assert answer.status == 200 and body["redis"] == "subscribed"


def test_a_hand_reaches_the_stream_after_the_worker_stored_it_with_its_fragments_ready(
    push_url, celery_app_live
) -> None:
    event, games = build_event(players=8)
    opened = stream(push_url, event.pk)
    try:
        for game in games:
            enter(game, 1)
        hands_version = Event.objects.values_list("hands_version", flat=True).get(pk=event.pk)
        seen = None
        while seen is None or seen["source_version"] < hands_version:
            message = opened.next_of("standings", timeout=30)
            assert message is not None, "no push after the hands were entered"
            seen = message.json()
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert seen["version"] == snapshot.version and seen["event"] == event.pk
        assert seen["behind"] is False and "public" not in seen and seen["fragment"] is True
        # The room's fetches that follow the message find every view rendered already.
        leader = escape(snapshot.rows[0]["name"])
        for view in PUSHED_VIEWS:
            html = cache.get(f"standings:html:{event.pk}:{snapshot.version}:{view}:all")
            assert html is not None and leader in html
    finally:
        opened.close()


def test_after_a_redis_restart_streams_are_told_to_resync_and_pushes_resume(
    push_url, servers
) -> None:
    def fragment(version: int) -> int:
        """Store a region of ``version`` as the worker does and ask the push process for it."""
        with override_settings(PUSH_URL=push_url):
            assert push_fragments_store(424244, version, {"phone": gzip.compress(b"<p>r</p>")})
        return get(f"{push_url}events/424244/fragment/?token={push_token(424244)}"
                   f"&view=phone&version={version}")[0]

    opened = stream(push_url, 424244)
    try:
        assert opened.next(timeout=0.5) is None  # the stream is open
        assert fragment(1) == 200  # the push process now holds a connection for its reads
        servers.stop_redis()
        try:
            with override_settings(PUSH_URL=push_url):
                assert not push_publish(424244, {"version": 1})  # logged, not raised
        finally:
            servers.start_redis()
        assert opened.next_of("resync", timeout=30) is not None
        with override_settings(PUSH_URL=push_url):
            assert wait_until(lambda: push_publish(424244, {"version": 2}), timeout=10)
        message = opened.next_of("standings", timeout=10)
        assert message is not None and message.json() == {"version": 2}
        # The first fragment read after the restart does not fail on a socket from before it.
        assert fragment(2) == 200
    finally:
        opened.close()


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, {k.lower(): v for k, v in refused.headers.items()}, refused.read()


def test_the_push_process_hands_out_the_fragment_of_the_version_it_announced(
    push_url, client, celery_app_live
) -> None:
    event, games = build_event(players=8)
    opened = stream(push_url, event.pk)
    try:
        for game in games:
            enter(game, 1)
        message = opened.next_of("standings", timeout=30)
        assert message is not None
        seen = message.json()
    finally:
        opened.close()
    assert seen["fragment"] is True
    version, token = seen["version"], push_token(event.pk)
    base = f"{push_url}events/{event.pk}/fragment/?token={token}"
    for view in ("phone", "wall"):
        site = client.get(f"/events/{event.pk}/standings/fragment/?view={view}")
        if site["X-Standings-Version"] != str(version):
            continue  # a later snapshot came meanwhile: the site shows that one
        status, headers, packed = get(f"{base}&view={view}&version={version}",
                                      {"Accept-Encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert gzip.decompress(packed) == site.content  # the site's very bytes
        assert headers["etag"] == site["ETag"]
        assert headers["access-control-allow-origin"] == "*"
        status, _, plain = get(f"{base}&view={view}&version={version}")
        assert status == 200 and plain == site.content
        status, _, _ = get(f"{base}&view={view}&version={version}",
                           {"If-None-Match": headers["etag"]})
        assert status == 304
    refusals = [
        (f"{base}&view=page&version={version}", 404, "version"),  # desktops ask the site
        (f"{base}&view=phone&version={version + 50}", 404, "version"),
        (f"{base}&view=chart&version={version}", 400, "view"),
        (f"{base}&view=page&version=x", 400, "version"),
        (f"{push_url}events/{event.pk}/fragment/?view=page&version={version}", 403, "token"),
        (f"{push_url}events/{event.pk + 1}/fragment/?token={token}&view=page&version=1", 403,
         "token"),
    ]
    for url, code, field in refusals:
        status, _, body = get(url)
        assert (status, json.loads(body)["field"]) == (code, field), url


def test_a_snapshot_found_current_with_newer_hands_is_pushed_as_its_status_alone(
    push_url, celery_app_live
) -> None:
    """Something that feeds the standings but moves no total (here the settings saved again)
    leaves the rows and their version as they were; the pages are still told the snapshot
    is current, or they would say "updating…" until the next hand that moves a total."""
    event, games = build_event(players=8)
    opened = stream(push_url, event.pk, view="phone")
    try:
        for game in games:
            enter(game, 1)

        def current_with(hands_version: int) -> dict[str, Any]:
            seen: dict[str, Any] = {}
            while seen.get("source_version", -1) < hands_version:
                message = opened.next_of("standings", timeout=30)
                assert message is not None, f"no push reached hands version {hands_version}"
                seen = message.json()
            return seen

        first = current_with(Event.objects.get(pk=event.pk).hands_version)
        assert "region" in first
        event_results_changed(Event.objects.get(pk=event.pk))
        again = current_with(Event.objects.get(pk=event.pk).hands_version)
    finally:
        opened.close()
    assert again["version"] == first["version"] and again["behind"] is False
    assert again["source_version"] > first["source_version"]
    assert "region" not in again and "fragment" not in again  # the pages have that version


def test_a_stream_opened_for_a_view_gets_that_region_of_each_snapshot_inside_the_message(
    push_url, client, celery_app_live
) -> None:
    event, games = build_event(players=8)
    phone, wall, plain = (stream(push_url, event.pk, view="phone"),
                          stream(push_url, event.pk, view="wall"), stream(push_url, event.pk))
    try:
        for game in games:
            enter(game, 1)
        got = {}
        for name, opened in (("phone", phone), ("wall", wall), ("plain", plain)):
            message = opened.next_of("standings", timeout=30)
            assert message is not None, f"no push on the {name} stream"
            got[name] = message.json()
    finally:
        for opened in (phone, wall, plain):
            opened.close()
    assert "region" not in got["plain"] and got["plain"]["fragment"] is True
    for view in ("phone", "wall"):
        seen = got[view]
        assert set(seen) == set(got["plain"]) | {"region"}
        # the region of that very version, as the worker rendered it for the site's fetches
        html = cache.get(f"standings:html:{event.pk}:{seen['version']}:{view}:all")
        assert html is not None
        assert gzip.decompress(base64.b64decode(seen["region"])).decode() == html
