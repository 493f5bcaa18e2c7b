"""Standings snapshots: built from the derived seat results, versioned, updated by Celery.

``standings_request_update`` is what writers call: on commit it queues the update task, at most
one per event at a time (a burst of entries becomes one or two rebuilds, not one per hand). If the
broker is unreachable the hand is still saved; the periodic ``reconcile_standings`` task finds
snapshots whose ``source_version`` is behind the event's ``hands_version`` and rebuilds them.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import transaction

from tournaments.models import Bye, Entry, Event

from .models import SeatResult, StandingsSnapshot
from .standings_rules import Result, compute_standings, tie_break_labels

logger = logging.getLogger(__name__)
PENDING_KEY = "standings:pending:{event_id}"
PENDING_SECONDS = 10


def standings_compute(*, event: Event) -> list[dict[str, Any]]:
    entries = [
        (pk, name, status == Entry.Status.ACTIVE)
        for pk, name, status in Entry.objects.filter(event=event).values_list(
            "pk", "player__name", "status"
        )
    ]
    results = [
        Result(*row)
        for row in SeatResult.objects.filter(event=event).values_list(
            "entry_id", "round_number", "game_id", "side", "points", "opponents_points", "won",
            "finished", "hands_declared", "hands_made", "hands_set",
        )
    ]
    byes = list(Bye.objects.filter(round__event=event).values_list("round__number", "entry_id"))
    rows = compute_standings(
        entries=entries, results=results, byes=byes, tie_breaks=event.tie_breaks or ["points"],
        bye_scoring=event.bye_scoring, bye_points=event.bye_points,
    )
    return [row.to_dict() for row in rows]


@transaction.atomic
def standings_rebuild(*, event_id: int) -> StandingsSnapshot:
    """Bring the event's snapshot up to date. Idempotent: a second run changes nothing."""
    event = Event.objects.select_for_update().get(pk=event_id)
    source_version = event.hands_version
    rows = standings_compute(event=event)
    snapshot, _ = StandingsSnapshot.objects.select_for_update().get_or_create(event=event)
    tie_breaks = tie_break_labels(event.tie_breaks or ["points"])
    if snapshot.rows != rows or snapshot.tie_breaks != tie_breaks or snapshot.version == 0:
        snapshot.version += 1
    snapshot.rows = rows
    snapshot.tie_breaks = tie_breaks
    snapshot.source_version = source_version
    snapshot.save()
    return snapshot


def standings_request_update(*, event_id: int) -> None:
    """Queue a standings update once the current transaction commits. Never raises."""

    def queue() -> None:
        from .tasks import update_standings  # noqa: PLC0415 (tasks import this module)

        key = PENDING_KEY.format(event_id=event_id)
        try:
            if not cache.add(key, 1, timeout=PENDING_SECONDS):
                return  # an update is already queued and will see this change
        except Exception:  # noqa: BLE001 - cache down: queue anyway
            logger.warning("cache unavailable; queueing standings update for %s", event_id)
        try:
            update_standings.delay(event_id)
        except Exception:  # noqa: BLE001 - broker down: reconcile catches up later
            logger.warning("could not queue standings update for event %s", event_id)
            try:
                cache.delete(key)
            except Exception:  # noqa: BLE001
                pass

    transaction.on_commit(queue)


def events_behind() -> list[int]:
    """Events whose snapshot is missing or older than their hands."""
    from django.db.models import F, Q  # noqa: PLC0415

    return list(
        Event.objects.filter(
            Q(standings__isnull=True) | Q(standings__source_version__lt=F("hands_version"))
        ).filter(rounds__isnull=False).distinct().values_list("pk", flat=True)
    )
