"""Celery tasks for events: thin, take ids, call one service, safe to run twice.

``rotate_partners`` seats round ``number`` of an event through
:func:`tournaments.services.round_create`, which is idempotent: asking again for a round that
exists returns it unchanged (no duplicate tables). A reseat happens only when the director asks
for it (``reseat=True``), and only before any hand of the round is entered.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction

from config.errors import DomainError

from .models import Event

logger = logging.getLogger(__name__)


@shared_task(
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=settings.TASK_RETRY_POLICY["countdown"],
    max_retries=settings.TASK_RETRY_POLICY["max_retries"],
)
def rotate_partners(event_id: int, number: int, reseat: bool = False) -> dict[str, Any]:
    """Build round ``number`` (k+1) of the event; returns what happened, never half a round."""
    from .services import round_create  # noqa: PLC0415 (keeps the worker's import light)

    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        return {"event": event_id, "round": number, "error": "no such event"}
    try:
        round_ = round_create(event=event, number=number, reseat=reseat)
    except DomainError as exc:
        # A refusal (round still open, event over, too few players) is final: no retry.
        logger.info("round %s of event %s not seated: %s", number, event_id, exc.message)
        return {"event": event_id, "round": number, "error": exc.message, "field": exc.field}
    return {"event": event_id, "round": round_.number, "round_id": round_.pk,
            "tables": round_.tables.count()}


def rotate_partners_request(*, event_id: int, number: int, reseat: bool = False) -> None:
    """Queue the seating of round ``number`` once the current transaction commits.

    Never raises: with the broker away the director sees no round appear and asks again (the
    task is idempotent), rather than getting an error page for a change that was saved.
    """

    def queue() -> None:
        try:
            rotate_partners.apply_async((event_id, number, reseat), retry=False,
                                        ignore_result=True)
        except Exception:  # noqa: BLE001 - broker down
            logger.warning("could not queue seating of round %s of event %s", number, event_id,
                           exc_info=True)

    transaction.on_commit(queue, robust=True)
