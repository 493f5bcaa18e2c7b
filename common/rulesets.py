"""The bridge from stored ruleset choices (preset name + overrides) to the rules engine."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Protocol, TypedDict

from common.errors import DomainError
from rules_engine import RulesError, Ruleset, get_ruleset


@lru_cache(maxsize=256)
def _cached(preset: str, overrides_json: str) -> Ruleset:
    return get_ruleset(preset, json.loads(overrides_json))


def ruleset_for(*, preset: str, overrides: Mapping[str, object] | None) -> Ruleset:
    """The rules engine's ruleset for a preset and overrides (validated, cached)."""
    return _cached(preset, json.dumps(overrides or {}, sort_keys=True))


def check_ruleset(*, preset: str, overrides: Mapping[str, object] | None) -> Ruleset:
    """Like :func:`ruleset_for` but turns the engine's rejection into a field error."""
    try:
        return ruleset_for(preset=preset, overrides=overrides)
    except RulesError as exc:
        first = exc.errors[0]
        field = "ruleset_preset" if first.field == "ruleset" else "ruleset_overrides"
        raise DomainError(
            "; ".join(e.message for e in exc.errors), field=field, code=first.code
        ) from None


class RulesetChoice(Protocol):
    """What names a ruleset: an event's (or a club's) preset and overrides."""

    @property
    def ruleset_preset(self) -> str: ...

    @property
    def ruleset_overrides(self) -> Mapping[str, object] | None: ...


def event_ruleset(event: RulesetChoice) -> Ruleset:
    return ruleset_for(preset=event.ruleset_preset, overrides=event.ruleset_overrides)


def table_seats(ruleset: Ruleset, positions: Iterable[str]) -> tuple[str, ...]:
    """The seats of a table whose players sit at ``positions``, clockwise: the smallest table
    the ruleset seats that holds them all (three seats, or four where a fourth player sits out
    each hand; four at a partnership table)."""
    taken = set(positions)
    sizes = sorted(ruleset.table_sizes)
    for size in sizes:
        seats = tuple(ruleset.seats_for(size))
        if taken <= set(seats):
            return seats
    return tuple(ruleset.seats_for(sizes[-1]))


def table_sides(ruleset: Ruleset, seats: Sequence[str]) -> tuple[str, ...]:
    """The sides that score at a table with these seats: the two partnerships, or every
    player where each plays alone."""
    return tuple(ruleset.sides_for(len(seats)))


def opponents_of(ruleset: Ruleset, seat: str, seats: Sequence[str]) -> tuple[str, ...]:
    """The seats of a table playing against ``seat``."""
    side = ruleset.side_of(seat)
    return tuple(s for s in seats if ruleset.side_of(s) != side)


def partners_of(ruleset: Ruleset, seat: str) -> tuple[str, ...]:
    """The seats playing with ``seat`` (none where each plays alone)."""
    return tuple(s for s in ruleset.seats_of(ruleset.side_of(seat)) if s != seat)


def table_teams(ruleset: Ruleset) -> tuple[tuple[int, ...], ...]:
    """Who plays with whom at a full table (the largest the ruleset seats): each side's seat
    indexes, clockwise from North (what the round builders take, ``formats.Situation.teams``)."""
    size = max(ruleset.table_sizes)
    seats = list(ruleset.seats_for(size))
    return tuple(tuple(seats.index(seat) for seat in ruleset.seats_of(side))
                 for side in ruleset.sides_for(size))


class TwoSides(TypedDict, total=False):
    """A game of two sides as the pair formats read its results."""

    side_names: tuple[str, ...]
    first_seats: tuple[str, ...]


def two_sides(ruleset: Ruleset) -> TwoSides:
    """For a game of two sides (the pair formats): each side's name and its first seat, as the
    builders read results (``formats.Situation.side_names``, ``first_seats``); empty for a game
    of more sides."""
    size = max(ruleset.table_sizes)
    sides = tuple(str(side) for side in ruleset.sides_for(size))
    if len(sides) != 2:
        return TwoSides()
    return TwoSides(side_names=sides,
                    first_seats=tuple(str(ruleset.seats_of(side)[0]) for side in sides))
