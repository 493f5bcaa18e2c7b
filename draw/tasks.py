"""Celery jobs that seat rounds: thin, take ids, call one service, safe to run twice.

``seat_round`` builds round ``number`` of an event through :func:`draw.services.round_create`,
which is idempotent: asking again for a round that exists returns it unchanged (a second click or
a retried task never makes two rounds). A re-draw happens only when the director asks for it,
with a reason, and only before any hand of the round is entered. ``round_confirmed`` is asked for (by name) when the
last game of a round is confirmed; it calls :func:`draw.services.round_advance` as the format's
own advance (formats that seat themselves then build the next round). Transient database
trouble is retried as every task's is (``common.tasks.db_task_retry``), and so is a round busy
for a moment (code ``busy``: a game of it being written, whose row the seating does not wait
for); any other refusal is final.
``reconcile_advances`` (beat, and once at each worker's start) does an advance that was owed and
lost on the way (see :func:`draw.selectors.advance_due`).
"""

from __future__ import annotations

import logging
from typing import NotRequired, TypedDict

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import OperationalError

from common.errors import DomainError
from common.tasks import db_task_retry
from tournaments.models import Event

from . import seating
from .selectors import advances_due
from .services import round_advance, round_create

logger = logging.getLogger(__name__)


def _busy_retried(exc: DomainError) -> None:
    """A round busy for a moment (a game of it being written: the seating takes the games' rows
    without waiting, :func:`scoring.services.level_games_lock_idle`) is retried as transient
    database trouble is, with the same backoff; other refusals are final."""
    if exc.code == "busy":
        raise OperationalError(exc.message) from exc


class TaskOutcome(TypedDict):
    """What a seating task did (the worker's log and its result): the round it seated
    (``round_id``, its ``tables``), or why not (``error``, ``field``); ``seated`` None: nothing
    to seat; ``last``: a bracket decided before its last planned round."""

    event: int
    round: int
    round_id: NotRequired[int]
    tables: NotRequired[int]
    error: NotRequired[str]
    field: NotRequired[str | None]
    seated: NotRequired[None]
    last: NotRequired[bool]


@shared_task(**db_task_retry())
def seat_round(event_id: int, number: int, reseat: bool = False,
               actor_id: int | None = None, reason: str = "") -> TaskOutcome:
    """Build round ``number`` of the event (a re-draw with the director's ``reason``); returns
    what happened, never half a round."""
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        return {"event": event_id, "round": number, "error": "no such event"}
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    try:
        round_ = round_create(event=event, number=number, reseat=reseat, actor=actor,
                              reason=reason)
    except DomainError as exc:
        _busy_retried(exc)
        if exc.code == "complete":  # a bracket decided before its last planned round (no reset)
            seating.job_done(event_id=event_id)
            return {"event": event_id, "round": number, "seated": None, "last": True}
        # A refusal (round still open, event over, too few players) is final: no retry.
        logger.info("round %s of event %s not seated: %s", number, event_id, exc.message)
        seating.job_failed(event_id=event_id, number=number, message=exc.message)
        return {"event": event_id, "round": number, "error": exc.message, "field": exc.field}
    seating.job_done(event_id=event_id)
    return {"event": event_id, "round": round_.number, "round_id": round_.pk,
            "tables": round_.tables.count()}


@shared_task(**db_task_retry())
def round_confirmed(event_id: int, number: int) -> TaskOutcome:
    """Every game of round ``number`` is confirmed: the format's own advance
    (:func:`draw.services.round_advance` with ``automatic``): a format that seats itself closes
    the round and seats the next one, unless the director holds the advance (idempotent: a
    closed round or an existing next round stays)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return {"event": event_id, "round": number, "seated": None}
    try:
        new = round_advance(event=event, number=number, automatic=True)
    except DomainError as exc:
        _busy_retried(exc)
        # A refusal (too few players, a level game waiting for its cut) is final: no retry.
        logger.info("round %s of event %s not seated: %s", number + 1, event_id, exc.message)
        seating.job_failed(event_id=event_id, number=number + 1, message=exc.message)
        return {"event": event_id, "round": number + 1, "error": exc.message,
                "field": exc.field}
    if new is None:
        return {"event": event_id, "round": number, "seated": None}
    seating.job_done(event_id=event_id)
    return {"event": event_id, "round": new.number, "round_id": new.pk,
            "tables": new.tables.count()}


@shared_task(**db_task_retry())
def reconcile_advances() -> list[TaskOutcome]:
    """Periodic (beat), and once as a worker starts: every automatic advance that is owed and was
    lost (the worker killed at the last confirmation, the broker away then) is done now. Safe to
    run beside the advance it stands in for: seating is idempotent."""
    done: list[TaskOutcome] = []
    for event_id, number in advances_due():
        logger.warning("event %s: round %s is confirmed but the next round was not seated; "
                       "seating it now", event_id, number)
        done.append(round_confirmed(event_id, number))
    return done
