"""Celery jobs that seat rounds: thin, take ids, call one service, safe to run twice.

``seat_round`` builds round ``number`` of an event through :func:`draw.services.round_create`,
which is idempotent: asking again for a round that exists returns it unchanged (a second click or
a retried task never makes two rounds). A reseat happens only when the director asks for it, and
only before any hand of the round is entered. ``round_confirmed`` is asked for (by name) when the
last game of a round is confirmed; formats that seat themselves then build the next round.
``reconcile_advances`` (beat, and once at each worker's start) does an advance that was owed and
lost on the way (see :func:`draw.selectors.advance_due`).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import InterfaceError, OperationalError

from common.errors import DomainError
from tournaments.models import Event, Round
from tournaments.selectors import event_entrants

from . import seating
from .selectors import advances_due
from .services import round_create, round_set_status

logger = logging.getLogger(__name__)

# Transient database trouble is retried with backoff; a refusal is final.
TRANSIENT = (OperationalError, InterfaceError)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=settings.TASK_RETRY_POLICY["countdown"],
             max_retries=settings.TASK_RETRY_POLICY["max_retries"])
def seat_round(event_id: int, number: int, reseat: bool = False,
               actor_id: int | None = None) -> dict[str, Any]:
    """Build round ``number`` of the event; returns what happened, never half a round."""
    try:
        event = Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        return {"event": event_id, "round": number, "error": "no such event"}
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    try:
        round_ = round_create(event=event, number=number, reseat=reseat, actor=actor)
    except DomainError as exc:
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


@shared_task(autoretry_for=TRANSIENT, retry_backoff=settings.TASK_RETRY_POLICY["countdown"],
             max_retries=settings.TASK_RETRY_POLICY["max_retries"])
def round_confirmed(event_id: int, number: int) -> dict[str, Any]:
    """Every game of round ``number`` is confirmed: a format that seats itself closes the round
    and seats the next one (idempotent: a closed round or an existing next round stays). While
    the director holds the advance, the round is closed and the next one waits for them."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return {"event": event_id, "round": number, "seated": None}
    spec = event.spec
    if not spec.seats_automatically:
        return {"event": event_id, "round": number, "seated": None}
    round_ = event.rounds.filter(number=number).first()
    if round_ is None:
        return {"event": event_id, "round": number, "seated": None}
    if round_.status == Round.Status.SEATED:  # e.g. a game decided without a hand entered
        round_set_status(round_=round_, status=Round.Status.PLAYING)
    if round_.status != Round.Status.CLOSED:
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    total = spec.rounds_total(event.rounds_planned, dict(event.format_settings or {}),
                              event_entrants(event))
    if number >= total:
        return {"event": event_id, "round": number, "seated": None, "last": True}
    if event.advance_held:
        return {"event": event_id, "round": number, "seated": None, "held": True}
    return seat_round(event_id, number + 1)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=settings.TASK_RETRY_POLICY["countdown"],
             max_retries=settings.TASK_RETRY_POLICY["max_retries"])
def reconcile_advances() -> list[dict[str, Any]]:
    """Periodic (beat), and once as a worker starts: every automatic advance that is owed and was
    lost (the worker killed at the last confirmation, the broker away then) is done now. Safe to
    run beside the advance it stands in for: seating is idempotent."""
    done = []
    for event_id, number in advances_due():
        logger.warning("event %s: round %s is confirmed but the next round was not seated; "
                       "seating it now", event_id, number)
        done.append(round_confirmed(event_id, number))
    return done
