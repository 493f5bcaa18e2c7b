"""A progressive day whose tables draw partners themselves (``draw: table``): who meets at each
table (``draw.managers.table_meetings``), the director's entered draws seating the next game
(``round_create``/``round_advance`` with ``table_draw``), the refusals naming the table's draw,
the automatic advance standing aside, and the log line the verifier reads."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import DomainError
from draw.managers import table_meetings
from draw.selectors import advance_due
from draw.services import round_advance, round_create
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, EventLog, Round

pytestmark = pytest.mark.django_db

TABLE_DRAW = {"draw": "table", "movement": "winners_move", "cut": 0}


def table_event(players: int = 8, **settings: object) -> Event:
    return progressive_event(players, deals_per_round=1,
                             format_settings={**TABLE_DRAW, **settings})


def play_round(round_: Round, capture: Any) -> None:
    """Every table plays its one deal and confirms: the automatic advance runs."""
    with capture(execute=True):
        for table in round_.tables.order_by("number"):
            hand_submit(game=table.game, number=1, values=values())
            game_confirm(game=table.game, position="N")


def seats(round_: Round) -> list[dict[str, int]]:
    out = []
    for table in round_.tables.order_by("number"):
        out.append({s.position: s.entry_id for s in table.seats.all()})
    return out


def test_the_automatic_advance_stands_aside_and_the_meetings_are_shown(
        django_capture_on_commit_callbacks: Any) -> None:
    event = table_event()
    first = round_create(event=event)
    assert table_meetings(event) == ()  # games still playing
    play_round(first, django_capture_on_commit_callbacks)
    assert not event.rounds.filter(number=2).exists()
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    assert advance_due(event) is None
    meetings = table_meetings(event)
    assert [m.table for m in meetings] == [1, 2]
    before = seats(first)
    for meeting in meetings:
        # the winners moved on; the losers stay
        stay = before[meeting.table - 1]
        winner = Game.objects.get(table__round=first, table__number=meeting.table).winner
        losers = ("N", "S") if winner == "EW" else ("E", "W")
        assert set(meeting.stayers) == {stay[losers[0]], stay[losers[1]]}
        assert not set(meeting.arrivals) & set(meeting.stayers)


def test_the_entered_draws_seat_the_next_game_and_are_logged(
        django_capture_on_commit_callbacks: Any) -> None:
    event = table_event()
    first = round_create(event=event)
    play_round(first, django_capture_on_commit_callbacks)
    meetings = table_meetings(event)
    # table 1 pairs its first stayer with the second arrival, table 2 with the first
    chosen = [[meetings[0].stayers[0], meetings[0].arrivals[1]],
              [meetings[1].stayers[0], meetings[1].arrivals[0]]]
    second = round_create(event=event, table_draw=chosen)
    assert second.number == 2
    seated = seats(second)
    for (stayer, arrival), table in zip(chosen, seated, strict=True):
        partners = {frozenset((table["N"], table["S"])), frozenset((table["E"], table["W"]))}
        assert frozenset((stayer, arrival)) in partners
    line = EventLog.objects.filter(event=event, action="round_seated",
                                   details__round=2).get()
    assert line.details["table_draw"] == chosen
    # a re-draw keeps the tables' draw it read
    again = round_create(event=event, reseat=True, reason="the room was set up again")
    assert seats(again) == seated


@pytest.mark.parametrize(("draw", "field", "code"), [
    (None, "table_draw", "missing"),
    ("one_table", "table_draw.1", "missing"),
    ("stayers_together", "table_draw.0", "stayers_together"),
    ("stranger", "table_draw.1", "not_at_table"),
    ("not_a_pair", "table_draw.0", "bad_pair"),
])
def test_a_wrong_draw_is_refused_naming_the_table(
        django_capture_on_commit_callbacks: Any, draw: str | None, field: str,
        code: str) -> None:
    event = table_event()
    first = round_create(event=event)
    play_round(first, django_capture_on_commit_callbacks)
    m = table_meetings(event)
    given: Any = {
        None: None,
        "one_table": [[m[0].stayers[0], m[0].arrivals[0]]],
        "stayers_together": [list(m[0].stayers), [m[1].stayers[0], m[1].arrivals[0]]],
        "stranger": [[m[0].stayers[0], m[0].arrivals[0]], [m[1].stayers[0], m[0].arrivals[1]]],
        "not_a_pair": [[m[0].stayers[0]], [m[1].stayers[0], m[1].arrivals[0]]],
    }[draw]
    with pytest.raises(DomainError) as refused:
        round_create(event=event, table_draw=given)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert not event.rounds.filter(number=2).exists()


def test_the_director_advance_takes_the_draw_and_a_system_draw_refuses_one(
        django_capture_on_commit_callbacks: Any) -> None:
    event = table_event()
    event_system = progressive_event(8, deals_per_round=1, format_settings={"cut": 0})
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.order_by("number"):
            hand_submit(game=table.game, number=1, values=values())
    # every game finished (not yet confirmed): the director closes and seats in one step
    assert Game.objects.filter(table__round=first, status=Game.Status.PLAYING).count() == 0
    m = table_meetings(event)
    new = round_advance(event=event, number=1, close_unfinished=True,
                        table_draw=[[x.stayers[0], x.arrivals[0]] for x in m])
    assert new is not None and new.number == 2 and new.status == Round.Status.PLAYING
    # no meetings once the game is seated and playing
    assert table_meetings(event) == ()
    # a format drawing by the system refuses a table draw
    played = round_create(event=event_system)
    play_round(played, django_capture_on_commit_callbacks)
    assert event_system.rounds.filter(number=2).exists()  # seated by itself
    assert table_meetings(event_system) == ()
