"""The seating job: idempotent, refusals reported and not retried."""

from __future__ import annotations

import pytest

from draw.tasks import seat_round
from tests.tournaments.factories import event_with_players
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db


def test_seat_round_twice_seats_the_round_once() -> None:
    event = event_with_players(players=9)
    first = seat_round.apply(args=(event.pk, 1)).get()
    second = seat_round.apply(args=(event.pk, 1)).get()
    assert first == second
    assert first["round"] == 1 and first["tables"] == 2
    assert Round.objects.filter(event=event).count() == 1
    assert Table.objects.filter(round__event=event).count() == 2
    assert Seat.objects.filter(round__event=event).count() == 8


def test_seat_round_refusal_is_reported_not_retried() -> None:
    event = event_with_players(players=8)
    seat_round.apply(args=(event.pk, 1)).get()
    result = seat_round.apply(args=(event.pk, 2)).get()  # round 1 is still open
    assert "still open" in result["error"]
    assert Round.objects.filter(event=event).count() == 1
    assert seat_round.apply(args=(999999, 1)).get()["error"] == "no such event"
