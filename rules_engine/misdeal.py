"""Misdeal rules: when a player may have the deal voided and redealt."""

from __future__ import annotations

from collections.abc import Iterable

from .cards import ACE, NINE, parse_cards
from .rulesets import Ruleset

__all__ = ["is_misdeal"]


def is_misdeal(cards: Iterable[int | str], ruleset: Ruleset) -> bool:
    """Whether this hand lets its holder call a misdeal under the ruleset's ``misdeal_rule``.

    ``no_aces``: 13 or more non-counters and no aces (double deck technical misdeal);
    ``nines``: five or more nines (single deck); ``none``: never.
    """
    rule = ruleset.misdeal_rule
    if rule == "none":
        return False
    items = list(cards)
    hand = (
        [c for c in items if isinstance(c, int)]
        if all(isinstance(c, int) for c in items)
        else parse_cards(items, ruleset.deck)
    )
    if rule == "nines":
        return sum(1 for c in hand if c % 6 == NINE) >= 5
    cv = ruleset.counter_values
    aces = sum(1 for c in hand if c % 6 == ACE)
    non_counters = sum(1 for c in hand if cv[c % 6] == 0)
    return aces == 0 and non_counters >= 13
