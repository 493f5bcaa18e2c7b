"""The push process: server-sent event streams for the standings pages, fed by Redis pub/sub.

An ASGI application, mounted by ``config/asgi.py`` under the path of ``PUSH_URL`` (``/push/``)
and run by ``uvicorn config.asgi:application`` (README, "Beyond one machine"). It answers one
URL, ``<PUSH_URL path>events/<id>/?token=…``, with a ``text/event-stream`` that stays open:

* ``retry`` and an ``: open`` comment at once (the page then polls once, to catch what
  happened before the stream opened);
* ``event: standings`` with the poll's JSON each time the event's snapshot moves
  (``standings.push.push_publish``). A stream opened with ``&view=phone`` (or ``wall``, ``page``:
  the live region the page shows) also gets that view's region of the new version inside the
  message (``"region"``: the gzipped HTML, base64), when the worker sent it along
  (``standings.push.push_regions``): the page then redraws without a request of its own;
* ``event: wall`` when the event's seats, rounds or results moved (``standings.push.push_wall``):
  the seating, movement and bracket walls then ask for their version and redraw;
* ``event: calls`` when a table called a director, or a director took or closed a call
  (``standings.push.push_calls``): the directors' screens then ask the site for the calls;
* ``event: resync`` after this process lost Redis and got it back (messages may have been
  missed meanwhile: the page polls once);
* an ``: ping`` comment every ``HEARTBEAT_SECONDS`` of silence, so proxies and phones keep the
  connection and a closed one is noticed.

A stream opened with ``&tab=`` (the page's anonymous tab id, offered only where the club counts
who watches) is counted as watching its event (``standings.watchers``): at once, then every
``WATCH_REFRESH_SECONDS`` while it stays open, all open streams in one Redis pipeline.

It also answers ``<PUSH_URL path>events/<id>/fragment/?token=…&view=…&version=N``: the live
region of that snapshot version (gzipped, ``standings.tasks.publish_standings`` put it in Redis
before publishing), kept in this process's memory (from the message that carried it, or after
the first ask), for the pages whose stream did not carry it (a browser that cannot inflate, a
region too big to send along); a version not there answers 404 naming ``version`` (the page then
fetches from the site). And ``<PUSH_URL path>health/`` for a
load balancer: 200 while subscribed to Redis, else 503.

One Redis connection per process subscribes to every event's channel (``PSUBSCRIBE``) and hands
each message to the streams of that event. A slow stream never holds up the others: a stream
keeps only the newest message not yet written (a snapshot supersedes the one before).

An event's snapshots go out at most once every ``PUSH_COALESCE_SECONDS`` (0, the default,
sends each as it comes; a service followed by many spectators sets ``PUSH_COALESCE_MS``, e.g.
1,000): the first after a quiet spell at once, any that come sooner are held
and only the newest of them is written when the interval is over. A busy room's standings move
with every debounced run of the worker (about one a second at 128 tables); a spectator sees
the standings of a few seconds ago just as well, and an event followed by thousands of screens
then costs a write to each of them every few seconds, not every second. The walls' and the
directors' nudges are never held.

No database, no session: the token (``standings.push.push_token``, signed with ``SECRET_KEY`` by
the page after its permission check) says which event the holder may follow. A missing, forged
or expired token answers 403 naming the ``token`` field; the page then keeps polling.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gzip
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

import redis.asyncio as aioredis
from django.conf import settings

from .push import (
    CHANNEL_PATTERN,
    FRAGMENT_KEY,
    FRAGMENT_VIEWS,
    WATCH_KEY,
    WATCH_SECONDS,
    WATCH_TAB,
    event_of_channel,
    fragment_etag,
    push_token_event,
)

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

HEARTBEAT_SECONDS = 15.0
RETRY_MS = 2000  # how long a browser waits before opening a dropped stream again
RECONNECT_MAX_SECONDS = 5.0
FRAGMENTS_KEPT = 64  # (event, version, view) bodies held in memory, least recently used out
# The open streams' tabs are marked as watching this often (a tab counts for WATCH_SECONDS).
WATCH_REFRESH_SECONDS = WATCH_SECONDS / 3
COALESCE_SECONDS = 0.0  # an event's snapshots go out at most this often (PUSH_COALESCE_SECONDS)


def push_prefix() -> str:
    """The path the push app answers under (``PUSH_URL``'s path, ``/push/`` by default)."""
    path = urlsplit(getattr(settings, "PUSH_URL", "") or "/push/").path or "/push/"
    return path if path.endswith("/") else path + "/"


class Stream:
    """One open stream: the newest message not yet written, and a flag to wake its writer."""

    __slots__ = ("closed", "event_id", "pending", "pending_calls", "pending_wall", "tab", "view",
                 "wake")

    def __init__(self, event_id: int, view: str | None = None, tab: str | None = None) -> None:
        self.event_id = event_id
        self.view = view  # the live region the page shows, sent along when the message has it
        self.tab = tab  # the page's anonymous tab id, when its club counts who watches
        self.pending: bytes | None = None
        self.pending_wall: bytes | None = None  # a wall's nudge is kept beside the snapshot
        self.pending_calls: bytes | None = None  # and so is the directors' calls nudge
        self.closed = False
        self.wake = asyncio.Event()

    def deliver(self, frame: bytes, *, wall: bool = False, calls: bool = False) -> None:
        # a newer message of the same kind replaces one not yet written
        if calls:
            self.pending_calls = frame
        elif wall:
            self.pending_wall = frame
        else:
            self.pending = frame
        self.wake.set()

    def take(self) -> bytes:
        """What is to be written now (the nudges, then the snapshot), emptied."""
        body = (self.pending_calls or b"") + (self.pending_wall or b"") + (self.pending or b"")
        self.pending = self.pending_wall = self.pending_calls = None
        return body

    def close(self) -> None:
        self.closed = True
        self.wake.set()


def frame(event: str, data: str) -> bytes:
    lines = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {event}\n{lines}\n".encode()


RESYNC = frame("resync", "{}")


class Snapshot(NamedTuple):
    """A snapshot's message as it goes out (:func:`standings_frames`)."""

    plain: bytes  # for a stream without a view, or one whose region the message lacks
    by_view: dict[str, bytes]  # for a stream showing that view: the status and its region
    regions: dict[str, bytes]  # those regions, gzipped (kept for the fetches of other pages)
    version: int | None


def standings_frames(data: str) -> Snapshot:
    """Split a published snapshot message: the status alone, and the status with each region
    it carries (``"regions"``: view to base64 of the gzipped HTML, ``standings.push``). A
    message without regions goes out as it came."""
    status: dict[str, object] = {}
    if '"regions"' in data:
        with contextlib.suppress(ValueError):
            loaded = json.loads(data)
            status = loaded if isinstance(loaded, dict) else {}
    regions = status.pop("regions", None)
    version = status.get("version")
    if not isinstance(regions, dict) or not regions or not isinstance(version, int):
        return Snapshot(frame("standings", data), {}, {}, None)
    plain = json.dumps(status, separators=(",", ":"))
    by_view: dict[str, bytes] = {}
    packed: dict[str, bytes] = {}
    for view, region in regions.items():
        if view not in FRAGMENT_VIEWS or not isinstance(region, str):
            continue
        with contextlib.suppress(ValueError):
            packed[view] = base64.b64decode(region, validate=True)
            by_view[view] = frame("standings", f'{plain[:-1]},"region":"{region}"}}')
    return Snapshot(frame("standings", plain), by_view, packed, version)


def event_name(data: str) -> str:
    """The stream event a published message goes out as: ``wall`` for a wall screen's nudge
    (``standings.push.push_wall``: ``{"wall": ...}``, seats, rounds or results moved),
    ``calls`` for the directors' screens (``standings.push.push_calls``: ``{"calls": ...}``, a
    call for a director moved), else ``standings`` (a new snapshot). A page listens only to the
    events it draws from."""
    if data.startswith('{"wall"'):
        return "wall"
    return "calls" if data.startswith('{"calls"') else "standings"


def coalesce_seconds() -> float:
    """How often at most an event's snapshots go out (``PUSH_COALESCE_SECONDS``; 0: each as it
    comes)."""
    return max(0.0, float(getattr(settings, "PUSH_COALESCE_SECONDS", COALESCE_SECONDS)))


def _with_regions(data: str, held: str) -> str:
    """A status-only message (a snapshot found current with newer hands: no regions) that
    supersedes a held one of the same version: the held message's regions go with it, so the
    pages showing them need not fetch a region they never got."""
    with contextlib.suppress(ValueError):
        new, old = json.loads(data), json.loads(held)
        if (isinstance(new, dict) and isinstance(old, dict) and "regions" not in new
                and isinstance(old.get("regions"), dict)
                and new.get("version") == old.get("version")):
            return json.dumps({**new, "regions": old["regions"]}, separators=(",", ":"))
    return data


class Hub:
    """The process's Redis subscription and the open streams, per event; each event's
    snapshots coalesced to one every ``coalesce`` seconds (0: none held)."""

    def __init__(self, redis_url: str, coalesce: float = 0.0) -> None:
        self.redis_url = redis_url
        self.coalesce = coalesce
        self._sent_at: dict[int, float] = {}  # when an event's last snapshot went out
        self._held: dict[int, str] = {}  # the newest snapshot message held back, per event
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self.streams: dict[int, set[Stream]] = {}
        self.connected = False
        self._task: asyncio.Task[None] | None = None
        self._client: aioredis.Redis | None = None  # commands (the subscription has its own)
        self._watching: asyncio.Task[None] | None = None
        self._fragments: OrderedDict[tuple[int, int, str], bytes] = OrderedDict()
        self._reading: dict[tuple[int, int, str], asyncio.Future[bytes | None]] = {}

    def keep(self, event_id: int, version: int, view: str, body: bytes) -> None:
        """Hold a gzipped region in memory (least recently used out past ``FRAGMENTS_KEPT``)."""
        key = (event_id, version, view)
        self._fragments[key] = body
        self._fragments.move_to_end(key)
        while len(self._fragments) > FRAGMENTS_KEPT:
            self._fragments.popitem(last=False)

    async def fragment(self, event_id: int, version: int, view: str) -> bytes | None:
        """The gzipped live region of that version and view: from memory, else one Redis read
        shared by every request asking meanwhile; None when Redis does not have it."""
        key = (event_id, version, view)
        body = self._fragments.get(key)
        if body is not None:
            self._fragments.move_to_end(key)
            return body
        reading = self._reading.get(key)
        if reading is not None:
            return await asyncio.shield(reading)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._reading[key] = future
        try:
            if self._client is None:
                self._client = aioredis.Redis.from_url(self.redis_url, socket_timeout=2,
                                                       socket_connect_timeout=2)
            raw = await self._client.get(FRAGMENT_KEY.format(event_id=event_id,
                                                             version=version, view=view))
            body = None if raw is None else raw.encode() if isinstance(raw, str) else bytes(raw)
            if body is not None:
                self.keep(event_id, version, view, body)
            future.set_result(body)
            return body
        except Exception:  # noqa: BLE001 - Redis away: the pages ask the site instead
            logger.warning("push: could not read a fragment from Redis", exc_info=True)
            future.set_result(None)
            await self._drop_client()  # the next read connects afresh
            return None
        finally:
            del self._reading[key]

    def start(self) -> None:
        """Subscribe (in the background, reconnecting for ever) unless already started."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._listen())
        if self._watching is None or self._watching.done():
            self._watching = asyncio.get_running_loop().create_task(self._watch_loop())

    def join(self, event_id: int, view: str | None = None, tab: str | None = None) -> Stream:
        self.start()
        stream = Stream(event_id, view, tab if tab and WATCH_TAB.fullmatch(tab) else None)
        self.streams.setdefault(event_id, set()).add(stream)
        if stream.tab:  # counted at once, then with the others every WATCH_REFRESH_SECONDS
            asyncio.get_running_loop().create_task(self.watchers_mark({event_id: [stream.tab]}))
        return stream

    def watched(self) -> dict[int, list[str]]:
        """The tabs of the open streams that carry one, per event."""
        found: dict[int, list[str]] = {}
        for event_id, streams in self.streams.items():
            tabs = [stream.tab for stream in streams if stream.tab and not stream.closed]
            if tabs:
                found[event_id] = tabs
        return found

    async def watchers_mark(self, tabs: dict[int, list[str]]) -> None:
        """The tabs are watching their events now (``standings.watchers``: one pipeline).
        Never raises: Redis away leaves them uncounted until the next mark."""
        if not tabs:
            return
        try:
            if self._client is None:
                self._client = aioredis.Redis.from_url(self.redis_url, socket_timeout=2,
                                                       socket_connect_timeout=2)
            now = time.time()
            pipe = self._client.pipeline(transaction=False)
            for event_id, ids in tabs.items():
                key = WATCH_KEY.format(event_id=event_id)
                pipe.zadd(key, dict.fromkeys(ids, now))
                pipe.expire(key, WATCH_SECONDS)
            await pipe.execute()
        except Exception:  # noqa: BLE001 - the count is a nicety
            logger.warning("push: could not count the watchers", exc_info=True)

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(WATCH_REFRESH_SECONDS)
            await self.watchers_mark(self.watched())

    def leave(self, stream: Stream) -> None:
        streams = self.streams.get(stream.event_id)
        if streams is not None:
            streams.discard(stream)
            if not streams:
                del self.streams[stream.event_id]
                if stream.event_id not in self._held:  # nothing pending: forget its interval
                    self._sent_at.pop(stream.event_id, None)

    def open_streams(self) -> int:
        return sum(len(s) for s in self.streams.values())

    def dispatch(self, channel_name: str, data: str) -> int:
        """Hand one published message to the streams of its event; how many got it."""
        event_id = event_of_channel(channel_name)
        if event_id is None:
            return 0
        streams = self.streams.get(event_id, ())
        if not streams:
            return 0
        name = event_name(data)
        if name != "standings":
            message = frame(name, data)
            for stream in streams:
                stream.deliver(message, wall=name == "wall", calls=name == "calls")
            return len(streams)
        if self.coalesce > 0:
            loop = asyncio.get_running_loop()
            now = loop.time()
            held = self._held.get(event_id)
            if held is None and now - self._sent_at.get(event_id, -self.coalesce) \
                    >= self.coalesce:
                self._sent_at[event_id] = now  # the first after a quiet spell: at once
            else:  # too soon: held, the newest only, until the interval is over
                self._held[event_id] = data if held is None else _with_regions(data, held)
                if event_id not in self._timers:
                    self._timers[event_id] = loop.call_at(
                        self._sent_at[event_id] + self.coalesce, self._release, event_id)
                return len(streams)
        return self._send_snapshot(event_id, data)

    def _release(self, event_id: int) -> None:
        """The interval is over: the event's held snapshot goes out to its streams now."""
        self._timers.pop(event_id, None)
        data = self._held.pop(event_id, None)
        if data is not None and event_id in self.streams:
            self._sent_at[event_id] = asyncio.get_running_loop().time()
            self._send_snapshot(event_id, data)
        elif event_id not in self.streams:  # every page left meanwhile
            self._sent_at.pop(event_id, None)

    def _send_snapshot(self, event_id: int, data: str) -> int:
        streams = self.streams.get(event_id, ())
        snapshot = standings_frames(data)
        if snapshot.version is not None:
            for view, body in snapshot.regions.items():
                self.keep(event_id, snapshot.version, view, body)
        for stream in streams:
            stream.deliver(snapshot.by_view.get(stream.view or "", snapshot.plain))
        return len(streams)

    def _resync_all(self) -> None:
        for streams in self.streams.values():
            for stream in streams:
                stream.deliver(RESYNC)

    async def _listen(self) -> None:
        delay = 0.25
        ever_connected = False
        while True:
            client = aioredis.Redis.from_url(self.redis_url, socket_connect_timeout=2,
                                             health_check_interval=10)
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                self.connected = True
                if ever_connected:
                    self._resync_all()  # what was published while we were away is lost
                    await self._drop_client()  # its sockets are from before the outage
                    logger.info("push: Redis is back; open streams told to resync")
                ever_connected, delay = True, 0.25
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    channel_name, data = message["channel"], message["data"]
                    self.dispatch(channel_name.decode() if isinstance(channel_name, bytes)
                                  else str(channel_name),
                                  data.decode() if isinstance(data, bytes) else str(data))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: pages poll meanwhile; try again
                if self.connected:
                    logger.warning("push: lost Redis; reconnecting", exc_info=True)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RECONNECT_MAX_SECONDS)

    async def _drop_client(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        self._held.clear()
        if self._watching is not None:
            self._watching.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watching
            self._watching = None
        await self._drop_client()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        for streams in list(self.streams.values()):
            for stream in list(streams):
                stream.close()


_hub: Hub | None = None


def hub() -> Hub:
    global _hub  # noqa: PLW0603 - one hub per process
    if _hub is None:
        _hub = Hub(str(settings.REDIS_URL), coalesce_seconds())
    return _hub


async def _fragment(scope: Scope, send: Send, event_id: int, query: dict[str, list[str]]
                    ) -> None:
    """The live region of one snapshot version, gzipped unless the client cannot take it;
    304 for the ETag it already has (the site's fragment ETag: the same body)."""
    view = (query.get("view") or ["page"])[0]
    version_text = (query.get("version") or [""])[0]
    if view not in FRAGMENT_VIEWS:
        await _refuse_view(send)
        return
    if not version_text.isdigit() or len(version_text) > 12:
        await _answer(send, 400, {"field": "version", "code": "invalid",
                                  "detail": "version is the snapshot's version, a whole number."})
        return
    version = int(version_text)
    body = await hub().fragment(event_id, version, view)
    if body is None:
        await _answer(send, 404, {"field": "version", "code": "not_found",
                                  "detail": "That version's standings are not here; ask the site."})
        return
    headers = dict((k.decode("latin-1").lower(), v.decode("latin-1"))
                   for k, v in scope.get("headers", []))
    etag = fragment_etag(event_id, version, view)
    common = [(b"etag", etag.encode()), (b"cache-control", b"no-cache"),
              (b"access-control-allow-origin", b"*"), (b"vary", b"Accept-Encoding"),
              (b"x-standings-version", str(version).encode())]
    if etag in headers.get("if-none-match", ""):
        await send({"type": "http.response.start", "status": 304, "headers": common})
        await send({"type": "http.response.body", "body": b""})
        return
    packed = "gzip" in headers.get("accept-encoding", "")
    if not packed:
        body = gzip.decompress(body)
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/html; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        *([(b"content-encoding", b"gzip")] if packed else []), *common]})
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


async def _answer(send: Send, status: int, body: dict[str, object]) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"access-control-allow-origin", b"*"),
        (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": json.dumps(body).encode()})


async def _refuse_view(send: Send) -> None:
    await _answer(send, 400, {"field": "view", "code": "invalid",
                              "detail": f"view is one of {', '.join(FRAGMENT_VIEWS)}."})


async def _health(send: Send) -> None:
    """``<prefix>health/``: 200 while this process is subscribed to Redis, else 503 (a load
    balancer then stops sending streams here; the pages meanwhile poll)."""
    if not settings.REDIS_URL:
        await _answer(send, 503, {"status": "degraded", "redis": "not configured"})
        return
    current = hub()
    current.start()
    for _ in range(20):  # just started: give the subscription a moment
        if current.connected:
            break
        await asyncio.sleep(0.05)
    await _answer(send, 200 if current.connected else 503, {
        "status": "ok" if current.connected else "degraded",
        "redis": "subscribed" if current.connected else "unavailable",
        "streams": current.open_streams()})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if _hub is not None:
                await _hub.close()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    """The push app (ASGI 3)."""
    if scope["type"] == "lifespan":
        await _lifespan(receive, send)
        return
    if scope["type"] != "http":
        return  # websockets are not offered
    if scope["path"] == push_prefix() + "health/":
        await _health(send)
        return
    match = re.fullmatch(re.escape(push_prefix()) + r"events/([0-9]{1,12})/(fragment/)?",
                         scope["path"])
    if match is None:
        await _answer(send, 404, {"detail": "Not found."})
        return
    if scope["method"] not in ("GET", "HEAD"):
        await _answer(send, 405, {"detail": f"Method {scope['method']} not allowed."})
        return
    event_id = int(match[1])
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    token = (query.get("token") or [""])[0]
    if not token or push_token_event(token) != event_id:
        await _answer(send, 403, {"field": "token", "code": "invalid", "detail": (
            "The stream's token is missing, not for this event, or expired; reload the page.")})
        return
    if not settings.REDIS_URL:
        await _answer(send, 503, {"detail": "Push is not configured (no REDIS_URL)."})
        return
    if match[2]:
        await _fragment(scope, send, event_id, query)
        return
    view = (query.get("view") or [None])[0]
    if view is not None and view not in FRAGMENT_VIEWS:
        await _refuse_view(send)
        return
    await _stream(event_id, receive, send, head_only=scope["method"] == "HEAD", view=view,
                  tab=(query.get("tab") or [None])[0])


async def _stream(event_id: int, receive: Receive, send: Send, *, head_only: bool,
                  view: str | None, tab: str | None = None) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"),
        (b"cache-control", b"no-store"),
        (b"x-accel-buffering", b"no"),  # nginx: pass each message on at once
        (b"access-control-allow-origin", b"*")]})
    if head_only:
        await send({"type": "http.response.body", "body": b""})
        return
    stream = hub().join(event_id, view, tab)

    async def watch() -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                stream.close()
                return

    watcher = asyncio.get_running_loop().create_task(watch())
    try:
        await send({"type": "http.response.body", "more_body": True,
                    "body": f"retry: {RETRY_MS}\n: open\n\n".encode()})
        while not stream.closed:
            try:
                await asyncio.wait_for(stream.wake.wait(), HEARTBEAT_SECONDS)
            except TimeoutError:
                body = b": ping\n\n"
            else:
                stream.wake.clear()
                if stream.closed:
                    break
                body = stream.take()
                if not body:
                    continue
            await send({"type": "http.response.body", "body": body, "more_body": True})
        if not watcher.done():  # this process is stopping: end the response properly
            await send({"type": "http.response.body", "body": b""})
    except OSError:
        pass  # the client went away mid-write
    finally:
        hub().leave(stream)
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await watcher
