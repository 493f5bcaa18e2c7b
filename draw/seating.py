"""The state of a queued seating job, for the page that shows it working.

The director's page asks for round N to be seated and then shows "Seating round N…" until the
round exists, or the reason it could not be seated. The state is a short-lived cache entry: the
round rows are the truth, this only says what is in flight.
"""

from __future__ import annotations

import contextlib

from django.core.cache import cache

KEY = "draw:seating:{event_id}"
TTL = 600


def job_queued(*, event_id: int, number: int) -> None:
    with contextlib.suppress(Exception):
        cache.set(KEY.format(event_id=event_id), {"number": number, "error": ""}, TTL)


def job_failed(*, event_id: int, number: int, message: str) -> None:
    with contextlib.suppress(Exception):
        cache.set(KEY.format(event_id=event_id), {"number": number, "error": message}, TTL)


def job_done(*, event_id: int) -> None:
    with contextlib.suppress(Exception):
        cache.delete(KEY.format(event_id=event_id))


def job_state(*, event_id: int) -> dict[str, object] | None:
    """``{"number", "error"}`` while a seating is queued or after it failed, else None."""
    try:
        state = cache.get(KEY.format(event_id=event_id))
    except Exception:  # noqa: BLE001 - cache down: nothing to show
        return None
    return state if isinstance(state, dict) else None
