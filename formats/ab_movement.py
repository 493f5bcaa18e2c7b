"""The A/B movement (pairs): the A pairs keep their table, the B pairs move one table up each
round (``pairing.pair_movements``)."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.pair_movements import ab_movement, ab_rounds
from rules_engine.i18n import gettext_noop, ngettext

from .pairs import (
    MOVEMENT_ROUNDS_HELP,
    pair_format,
    seat,
    sit_out_withdrawn,
    table_movement_rounds,
)
from .spec import Situation


def _build(s: Situation) -> BuiltRound:
    return seat(s, sit_out_withdrawn(s, ab_movement(tuple(s.pairs), s.number)), "ab_movement")


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return [ngettext("A/B movement, %(rounds)s round: the A pairs keep their table; the B "
                     "pairs move one table up each round.",
                     "A/B movement, %(rounds)s rounds: the A pairs keep their table; the B "
                     "pairs move one table up each round.",
                     rounds_planned, rounds=rounds_planned)]


FORMAT = pair_format(
    name="ab_movement", label=gettext_noop("A/B movement (pairs)"), qualify=_build, describe=_describe,
    rounds_help=MOVEMENT_ROUNDS_HELP, max_rounds=table_movement_rounds(ab_rounds),
    summary=gettext_noop("A/B movement: the A pairs keep their table, the B pairs move up one each round."),
)
