"""Which bids a ruleset accepts: its ladder, capped at what a hand can be worth.

The ladder (opening minimum, steps) is the ruleset's own (:meth:`Ruleset.bid_check`). Its top
comes from the meld tables, so it lives here rather than in :mod:`rules_engine.rulesets`:
:func:`max_bid` is the most meld a side can show plus every counter in the deck. A bid above it
could never be made, so an entry like ``5100`` for ``510`` is a typing error, not a contract.
"""

from __future__ import annotations

from .i18n import Text, gettext_noop
from .inputs import shown
from .meld import max_side_meld
from .rulesets import Ruleset

__all__ = ["max_bid", "check_bid", "bids_above"]


def max_bid(ruleset: Ruleset) -> int:
    """The highest bid the ruleset accepts.

    The meld part is :func:`~rules_engine.meld.max_side_meld`, an upper bound, so no bid that
    some deal could make is ever refused.
    """
    rs = ruleset
    top: int = rs.memo("max_bid", lambda: max_side_meld(rs) + rs.counters_total)
    return top


def check_bid(bid: object, ruleset: Ruleset) -> tuple[str, str] | None:
    """None for an acceptable bid, else ``(code, sentence)``.

    Codes: those of :meth:`Ruleset.bid_check` (``bad_type``, ``below_minimum``, ``wrong_step``)
    and ``too_high``, above :func:`max_bid`.
    """
    if isinstance(bid, int) and not isinstance(bid, bool) and bid > ruleset.min_bid:
        top = max_bid(ruleset)
        if bid > top:
            return (
                "too_high",
                Text(gettext_noop("bid %(bid)s can never be made here: meld and counters "
                                  "together come to at most %(top)s"), bid=shown(bid), top=top),
            )
    return ruleset.bid_check(bid)


def bids_above(bid: int | None, ruleset: Ruleset, count: int = 5) -> list[int]:
    """Up to ``count`` acceptable bids above ``bid`` (or from the opening minimum); fewer, or
    none, near :func:`max_bid`."""
    top = max_bid(ruleset)
    return [b for b in ruleset.next_bids(bid, count) if b <= top]
