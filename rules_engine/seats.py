"""Seats and sides: who sits where and who plays with whom.

seat
    :class:`Seat` ``N``, ``E``, ``S``, ``W``, in clockwise order: the deal, the bidding and the
    play all pass to the left, which is the next seat clockwise. ``N``/``S`` and ``E``/``W`` are
    partners.
side
    :class:`Side` ``NS`` or ``EW``, a partnership at a four-player table. In the three-player
    presets the players sit at ``N``, ``E`` and ``S`` and each seat is its own side, so a side
    there is written with the seat's letter; :class:`Side` names partnerships only.

Both are ``StrEnum`` classes, so a member is its letter(s) in JSON, in dict keys and in string
comparisons, and ``label`` gives the words people read.

Tables of other sizes
---------------------
A seat is a name of at most two letters, on the compass (:data:`ALL_SEATS`), clockwise from N:

=====  ===============================  ============================================
size   seats (clockwise)                sides
=====  ===============================  ============================================
2      N, S                             each player (``N``, ``S``)
3      N, E, S                          each player
4      N, E, S, W                       ``NS`` v ``EW`` (or each player)
5      N, E, SE, SW, W                  each player (five-handed: a partner per hand)
6      N, NE, SE, S, SW, NW             teams of three, every other seat: ``NSESW``
                                        (N, SE, SW) v ``NESNW`` (NE, S, NW)
8      N, NE, E, SE, S, SW, W, NW       four pairs, partners opposite: ``NS``, ``NESW``,
                                        ``EW``, ``SENW``
=====  ===============================  ============================================

A team's name is its seats' names joined in clockwise order from N (:func:`table_sides`), so
``NS`` and ``EW`` keep their names and no name is longer than six letters. :func:`table_seats`
gives ``N``, ``E``, ``S``, ``W`` as :class:`Seat` members and the other names as plain
strings; :func:`seat_label` and :func:`side_label` give the words for any of them.
"""

from __future__ import annotations

from enum import StrEnum

from .i18n import gettext_noop

__all__ = [
    "ALL_SEATS", "SEAT_LABELS", "TABLE_SIZES", "Seat", "Side", "seat_label", "side_label",
    "table_seats", "table_sides", "table_teams",
]  # fmt: skip


class Seat(StrEnum):
    """A place at the table, clockwise from North."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def label(self) -> str:
        """``North``, ``East``, ``South``, ``West``."""
        return _SEAT_LABELS[self]

    @property
    def next(self) -> Seat:
        """The seat to the left at a four-player table (the next one clockwise)."""
        return _NEXT[self]

    @property
    def partner(self) -> Seat:
        """The seat across the table."""
        return _PARTNER[self]

    @property
    def side(self) -> Side:
        """The partnership this seat plays for at a four-player table."""
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW


class Side(StrEnum):
    """A partnership at a four-player table."""

    NS = "NS"
    EW = "EW"

    @property
    def label(self) -> str:
        """``North–South`` or ``East–West``."""
        return _SIDE_LABELS[self]

    @property
    def seats(self) -> tuple[Seat, Seat]:
        """The two partners, in clockwise order from North."""
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @property
    def opponents(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


_SEAT_LABELS = {Seat.N: gettext_noop("North"), Seat.E: gettext_noop("East"),
                Seat.S: gettext_noop("South"), Seat.W: gettext_noop("West")}
_SIDE_LABELS = {Side.NS: gettext_noop("North–South"), Side.EW: gettext_noop("East–West")}
_NEXT = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.W, Seat.W: Seat.N}
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}


# every seat name a table may use, clockwise from North
ALL_SEATS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")

SEAT_LABELS: dict[str, str] = {
    "N": gettext_noop("North"), "NE": gettext_noop("North-East"),
    "E": gettext_noop("East"), "SE": gettext_noop("South-East"),
    "S": gettext_noop("South"), "SW": gettext_noop("South-West"),
    "W": gettext_noop("West"), "NW": gettext_noop("North-West"),
}  # fmt: skip

_TABLES: dict[int, tuple[str, ...]] = {
    2: ("N", "S"),
    3: ("N", "E", "S"),
    4: ("N", "E", "S", "W"),
    5: ("N", "E", "SE", "SW", "W"),
    6: ("N", "NE", "SE", "S", "SW", "NW"),
    8: ALL_SEATS,
}

# the table sizes any ruleset may seat
TABLE_SIZES: tuple[int, ...] = tuple(_TABLES)


def _name(x: str) -> str:
    """``N``/``E``/``S``/``W`` as :class:`Seat` members (so ``.label`` and the four-seat
    properties keep working), any other seat name as itself."""
    return Seat(x) if x in Seat.__members__ else x


def table_seats(players: int) -> tuple[str, ...]:
    """The seats of a table of ``players``, clockwise from N (see the module's table)."""
    seats = _TABLES.get(players) if not isinstance(players, bool) else None
    if seats is None:
        sizes = ", ".join(str(n) for n in TABLE_SIZES)
        raise ValueError(f"tables seat {sizes} players here, not {players!r}")
    return tuple(_name(x) for x in seats)


def table_teams(players: int, side_size: int) -> tuple[tuple[str, ...], ...]:
    """The teams of a table of ``players`` in teams of ``side_size``, each clockwise from N:
    every seat alone (1), or members ``players / side_size`` seats apart, so every player sits
    between two opponents (partners opposite at four and eight)."""
    seats = table_seats(players)
    if isinstance(side_size, bool) or side_size < 1 or players % side_size:
        raise ValueError(f"{players} players cannot sit in teams of {side_size}")
    k = players // side_size
    return tuple(tuple(seats[j + i * k] for i in range(side_size)) for j in range(k))


def table_sides(players: int, side_size: int) -> tuple[str, ...]:
    """The sides of a table of ``players`` in teams of ``side_size`` (:func:`table_teams`),
    each named by its seats joined clockwise from N: ``NS``, ``EW`` (as :class:`Side`
    members), ``NESW``, ``NSESW``; a player alone is the seat's name."""
    names = ["".join(team) for team in table_teams(players, side_size)]
    return tuple(_side(x) for x in names)


def _side(name: str) -> str:
    return Side(name) if name in Side.__members__ else _name(name)


def seat_label(seat: str) -> str:
    """The words for a seat name: ``North``, ``South-East``, ..."""
    return SEAT_LABELS.get(seat, seat)


def side_label(side: str) -> str:
    """The words for a side: ``North–South``; a player's own side is the seat's words; a team of
    three lists its players (``North, South-East and South-West``)."""
    if side in Side.__members__:
        return Side(side).label
    if side in SEAT_LABELS:
        return SEAT_LABELS[side]
    members = _team_members().get(side)
    if members is None:
        return side
    words = [SEAT_LABELS[x] for x in members]
    if len(words) == 2:
        return "–".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _team_members() -> dict[str, tuple[str, ...]]:
    """Every team name any table may have, with its seats."""
    if not _TEAMS:
        for n in TABLE_SIZES:
            for k in (2, 3):  # the team sizes games use
                if n % k == 0:
                    for team in table_teams(n, k):
                        _TEAMS.setdefault("".join(team), team)
    return _TEAMS


_TEAMS: dict[str, tuple[str, ...]] = {}
