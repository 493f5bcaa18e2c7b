"""The seating job: idempotent, refusals reported and not retried, a busy round retried, and the
automatic advance arriving after the event finished."""

from __future__ import annotations

from typing import Any

import pytest
from celery.exceptions import Retry

from common.errors import DomainError
from draw import seating, tasks
from draw.services import event_status_set, round_advance, round_create
from draw.tasks import round_confirmed, seat_round
from scoring.services import game_confirm, hand_submit
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players, progressive_event
from tournaments.models import Event, Round, Seat, Table

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


def test_a_busy_round_is_retried_not_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seating refused because a game of the round was being written that moment (code
    ``busy``: the seating takes the games' rows without waiting) is tried again, as a dropped
    connection is; the seating job then seats the round."""
    event = event_with_players(players=8)
    tried: list[int] = []

    def busy_once(**kwargs: Any) -> Round:
        tried.append(1)
        if len(tried) == 1:
            raise DomainError("A game of this round is being corrected right now.",
                              field="round", code="busy")
        return round_create(**kwargs)

    monkeypatch.setattr(tasks, "round_create", busy_once)
    with pytest.raises(Retry):  # the worker runs it again after the backoff
        seat_round.apply(args=(event.pk, 1))
    assert not Round.objects.filter(event=event).exists()
    assert seat_round.apply(args=(event.pk, 1)).get()["tables"] == 2
    assert len(tried) == 2


def test_an_advance_arriving_after_the_finish_seats_nothing_and_reports_nothing(
        django_capture_on_commit_callbacks: Any) -> None:
    """The last confirmation's advance is still queued while the director closes the round and
    finishes the event (a busy worker): when it runs it finds the event over and does nothing,
    and the director's page shows no refusal for a round that was never owed."""
    event = progressive_event(8, deals_per_round=1, rounds_planned=1,
                              format_settings={"cut": 0})
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        for table in first.tables.order_by("number"):
            hand_submit(game=table.game, number=1, values=values())
            game_confirm(game=table.game, position="N")
    assert queued  # the advance waits
    assert round_advance(event=event, number=1) is None  # the director's step: the plan is played
    event_status_set(event=event, status=Event.Status.FINISHED)
    outcome = round_confirmed.apply(args=(event.pk, 1)).get()
    assert outcome == {"event": event.pk, "round": 1, "seated": None}
    assert seating.job_state(event_id=event.pk) is None
    assert list(event.rounds.values_list("number", flat=True)) == [1]
