"""Celery task for archives: a large archive is imported by the worker, never in a web request
(``archive.services.archive_import_start`` queues it by name, on commit)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from common.tasks import db_task_retry

from .services import import_job_run

# An import of the largest archive allowed takes tens of seconds: far past the default limits
# (CELERY_TASK_SOFT_TIME_LIMIT), which are for the short jobs of a club night.
LIMIT = int(getattr(settings, "ARCHIVE_IMPORT_TIME_LIMIT", 600))


@shared_task(soft_time_limit=LIMIT, time_limit=LIMIT + 30, **db_task_retry())
def import_archive(job_id: int) -> str:
    """Import the job's archive (``import_job_run``); safe to run twice."""
    return import_job_run(job_id=job_id)
