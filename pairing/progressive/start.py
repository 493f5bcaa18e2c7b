"""The first game of an individual progressive event: a seeded draw for seats."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules_engine.i18n import Text, gettext_noop

from .model import ProgressiveError


def first_game(players: Sequence[int], *, seed: int) -> tuple[tuple[int, int, int, int], ...]:
    """Everyone at a table of four, seats drawn at random (reproducible for ``seed``).

    A progressive game seats every player: a count that does not fill the tables is refused,
    naming how many are over, so the director checks in alternates or lets some sit out."""
    if len(set(players)) != len(players):
        raise ProgressiveError("players", Text(gettext_noop("A player is listed twice.")), "duplicate")
    over = len(players) % 4
    if len(players) < 4 or over:
        raise ProgressiveError(
            "entries",
            Text(gettext_noop("A progressive game seats everyone at tables of four: %(count)s players make %(value)s tables with %(value2)s over. Check in alternates to fill a table, or take players off the event."), count=len(players), value=len(players) // 4, value2=over or len(players)),
            "not_full_tables",
        )
    order = sorted(players)
    random.Random(f"progressive-first:{seed}:{len(order)}").shuffle(order)
    return tuple(
        (order[i], order[i + 1], order[i + 2], order[i + 3]) for i in range(0, len(order), 4)
    )
