"""Legal hands for the load benchmark, from the rules engine alone (no Django, no locust).

As the demo does (``demo.services.demo_hand``): deal the ruleset's pack to the four seats, let
the best melder holding a marriage in some suit bid in that suit, count every seat's meld with
the engine, split the counters by chance and bid a little above the bidder's meld. A deal where
nobody holds a marriage is dealt again, so every hand is ``played`` and moves the scores (a
misdeal scores nothing and would leave the standings version where it was).

``typing_steps`` gives what the phone's form sends to the check endpoint while the hand is
typed (``static/js/entry.js``: the values as they stand, a field at a time).
"""

from __future__ import annotations

import random
from typing import Any

from rules_engine import Ruleset, count_meld

SUITS = ("S", "H", "D", "C")
KING, QUEEN = 2, 3  # rank numbers in a card index (suit * 6 + rank)


def random_hand(rng: random.Random, ruleset: Ruleset, dealer: str) -> dict[str, Any]:
    """A played hand the engine accepts (4-player partnership rulesets)."""
    seats = [str(seat) for seat in ruleset.seats]
    pack = ruleset.deck.cards()
    size = len(pack) // len(seats)
    for _ in range(100):
        rng.shuffle(pack)
        held = {seat: pack[i * size:(i + 1) * size] for i, seat in enumerate(seats)}
        best: tuple[int, str, str] | None = None
        for seat in seats:
            for number, trump in enumerate(SUITS):
                cards = held[seat]
                if number * 6 + KING not in cards or number * 6 + QUEEN not in cards:
                    continue
                total = count_meld(cards, trump, ruleset).total
                if best is None or total > best[0]:
                    best = (total, seat, trump)
        if best is not None:
            break
    else:  # pragma: no cover - a marriage somewhere is all but certain
        raise RuntimeError("no deal with a marriage in 100 tries")
    _, bidder, trump = best
    meld = {str(side): 0 for side in ruleset.sides}
    for seat in seats:
        meld[str(ruleset.side_of(seat))] += count_meld(held[seat], trump, ruleset).total
    side = str(ruleset.side_of(bidder))
    other = next(s for s in meld if s != side)
    total = ruleset.counters_total
    taken = rng.randint(total * 36 // 100, total * 88 // 100)
    taken -= taken % ruleset.counter_unit  # counters come in the units cards count in (tens)
    bid = max(ruleset.min_bid, meld[side] + rng.randint(total * 28 // 100, total * 60 // 100))
    for _ in range(10_000):
        if ruleset.is_valid_bid(bid):
            break
        bid += 1
    return {"dealer": dealer, "bidder": bidder, "bid": bid, "trump": trump,
            "meld": meld, "counters": {side: taken, other: total - taken}, "outcome": "played"}


def typing_steps(hand: dict[str, Any], steps: int) -> list[dict[str, Any]]:
    """What the form holds after each pause in typing: ``steps`` snapshots, the last one the
    whole hand (the earlier ones lack fields, so the check answers 400 with "still to fill")."""
    order = [("outcome", "dealer"), ("bidder", "bid"), ("trump",), ("meld",), ("counters",)]
    if steps <= 0:
        return []
    snapshots: list[dict[str, Any]] = []
    for i in range(steps):
        upto = len(order) if i == steps - 1 else max(1, (i + 1) * len(order) // (steps + 1))
        values: dict[str, Any] = {}
        for group in order[:upto]:
            for name in group:
                if name in hand:
                    values[name] = hand[name]
        snapshots.append(values)
    return snapshots
