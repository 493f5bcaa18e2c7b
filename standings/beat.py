"""Celery beat's heartbeat: proof, for a health check, that the one beat process is alive.

Beat has one job here (``CELERY_BEAT_SCHEDULE``: the periodic standings reconcile) and nothing
else notices when it stops: standings would still update after each hand, only the safety net
would be gone. :class:`HeartbeatScheduler` (``CELERY_BEAT_SCHEDULER``) is Celery's persistent
scheduler that, on every tick of its loop (at least every ``HEARTBEAT_SECONDS``), writes the
time, host and process id to the cache (Redis in production, shared by every machine);
``manage.py beat_health`` reads it and fails when it is missing or old.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from celery.beat import PersistentScheduler
from django.core.cache import cache

HEARTBEAT_KEY = "celery:beat:heartbeat"
HEARTBEAT_SECONDS = 15.0  # beat's loop wakes at least this often
HEARTBEAT_MAX_AGE = 60  # beat_health's default: four missed beats


def heartbeat_write() -> None:
    """Record that beat is alive now. Never raises: Redis away must not stop beat."""
    with contextlib.suppress(Exception):
        cache.set(HEARTBEAT_KEY, {"at": time.time(), "host": socket.gethostname(),
                                  "pid": os.getpid()}, timeout=24 * 3600)


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """A heartbeat: when (epoch seconds), and from which host and process."""

    at: float
    host: str = "?"
    pid: str = "?"


def heartbeat_read() -> Heartbeat | None:
    """The last heartbeat, or None."""
    value = cache.get(HEARTBEAT_KEY)
    if not isinstance(value, dict):
        return None
    return Heartbeat(at=float(value["at"]), host=str(value.get("host", "?")),
                     pid=str(value.get("pid", "?")))


class HeartbeatScheduler(PersistentScheduler):
    """The default persistent scheduler, beating on every tick."""

    def tick(self, *args: Any, **kwargs: Any) -> float:
        heartbeat_write()
        delay = super().tick(*args, **kwargs)
        return min(delay, HEARTBEAT_SECONDS)
