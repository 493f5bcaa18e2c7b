"""Races between devices on the real PostgreSQL: row locks across connections decide."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from common.errors import ConflictError, DomainError
from draw.services import round_create, round_set_status
from scoring import services
from scoring.models import Game, Hand, HandRevision
from scoring.services import event_settings_update, hands, round_call_time
from tests.scoring.factories import seated_table, values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, Round
from tournaments.services import event_lock


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_devices_racing_for_the_same_hand_store_one(servers) -> None:
    table = seated_table()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def device(key: str, bid: int) -> None:
        try:
            barrier.wait()
            services.hand_submit(game=table.game, number=1, values=values(bid=bid),
                                 idempotency_key=key)
            outcomes.append("stored")
        except ConflictError:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=device, args=(k, b)) for k, b in (("a", 51), ("b", 52))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "stored"]
    assert HandRevision.objects.count() == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_retry_racing_its_original_stores_one(servers) -> None:
    table = seated_table()
    barrier = threading.Barrier(2)
    ids: list[int] = []

    def device() -> None:
        try:
            barrier.wait()
            ids.append(services.hand_submit(game=table.game, number=1, values=values(),
                                            idempotency_key="same").pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=device) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 2 and ids[0] == ids[1]
    assert HandRevision.objects.count() == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_round_s_first_hand_while_the_director_starts_it_stores_both(servers) -> None:
    """The phone's first hand marks a seated round as playing; a director starting the same
    round meanwhile takes the event's row, then the round's. Both take them in that order, so
    neither waits on the other for ever (PostgreSQL would end one of them as a deadlock)."""
    table = seated_table(round_status="seated")
    round_ = table.round
    director_has_the_event = threading.Event()
    outcomes: list[str] = []

    def director() -> None:
        try:
            with transaction.atomic():
                event_lock(round_.event)  # as round_set_status begins
                director_has_the_event.set()
                time.sleep(0.5)  # the phone's hand is on its way meanwhile
                round_set_status(round_=round_, status="playing")
            outcomes.append("started")
        except Exception as exc:  # noqa: BLE001 - the outcome is the assertion
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    def phone() -> None:
        director_has_the_event.wait(10)
        try:
            services.hand_submit(game=table.game, number=1, values=values())
            outcomes.append("stored")
        except Exception as exc:  # noqa: BLE001
            outcomes.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=director), threading.Thread(target=phone)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["started", "stored"]
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING and HandRevision.objects.count() == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_hand_on_its_way_while_the_director_closes_the_round_is_refused(
        servers, monkeypatch) -> None:
    """The phone's hand reads the round open with its game; the director closes the round
    (with its unfinished games) before the hand writes the event's row. The hand is refused as
    it would have been a moment later, the round closed, and nothing of it is stored."""
    table = seated_table(round_status="playing")
    round_ = table.round
    on_its_way = threading.Event()
    closed = threading.Event()
    bump = hands.hands_version_bump

    def bump_after_the_close(*, event_id: int, at_least: int = 0) -> int:
        on_its_way.set()
        closed.wait(30)
        return bump(event_id=event_id, at_least=at_least)

    monkeypatch.setattr(hands, "hands_version_bump", bump_after_the_close)
    outcome: dict[str, object] = {}

    def phone() -> None:
        try:
            services.hand_submit(game=table.game, number=1, values=values())
            outcome["hand"] = "stored"
        except DomainError as exc:
            outcome["hand"] = exc.code
        finally:
            on_its_way.set()
            connection.close()

    thread = threading.Thread(target=phone)
    thread.start()
    assert on_its_way.wait(30)
    try:
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    finally:
        closed.set()
        thread.join(30)
    assert outcome["hand"] == "round_closed"
    assert not Hand.objects.filter(game=table.game).exists()
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def _a_writer_waits_for_a_lock(deadline_seconds: float = 30) -> bool:
    """Another connection of the test database is waiting for a row lock (polled, so the
    test orders its threads by what PostgreSQL says, not by sleeping)."""
    deadline = time.monotonic() + deadline_seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                           "current_database() AND wait_event_type = 'Lock'")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def _time_called(event: Event, first: Round, game: Game) -> object:
    ended = round_call_time(round_=first, confirm_empty=True)
    game.refresh_from_db()
    return ended, game.hands_count, game.finish_reason


def _deals_changed(event: Event, first: Round, game: Game) -> object:
    event_settings_update(event=event, name=event.name, date=event.date,
                          ruleset_preset=event.ruleset_preset, rounds_planned=event.rounds_planned,
                          bye_scoring=event.bye_scoring, deals_per_round=6)
    game.refresh_from_db()
    return game.hands_count, game.status


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("write", "after"), [
    (_time_called, ([1, 2], 2, "time")),  # the game ends after the hand on its way
    (_deals_changed, (2, "playing")),  # every game re-derived, the hand on its way included
], ids=["time called", "deals per round changed"])
def test_a_director_s_write_while_a_hand_is_on_its_way_waits_for_it(
        servers, monkeypatch, write: Callable[[Event, Round, Game], object],
        after: object) -> None:
    """The director calls time on a timed round, or changes the deals per round, while a
    table's hand is on its way (its game's row taken, the event's not yet). Both take the
    games' rows before the event's, so the director waits for the hand, and neither waits for
    the other for ever (PostgreSQL would cancel one as a deadlock): the hand is stored first."""
    event = progressive_event(8, deals_per_round=8, format_settings={"game_minutes": 55})
    first = round_create(event=event)
    game = first.tables.order_by("number")[0].game
    services.hand_submit(game=game, number=1, values=values())
    on_its_way = threading.Event()
    go_on = threading.Event()
    bump = hands.hands_version_bump

    def bump_when_told(*, event_id: int, at_least: int = 0) -> int:
        on_its_way.set()
        go_on.wait(30)
        return bump(event_id=event_id, at_least=at_least)

    monkeypatch.setattr(hands, "hands_version_bump", bump_when_told)
    outcome: dict[str, object] = {}

    def run(name: str, action: Callable[[], object]) -> None:
        try:
            outcome[name] = action()
        except Exception as exc:  # noqa: BLE001 - the outcome is the assertion
            outcome[name] = f"{type(exc).__name__}: {exc}"
        finally:
            on_its_way.set()
            connection.close()

    phone = threading.Thread(target=run, args=("hand", lambda: services.hand_submit(
        game=game, number=2, values=values()).hand.number))
    phone.start()
    assert on_its_way.wait(30)
    director = threading.Thread(target=run, args=("director", lambda: write(event, first, game)))
    director.start()
    try:
        assert _a_writer_waits_for_a_lock()  # the director, on a row the hand holds
    finally:
        go_on.set()
        phone.join(30)
        director.join(30)
    assert outcome == {"hand": 2, "director": after}


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_redraw_while_the_first_hand_is_on_its_way_is_refused_and_the_hand_stored(
        servers, monkeypatch) -> None:
    """The director re-draws a round while a table's first hand is on its way (its game's row
    taken, the event's not yet). The re-draw holds the event's row, so it does not wait for
    the game's (the two would deadlock): it is refused at once, naming the round, and the hand
    is stored."""
    event = progressive_event(8)
    first = round_create(event=event)
    game = first.tables.order_by("number")[0].game
    on_its_way = threading.Event()
    go_on = threading.Event()
    bump = hands.hands_version_bump

    def bump_when_told(*, event_id: int, at_least: int = 0) -> int:
        on_its_way.set()
        go_on.wait(30)
        return bump(event_id=event_id, at_least=at_least)

    monkeypatch.setattr(hands, "hands_version_bump", bump_when_told)
    outcome: dict[str, object] = {}

    def phone() -> None:
        try:
            outcome["hand"] = services.hand_submit(game=game, number=1, values=values()).hand.number
        except Exception as exc:  # noqa: BLE001 - the outcome is the assertion
            outcome["hand"] = f"{type(exc).__name__}: {exc}"
        finally:
            on_its_way.set()
            connection.close()

    def director() -> None:
        try:
            round_create(event=event, reseat=True, reason="a player sat at the wrong table")
            outcome["redraw"] = "done"
        except DomainError as exc:
            outcome["redraw"] = (exc.field, exc.code)
        except Exception as exc:  # noqa: BLE001
            outcome["redraw"] = f"{type(exc).__name__}: {exc}"
        finally:
            connection.close()

    threads = [threading.Thread(target=phone), threading.Thread(target=director)]
    threads[0].start()
    assert on_its_way.wait(30)
    threads[1].start()
    threads[1].join(10)  # refused at once; a re-draw waiting for the game's row is still here
    go_on.set()
    for t in threads:
        t.join(30)
    assert outcome == {"hand": 1, "redraw": ("round", "busy")}
    assert Round.objects.get(pk=first.pk).tables.count() == 2
