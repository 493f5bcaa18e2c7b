"""The A/B movement (pairs): the A pairs keep their table, the B pairs move one table up each
round (``pairing.pair_movements``)."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.pair_movements import ab_movement

from .pairs import pair_format, seat, sit_out_withdrawn
from .spec import Situation


def _build(s: Situation) -> BuiltRound:
    return seat(s, sit_out_withdrawn(s, ab_movement(tuple(s.pairs), s.number)), "ab_movement")


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return [f"A/B movement, {rounds_planned} rounds: the A pairs keep their table; the B pairs "
            "move one table up each round."]


FORMAT = pair_format(
    name="ab_movement", label="A/B movement (pairs)", qualify=_build, describe=_describe,
    summary="A/B movement: the A pairs keep their table, the B pairs move up one each round.",
)
