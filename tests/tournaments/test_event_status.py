"""Whether an event is over: one test of its status (``Event.is_over``, ``Event.OVER``) that
every path asks, so a new status cannot be counted as over in one place and open in another."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from tests.clubs.factories import PlayerFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Event
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def test_finished_and_cancelled_events_are_over_and_the_query_agrees() -> None:
    events = {status: EventFactory(status=status) for status in Event.Status.values}
    assert {status for status, event in events.items() if event.is_over} == {
        "finished", "cancelled"}
    assert set(Event.objects.filter(status__in=Event.OVER).values_list("status", flat=True)) == {
        "finished", "cancelled"}


def test_an_event_over_takes_no_check_in_until_it_is_reopened() -> None:
    event = EventFactory(status=Event.Status.CANCELLED)
    player = PlayerFactory(club=event.club)
    with pytest.raises(DomainError, match="over") as refused:
        entry_check_in(event=event, player=player)
    assert refused.value.field == "player"
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status"])
    assert entry_check_in(event=event, player=player).player == player
