""""12 watching": how many people follow a running event's public pages now.

Words: a *tab* is one open page of a browser, named by an anonymous random id the page makes for
itself (``static/js/live.js``, kept in the tab's ``sessionStorage``: a reload is the same tab, a
second tab another); a *watcher* is a tab seen in the last ``WATCH_SECONDS``. Nothing else is
kept: no address, no user, no cookie, and the id means nothing outside its event's set.

Where a tab is seen, per event, in one Redis sorted set (``WATCH_KEY``: tab id → the time last
seen, the set expiring after a quiet ``WATCH_SECONDS``):

* the push process (``standings.push_server``) for every open stream the page opened with
  ``&tab=``: when it opens, then every ``WATCH_SECONDS / 3`` while it stays open;
* the pages' polls (the standings poll, the walls' version, the bracket's redraw), which carry
  the id in the ``X-Watch-Tab`` header (a header, not the URL: the public answers stay the same
  for every viewer, and a shared cache in front may answer some polls unseen, while the streams
  are always counted).

A tab both streaming and polling counts once. :func:`watching_now` is the count a page shows,
``None`` unless the event is running, public, and its club turned the count on
(``Club.show_watchers``); it is kept in the cache for ``COUNT_SECONDS``, so every poll of those
seconds gets the same figure (the same ETag) and the count costs one Redis round trip an event
every few seconds, whatever the room. A page only offers its tab id when the count is on, so a
club that leaves it off has no set at all.
"""

from __future__ import annotations

import contextlib
import logging
import time

from django.core.cache import cache
from django.http import HttpRequest

from tournaments.models import Event

from .push import WATCH_KEY, WATCH_SECONDS, WATCH_TAB, push_client
from .selectors import event_public

logger = logging.getLogger(__name__)

# The count a page shows is kept this long (the public pages' own cache is as long).
COUNT_SECONDS = 5
COUNT_KEY = "standings:watching:{event_id}"
# A tab id as the pages make it (``WATCH_TAB``; anything else is ignored), in this header.
TAB_HEADER = "X-Watch-Tab"


def watch_key(event_id: int) -> str:
    return WATCH_KEY.format(event_id=event_id)


def tab_valid(tab: str | None) -> bool:
    return tab is not None and WATCH_TAB.fullmatch(tab) is not None


def watchers_seen(*, event_id: int, tabs: list[str], now: float | None = None) -> None:
    """The tabs were on the event's pages just now. Never raises (Redis away: uncounted)."""
    tabs = [tab for tab in tabs if tab_valid(tab)]
    if not tabs:
        return
    at = time.time() if now is None else now
    key = watch_key(event_id)
    try:
        pipe = push_client().pipeline(transaction=False)
        pipe.zadd(key, dict.fromkeys(tabs, at))
        pipe.expire(key, WATCH_SECONDS)
        pipe.execute()
    except Exception:  # noqa: BLE001 - the count is a nicety
        logger.warning("could not count the watchers of event %s", event_id, exc_info=True)


def watchers_count(*, event_id: int, now: float | None = None) -> int:
    """The tabs seen in the last ``WATCH_SECONDS`` (the older ones are dropped); 0 when Redis
    is away."""
    at = time.time() if now is None else now
    key = watch_key(event_id)
    try:
        pipe = push_client().pipeline(transaction=False)
        pipe.zremrangebyscore(key, "-inf", at - WATCH_SECONDS)
        pipe.zcard(key)
        return int(pipe.execute()[1])
    except Exception:  # noqa: BLE001
        return 0


def _shown(event_id: int, event: Event | None = None) -> bool:
    """Whether the event's pages show the count: running, public, its club's choice (read from
    ``event`` when the page has it, with its club)."""
    if event is None:
        event = (Event.objects.select_related("club").only(
            "status", "is_public", "club__is_public", "club__show_watchers")
            .filter(pk=event_id).first())
    return (event is not None and event.status == Event.Status.RUNNING
            and event.club.show_watchers and event_public(event))


def watching_now(*, event_id: int, event: Event | None = None) -> int | None:
    """How many are watching the event now, or None where its pages do not say (not running,
    not public, the club's count off). The same answer for ``COUNT_SECONDS``. A page that has
    the event (with its club) passes it: no query then."""
    key = COUNT_KEY.format(event_id=event_id)
    try:
        kept = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache away: asked afresh
        kept = None
    if isinstance(kept, dict):
        return kept["n"]
    count = watchers_count(event_id=event_id) if _shown(event_id, event) else None
    with contextlib.suppress(Exception):
        cache.set(key, {"n": count}, timeout=COUNT_SECONDS)
    return count


def watching_polled(request: HttpRequest, event_id: int) -> int | None:
    """A page polled: its tab is seen (when the count is on and it sent one), and the count
    goes into its answer (None: the answer says nothing)."""
    count = watching_now(event_id=event_id)
    if count is not None:
        tab = request.headers.get(TAB_HEADER)
        if tab_valid(tab):
            watchers_seen(event_id=event_id, tabs=[str(tab)])
    return count
