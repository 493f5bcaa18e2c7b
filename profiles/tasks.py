"""Celery tasks of the profiles app: thin, take ids, call one service, safe to run twice.

``event_summaries`` (``SUMMARIES_TASK``) is queued on commit by ``profiles.signals`` when an
event is finished or cancelled and when the standings of an event that is over are stored.
"""

from __future__ import annotations

from celery import shared_task

from common.tasks import db_task_retry

from .services import event_summaries_write

SUMMARIES_TASK = "profiles.tasks.event_summaries"


@shared_task(**db_task_retry())
def event_summaries(event_id: int) -> int:
    """Bring the profile summaries of the event's entries up to date."""
    return event_summaries_write(event_id=event_id)
