"""Celery tasks: thin, take ids, call one service, safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError

from .standings import PENDING_KEY, events_behind, standings_rebuild


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=settings.TASK_RETRY_POLICY["max_retries"],
)
def update_standings(self: object, event_id: int) -> int:
    # Clear the pending mark first: a hand stored while we compute queues another run.
    try:
        cache.delete(PENDING_KEY.format(event_id=event_id))
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        pass
    return standings_rebuild(event_id=event_id).version


@shared_task
def reconcile_standings() -> list[int]:
    """Periodic (beat): rebuild every snapshot that is behind its hands."""
    rebuilt = []
    for event_id in events_behind():
        standings_rebuild(event_id=event_id)
        rebuilt.append(event_id)
    return rebuilt
