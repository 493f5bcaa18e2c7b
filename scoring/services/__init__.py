"""Score entry: the only code that writes hands and what follows from them, by resource.

- :mod:`.parse`: entered values as the rules engine reads them (``hand_check``,
  ``revision_hand``).
- :mod:`.hands`: a new hand, a correction, deleting the last hand.
- :mod:`.derive`: a game's derived rows rebuilt from its live hands (``game_recompute``, a
  whole event at once: ``event_recompute``), and the adjusted averages that follow the round.
- :mod:`.confirm`: the keeper, the other side's confirmation, the desk's bulk confirmation.
- :mod:`.decisions`: calling time, a level game's cut, a forfeit, an adjusted result.
- :mod:`.event_settings`: an event's settings changed by its director.

Flow of one entry (docs/architecture.md, "A hand, end to end"): lock the game row, turn the
submitted values into a rules-engine hand, score it, and either raise field-level errors
(nothing stored) or store the hand and its first revision in one transaction, rebuild the
game's derived rows, bump the event's ``hands_version``, and queue a standings update on commit.

Concurrency: the game row lock serialises writers across processes. A device that submits a new
hand for a number that already exists, or a correction based on a revision that is no longer
live, gets a :class:`ConflictError` carrying the stored values. A retried submission carrying
the same idempotency key returns the revision stored the first time.

The names below are the package's public services; callers import them from here.
"""

from __future__ import annotations

from .confirm import game_confirm, game_set_scorer, games_confirm_at_desk
from .decisions import (
    ADJUST_KINDS,
    ADJUSTED_POINTS_LIMIT,
    game_adjust,
    game_forfeit,
    game_settle_tie,
    round_call_time,
)
from .derive import (
    ADJUSTED,
    FORFEIT,
    event_recompute,
    game_recompute,
    level_games_lock_idle,
    level_sides,
    round_games_lock_idle,
)
from .event_settings import event_settings_update
from .hands import hand_correct, hand_delete_last, hand_submit
from .parse import HAND_FIELDS, hand_check, revision_hand

__all__ = [
    "ADJUSTED", "ADJUSTED_POINTS_LIMIT", "ADJUST_KINDS", "FORFEIT", "HAND_FIELDS",
    "event_recompute", "event_settings_update", "game_adjust", "game_confirm", "game_forfeit",
    "game_recompute", "level_games_lock_idle", "level_sides", "game_set_scorer",
    "game_settle_tie", "games_confirm_at_desk",
    "hand_check", "hand_correct", "hand_delete_last", "hand_submit", "revision_hand",
    "round_call_time", "round_games_lock_idle",
]
