"""The progressive movement at tables of three: the finishing order at a table, the winner up,
second stays, third down (and the reverse), the end tables, alternates, the first draw."""

from __future__ import annotations

import pytest

from pairing.progressive import ProgressiveError
from pairing.progressive.threes import finishing_order, first_game, next_game
from pairing.results import TableResult

# Three tables; at each the first id listed finishes first, then second, then third.
LAST = ((1, 2, 3), (4, 5, 6), (7, 8, 9))


def test_winner_up_second_stays_third_down() -> None:
    tables = next_game(LAST, LAST, seed=1)
    assert [set(t) for t in tables] == [{1, 2, 4}, {5, 3, 7}, {8, 9, 6}]


def test_direction_down_reverses_it() -> None:
    tables = next_game(LAST, LAST, direction="down", seed=1)
    assert [set(t) for t in tables] == [{2, 3, 6}, {1, 5, 9}, {4, 7, 8}]


def test_one_or_two_tables() -> None:
    assert set(next_game(((1, 2, 3),), ((3, 1, 2),))[0]) == {1, 2, 3}
    two = next_game(((1, 2, 3), (4, 5, 6)), ((1, 2, 3), (4, 5, 6)))
    assert [set(t) for t in two] == [{1, 2, 4}, {3, 5, 6}]


def test_seats_are_drawn_and_reproducible() -> None:
    assert next_game(LAST, LAST, seed=1) == next_game(LAST, LAST, seed=1)
    norths = {next_game(LAST, LAST, seed=s)[1][0] for s in range(20)}
    assert len(norths) > 1


def test_an_alternate_moves_as_the_leaver_would() -> None:
    tables = next_game(LAST, LAST, seed=1, leaving=[4], entering=[10])
    assert set(tables[0]) == {1, 2, 10}
    with pytest.raises(ProgressiveError) as info:
        next_game(LAST, LAST, leaving=[4], entering=[])
    assert info.value.field == "entering"


def test_finishing_order_from_winner_and_points() -> None:
    seats = {"N": 11, "E": 12, "S": 13}
    assert finishing_order(TableResult(1, 1, seats, {"N": 100, "E": 300, "S": 200}, "E",
                                       True)) == (12, 13, 11)
    # no winner named: the most points; equal points behind: the earlier seat first
    assert finishing_order(TableResult(1, 1, seats, {"N": 150, "E": 150, "S": 400}, None,
                                       True)) == (13, 11, 12)
    for result, code in [
        (TableResult(1, 1, seats, {"N": 300, "E": 300, "S": 0}, None, True), "tie"),
        (TableResult(1, 1, seats, {"N": 100, "E": 300, "S": 0}, "N", True), "winner_behind"),
        (TableResult(1, 1, seats, {}, None, False), "not_finished"),
        (TableResult(1, 1, {**seats, "W": 14}, {}, "N", True), "bad_table"),
    ]:
        with pytest.raises(ProgressiveError) as info:
            finishing_order(result)
        assert info.value.code == code


def test_first_game_fills_tables_of_three() -> None:
    tables = first_game(list(range(1, 13)), seed=4)
    assert len(tables) == 4 and sorted(p for t in tables for p in t) == list(range(1, 13))
    assert tables == first_game(list(range(1, 13)), seed=4) != first_game(list(range(1, 13)),
                                                                          seed=5)
    with pytest.raises(ProgressiveError) as info:
        first_game(list(range(1, 11)), seed=4)
    assert (info.value.field, info.value.code) == ("entries", "not_full_tables")
