"""Celery tasks for standings: thin, take ids, call one service, safe to run twice.

``compute_standings`` is queued on commit by :func:`common.tasks.standings_request_update`
(and may be queued by hand for a full rebuild with ``full=True``); ``reconcile_standings`` runs
on Celery beat (``CELERY_BEAT_SCHEDULE`` in ``config/settings/base.py``).
"""

from __future__ import annotations

from celery import shared_task

from common.tasks import db_task_retry, standings_clear_pending
from tournaments.models import Event

from .services import standings_rebuild, standings_reconcile


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
                                 incremental=not full).version
    except Event.DoesNotExist:
        return None  # the event was deleted after the update was queued


@shared_task(**db_task_retry())
def reconcile_standings() -> list[int]:
    """Periodic (beat): rebuild every snapshot that is behind its hands."""
    return standings_reconcile()
