"""Races between devices on the real PostgreSQL: row locks across connections decide."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from common.errors import ConflictError
from draw.services import round_create, round_set_status
from scoring import services
from scoring.models import Game, Hand, HandRevision
from scoring.services import decisions, event_settings_update, game_adjust, round_call_time
from tests.integration.races import WAIT, HandHeld, a_writer_waits_for_a_lock, attempt
from tests.scoring.factories import seated_table, values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, EventLog, Round
from tournaments.services import event_hold_advance, event_lock

LEVEL = {"bidder": "N", "bid": 50, "meld": {"NS": 20, "EW": 30},
         "counters": {"NS": 30, "EW": 20}}  # NS 50, EW 50: a level game


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
    held = HandHeld(monkeypatch, event_row_taken=False)
    outcome: dict[str, object] = {}
    phone = held.submitted(outcome, lambda: services.hand_submit(
        game=table.game, number=1, values=values()).hand.number)
    try:
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    finally:
        held.go_on.set()
        phone.join(WAIT)
    assert outcome["hand"] == ("round", "round_closed")
    assert not Hand.objects.filter(game=table.game).exists()
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


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


def _adjusted(event: Event, first: Round, game: Game) -> object:
    game_adjust(game=game, kind="points", points={"NS": 120, "EW": 90},
                reason="a player was taken ill")
    game.refresh_from_db()
    return game.hands_count, game.status, (game.adjusted or {}).get("kind")


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("write", "after"), [
    (_time_called, ([1, 2], 2, "time")),  # the game ends after the hand on its way
    (_deals_changed, (2, "playing")),  # every game re-derived, the hand on its way included
    (_adjusted, (2, "confirmed", "points")),  # the game with the hand on its way
], ids=["time called", "deals per round changed", "adjusted result"])
def test_a_director_s_write_while_a_hand_is_on_its_way_waits_for_it(
        servers, monkeypatch, write: Callable[[Event, Round, Game], object],
        after: object) -> None:
    """The director calls time on a timed round, changes the deals per round, or gives the
    game an adjusted result while a table's hand is on its way (its game's row taken, the event's not yet). Both take the
    games' rows before the event's, so the director waits for the hand, and neither waits for
    the other for ever (PostgreSQL would cancel one as a deadlock): the hand is stored first."""
    event = progressive_event(8, deals_per_round=8, format_settings={"game_minutes": 55})
    first = round_create(event=event)
    game = first.tables.order_by("number")[0].game
    services.hand_submit(game=game, number=1, values=values())
    held = HandHeld(monkeypatch, event_row_taken=False)
    outcome: dict[str, object] = {}
    phone = held.submitted(outcome, lambda: services.hand_submit(
        game=game, number=2, values=values()).hand.number)
    director = attempt(outcome, "director", lambda: write(event, first, game))
    try:
        assert a_writer_waits_for_a_lock()  # the director, on a row the hand holds
    finally:
        held.go_on.set()
        phone.join(WAIT)
        director.join(WAIT)
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
    held = HandHeld(monkeypatch, event_row_taken=False)
    outcome: dict[str, object] = {}
    phone = held.submitted(outcome, lambda: services.hand_submit(
        game=game, number=1, values=values()).hand.number)
    director = attempt(outcome, "redraw", lambda: round_create(
        event=event, reseat=True, reason="a player sat at the wrong table").number)
    director.join(10)  # refused at once; a re-draw waiting for the game's row is still here
    held.go_on.set()
    for thread in (phone, director):
        thread.join(WAIT)
    assert outcome == {"hand": 1, "redraw": ("round", "busy")}
    assert Round.objects.get(pk=first.pk).tables.count() == 2


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_seating_while_a_level_game_is_corrected_is_refused_and_the_correction_stored(
        servers, monkeypatch) -> None:
    """Round 1 is confirmed with a level game; the director adjusts that game's result (its
    row taken, the event's not yet) while the next round is seated. The seating holds the
    event's row and would cut the cards for the level game, so it does not wait for the game's
    row (the two would deadlock): it is refused at once, naming the round, and the correction is
    stored; seated again, the round reads the corrected winner and needs no cut."""
    event = progressive_event(8, deals_per_round=1)
    event_hold_advance(event=event, held=True)  # the worker closes round 1 and seats nothing
    first = round_create(event=event)
    won, level = (t.game for t in first.tables.order_by("number"))
    services.hand_submit(game=won, number=1, values=values())
    services.hand_submit(game=level, number=1, values=values(**LEVEL))
    services.game_confirm(game=won, position="N")
    services.game_confirm(game=level, position="E")
    on_its_way, go_on = threading.Event(), threading.Event()
    lock_averaged = decisions.averaged_games_lock

    def held_after_the_game(round_id: int) -> None:  # the game's row taken, the event's not
        lock_averaged(round_id)
        on_its_way.set()
        go_on.wait(WAIT)

    monkeypatch.setattr(decisions, "averaged_games_lock", held_after_the_game)
    outcome: dict[str, object] = {}
    director = attempt(outcome, "adjust", lambda: services.game_adjust(
        game=level, kind="points", points={"NS": 60, "EW": 50},
        reason="a counter was left out").winner, ended=on_its_way)
    assert on_its_way.wait(WAIT)
    seating = attempt(outcome, "seat", lambda: round_create(event=event).number)
    seating.join(10)  # refused at once; a seating waiting for the game's row is still here
    go_on.set()
    for thread in (director, seating):
        thread.join(WAIT)
    assert outcome == {"adjust": "NS", "seat": ("round", "busy")}
    assert not Game.objects.filter(table__round__event=event).exclude(cut_winner="").exists()
    assert round_create(event=event).number == 2
    assert not EventLog.objects.filter(event=event, action="tie_cut").exists()


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_new_deal_count_from_an_out_of_date_page_is_refused_while_a_hand_is_on_its_way(
        servers, monkeypatch) -> None:
    """The director's copy of the event is out of date (another director changed the deals per
    round from 8 to 6 meanwhile), so asking for 8 looks like no change until the event's row
    is held: the games were not locked first. With a hand on its way (its game's row taken,
    the event's not yet), the change is refused at once, naming the field, and the hand is
    stored; asked again, the change is made."""
    event = progressive_event(8, deals_per_round=8)
    first = round_create(event=event)
    game = first.tables.order_by("number")[0].game
    out_of_date = Event.objects.get(pk=event.pk)

    def deals(copy: Event, number: int) -> int:
        return event_settings_update(
            event=copy, name=copy.name, date=copy.date, ruleset_preset=copy.ruleset_preset,
            rounds_planned=copy.rounds_planned, bye_scoring=copy.bye_scoring,
            deals_per_round=number).deals_per_round

    deals(event, 6)
    services.hand_submit(game=game, number=1, values=values())  # the games are re-derived
    held = HandHeld(monkeypatch, event_row_taken=False)
    outcome: dict[str, object] = {}
    phone = held.submitted(outcome, lambda: services.hand_submit(
        game=game, number=2, values=values()).hand.number)
    director = attempt(outcome, "director", lambda: deals(out_of_date, 8))
    director.join(10)  # refused at once; a change waiting for the game's row is still here
    held.go_on.set()
    for thread in (phone, director):
        thread.join(WAIT)
    assert outcome == {"hand": 2, "director": ("deals_per_round", "busy")}
    assert deals(out_of_date, 8) == 8
    assert Hand.objects.filter(game=game).count() == 2
