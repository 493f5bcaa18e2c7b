"""Tables of two, five, six and eight: seat names, teams, labels and the presets that use them."""

from __future__ import annotations

import pytest

from rules_engine import ALL_SEATS, TABLE_SIZES, seat_label, side_label
from rules_engine.seats import Seat, Side, table_seats, table_sides, table_teams


def test_every_seat_name_fits_the_database_column() -> None:
    assert ALL_SEATS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert all(1 <= len(x) <= 2 for x in ALL_SEATS)
    for n in TABLE_SIZES:
        assert set(table_seats(n)) <= set(ALL_SEATS)
        assert len(set(table_seats(n))) == n


@pytest.mark.parametrize(
    ("n", "seats"),
    [
        (2, ("N", "S")),
        (3, ("N", "E", "S")),
        (4, ("N", "E", "S", "W")),
        (5, ("N", "E", "SE", "SW", "W")),
        (6, ("N", "NE", "SE", "S", "SW", "NW")),
        (8, ("N", "NE", "E", "SE", "S", "SW", "W", "NW")),
    ],
)
def test_seats_per_table_size_clockwise(n: int, seats: tuple[str, ...]) -> None:
    assert table_seats(n) == seats
    # clockwise: the order agrees with the compass order of ALL_SEATS
    assert [ALL_SEATS.index(x) for x in seats] == sorted(ALL_SEATS.index(x) for x in seats)


def test_four_seats_stay_seat_members() -> None:
    assert all(isinstance(x, Seat) for x in table_seats(4))
    assert table_seats(6)[0] is Seat.N and not isinstance(table_seats(6)[1], Seat)


def test_sizes_outside_the_list_are_refused() -> None:
    for n in (0, 1, 7, 9, True):
        with pytest.raises(ValueError, match="tables seat"):
            table_seats(n)
    with pytest.raises(ValueError, match="teams of 4"):
        table_teams(6, 4)


def test_six_sit_in_two_teams_of_three_alternately() -> None:
    assert table_teams(6, 3) == (("N", "SE", "SW"), ("NE", "S", "NW"))
    assert table_sides(6, 3) == ("NSESW", "NESNW")
    seats = table_seats(6)
    team_of = {x: i for i, team in enumerate(table_teams(6, 3)) for x in team}
    for i, x in enumerate(seats):
        left, right = seats[(i + 1) % 6], seats[i - 1]
        assert team_of[left] != team_of[x] and team_of[right] != team_of[x]


def test_eight_sit_in_four_pairs_partners_opposite() -> None:
    assert table_teams(8, 2) == (("N", "S"), ("NE", "SW"), ("E", "W"), ("SE", "NW"))
    sides = table_sides(8, 2)
    assert sides == ("NS", "NESW", "EW", "SENW")
    assert sides[0] is Side.NS and sides[2] is Side.EW
    assert all(len(x) <= 6 for x in sides)


def test_four_keeps_its_partnerships() -> None:
    assert table_sides(4, 2) == (Side.NS, Side.EW)
    assert table_sides(5, 1) == table_seats(5)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("NE", "North-East"),
        ("SW", "South-West"),
        ("NS", "North–South"),
        ("NESW", "North-East–South-West"),
        ("SENW", "South-East–North-West"),
        ("NSESW", "North, South-East and South-West"),
        ("NESNW", "North-East, South and North-West"),
    ],
)
def test_labels(name: str, words: str) -> None:
    label = seat_label(name) if name in ALL_SEATS else side_label(name)
    assert label == words
