"""The registry of event formats: how each one builds its next round.

A format is registered once, keyed by ``Event.format``. Its builder receives a
:class:`Situation` (who is here, the seatings so far and every game's result, all as plain values)
and returns a :class:`pairing.club_night.BuiltRound`; ``draw.services.round_create`` reads the
rows, calls the builder and writes the round. Adding a format is adding a pure builder under
``pairing/`` and one :func:`register` call here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from common.errors import DomainError
from pairing.club_night import BuiltRound, club_night_round
from pairing.results import TableResult
from pairing.rotation import RoundPlan


@dataclass(frozen=True)
class Situation:
    """Everything a builder may use to seat round ``number``."""

    number: int
    seed: int
    rounds_planned: int
    entries: tuple[int, ...]
    fixed_tables: Mapping[int, int] = field(default_factory=dict)
    history: tuple[RoundPlan[int], ...] = ()
    results: tuple[TableResult, ...] = ()


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    build: Callable[[Situation], BuiltRound]
    min_entries: int = 4
    # Seat the next round by itself when the last game of the current one is confirmed.
    seats_automatically: bool = False


FORMATS: dict[str, Format] = {}


def register(spec: Format) -> Format:
    if spec.name in FORMATS:
        raise ValueError(f"format {spec.name!r} is registered twice")
    FORMATS[spec.name] = spec
    return spec


def format_for(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise DomainError(
            f"No round builder for the format {name!r}; choose one of {', '.join(FORMATS)}.",
            field="format",
        ) from None


def _club_night(s: Situation) -> BuiltRound:
    return club_night_round(
        s.entries, s.history, rounds_planned=s.rounds_planned, seed=s.seed,
        fixed_tables=s.fixed_tables or None, results=s.results,
    )


register(Format(name="club_night", label="Club night (rotating partners)", build=_club_night))
