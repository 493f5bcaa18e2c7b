"""Places under concurrency, on the real PostgreSQL: two players withdraw at the same moment
as four newcomers confirm their addresses, one place being free. Each change of places locks
the event's registration settings row, so the places are counted one transaction at a time:
the event ends holding exactly its capacity, one newcomer waits, nobody is moved up twice.
(Without the lock every newcomer counts the free place and takes it: five places of four.)"""

from __future__ import annotations

import datetime
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.db import connection

from registrations import services
from registrations.models import HOLDING, Registration
from registrations.services import (
    registration_confirm,
    registration_create,
    registration_settings_set,
    registration_withdraw,
)
from tests.clubs.factories import club_with_director
from tournaments.models import Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 4
NEWCOMERS = 4


def _at_once(calls: list[Callable[[], object]]) -> list[BaseException]:
    """Run ``calls`` in threads released together; each thread its own connection."""
    barrier = threading.Barrier(len(calls))
    errors: list[BaseException] = []

    def run(call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=30)
            call()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return errors


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_withdrawals_at_once_never_overfill(round_: int, monkeypatch: Any) -> None:
    club, _ = club_with_director(slug=f"race-{round_}")
    event = event_create(club=club, name="Race", date=datetime.date(2026, 11, 22),
                         format=Event.Format.CLUB_NIGHT)
    registration_settings_set(event=event, is_open=True, capacity=4)
    people = [registration_create(event=event, name=f"Player {n}", email=f"p{n}@example.org")
              for n in range(3)]
    for person in people:
        registration_confirm(registration=person)
    newcomers = [registration_create(event=event, name=f"New {n}", email=f"new{n}@example.org")
                 for n in range(NEWCOMERS)]
    assert Registration.objects.filter(event=event, status__in=HOLDING).count() == 3
    mail.outbox.clear()

    # Each change's mail is queued between its own write and its commit: a pause there keeps
    # the six transactions open together, so without the lock each would count the places
    # before the others commit.
    real_mail = services.registration_mail

    def mail_then_pause(*args: Any, **kwargs: Any) -> None:
        real_mail(*args, **kwargs)
        time.sleep(0.3)

    monkeypatch.setattr(services, "registration_mail", mail_then_pause)
    errors = _at_once([
        lambda: registration_withdraw(registration=people[0], by_player=True),
        lambda: registration_withdraw(registration=people[1], by_player=True),
        *[lambda n=n: registration_confirm(registration=newcomers[n])
          for n in range(NEWCOMERS)],
    ])
    assert errors == []

    now = {r.name: r.status for r in Registration.objects.filter(event=event)}
    # one place free and two freed, four newcomers: whatever the order, the event holds its
    # capacity exactly and one newcomer waits
    assert Registration.objects.filter(event=event, status__in=HOLDING).count() == 4
    assert (now["Player 0"], now["Player 1"], now["Player 2"]) == ("withdrawn", "withdrawn",
                                                                   "registered")
    news = Counter(now[f"New {n}"] for n in range(NEWCOMERS))
    assert news == Counter({"registered": 3, "waitlisted": 1})
    # nobody moved up twice; every newcomer with a place was told so (at once, or moved up)
    moved = Counter(m.to[0] for m in mail.outbox if m.subject.startswith("A place for you"))
    assert all(count == 1 for count in moved.values())
    registered = {f"new{n}@example.org" for n in range(NEWCOMERS)
                  if now[f"New {n}"] == "registered"}
    told = {m.to[0] for m in mail.outbox if m.subject.startswith(("A place for you",
                                                                   "You are registered"))}
    assert told == registered
