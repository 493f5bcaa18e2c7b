"""Places under concurrency, on the real PostgreSQL: two players withdraw at the same moment
while a third registrant confirms their address. Each change of places locks the event's
registration settings row, so the first two waitlisted move up (one each, mailed once), the
newcomer joins the end of the waitlist and the event never holds more than its capacity."""

from __future__ import annotations

import datetime
import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.core import mail
from django.db import connection

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
def test_two_withdrawals_at_once_never_overfill(round_: int) -> None:
    club, _ = club_with_director(slug=f"race-{round_}")
    event = event_create(club=club, name="Race", date=datetime.date(2026, 11, 22),
                         format=Event.Format.CLUB_NIGHT)
    registration_settings_set(event=event, is_open=True, capacity=2)
    people = [registration_create(event=event, name=f"Player {n}", email=f"p{n}@example.org")
              for n in range(5)]
    for person in people:
        registration_confirm(registration=person)
    late = registration_create(event=event, name="Late Comer", email="late@example.org")
    statuses = [Registration.objects.get(pk=p.pk).status for p in people]
    assert statuses == ["registered", "registered", "waitlisted", "waitlisted", "waitlisted"]
    mail.outbox.clear()

    errors = _at_once([
        lambda: registration_withdraw(registration=people[0], by_player=True),
        lambda: registration_withdraw(registration=people[1], by_player=True),
        lambda: registration_confirm(registration=late),
    ])
    assert errors == []

    now = {r.name: r.status for r in Registration.objects.filter(event=event)}
    assert Registration.objects.filter(event=event, status__in=HOLDING).count() == 2
    assert now == {"Player 0": "withdrawn", "Player 1": "withdrawn", "Player 2": "registered",
                   "Player 3": "registered", "Player 4": "waitlisted",
                   "Late Comer": "waitlisted"}
    queue = list(Registration.objects.filter(event=event, status="waitlisted")
                 .order_by("confirmed_at", "id").values_list("name", flat=True))
    assert queue == ["Player 4", "Late Comer"]
    moved = Counter(m.to[0] for m in mail.outbox if m.subject.startswith("A place for you"))
    assert moved == Counter({"p2@example.org": 1, "p3@example.org": 1})
