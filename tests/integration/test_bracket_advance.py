"""A bracket through the real worker and Redis: confirming a wave's last match makes the worker
seat the next wave (the winners' next match at its own table), and once the bracket is decided
the worker seats nothing more."""

from __future__ import annotations

import datetime
import time

import pytest
from django.core.cache import cache

from draw.selectors import event_bracket
from draw.services import round_create
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.integration.test_standings_live import wait_until
from tests.scoring.factories import values
from tournaments.models import Event, Round
from tournaments.services import event_create, pair_register

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_cache(servers):
    cache.clear()
    yield


def _play(round_: Round) -> None:
    """One deal a match; the hand's E-W side wins it."""
    for table in round_.tables.order_by("number"):
        hand_submit(game=table.game, number=1, values=values())
        game_confirm(game=table.game, position="N")


def test_the_worker_seats_each_wave_of_a_bracket_and_stops_when_it_is_decided(
        celery_app_live) -> None:
    club = ClubFactory()
    event = event_create(club=club, name="Partners", date=datetime.date(2026, 11, 22),
                         format=Event.Format.SINGLE_ELIMINATION, deals_per_round=1)
    for seed in range(1, 5):
        pair_register(event=event, players=[PlayerFactory(club=club), PlayerFactory(club=club)],
                      seed=seed)
    semis = round_create(event=event)
    assert sorted(semis.tables.values_list("match", flat=True)) == ["W1-1", "W1-2"]
    _play(semis)
    assert wait_until(lambda: event.rounds.filter(number=2).exists()), "the final was not seated"
    final = event.rounds.get(number=2)
    assert list(final.tables.values_list("match", flat=True)) == ["W2-1"]
    bracket = event_bracket(event)
    assert bracket is not None
    winners = {m["code"]: m["winner"] for part in bracket["brackets"] for col in part["rounds"]
               for m in col["matches"]}
    finalists = {s.entry.pair_id for s in final.tables.get().seats.select_related("entry")}
    assert finalists == {winners["W1-1"], winners["W1-2"]}
    _play(final)
    assert wait_until(lambda: Round.objects.get(pk=final.pk).status == Round.Status.CLOSED)
    time.sleep(1)
    assert event.rounds.count() == 2
    decided = event_bracket(Event.objects.get(pk=event.pk))
    assert decided is not None and decided["complete"] and decided["champion"] in finalists
