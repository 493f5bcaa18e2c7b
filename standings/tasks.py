"""Celery tasks for standings: thin, take ids, call one service, safe to run twice.

``compute_pending_standings`` is queued on commit by :func:`common.tasks.standings_request_update`
(one run per debounce window for every event waiting); ``compute_standings`` serves one event
(queued that way without a shared Redis cache, and by hand for a full rebuild with
``full=True``); both publish the snapshots they store themselves. ``reconcile_standings`` runs
on Celery beat (``CELERY_BEAT_SCHEDULE`` in ``config/settings/base.py``);
``publish_standings`` is queued when a web process stores a snapshot with a new version and
push is on (``standings.status``).
"""

from __future__ import annotations

from celery import shared_task

from common.tasks import db_task_retry, standings_clear_pending, standings_pending_take
from tournaments.models import Event

from .publish import snapshot_publish
from .services import standings_rebuild, standings_reconcile, standings_update_pending

# One pending run serves the events waiting for this long at most, then leaves the rest to a
# run of their own (well within CELERY_TASK_SOFT_TIME_LIMIT).
PENDING_RUN_SECONDS = 5.0


@shared_task(**db_task_retry())
def compute_standings(event_id: int, full: bool = False) -> int | None:
    """Bring one event's standings snapshot up to date; returns its version.

    The rows are kept current from the games that changed (``standings.incremental``);
    ``full`` recomputes every game's seat results from the hands and re-aggregates everything
    (on demand only).
    """
    # Clear the pending mark first: a hand stored while we compute queues another run.
    standings_clear_pending(event_id=event_id)
    try:
        return standings_rebuild(event_id=event_id, from_hands=full,
                                 incremental=not full, publish_here=True).version
    except Event.DoesNotExist:
        return None  # the event was deleted after the update was queued


@shared_task(ignore_result=True, **db_task_retry())
def compute_pending_standings() -> list[int]:
    """Bring every event waiting for its standings up to date (``common.tasks``), oldest first;
    returns the events served (the worker's log shows them)."""
    # Taken as it starts: a hand stored while we compute queues the next run.
    return standings_update_pending(event_ids=standings_pending_take(),
                                    seconds=PENDING_RUN_SECONDS)


@shared_task(**db_task_retry())
def reconcile_standings() -> list[int]:
    """Periodic (beat): rebuild every snapshot that is behind its hands."""
    return standings_reconcile()


@shared_task(ignore_result=True, **db_task_retry())
def publish_standings(event_id: int, version: int, regions: bool = True) -> bool:
    """Tell the event's open pages that snapshot ``version`` is there
    (``standings.publish.snapshot_publish``), for a snapshot a web process stored. Returns
    whether a message was published."""
    return snapshot_publish(event_id=event_id, version=version, regions=regions)
