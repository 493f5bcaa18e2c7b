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
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Seat", "Side", "table_seats"]


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


_SEAT_LABELS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_SIDE_LABELS = {Side.NS: "North–South", Side.EW: "East–West"}
_NEXT = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.W, Seat.W: Seat.N}
_PARTNER = {Seat.N: Seat.S, Seat.S: Seat.N, Seat.E: Seat.W, Seat.W: Seat.E}


def table_seats(players: int) -> tuple[Seat, ...]:
    """The seats in use, clockwise: all four, or ``N``, ``E``, ``S`` for three players."""
    if players == 4:
        return tuple(Seat)
    if players == 3:
        return (Seat.N, Seat.E, Seat.S)
    raise ValueError(f"pinochle is played by three or four here, not {players}")
