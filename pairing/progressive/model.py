"""Value types of the progressive movement: seats, settings, the error and the report.

See the package docstring (``pairing.progressive``) for the vocabulary.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from rules_engine.errors import CoreError

# The one Seat and Side of the project (the rules engine's), re-exported for the movement.
from rules_engine.seats import Seat as Seat
from rules_engine.seats import Side as Side

P = TypeVar("P", bound=Hashable)


class Movement(StrEnum):
    """How players change tables between games."""

    WINNERS_MOVE = "winners_move"
    FIXED_SEATS = "fixed_seats"


class Direction(StrEnum):
    """Where winners go under ``winners_move``: ``up`` toward table 1, ``down`` away from it."""

    UP = "up"
    DOWN = "down"


class DrawMode(StrEnum):
    """Who decides which arrival partners which stayer: the ``system`` or the ``table``."""

    SYSTEM = "system"
    TABLE = "table"


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.N, Seat.E, Seat.S, Seat.W)
SEAT_INDEX = {seat: i for i, seat in enumerate(SEATS)}
OPPOSITE = {seat: seat.partner for seat in Seat}
CLOCKWISE_NEXT = {seat: seat.next for seat in Seat}
SIDE_OF = {Seat.N: Side.NS, Seat.S: Side.NS, Seat.E: Side.EW, Seat.W: Side.EW}

# fixed_seats: North stays, South moves one table toward higher numbers, East one toward table 1,
# West two toward table 1 (positive = toward higher table numbers, wrapping).
DEFAULT_STEPS: dict[Seat, int] = {Seat.N: 0, Seat.E: -1, Seat.S: 1, Seat.W: -2}

# Input bounds. 250 tables seat 1,000 players, the rotation module's ceiling too.
MAX_TABLES = 250
MAX_HISTORY_ITEMS = 100_000  # seatings plus partner pairs
MAX_HISTORY_TABLES = 100_000  # tables over all seatings in the history
MAX_STEP = 10_000
MAX_GAMES = 1_000
MAX_POINTS = 1_000_000


class ProgressiveError(CoreError, ValueError):
    """A malformed or impossible movement request.

    ``field`` names the input at fault as a path into the request (``tables[2].S``,
    ``winners[0]``, ``history[4]``, ``direction``, ``steps.E``, ``table_draw[1]``, ``leaving[0]``,
    ...; indexes are 0-based, table numbers in messages 1-based), ``code`` is a short
    machine-readable reason and ``message`` a sentence a tournament director can act on.
    """

    def __init__(self, field: str, message: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)
        self.args = (f"{field}: {message}",)

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


@dataclass(frozen=True)
class MovementWarning:
    """Something the director should know; the seating is still valid."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class Move(Generic[P]):
    """Where a player sat in the last game and sits in the next (``from_*`` None: entered)."""

    player: P
    from_table: int | None
    from_seat: Seat | None
    to_table: int
    to_seat: Seat

    def to_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "from_table": self.from_table,
            "from_seat": None if self.from_seat is None else str(self.from_seat),
            "to_table": self.to_table,
            "to_seat": str(self.to_seat),
        }


@dataclass(frozen=True)
class Repeat(Generic[P]):
    """Two players who meet again at ``table`` (as partners or opponents), and how often before."""

    players: tuple[P, P]
    table: int
    times_before: int

    def to_dict(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "table": self.table,
            "times_before": self.times_before,
        }


@dataclass(frozen=True)
class Draw(Generic[P]):
    """How the stayers and arrivals at one table were paired (``winners_move`` only).

    ``partners`` lists the two new partnerships as (stayer, arrival). ``repeats`` counts the
    partnerships of the chosen pairing and of the other one that have partnered before.
    ``reason``: ``avoids_repeat`` (only the chosen pairing is fresh), ``fewer_repeats`` (both
    repeat, the chosen one less), ``fewer_past_partnerships`` (as many repeats, fewer past games
    together), ``seeded_draw`` (both equal; the seeded draw decided) or ``table_draw`` (the
    caller gave the pairing).
    """

    table: int
    stayers: tuple[P, P]
    arrivals: tuple[P, P]
    partners: tuple[tuple[P, P], tuple[P, P]]
    mode: DrawMode
    reason: str
    repeats: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "table": self.table,
            "stayers": list(self.stayers),
            "arrivals": list(self.arrivals),
            "partners": [list(pair) for pair in self.partners],
            "mode": str(self.mode),
            "reason": self.reason,
            "repeats": {"chosen": self.repeats[0], "other": self.repeats[1]},
        }


@dataclass(frozen=True)
class Substitution(Generic[P]):
    """An alternate who took a leaver's place (table and seat of the last game)."""

    left: P
    entered: P
    table: int
    seat: Seat

    def to_dict(self) -> dict[str, object]:
        return {
            "left": self.left,
            "entered": self.entered,
            "table": self.table,
            "seat": str(self.seat),
        }


@dataclass(frozen=True)
class Arrival(Generic[P]):
    """Who meets at a table under ``winners_move`` before the draw: the two who stay (in seat
    order) and the two who arrive (in the seat order of the table they come from)."""

    table: int
    stayers: tuple[P, P]
    arrivals: tuple[P, P]
    from_table: int


@dataclass(frozen=True)
class ProgressiveQuality(Generic[P]):
    """The report that comes with a seating.

    ``repeat_partners`` / ``repeat_opponents``: pairs who partner (oppose) in the new seating and
    have done so before (opponents are known only from seatings in the history, not from partner
    pairs). ``moves``: every seated player, table order, seat order. ``draws``: one per table
    under ``winners_move``. ``settings``: the settings used, as plain values.
    """

    repeat_partners: tuple[Repeat[P], ...]
    repeat_opponents: tuple[Repeat[P], ...]
    moves: tuple[Move[P], ...]
    warnings: tuple[MovementWarning, ...]
    draws: tuple[Draw[P], ...]
    substitutions: tuple[Substitution[P], ...]
    settings: dict[str, object]

    def to_dict(self) -> dict[str, object]:
        return {
            "repeat_partners": [r.to_dict() for r in self.repeat_partners],
            "repeat_opponents": [r.to_dict() for r in self.repeat_opponents],
            "moves": [m.to_dict() for m in self.moves],
            "warnings": [w.to_dict() for w in self.warnings],
            "draws": [d.to_dict() for d in self.draws],
            "substitutions": [s.to_dict() for s in self.substitutions],
            "settings": dict(self.settings),
        }


@dataclass(frozen=True)
class ProgressiveRound(Generic[P]):
    """The next game's seating and its report.

    ``tables[k - 1]`` is table ``k`` as ``(N, E, S, W)``, like ``pairing.rotation.RoundPlan``.
    """

    tables: tuple[tuple[P, P, P, P], ...]
    quality: ProgressiveQuality[P]

    def seating(self) -> list[dict[str, P]]:
        """The tables as ``{"N": id, "E": id, "S": id, "W": id}`` mappings, in table order."""
        return [{str(seat): table[i] for i, seat in enumerate(SEATS)} for table in self.tables]

    def to_dict(self) -> dict[str, object]:
        return {"tables": self.seating(), "quality": self.quality.to_dict()}
