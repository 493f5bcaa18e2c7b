"""The table's phone page once its game is over: where each of its players goes next, or how
many tables the next game is waiting for."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from draw.services import round_create, round_set_status
from scoring.services import game_confirm, hand_submit
from scoring.where_next import table_next_seats
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players, progressive_event
from tournaments.models import Event, Round, Seat, Table

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _progressive(players: int, **kwargs) -> Event:
    return progressive_event(players, deals_per_round=1, **kwargs)


def _play(table: Table, *, confirm: bool = True) -> None:
    hand_submit(game=table.game, number=1, values=values())  # EW win 55 to 51
    if confirm:
        game_confirm(game=table.game, position="N")


def _page(client, table: Table) -> str:
    response = client.get(reverse("table-entry", args=[table.token]))
    assert response.status_code == 200
    return response.content.decode()


def _where_next(html: str) -> str:
    found = re.search(r'<section class="card where-next[^"]*" id="where-next".*?</section>', html, re.S)
    assert found, "no where-next block on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()


def test_a_finished_table_shows_each_players_next_table_and_seat(
    client, django_capture_on_commit_callbacks,
) -> None:
    event = _progressive(16)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    second = event.rounds.get(number=2)  # the last confirmation seated game 2
    for table in first.tables.order_by("number"):
        block = _where_next(_page(client, table))
        assert "Next: game 2" in block
        for seat in table.seats.select_related("entry__player"):
            going = Seat.objects.select_related("table").get(round=second, entry=seat.entry)
            expected = (f"{seat.entry.player.name}: table {going.table.number}, "
                        f"{SEAT_NAMES[going.position]}")
            assert expected in block


def test_until_the_next_game_is_seated_the_page_counts_the_confirmed_tables_and_refreshes(
    client, django_capture_on_commit_callbacks,
) -> None:
    event = _progressive(16)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    tables = list(first.tables.order_by("number"))
    with django_capture_on_commit_callbacks(execute=True):
        for table in tables[:3]:
            _play(table)
        _play(tables[3], confirm=False)
    html = _page(client, tables[0])
    block = _where_next(html)
    assert "Next game: waiting for the other tables (3 of 4 confirmed)" in block
    assert "data-where-next" in html and "js/where_next.js" in html  # polls, then redraws
    # the table still to confirm sees the same, under its confirm buttons
    html = _page(client, tables[3])
    assert "(3 of 4 confirmed)" in _where_next(html)
    assert "Confirm as" in html


def test_a_table_still_playing_shows_no_next_seat(client) -> None:
    event = _progressive(8)
    first = round_create(event=event)
    table = first.tables.first()
    html = _page(client, table)
    assert 'id="where-next"' not in html
    assert table_next_seats(table=table) is None


def test_a_held_advance_says_the_director_seats_the_next_game(
    client, django_capture_on_commit_callbacks,
) -> None:
    event = _progressive(8)
    event.advance_held = True
    event.save(update_fields=["advance_held"])
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    assert not event.rounds.filter(number=2).exists()
    block = _where_next(_page(client, first.tables.first()))
    assert "every table is done; the director seats game 2 shortly" in block


def test_the_final_table_and_those_not_in_it(client, django_capture_on_commit_callbacks) -> None:
    # one qualifying game, then straight to the final table of the top four
    event = _progressive(8, rounds_planned=1, format_settings={"cut": 4})
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    final = event.rounds.get(number=2)
    assert final.stage == Round.Stage.FINAL
    finalists = {s.entry_id: s.position for s in Seat.objects.filter(round=final)}
    labels = []
    for table in first.tables.all():
        block = _where_next(_page(client, table))
        assert "Final" in block
        for seat in table.seats.select_related("entry__player"):
            name = seat.entry.player.name
            if seat.entry_id in finalists:
                expected = f"{name}: final table, {SEAT_NAMES[finalists[seat.entry_id]]}"
            else:
                expected = f"{name}: not in the final"
            assert expected in block
            labels.append(expected)
    assert sum("final table" in label for label in labels) == 4


def test_the_last_game_links_the_standings(client, django_capture_on_commit_callbacks) -> None:
    event = _progressive(8, rounds_planned=1, format_settings={"cut": 0})
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    html = _page(client, first.tables.first())
    assert "That was the last game." in _where_next(html)
    assert "data-auto-refresh" not in html and "data-where-next" not in html


def test_an_old_table_link_after_the_finish_says_the_event_is_over(
        client, django_capture_on_commit_callbacks) -> None:
    """Game 1's table card opened after the whole day finished: not "Next: game 2"."""
    from draw.services import event_status_set, round_advance

    event = _progressive(8, rounds_planned=2, format_settings={"cut": 0})
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    second = event.rounds.get(number=2)
    assert "Next: game 2" in _where_next(_page(client, first.tables.first()))
    with django_capture_on_commit_callbacks(execute=True):
        for table in second.tables.all():
            _play(table)
    assert round_advance(event=event, number=2) is None
    event_status_set(event=event, status="finished")
    block = _where_next(_page(client, first.tables.first()))
    assert "Next: game 2" not in block and "The event is over." in block
    assert table_next_seats(table=Table.objects.get(pk=first.tables.first().pk))["finished"]


def test_a_club_night_player_who_sits_out_next_round_is_told_so(client) -> None:
    event = event_with_players(players=5, status="running", deals_per_round=1)
    first = round_create(event=event)
    table = first.tables.get()
    _play(table)  # the first hand starts the round
    round_set_status(round_=first, status="closed")
    second = round_create(event=event)
    resting = set(second.byes.values_list("entry_id", flat=True))
    block = _where_next(_page(client, table))
    assert "Next: round 2" in block
    for seat in table.seats.select_related("entry__player"):
        if seat.entry_id in resting:
            assert f"{seat.entry.player.name}: sits out" in block
        else:
            assert f"{seat.entry.player.name}: table 1," in block


def test_the_lookup_costs_a_few_queries_whatever_the_number_of_tables(
    django_assert_max_num_queries, django_capture_on_commit_callbacks,
) -> None:
    event = _progressive(32)
    first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _play(table)
    table = Table.objects.select_related("round__event__club", "game").get(round=first, number=5)
    with django_assert_max_num_queries(4):
        where = table_next_seats(table=table)
    assert where is not None and where["seated"] and len(where["players"]) == 4
    assert all(p["table"] for p in where["players"])
