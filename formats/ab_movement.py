"""The A/B movement (pairs): the A pairs keep their table, the B pairs move one table up each
round (``pairing.pair_movements``)."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.pair_movements import ab_movement, ab_rounds
from rules_engine.i18n import gettext_noop, ngettext

from .pairs import pair_format, seat, sit_out_withdrawn
from .spec import Situation


def _build(s: Situation) -> BuiltRound:
    return seat(s, sit_out_withdrawn(s, ab_movement(tuple(s.pairs), s.number)), "ab_movement")


def _max_rounds(settings: Mapping[str, object], pairs: int) -> int | None:
    """As many rounds as tables (a phantom table for an odd pair included): one more and the
    moving pairs would meet the same pairs again."""
    return ab_rounds(pairs) if pairs >= 2 else None


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return [ngettext("A/B movement, %(rounds)s round: the A pairs keep their table; the B "
                     "pairs move one table up each round.",
                     "A/B movement, %(rounds)s rounds: the A pairs keep their table; the B "
                     "pairs move one table up each round.",
                     rounds_planned, rounds=rounds_planned)]


FORMAT = pair_format(
    name="ab_movement", label=gettext_noop("A/B movement (pairs)"), qualify=_build, describe=_describe,
    max_rounds=_max_rounds,
    summary=gettext_noop("A/B movement: the A pairs keep their table, the B pairs move up one each round."),
)
