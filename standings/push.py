"""Push: the open standings pages of an event hear about a new snapshot at once.

The pages poll their event's standings version every few seconds (``static/js/standings.js``);
with ``PUSH_URL`` set (production, with Redis) they also hold a server-sent events stream open
to the push process (``standings.push_server``, an ASGI app), and poll only now and then as a
safety net. The path of a new snapshot:

1. the standings task commits a snapshot with a new version;
2. on commit, ``standings.tasks.publish_standings`` renders the live fragments of that version,
   keeps them gzipped in Redis (:func:`push_fragments_store`) and calls :func:`push_publish`:
   one Redis ``PUBLISH`` of the poll's JSON on the event's channel;
3. every push process (subscribed to every event's channel) writes it to the streams open on
   that event. The message carries the phone and wall regions themselves (gzipped, base64:
   :func:`push_regions`), and a page that opened its stream for one of them (``&view=``) gets
   its region inside the message and redraws without a request: a room of four hundred phones
   costs four hundred writes, not four hundred fetches. Any other page fetches the fragment of
   that version from the push process (``…/events/<id>/fragment/``, held in its memory), or
   from the site when that fails.

Nothing here is needed for correctness: a lost message (Redis away, a push process restarted)
only means the page learns of the snapshot on its next poll. Publishing never raises.

A stream is opened with a signed token (:func:`push_token`) that the standings page issues
after its permission check, so the push process needs neither the database nor the session:
only ``SECRET_KEY`` and Redis.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import threading
from collections.abc import Mapping

import redis
from django.conf import settings
from django.core import signing

logger = logging.getLogger(__name__)

CHANNEL_PREFIX = "push:event:"
CHANNEL_PATTERN = CHANNEL_PREFIX + "*"
TOKEN_SALT = "standings-push"
# The live regions the push process may hand out (``standings.fragments.VIEWS`` has the same
# names; the task stores those of ``standings.fragments.PUSHED_VIEWS``), gzipped, under this key
# for FRAGMENT_SECONDS.
FRAGMENT_VIEWS = ("page", "phone", "wall")
FRAGMENT_KEY = "push:fragment:{event_id}:{version}:{view}"
FRAGMENT_SECONDS = 15 * 60
# A region goes out inside the snapshot's message when it is at most this big gzipped (512
# players: about 6 KB for the phone's, 5 KB for the wall's); a bigger one is fetched.
REGION_INLINE_BYTES = 64 * 1024

# Who is watching an event now (``standings.watchers``): a sorted set per event of the tabs
# seen (an anonymous id a page makes for itself → when last seen), written by the site's polls
# and the push process's streams; a tab counts for WATCH_SECONDS after it was last seen.
WATCH_KEY = "watch:event:{event_id}"
WATCH_SECONDS = 30
WATCH_TAB = re.compile(r"[A-Za-z0-9_-]{8,64}")

_client_lock = threading.Lock()
_clients: dict[str, redis.Redis] = {}


def push_enabled() -> bool:
    """Whether pages are offered a stream (``PUSH_URL`` set, with Redis)."""
    return bool(getattr(settings, "PUSH_URL", "")) and bool(getattr(settings, "REDIS_URL", None))


def channel(event_id: int) -> str:
    return f"{CHANNEL_PREFIX}{event_id}"


def event_of_channel(name: str) -> int | None:
    """The event id of a channel name, or None for a name that is not one of ours."""
    if not name.startswith(CHANNEL_PREFIX):
        return None
    tail = name[len(CHANNEL_PREFIX):]
    return int(tail) if tail.isdigit() else None


def push_token(event_id: int) -> str:
    """A token that lets its holder open the event's stream (signed, not encrypted: it says
    only the event id). The page that embeds it has checked the viewer may see the event."""
    return signing.dumps(event_id, salt=TOKEN_SALT, compress=False)


def push_token_event(token: str, *, max_age: int | None = None) -> int | None:
    """The event id a token was issued for, or None when it is forged, mangled or older than
    ``max_age`` seconds (``PUSH_TOKEN_SECONDS`` by default)."""
    age = int(settings.PUSH_TOKEN_SECONDS) if max_age is None else max_age
    try:
        value = signing.loads(token, salt=TOKEN_SALT, max_age=age)
    except signing.BadSignature:  # SignatureExpired is a BadSignature
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def push_stream_url(event_id: int) -> str:
    """The address a page opens its stream at, token included; "" when push is off."""
    if not push_enabled():
        return ""
    return f"{settings.PUSH_URL}events/{event_id}/?token={push_token(event_id)}"


def _redis() -> redis.Redis:
    """This process's Redis client for publishing (redis-py's pool reconnects after a fork
    and after Redis comes back)."""
    url = str(settings.REDIS_URL)
    client = _clients.get(url)
    if client is None:
        with _client_lock:
            client = _clients.get(url)
            if client is None:
                client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
                _clients[url] = client
    return client


def push_client() -> redis.Redis:
    """This process's Redis client (the one publishing uses), for the keys push shares with
    the push process besides its channels (``standings.watchers``)."""
    return _redis()


def fragment_etag(event_id: int, version: int, view: str, stage: str | None = None, *,
                  language: str = "") -> str:
    """The ETag of a standings live region: it names the snapshot version, the view, the
    stage and, when not the default language, the site's language of it (a reader who
    changes language must not be told "304: you have it"), so the site and the push process
    (whose regions name no language) give the same English region the same tag."""
    suffix = f"-{language}" if language and language != settings.LANGUAGE_CODE else ""
    return f'W/"standings-{event_id}-{version}-{view}-{stage or "all"}{suffix}"'


def push_fragments_store(event_id: int, version: int, bodies: dict[str, bytes]) -> bool:
    """Keep the gzipped live regions of snapshot ``version`` (by view) where the push process
    reads them (raw bytes in Redis, ``FRAGMENT_KEY``); False (logged) when Redis is away."""
    if not push_enabled():
        return False
    try:
        pipe = _redis().pipeline(transaction=False)
        for view, body in bodies.items():
            if view not in FRAGMENT_VIEWS:
                raise ValueError(f"unknown view {view!r}")
            pipe.set(FRAGMENT_KEY.format(event_id=event_id, version=version, view=view), body,
                     ex=FRAGMENT_SECONDS)
        pipe.execute()
    except ValueError:
        raise
    except Exception:  # noqa: BLE001 - Redis away: the pages fetch from the site instead
        logger.warning("could not store the fragments of event %s", event_id, exc_info=True)
        return False
    return True


def push_regions(bodies: dict[str, bytes]) -> dict[str, str]:
    """The gzipped regions (by view) to send along with a snapshot's message, as base64
    text: those not over ``REGION_INLINE_BYTES``."""
    return {view: base64.b64encode(body).decode("ascii") for view, body in bodies.items()
            if len(body) <= REGION_INLINE_BYTES}


def push_publish(event_id: int, message: Mapping[str, object]) -> bool:
    """Send ``message`` (JSON) to the event's open streams; False (logged) when push is off or
    Redis is unreachable. Never raises."""
    if not push_enabled():
        return False
    try:
        _redis().publish(channel(event_id), json.dumps(message, separators=(",", ":")))
    except Exception:  # noqa: BLE001 - Redis away: the pages' polls catch up
        logger.warning("could not push to event %s", event_id, exc_info=True)
        return False
    return True


def push_wall(event_id: int, what: str) -> bool:
    """Nudge the event's wall screens (seating, movement, bracket): ``what`` moved (``seating``,
    ``results``); they ask for their own version and redraw when it changed. Goes out on the
    event's stream as ``event: wall`` (``standings.push_server.event_name``); never raises."""
    return push_publish(event_id, {"wall": what})


def push_calls(event_id: int) -> bool:
    """Tell the event's directors' screens that a call for a director was raised, taken or
    closed: ``event: calls`` on the event's stream (``standings.push_server.event_name``). The
    message says nothing else (the stream's token is the standings page's, which anyone who may
    see the event holds): each director's page asks the site for the calls, as a director.
    Never raises."""
    return push_publish(event_id, {"calls": "moved"})
