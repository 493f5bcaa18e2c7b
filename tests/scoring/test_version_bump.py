"""The event row is the one row every table of an event writes (``hands_version``): each hand
write bumps it exactly once, as the LAST write of its transaction (but for a seated round's
start, once), after the game's recompute, so the row lock is held from there to the commit
only. The results do not change."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services
from scoring.models import Game, Hand, SeatResult
from tests.scoring.factories import seated_table, values
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b|\bFOR (NO KEY )?UPDATE\b", re.IGNORECASE)
EVENT_BUMP = re.compile(r'^\s*UPDATE\s+"?tournaments_event"?\s+SET\s+"?hands_version',
                        re.IGNORECASE)


def _writes(run: Callable[[], Any]) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        result = run()
    return result, [q["sql"] for q in ctx.captured_queries if WRITE.search(q["sql"])]


def _assert_bump_is_the_last_write(writes: list[str]) -> None:
    bumps = [i for i, sql in enumerate(writes) if EVENT_BUMP.search(sql)]
    assert len(bumps) == 1, writes  # exactly one bump per hand write
    assert bumps[0] == len(writes) - 1, writes[bumps[0]:]  # and nothing written after it
    # The game's recompute (its seat results) came before it.
    assert any("scoring_seatresult" in sql for sql in writes[:bumps[0]])


def _hands_version(event_id: int) -> int:
    return Event.objects.values_list("hands_version", flat=True).get(pk=event_id)


def test_first_hand_of_a_seated_round_marks_it_playing_right_after_the_bump() -> None:
    """The one write after the bump: a seated round's start, in the order a director's start
    takes the rows (the event, then the round; tests/integration/test_entry_races.py)."""
    table = seated_table(round_status="seated")
    before = _hands_version(table.round.event_id)
    _, writes = _writes(lambda: services.hand_submit(game=table.game, number=1, values=values()))
    assert writes[-1].lstrip().upper().startswith("UPDATE") and "tournaments_round" in writes[-1]
    _assert_bump_is_the_last_write(writes[:-1])
    assert Round.objects.get(pk=table.round_id).status == Round.Status.PLAYING
    assert _hands_version(table.round.event_id) == before + 1


def test_a_later_hand_bumps_last_and_once() -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values())
    before = _hands_version(table.round.event_id)
    _, writes = _writes(lambda: services.hand_submit(game=table.game, number=2,
                                                     values=values(dealer="W")))
    _assert_bump_is_the_last_write(writes)
    assert _hands_version(table.round.event_id) == before + 1
    game = Game.objects.get(pk=table.game.pk)
    assert game.hands_count == 2 and game.totals == {"NS": 102, "EW": 110}
    assert sorted(SeatResult.objects.filter(game=game).values_list("points", flat=True)) == [
        102, 102, 110, 110]


def test_a_replayed_submission_writes_nothing() -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="k")
    before = _hands_version(table.round.event_id)
    revision, writes = _writes(lambda: services.hand_submit(
        game=table.game, number=1, values=values(), idempotency_key="k"))
    assert revision.replayed is True
    assert [sql for sql in writes if not re.search(r"FOR (NO KEY )?UPDATE", sql)] == []
    assert _hands_version(table.round.event_id) == before


def test_correcting_a_confirmed_game_clears_it_and_bumps_last() -> None:
    table = seated_table()
    revision = services.hand_submit(game=table.game, number=1, values=values())
    Game.objects.filter(pk=table.game.pk).update(status=Game.Status.CONFIRMED)
    hand = Hand.objects.get(pk=revision.hand_id)
    before = _hands_version(table.round.event_id)
    _, writes = _writes(lambda: services.hand_correct(
        hand=hand, values=values(bid=52, counters={"NS": 28, "EW": 22}), expected_revision=1,
        as_director=True, note="typo"))
    _assert_bump_is_the_last_write(writes)
    assert any("tournaments_eventlog" in sql for sql in writes)  # the cleared confirmation
    assert _hands_version(table.round.event_id) == before + 1
    game = Game.objects.get(pk=table.game.pk)
    assert game.status != Game.Status.CONFIRMED and game.totals == {"NS": 52, "EW": 54}


def test_deleting_the_last_hand_bumps_last() -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values())
    services.hand_submit(game=table.game, number=2, values=values(dealer="W"))
    before = _hands_version(table.round.event_id)
    _, writes = _writes(lambda: services.hand_delete_last(
        game=table.game, number=2, expected_revision=1, note="entered twice"))
    _assert_bump_is_the_last_write(writes)
    assert _hands_version(table.round.event_id) == before + 1
    assert Game.objects.get(pk=table.game.pk).totals == {"NS": 51, "EW": 55}
