"""Recompute the most meld a partnership can show under every preset, with the deal that shows it.

    python bench/side_meld.py

The rules engine checks an entered side meld against this maximum (``max_side_meld``); for the
presets it reads the figure from ``rules_engine/_meld_data.py``. This script runs the enumeration
again (``rules_engine.meld.side_meld_witness``: every pair of meld signatures whose cards fit in
one deck, best first), prints each maximum with the two hands that reach it, and checks that those
hands are real (full size, no card more often than the deck holds it) and meld exactly that much.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_engine import PRESET_NAMES, get_ruleset, max_side_meld, meld_total  # noqa: E402
from rules_engine.cards import SUITS, card_str  # noqa: E402
from rules_engine.meld import side_meld_witness  # noqa: E402


def _cards(counts: list[int]) -> str:
    return " ".join(card_str(c) for c, n in enumerate(counts) for _ in range(n))


def main() -> int:
    failed = 0
    for name in PRESET_NAMES:
        for scale in (1, 10):
            rs = get_ruleset(name, {"scale": scale})
            start = time.perf_counter()
            witness = side_meld_witness(rs)
            took = time.perf_counter() - start
            if witness is None:
                print(f"{name} x{scale}: a side is one player; one hand's best is "
                      f"{max_side_meld(rs)}")
                continue
            best, trump, one, two = witness
            real = (
                sum(one) == sum(two) == rs.hand_size
                and all(a + b <= rs.copies for a, b in zip(one, two, strict=True))
                and meld_total(one, trump, rs) + meld_total(two, trump, rs) == best
                and best == max_side_meld(rs)
            )
            failed += not real
            print(f"{name} x{scale}: side maximum {best} ({took:.2f}s), trump {SUITS[trump]}"
                  f"{'' if real else '  MISMATCH'}")
            print(f"    {meld_total(one, trump, rs):>5}  {_cards(one)}")
            print(f"    {meld_total(two, trump, rs):>5}  {_cards(two)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
