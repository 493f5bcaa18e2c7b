"""The club night: individuals with rotating partners, round after round, for as long as the
club plays (``pairing.club_night`` seats each round)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pairing.club_night import BuiltRound, club_night_round

from .spec import Format, Situation


def _build(s: Situation) -> BuiltRound:
    return club_night_round(
        s.entries, s.history, rounds_planned=s.rounds_planned, seed=s.seed,
        fixed_tables=s.fixed_tables or None, results=s.results,
    )


def _describe(settings: Mapping[str, Any], rounds_planned: int) -> list[str]:
    return [f"{rounds_planned} rounds planned (the director may play more); partners change "
            "every round and nobody partners the same player twice while it can be avoided. "
            "When the players do not fill whole tables, players sit out in turn."]


FORMAT = Format(
    name="club_night", label="Club night (rotating partners)", build=_build,
    summary="Club night: partners rotate every round; play on as long as the club likes.",
    describe=_describe, club_night=True, shortcut="New club night",
)
