"""Winners stay (pairs): the first game's winners keep their table all day; the others move one
table up each round (``pairing.pair_movements``)."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.pair_movements import first_draw, first_game, winners_stay, winners_stay_rounds
from rules_engine.i18n import gettext_noop, ngettext

from .pairs import (
    MOVEMENT_ROUNDS_HELP,
    pair_format,
    pair_of,
    pair_results,
    previous_finished,
    seat,
    sit_out_withdrawn,
    table_movement_rounds,
)
from .spec import Situation


def _build(s: Situation) -> BuiltRound:
    random_draw = s.settings.get("first_draw") == "random"
    if s.number == 1:
        # seeded: 1 v 2, 3 v 4, ... in seed order (the odd one out has the bye)
        built = first_draw(s.active_pairs, seed=s.seed) if random_draw else \
            first_game(s.active_pairs)
        return seat(s, built, "first_draw")
    previous_finished(s)
    firsts = sorted((r for r in pair_results(s) if r.round_number == 1),
                    key=lambda r: r.table_number)
    first_byes = sorted({pair_of(s.pairs)[e] for e in s.history[0].byes})
    built = winners_stay([r.pairs for r in firsts], [r.winner or r.pairs[0] for r in firsts],
                         s.number, first_byes)
    return seat(s, sit_out_withdrawn(s, built), "winners_stay")


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return [ngettext("Winners stay, %(rounds)s round: the first game's winners keep their "
                     "table all day; the others move one table up each round.",
                     "Winners stay, %(rounds)s rounds: the first game's winners keep their "
                     "table all day; the others move one table up each round.",
                     rounds_planned, rounds=rounds_planned)]


FORMAT = pair_format(
    name="winners_stay", label=gettext_noop("Winners stay (pairs)"), qualify=_build, describe=_describe,
    rounds_help=MOVEMENT_ROUNDS_HELP, max_rounds=table_movement_rounds(winners_stay_rounds),
    summary=gettext_noop("Winners stay: the first game's winners keep their table; the others move up."),
    keys=frozenset({"first_draw"}),
)
