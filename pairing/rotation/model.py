"""Value types of the rotation module and the quality measure.

See the package docstring (``pairing.rotation``) for the vocabulary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from rules_engine.errors import CoreError


class Orderable(Protocol):
    """A player id: hashable and ordered (ints, strings, ...)."""

    def __lt__(self, other: Any, /) -> bool: ...

    def __hash__(self) -> int: ...


P = TypeVar("P", bound=Orderable)
H = TypeVar("H", bound=Hashable)

# Seat indexes inside a table tuple.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
SEATS = ("N", "E", "S", "W")


class RotationError(CoreError, ValueError):
    """An impossible or malformed rotation request.

    ``field`` names the input at fault (``players``, ``rounds``, ``history``, ``fixed_tables``,
    ``seed``), ``code`` is a short machine-readable reason and ``message`` a sentence a tournament
    director can act on.
    """

    def __init__(self, field: str, message: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)
        self.args = (f"{field}: {message}",)

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


@dataclass(frozen=True)
class RoundPlan(Generic[P]):
    """One round: tables in seat order, clockwise from North, and the players on bye.

    A partnership table is four players (N, E, S, W): partners are N–S (indexes 0 and 2) and
    E–W (indexes 1 and 3). In individual play (``pairing.threes``) a table is three (N, E, S)
    or four individuals, each their own side. Table number ``k`` (1-based) is
    ``tables[k - 1]``.
    """

    tables: tuple[tuple[P, ...], ...]
    byes: tuple[P, ...] = ()

    def seated(self) -> Iterator[P]:
        for table in self.tables:
            yield from table

    def players(self) -> Iterator[P]:
        yield from self.seated()
        yield from self.byes

    def table_of(self, player: P) -> int | None:
        """The 1-based table number of ``player``, or None when on bye or absent."""
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number
        return None

    def to_dict(self) -> dict[str, object]:
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes)}


def partner_pairs(table: Sequence[Hashable]) -> tuple[tuple[Hashable, Hashable], ...]:
    return ((table[0], table[2]), (table[1], table[3]))


def opponent_pairs(table: Sequence[Hashable]) -> tuple[tuple[Hashable, Hashable], ...]:
    return (
        (table[0], table[1]),
        (table[0], table[3]),
        (table[2], table[1]),
        (table[2], table[3]),
    )


def _key(a: P, b: P) -> tuple[P, P]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class Quality(Generic[P]):
    """How good a sequence of rounds is.

    A *repeat* counts every meeting of a pair beyond its first: a pair that partnered three times
    adds 2 to ``repeat_partners``. *Tablemates* are the three others at one's table (partner and
    both opponents). The lower bounds follow from counting: a player seated ``s`` times meets
    ``2s`` opponents and ``3s`` tablemates among the ``n - 1`` other players who appear in the
    rounds, so at least ``2s - (n - 1)`` (resp. ``3s - (n - 1)``) of those meetings are repeats;
    each repeat is seen by both players of the pair.
    """

    repeat_partners: int
    repeat_opponents: int
    repeat_tablemates: int
    opponents_lower_bound: int
    tablemates_lower_bound: int
    byes_per_player: dict[P, int] = field(default_factory=dict)
    max_byes: int = 0
    min_byes: int = 0
    rounds: int = 0
    players: int = 0
    max_partnered: int = 0  # most times any one pair partnered

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "players": self.players,
            "repeat_partners": self.repeat_partners,
            "max_partnered": self.max_partnered,
            "repeat_opponents": self.repeat_opponents,
            "opponents_lower_bound": self.opponents_lower_bound,
            "repeat_tablemates": self.repeat_tablemates,
            "tablemates_lower_bound": self.tablemates_lower_bound,
            "byes_per_player": {str(p): n for p, n in sorted(self.byes_per_player.items())},
            "max_byes": self.max_byes,
            "min_byes": self.min_byes,
        }


@dataclass(frozen=True)
class Schedule(Generic[P]):
    """A planned sequence of rounds and its measured quality."""

    rounds: tuple[RoundPlan[P], ...]
    quality: Quality[P]

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": [r.to_dict() for r in self.rounds],
            "quality": self.quality.to_dict(),
        }


def _repeats(counter: Counter[H]) -> int:
    return sum(c - 1 for c in counter.values() if c > 1)


def measure(rounds: Iterable[RoundPlan[P]]) -> Quality[P]:
    """Measure repeat partners, opponents, tablemates and byes of ``rounds``."""
    rounds = tuple(rounds)
    partners: Counter[tuple[P, P]] = Counter()
    opponents: Counter[tuple[P, P]] = Counter()
    tablemates: Counter[tuple[P, P]] = Counter()
    seated: Counter[P] = Counter()
    byes: Counter[P] = Counter()
    everyone: set[P] = set()
    for plan in rounds:
        for t in plan.tables:
            a, b, c, d = t
            partners[_key(a, c)] += 1
            partners[_key(b, d)] += 1
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opponents[_key(x, y)] += 1
            for i in range(4):
                seated[t[i]] += 1
                for j in range(i + 1, 4):
                    tablemates[_key(t[i], t[j])] += 1
        for p in plan.byes:
            byes[p] += 1
        everyone.update(plan.players())
    others = max(len(everyone) - 1, 0)
    opp_excess = sum(max(0, 2 * s - others) for s in seated.values())
    tab_excess = sum(max(0, 3 * s - others) for s in seated.values())
    per_player = {p: byes.get(p, 0) for p in sorted(everyone)}
    return Quality(
        repeat_partners=_repeats(partners),
        repeat_opponents=_repeats(opponents),
        repeat_tablemates=_repeats(tablemates),
        opponents_lower_bound=(opp_excess + 1) // 2,
        tablemates_lower_bound=(tab_excess + 1) // 2,
        byes_per_player=per_player,
        max_byes=max(per_player.values(), default=0),
        min_byes=min(per_player.values(), default=0),
        rounds=len(rounds),
        players=len(everyone),
        max_partnered=max(partners.values(), default=0),
    )
