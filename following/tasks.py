"""Celery jobs of following: thin, take ids, call one service (``following.services``)."""

from __future__ import annotations

from celery import shared_task

from common.tasks import db_task_retry

from .services import NotifyResult
from .services import notices_resume as notices_resume_service
from .services import round_notify as round_notify_service


@shared_task(**db_task_retry())
def round_notify(round_id: int, after: int = 0, kinds: list[str] | None = None
                 ) -> NotifyResult:
    """Tell the followers of a round seated or started (batched, bounded; see the service)."""
    return round_notify_service(round_id=round_id, after=after, kinds=kinds)


@shared_task(**db_task_retry())
def notices_resume() -> list[int]:
    """Take up the rounds whose notices' run was cut short (the beat, every minute)."""
    return notices_resume_service()
