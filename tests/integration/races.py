"""Helpers of the race tests on PostgreSQL: a table's hand held on its way, and writers run in
threads of their own.

:class:`HandHeld` holds every hand submitted meanwhile at one point of its transaction until
``go_on`` is set: before its write of the event's row (``hands_version_bump``, the hand's last
write; its game's row is then taken) or just after it (the event's row taken too).
:func:`attempt` runs a writer in a thread with its own connection and records what it returned,
or the field and code of its refusal, or the error it raised. :func:`a_writer_waits_for_a_lock`
lets a test order its threads by what PostgreSQL says rather than by sleeping."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from common.errors import DomainError
from scoring.services import hands

WAIT = 30  # seconds: a bound on waiting for another thread, never a timing


class HandHeld:
    """Hold the hands submitted meanwhile: ``on_its_way`` is set once one is held (or its thread
    ended), and it goes on once ``go_on`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, event_row_taken: bool) -> None:
        self.on_its_way = threading.Event()
        self.go_on = threading.Event()
        if event_row_taken:  # called right after the event's row is written
            def queued(*, event_id: int) -> None:
                self._hold()

            monkeypatch.setattr(hands, "standings_request_update", queued)
        else:
            bump = hands.hands_version_bump

            def bump_when_told(*, event_id: int, at_least: int = 0) -> int:
                self._hold()
                return bump(event_id=event_id, at_least=at_least)

            monkeypatch.setattr(hands, "hands_version_bump", bump_when_told)

    def _hold(self) -> None:
        self.on_its_way.set()
        self.go_on.wait(WAIT)

    def submitted(self, outcome: dict[str, object], action: Callable[[], object]
                  ) -> threading.Thread:
        """Submit the hand (``action``) in its own thread, and return once it is held."""
        thread = attempt(outcome, "hand", action, ended=self.on_its_way)
        assert self.on_its_way.wait(WAIT)
        return thread


def attempt(outcome: dict[str, object], name: str, action: Callable[[], object], *,
            ended: threading.Event | None = None) -> threading.Thread:
    """Run ``action`` in a thread of its own; ``outcome[name]`` is what it returned, its
    refusal's ``(field, code)``, or the error it raised."""

    def run() -> None:
        try:
            outcome[name] = action()
        except DomainError as exc:
            outcome[name] = (exc.field, exc.code)
        except Exception as exc:  # noqa: BLE001 - the outcome is the assertion
            outcome[name] = f"{type(exc).__name__}: {exc}"
        finally:
            if ended is not None:
                ended.set()
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def a_writer_waits_for_a_lock(seconds: float = WAIT) -> bool:
    """Another connection of the test database is waiting for a row lock (polled)."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            row = cursor.fetchone()
            if row and row[0]:
                return True
            time.sleep(0.02)
    return False
