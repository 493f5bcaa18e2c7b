"""Push without servers: the setting, the stream tokens, the page's stream address, the hub's
fan-out and the push app's answers to requests it refuses (run in-process, as an ASGI app)."""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
import os
import subprocess
import sys
import threading
from typing import Any

import pytest

from config.env import ConfigError, get_push_url
from standings import push_server
from standings.push import (
    REGION_INLINE_BYTES,
    event_of_channel,
    push_enabled,
    push_publish,
    push_regions,
    push_stream_url,
    push_token,
    push_token_event,
)
from standings.push_server import Hub, frame
from tests.tournaments.factories import EventFactory


@pytest.mark.parametrize(("raw", "expected"), [
    ("", ""), ("/push/", "/push/"), ("/push", "/push/"),
    ("https://push.example.org/push/", "https://push.example.org/push/"),
    ("http://127.0.0.1:8001/push", "http://127.0.0.1:8001/push/"),
])
def test_push_address_setting(monkeypatch, raw, expected) -> None:
    monkeypatch.setenv("PUSH_URL", raw)
    assert get_push_url("PUSH_URL") == expected


@pytest.mark.parametrize("raw", ["push/", "ftp://x/push/", "/push/?a=1", "http://h:99999/p/",
                                 "http:///push/"])
def test_a_bad_push_address_names_the_variable(monkeypatch, raw) -> None:
    monkeypatch.setenv("PUSH_URL", raw)
    with pytest.raises(ConfigError, match="PUSH_URL"):
        get_push_url("PUSH_URL")


def test_a_token_opens_its_own_event_only_and_not_for_ever() -> None:
    token = push_token(12)
    assert push_token_event(token) == 12
    assert push_token_event(token + "x") is None
    assert push_token_event("12") is None
    assert push_token_event(token, max_age=-1) is None  # expired


def test_a_token_signed_with_another_key_is_refused(settings) -> None:
    token = push_token(3)
    settings.SECRET_KEY = "another-key-of-at-least-thirty-two-characters!"
    assert push_token_event(token) is None


def test_pages_are_offered_a_stream_only_when_push_is_on(settings) -> None:
    settings.PUSH_URL = ""
    assert not push_enabled() and push_stream_url(4) == ""
    assert not push_publish(4, {"version": 1})  # off: nothing sent, nothing raised
    settings.PUSH_URL = "/push/"
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    url = push_stream_url(4)
    assert url.startswith("/push/events/4/?token=")
    assert push_token_event(url.split("token=", 1)[1]) == 4


def test_publishing_with_redis_unreachable_is_false_not_an_error(settings) -> None:
    settings.PUSH_URL = "/push/"
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    assert push_publish(4, {"version": 1}) is False


def test_channel_names() -> None:
    assert event_of_channel("push:event:17") == 17
    assert event_of_channel("push:event:x") is None
    assert event_of_channel("other:17") is None


def test_a_frame_carries_every_line_of_its_data() -> None:
    assert frame("standings", '{"a":1}') == b'event: standings\ndata: {"a":1}\n\n'
    assert frame("x", "one\ntwo") == b"event: x\ndata: one\ndata: two\n\n"


def run(coroutine: Any) -> None:
    """Run a coroutine to its end in a thread of its own: the e2e tests' session browser
    (Playwright's sync API) keeps an event loop running in the main thread, where
    ``asyncio.run`` would refuse."""
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the coroutine did not finish within 30 s"
    if failure:
        raise failure[0]


def test_a_wall_nudge_goes_out_as_its_own_event_beside_the_newest_snapshot() -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0")
        stream = hub.join(5)
        assert hub.dispatch("push:event:5", '{"wall":"seating"}') == 1
        assert hub.dispatch("push:event:5", '{"version":3}') == 1
        assert hub.dispatch("push:event:5", '{"wall":"results"}') == 1
        # neither kind supersedes the other: the newest of each is written, the nudge first
        assert stream.take() == frame("wall", '{"wall":"results"}') + frame(
            "standings", '{"version":3}')
        assert stream.take() == b"" and stream.pending is None and stream.pending_wall is None
        await hub.close()

    run(scenario())


def test_a_calls_nudge_goes_out_as_its_own_event_beside_the_wall_s_and_the_snapshot() -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0")
        stream = hub.join(5)
        assert push_server.event_name('{"calls":"moved"}') == "calls"
        assert hub.dispatch("push:event:5", '{"calls":"moved"}') == 1
        assert hub.dispatch("push:event:5", '{"version":4}') == 1
        assert hub.dispatch("push:event:5", '{"wall":"seating"}') == 1
        assert hub.dispatch("push:event:5", '{"calls":"moved"}') == 1
        # a snapshot or a wall's nudge never swallows a call: each kind keeps its newest
        assert stream.take() == frame("calls", '{"calls":"moved"}') + frame(
            "wall", '{"wall":"seating"}') + frame("standings", '{"version":4}')
        assert stream.take() == b"" and stream.pending_calls is None
        await hub.close()

    run(scenario())


def test_the_hub_hands_a_message_to_its_event_s_streams_newest_first() -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0")
        a, b, other = (hub.join(5), hub.join(5), hub.join(6))
        assert hub.open_streams() == 3
        assert hub.dispatch("push:event:5", '{"version":1}') == 2
        assert hub.dispatch("push:event:5", '{"version":2}') == 2
        assert hub.dispatch("nonsense", "{}") == 0
        for stream in (a, b):
            assert stream.wake.is_set()
            assert stream.pending == frame("standings", '{"version":2}')  # 1 was superseded
        assert other.pending is None and not other.wake.is_set()
        hub.leave(a)
        hub.leave(b)
        assert 5 not in hub.streams and hub.open_streams() == 1
        await hub.close()
        assert other.closed

    run(scenario())


def test_a_snapshot_s_regions_go_to_the_streams_showing_them_and_are_kept_for_fetches() -> None:
    phone, wall = gzip.compress(b"<ol>phone</ol>"), gzip.compress(b"<ol>wall</ol>")
    regions = push_regions({"phone": phone, "wall": wall})
    message = json.dumps({"version": 9, "fragment": True, "regions": regions})

    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0")  # never reached: the regions came in the message
        on_phone, on_wall, on_desk, plain = (hub.join(5, "phone"), hub.join(5, "wall"),
                                             hub.join(5, "page"), hub.join(5))
        assert hub.dispatch("push:event:5", message) == 4
        for stream, view in ((on_phone, "phone"), (on_wall, "wall")):
            sent = json.loads(stream.take().split(b"data: ", 1)[1])
            assert sent == {"version": 9, "fragment": True, "region": regions[view]}
            assert gzip.decompress(base64.b64decode(sent["region"])) == \
                gzip.decompress({"phone": phone, "wall": wall}[view])
        # a view the message lacks, or none: the status alone (the page fetches the region)
        for stream in (on_desk, plain):
            assert stream.take() == frame("standings", '{"version":9,"fragment":true}')
        assert await hub.fragment(5, 9, "phone") == phone  # no Redis read needed
        assert await hub.fragment(5, 9, "wall") == wall
        await hub.close()

    run(scenario())


@pytest.mark.parametrize("message", [
    '{"version":9,"regions":{"phone":"not base64!"}}',  # a region that does not decode
    '{"version":9,"regions":{"chart":"AAAA"}}',  # a view the pages do not have
    '{"version":9,"regions":[]}', '{"regions":{"phone":"AAAA"}}', '{"regions": oops',
])
def test_a_region_the_hub_cannot_use_is_left_out_and_the_status_still_goes(message) -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0")
        stream = hub.join(5, "phone")
        assert hub.dispatch("push:event:5", message) == 1
        sent = stream.take()
        assert sent.startswith(b"event: standings\n") and b'"region"' not in sent
        assert not hub._fragments
        await hub.close()

    run(scenario())


def test_only_regions_small_enough_are_sent_along() -> None:
    small, big = b"x" * 10, b"y" * (REGION_INLINE_BYTES + 1)
    assert push_regions({"phone": small, "wall": big}) == {
        "phone": base64.b64encode(small).decode()}


def call(path: str, method: str = "GET", query: str = "") -> tuple[int, dict[str, Any]]:
    """One request to the push app, in-process; (status, JSON body)."""
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path,
             "query_string": query.encode(), "headers": []}
    run(push_server.application(scope, receive, send))
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return sent[0]["status"], json.loads(body)


def test_the_push_app_refuses_what_it_does_not_serve() -> None:
    assert call("/push/events/x/")[0] == 404
    assert call("/push/elsewhere/")[0] == 404
    assert call("/push/events/3/", method="POST")[0] == 405
    status, body = call("/push/events/3/")
    assert (status, body["field"]) == (403, "token")
    status, body = call("/push/events/3/", query=f"token={push_token(4)}")
    assert (status, body["field"]) == (403, "token")  # another event's token
    status, body = call("/push/events/3/", query=f"token={push_token(3)}&view=chart")
    assert (status, body["field"]) == (400, "view")  # a stream for a region there is not


def test_an_absolute_push_address_is_allowed_by_the_content_security_policy() -> None:
    env = {**os.environ, "PUSH_URL": "https://push.example.org/push/",
           "REDIS_URL": "redis://127.0.0.1:6379/0", "DJANGO_SETTINGS_MODULE": "config.settings.base"}
    shown = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; "
         "print(settings.CONTENT_SECURITY_POLICY['DIRECTIVES']['connect-src'], settings.PUSH_URL)"],
        env=env, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "[\"'self'\", 'https://push.example.org'] https://push.example.org/push/"


@pytest.mark.django_db
def test_the_standings_pages_offer_the_stream_only_with_push_on(client, settings) -> None:
    event = EventFactory()
    settings.PUSH_URL = ""
    for path in (f"/events/{event.pk}/standings/", f"/events/{event.pk}/standings/wall/"):
        assert b"data-push-url" not in client.get(path).content
    settings.PUSH_URL = "/push/"
    settings.REDIS_URL = settings.REDIS_URL or "redis://127.0.0.1:1/0"
    for path in (f"/events/{event.pk}/standings/", f"/events/{event.pk}/standings/wall/"):
        html = client.get(path).content.decode()
        start = html.index('data-push-url="') + len('data-push-url="')
        url = html[start:html.index('"', start)].replace("&amp;", "&")
        assert url.startswith(f"/push/events/{event.pk}/?token=")
        assert push_token_event(url.split("token=", 1)[1]) == event.pk


def test_an_event_s_snapshots_go_out_at_most_once_an_interval_the_newest_of_those_held() -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0", coalesce=0.3)
        stream, other = hub.join(5), hub.join(6)
        # the first after a quiet spell goes out at once
        assert hub.dispatch("push:event:5", '{"version":1}') == 1
        assert stream.take() == frame("standings", '{"version":1}')
        stream.wake.clear()
        # those that come sooner are held: nothing written, however many there are
        for version in (2, 3, 4):
            assert hub.dispatch("push:event:5", f'{{"version":{version}}}') == 1
        # another event's snapshot and this event's wall nudge are not held by it
        assert hub.dispatch("push:event:6", '{"version":7}') == 1
        assert other.take() == frame("standings", '{"version":7}')
        assert hub.dispatch("push:event:5", '{"wall":"seating"}') == 1
        assert stream.take() == frame("wall", '{"wall":"seating"}')
        stream.wake.clear()
        await asyncio.sleep(0.15)
        assert not stream.wake.is_set() and stream.pending is None
        # the interval over: the newest of the held ones, once
        await asyncio.wait_for(stream.wake.wait(), 1.0)
        assert stream.take() == frame("standings", '{"version":4}')
        stream.wake.clear()
        await asyncio.sleep(0.4)
        assert not stream.wake.is_set() and stream.take() == b""
        # quiet for an interval: the next goes out at once again
        assert hub.dispatch("push:event:5", '{"version":5}') == 1
        assert stream.take() == frame("standings", '{"version":5}')
        await hub.close()

    run(scenario())


def test_a_held_snapshot_s_regions_survive_a_status_only_message_of_its_version() -> None:
    phone = gzip.compress(b"<ol>phone</ol>")
    regions = push_regions({"phone": phone})

    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0", coalesce=0.2)
        stream = hub.join(5, "phone")
        hub.dispatch("push:event:5", '{"version":1}')
        stream.take()
        stream.wake.clear()
        hub.dispatch("push:event:5", json.dumps({"version": 2, "source_version": 10,
                                                 "regions": regions}))
        # the worker found version 2 current with newer hands: the status alone
        hub.dispatch("push:event:5", '{"version":2,"source_version":12}')
        await asyncio.wait_for(stream.wake.wait(), 1.0)
        sent = json.loads(stream.take().split(b"data: ", 1)[1])
        assert sent == {"version": 2, "source_version": 12, "region": regions["phone"]}
        await hub.close()

    run(scenario())


def test_the_push_process_coalesces_as_the_setting_says(settings) -> None:
    settings.PUSH_COALESCE_SECONDS = 2.5
    assert push_server.coalesce_seconds() == 2.5
    settings.PUSH_COALESCE_SECONDS = -1
    assert push_server.coalesce_seconds() == 0.0


def test_an_event_whose_pages_all_left_is_forgotten_with_what_it_held() -> None:
    async def scenario() -> None:
        hub = Hub("redis://127.0.0.1:1/0", coalesce=0.1)
        stream = hub.join(5)
        hub.dispatch("push:event:5", '{"version":1}')
        hub.dispatch("push:event:5", '{"version":2}')  # held
        hub.leave(stream)
        await asyncio.sleep(0.25)  # the interval over, nobody to send it to
        assert hub._held == {} and hub._timers == {} and hub._sent_at == {}
        again = hub.join(5)
        assert hub.dispatch("push:event:5", '{"version":3}') == 1
        assert again.take() == frame("standings", '{"version":3}')  # at once
        await hub.close()

    run(scenario())
