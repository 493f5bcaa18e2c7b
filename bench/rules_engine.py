"""Benchmark of the pure-Python rules engine on one core.

Run from the repository root:  python bench/rules_engine.py  [--seconds 1.0]

Prints meld counts per second on random 20-card double-deck hands (full breakdown and the
total-only fast path), hand scores per second on already-parsed hands, and play validations per
second (whole 20-trick deals checked card by card). Targets: 50,000 meld counts/s and 200,000
hand scores/s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine import (  # noqa: E402
    Deck,
    Hand,
    Seat,
    Side,
    Suit,
    check_play,
    count_meld,
    fields_for,
    get_ruleset,
    legal_cards,
    meld_total,
    parse_hand,
    score_hand,
    trick_winner,
)
from rules_engine.cards import card_str, counts_of  # noqa: E402


def _rate(label: str, n_items: int, fn: Callable[[], None], seconds: float) -> float:
    fn()  # warm up
    runs = 0
    start = time.perf_counter()
    while True:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    rate = runs * n_items / elapsed
    print(f"{label:<44} {rate:>12,.0f} /s")
    return rate


def _deal(rng: random.Random) -> list[list[int]]:
    deck = Deck.DOUBLE.cards()
    rng.shuffle(deck)
    return [deck[i * 20 : (i + 1) * 20] for i in range(4)]


def _play_out(hands: list[list[int]], trump: int, rng: random.Random) -> list[list[str]]:
    remaining = [list(h) for h in hands]
    leader = 0
    tricks: list[list[str]] = []
    while remaining[0]:
        played: list[int] = []
        order = [(leader + k) % 4 for k in range(4)]
        for p in order:
            allowed, _ = legal_cards(remaining[p], played, trump)
            card = rng.choice(allowed)
            remaining[p].remove(card)
            played.append(card)
        tricks.append([card_str(c) for c in played])
        leader = order[trick_winner(played, trump)]
    return tricks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    args = ap.parse_args()
    rng = random.Random(2024)
    rs = get_ruleset("pagat_double_deck")
    club = get_ruleset("club_double_deck")

    hands = [h for _ in range(250) for h in _deal(rng)]
    trumps = [rng.randrange(4) for _ in hands]
    pairs = list(zip(hands, trumps, strict=True))
    counts = [(counts_of(h), t) for h, t in pairs]

    def meld_full() -> None:
        for h, t in pairs:
            count_meld(h, t, rs)

    def meld_fast() -> None:
        for c, t in counts:
            meld_total(c, t, rs)

    print(f"rules_engine benchmark, Python {sys.version.split()[0]}, one core")
    m = _rate("meld counts (count_meld, with breakdown)", len(pairs), meld_full, args.seconds)
    _rate("meld totals (meld_total on count arrays)", len(counts), meld_fast, args.seconds)

    outcomes = ["played"] * 6 + ["surrender", "no_marriage", "renege", "misdeal"]
    seats, suits = list(Seat), list(Suit)
    parsed: list[tuple[Hand, object]] = []
    for i in range(1000):
        ruleset = rs if i % 2 else club
        ns = rng.randrange(0, 51)
        outcome = outcomes[i % len(outcomes)]
        every = {
            "dealer": seats[i % 4],
            "bidder": seats[(i + 1) % 4],
            "bid": rng.choice([50, 51, 52, 55, 60, 65, 70]),
            "trump": suits[i % 4],
            "meld": {Side.NS: rng.choice([0, 12, 24, 36]), Side.EW: rng.choice([0, 18, 20, 32])},
            "counters": {Side.NS: ns, Side.EW: 50 - ns},
            "renege_seat": seats[i % 4],
        }
        # each outcome carries its own fields; any other is an input error
        carried = fields_for(outcome, ruleset)
        data = {"outcome": outcome, **{k: v for k, v in every.items() if k in carried}}
        parsed.append((parse_hand(data, ruleset), ruleset))
    typed = [(h, r) for h, r in parsed if isinstance(r, type(rs))]

    def scores() -> None:
        for h, r in typed:
            score_hand(h, r)  # type: ignore[arg-type]

    s = _rate("hand scores (score_hand on parsed hands)", len(typed), scores, args.seconds)

    deals = []
    for _ in range(20):
        dealt = _deal(rng)
        trump = rng.randrange(4)
        deals.append(
            (
                suits[trump],
                {seat: [card_str(c) for c in dealt[k]] for k, seat in enumerate(Seat)},
                _play_out(dealt, trump, rng),
            )
        )

    def plays() -> None:
        for trump_s, hmap, tricks in deals:
            check_play(trump_s, Seat.N, hmap, tricks, rs)

    p = _rate("play validations (whole 20-trick deals)", len(deals), plays, args.seconds)
    print(f"{'  = cards checked':<44} {p * 80:>12,.0f} /s")
    ok = m >= 50_000 and s >= 200_000
    print(f"targets (50,000 meld counts/s, 200,000 hand scores/s): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
