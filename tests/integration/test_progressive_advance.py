"""The automatic advance of a progressive event through the real worker and Redis: confirming a
round's last game makes the worker close the round and seat the next game, once, whatever
the number of times the job is asked for; a held advance leaves it to the director."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from common.tasks import ROUND_CONFIRMED, task_queue
from draw.services import round_create
from scoring.services import game_confirm, hand_submit
from tests.integration.test_standings_live import wait_until
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, EventLog, Round
from tournaments.services import event_hold_advance

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_cache(servers):
    cache.clear()
    yield


def _event(players: int) -> Event:
    return progressive_event(players, deals_per_round=1, format_settings={"cut": 4})


def _play(round_: Round) -> None:
    for table in round_.tables.order_by("number"):
        hand_submit(game=table.game, number=1, values=values())
        game_confirm(game=table.game, position="N")


def test_the_worker_seats_the_next_game_once(celery_app_live) -> None:
    event = _event(12)
    first = round_create(event=event)
    _play(first)
    assert wait_until(lambda: event.rounds.filter(number=2).exists()), "game 2 was not seated"
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    # asked again (a retried or duplicated job): still one game 2
    for _ in range(3):
        task_queue(ROUND_CONFIRMED, args=(event.pk, 1), on_commit=False)
    time.sleep(2)
    assert event.rounds.filter(number=2).count() == 1
    assert EventLog.objects.filter(event=event, action="round_seated", details__round=2).count() == 1
    second = event.rounds.get(number=2)
    assert second.tables.count() == 3 and second.stage == "qualifying"


def test_a_held_advance_leaves_the_next_game_to_the_director(celery_app_live) -> None:
    event = _event(8)
    first = round_create(event=event)
    event_hold_advance(event=event, held=True)
    _play(first)
    assert wait_until(lambda: Round.objects.get(pk=first.pk).status == Round.Status.CLOSED)
    time.sleep(1)
    assert not event.rounds.filter(number=2).exists()
    assert round_create(event=event).number == 2
