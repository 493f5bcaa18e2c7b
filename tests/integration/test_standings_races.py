"""Standings runs of one event overlapping on the real PostgreSQL: the snapshot row's lock
serialises them, hands are stored meanwhile, and the last run leaves the snapshot current."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction

from draw.services import round_create
from scoring.models import Game, Hand
from scoring.services import hand_submit, hands
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.services import standings_rebuild
from tests.standings.test_tasks import hand
from tests.tournaments.factories import event_with_players
from tournaments.models import Event


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_run_waiting_on_another_counts_the_hand_stored_meanwhile(servers, monkeypatch) -> None:
    """The first run holds the snapshot's lock; the second run asks for it, and a phone stores a
    hand of another table while both are under way. The phone is not held up by the lock, the
    second run waits for the first and counts the new hand, and the snapshot ends equal to a
    full computation and current with the event's hands.

    The two runs are the worker's, played here by the test: the run a hand asks for once it
    commits is left out, or it would bring the snapshot up to date after them whatever they did."""
    monkeypatch.setattr(hands, "standings_request_update", lambda *, event_id: None)
    event = event_with_players(players=8, deals_per_round=2)
    round_create(event=event)
    first_game, second_game = Game.objects.filter(table__round__event=event).order_by(
        "table__number")
    hand_submit(game=first_game, number=1, values=hand(1, 30))
    first_holds_the_lock = threading.Event()
    outcomes: dict[str, object] = {}

    def first_run() -> None:
        try:
            with transaction.atomic():
                outcomes["first"] = standings_rebuild(event_id=event.pk, incremental=True).version
                first_holds_the_lock.set()
                # The phone's hand commits while this transaction keeps the lock.
                deadline = time.monotonic() + 10  # a wait for the other thread, not a timing
                while not Hand.objects.filter(game=second_game).exists():
                    if time.monotonic() > deadline:
                        outcomes["hand_while_locked"] = False
                        return
                    time.sleep(0.05)
                outcomes["hand_while_locked"] = True
                time.sleep(0.3)  # the second run is waiting on the lock meanwhile
        except Exception as exc:  # noqa: BLE001 - the outcome is the assertion
            outcomes["first"] = type(exc).__name__
        finally:
            first_holds_the_lock.set()
            connection.close()

    def second_run() -> None:
        first_holds_the_lock.wait(10)
        try:
            outcomes["second"] = standings_rebuild(event_id=event.pk, incremental=True).version
        except Exception as exc:  # noqa: BLE001
            outcomes["second"] = type(exc).__name__
        finally:
            connection.close()

    def phone() -> None:
        first_holds_the_lock.wait(10)
        time.sleep(0.1)  # after the second run has asked for the lock
        try:
            hand_submit(game=second_game, number=1, values=hand(1, 40))
            outcomes["phone"] = "stored"
        except Exception as exc:  # noqa: BLE001
            outcomes["phone"] = type(exc).__name__
        finally:
            connection.close()

    threads = [threading.Thread(target=f) for f in (first_run, second_run, phone)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert outcomes["phone"] == "stored" and outcomes["hand_while_locked"] is True
    first, second = outcomes["first"], outcomes["second"]
    assert isinstance(first, int) and isinstance(second, int) and second > first
    event = Event.objects.get(pk=event.pk)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.source_version == event.hands_version
    assert snapshot.rows == standings_compute(event=event).rows
    # both tables' hands are in it: each of the eight players has one game's points
    assert sorted(row["points"] for row in snapshot.rows) == sorted(
        [24 + 30] * 2 + [20 + 20] * 2 + [24 + 40] * 2 + [20 + 10] * 2)
