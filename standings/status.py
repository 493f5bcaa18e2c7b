"""An event's standings status in the cache: what the standings pages poll, answered without the
database or the session (``standings.middleware``).

Vocabulary (``standings.selectors.StandingsStatus``): the snapshot's ``version`` moves when its
rows change; ``source_version`` is the event's ``hands_version`` the rows were built from; the
snapshot is *behind* while ``source_version < hands_version``.

Three small cache entries per event, each written by one kind of writer only, so no writer
overwrites another's news:

* ``snapshot``: ``{version, source_version, computed_at}``, set when a snapshot is stored
  (``standings.services.standings_rebuild``, on commit; a lower version never replaces a higher);
* ``hands``: the event's ``hands_version``, set on commit whenever it moves (the one bump,
  ``tournaments.services.hands_version_bump``, sends ``tournaments.signals.hands_version_moved``
  with the value it wrote; ``standings.signals`` hands it to :func:`status_hands_entered`);
* ``public``: whether anyone may see the event (public event of a public club), set by the
  version endpoint from the database and forgotten when an event or a club is saved.

A poll is answered from the cache only when all three are there and the event is public; the
endpoint otherwise reads the database (with the permission check) and fills what is missing,
with ``add`` (a reader's older value never replaces a writer's newer one). Entries expire after
``STANDINGS_STATUS_CACHE_SECONDS`` of silence, so an update lost to two writers racing is
corrected within that time. The cache is an optimisation only: every function here swallows
cache errors (the endpoint then reads the database).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from typing import TypedDict

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal

from common.tasks import STANDINGS_PUSH, task_queue

from .fragments import bodies_warm_before_announce
from .publish import snapshot_publish
from .push import push_enabled
from .selectors import StatusAnswer

SNAPSHOT_KEY = "standings:status:{event_id}:snapshot"
HANDS_KEY = "standings:status:{event_id}:hands"
PUBLIC_KEY = "standings:status:{event_id}:public"

logger = logging.getLogger(__name__)


def _seconds() -> int:
    return max(int(getattr(settings, "STANDINGS_STATUS_CACHE_SECONDS", 30)), 1)


def _keys(event_id: int) -> tuple[str, str, str]:
    return (SNAPSHOT_KEY.format(event_id=event_id), HANDS_KEY.format(event_id=event_id),
            PUBLIC_KEY.format(event_id=event_id))


class SnapshotPart(TypedDict):
    """The snapshot's part of the poll's answer, as the cache keeps it."""

    version: int
    source_version: int
    computed_at: str | None


def status_answer(*, event_id: int, snapshot: SnapshotPart, hands_version: int
                  ) -> StatusAnswer:
    """The poll's JSON (``StandingsStatus.to_dict``'s shape) from the cached parts."""
    return {
        "event": event_id, "version": snapshot["version"],
        "behind": snapshot["source_version"] < hands_version,
        "source_version": snapshot["source_version"], "hands_version": hands_version,
        "computed_at": snapshot["computed_at"],
    }


def status_cached(*, event_id: int) -> StatusAnswer | None:
    """The poll's answer from the cache, or None (a part missing, a private event, no cache)."""
    try:
        found = cache.get_many(_keys(event_id))
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        return None
    snapshot_key, hands_key, public_key = _keys(event_id)
    snapshot, hands, public = found.get(snapshot_key), found.get(hands_key), found.get(public_key)
    if snapshot is None or hands is None or public is not True:
        return None
    return status_answer(event_id=event_id, snapshot=snapshot, hands_version=int(hands))


def status_fill(*, event_id: int, version: int, source_version: int, hands_version: int,
                computed_at: str | None, public: bool) -> None:
    """What the endpoint read from the database: fills the missing parts (``add``: a writer's
    newer value stays), and records the event's visibility."""
    snapshot_key, hands_key, public_key = _keys(event_id)
    seconds = _seconds()
    with contextlib.suppress(Exception):
        cache.add(snapshot_key, {"version": version, "source_version": source_version,
                                 "computed_at": computed_at}, timeout=seconds)
        cache.add(hands_key, hands_version, timeout=seconds)
        cache.set(public_key, public, timeout=seconds)


def _snapshot_put(event_id: int, version: int, source_version: int,
                  computed_at: str | None, publish_here: bool = False) -> None:
    key = SNAPSHOT_KEY.format(event_id=event_id)
    stored, reachable = None, True
    try:
        stored = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        reachable = False
    if stored is not None and (stored["version"], stored["source_version"]) > (
            version, source_version):
        return  # a later snapshot's commit got here first
    new = stored is None or stored["version"] < version
    # The same rows from newer hands (a seating, a confirmation, a correction that moved no
    # total): no region to prepare, but the open pages are told the snapshot is current, or
    # they would say "updating…" until the next hand that moves a total.
    caught_up = not new and stored is not None and stored["source_version"] < source_version
    # The worker's own new version is published (its regions rendered and kept, then pushed)
    # before the polls can see it; other new versions have their regions rendered here first.
    # Either way no poll finds a version whose region is not ready.
    publish_first = new and publish_here and reachable and push_enabled()
    if publish_first:
        _publish_here(event_id, version, regions=True)
    elif new and reachable:  # (with the cache away there is nowhere to prepare anything)
        # The version is announced all the same when the rendering fails.
        try:
            bodies_warm_before_announce(event_id, version)
        except Exception:  # noqa: BLE001 - the pages then render on their first fetch
            logger.warning("preparing standings version %s of event %s failed", version,
                           event_id, exc_info=True)
    with contextlib.suppress(Exception):
        cache.set(key, {"version": version, "source_version": source_version,
                        "computed_at": computed_at}, timeout=_seconds())
    if push_enabled() and (new or caught_up) and not publish_first:
        # A new version: the open pages are told (standings.push), after its fragments are
        # rendered; a version caught up: its status. Here when the worker stored it (the
        # standings run computes and publishes), else by a task (a web process stored it).
        if not publish_here:
            task_queue(STANDINGS_PUSH, args=(event_id, version, new), on_commit=False)
            return
        _publish_here(event_id, version, regions=new)


def _publish_here(event_id: int, version: int, *, regions: bool) -> None:
    try:
        snapshot_publish(event_id=event_id, version=version, regions=regions)
    except Exception:  # noqa: BLE001 - the pages' polls catch up
        logger.warning("publishing standings version %s of event %s failed", version,
                       event_id, exc_info=True)


# Sent inside the writer's transaction each time an event's snapshot is stored (or found current),
# with ``event_id`` and ``version``: apps above standings keep what they derive from it in step
# (``profiles.signals``).
snapshot_stored = Signal()


def status_snapshot_stored(*, event_id: int, version: int, source_version: int,
                           computed_at: str | None, publish_here: bool = False) -> None:
    """A snapshot was written (or found current): publish it once the transaction commits, and
    say so to the apps above (``snapshot_stored``: ``event_id``, ``version``). With
    ``publish_here`` (the worker's standings runs) the open pages are told by this process, on
    commit, else by the ``publish_standings`` task."""
    snapshot_stored.send(sender=None, event_id=event_id, version=version)
    transaction.on_commit(
        lambda: _snapshot_put(event_id, version, source_version, computed_at, publish_here),
        robust=True)


def status_hands_entered(*, event_id: int, hands_version: int) -> None:
    """Hands were entered (the event's ``hands_version`` is now this): publish it on commit, so
    the pages say "updating…" without asking the database."""

    def put() -> None:
        with contextlib.suppress(Exception):
            cache.set(HANDS_KEY.format(event_id=event_id), hands_version, timeout=_seconds())

    transaction.on_commit(put, robust=True)


def status_forget(event_ids: Iterable[int]) -> None:
    """Forget whether these events are public (an event or its club was saved): the next poll
    asks the database and the permission check again."""
    keys = [PUBLIC_KEY.format(event_id=pk) for pk in event_ids]
    if keys:
        with contextlib.suppress(Exception):
            cache.delete_many(keys)
