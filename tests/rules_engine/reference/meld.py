"""Meld written from the rule texts, per game, for the presets of tables of two, three, five,
six and eight: one player's cards and trump in, the meld total out (and whether a meld there is
"the game"). It never reads the engine's meld tables: the values are the texts' own.

How cards are counted (pagat's double-deck page, the encyclopedia's "headings"): a card may serve
in one meld of each class, never twice in one class. Class I, runs and marriages: as many runs as
the fewest of A 10 K Q J of trump; the trump kings and queens left over marry (royal marriages);
in every other suit as many marriages as the fewer of its kings and queens; each nine of trump is
a dix where the deck has nines that meld. Class II: as many pinochles as the fewer of Q♠ and J♦.
Class III: per rank, as many arounds as the fewest copies in any suit.

What each game's text gives:

* single deck (two-handed, three-handed, check): run 150, double run 1500; marriage in trump 40
  (80 twice), other marriage 20 (40 twice); dix 10 each; arounds 100/1000, 80/800, 60/600,
  40/400; pinochle 40, double 300. Two-handed: "some varieties" add a round-house bonus of 10
  (the option ``meld.round_house``) for kings and queens of each suit.
* double deck (pagat; five-handed deals it): run 15/150/225/300, royal marriage 4/8/12/16,
  marriage 2/4/6/8, pinochle 4/30/60/90, aces 10/100/150/200, kings 8/80/120/160,
  queens 6/60/90/120, jacks 4/40/60/80 (single/double/triple/quadruple).
* triple deck, six-handed: the double-deck rules; "the extra melds the triple pack allows do
  not count extra": five of a meld is a double and a triple (twenty aces: double aces and
  triple aces), six are two triples.
* eight-handed, two double decks: the four-handed double-deck values at ten times (the text's
  5,000 game); more than four of a meld is a quadruple and the rest; an optional 1,000 for a
  quadruple pinochle (``meld.quadruple_pinochle``).
* racehorse: once around 100 (kings 80, queens 60), twice around 1000 (800, 600) and the
  table's "4 of a kind" 1000 (800, 600): an around is worth no more beyond twice; jacks are not
  in the table and are counted like the others at 40/400 (the preset's choice, an option); tens
  and nines nothing. Marriage 20 outside trump (one by one: doubles are in trump only), in
  trump 40, double 300, triple 900, quadruple "the game"; pinochle 40, 300, 900, the game; run
  150, 300, 900, the game. The four nines added to the pack meld nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SUITS = "SHDC"
RANKS = "ATKQJ9"

SINGLE: dict[str, Any] = {
    "run": [150, 1500], "royal": [40, 80], "marriage": [20, 40], "pinochle": [40, 300],
    "A": [100, 1000], "K": [80, 800], "Q": [60, 600], "J": [40, 400], "dix": 10,
}  # fmt: skip
PAGAT: dict[str, Any] = {
    "run": [15, 150, 225, 300], "royal": [4, 8, 12, 16], "marriage": [2, 4, 6, 8],
    "pinochle": [4, 30, 60, 90], "A": [10, 100, 150, 200], "K": [8, 80, 120, 160],
    "Q": [6, 60, 90, 120], "J": [4, 40, 60, 80], "dix": 0,
}  # fmt: skip
# the game each preset plays, for its meld
GAME_OF = {
    "two_handed": "single",
    "three_handed": "single",
    "cutthroat": "single",
    "check_pinochle": "single",
    "single_deck_partnership": "single",
    "five_handed": "double",
    "six_handed_triple_deck": "triple",
    "eight_handed_double_deck": "eight",
    "racehorse": "racehorse",
}
GAME = "the game"


def counts(cards: Iterable[str]) -> dict[tuple[str, str], int]:
    """(rank, suit) -> copies held, from tokens like ``AS``, ``TS``, ``9C``."""
    out: dict[tuple[str, str], int] = {(r, s): 0 for r in RANKS for s in SUITS}
    for card in cards:
        out[card[0], card[1]] += 1
    return out


def _value(table: list[int], n: int) -> int:
    return table[n - 1] if n else 0


def _multiple(game: str, kind: str, n: int, options: dict[str, Any]) -> int | str:
    """What ``n`` of one meld are worth in a game (``GAME`` for "the game")."""
    if n == 0:
        return 0
    if game == "single":
        return _value(SINGLE[kind], n)
    if game == "double":
        return _value(PAGAT[kind], n)
    if game == "triple":
        values = PAGAT[kind]
        if n <= 4:
            return values[n - 1]
        return values[1] + values[2] if n == 5 else 2 * values[2]
    if game == "eight":
        values = [10 * v for v in PAGAT[kind]]
        if kind == "pinochle" and options["meld.quadruple_pinochle"]:
            values[3] = options["meld.quadruple_pinochle"]
        if n <= 4:
            return values[n - 1]
        return values[3] + values[n - 5]
    # racehorse
    if kind in ("A", "K", "Q", "J"):
        once = {"A": 100, "K": 80, "Q": 60, "J": 40}[kind]
        return once if n == 1 else 10 * once
    if kind == "marriage":
        return 20 * n
    if n >= 4:
        return GAME
    return {"royal": [40, 300, 900], "pinochle": [40, 300, 900], "run": [150, 300, 900]}[kind][
        n - 1
    ]


def meld(
    cards: Iterable[str], trump: str, preset: str, options: dict[str, Any]
) -> tuple[int, bool]:
    """(total, "the game") of one player's cards under a preset's game. A meld that is "the
    game" adds nothing to the total: the game is over."""
    game = GAME_OF[preset]
    c = counts(cards)
    parts: list[int | str] = []
    runs = min(c[r, trump] for r in "ATKQJ")
    parts.append(_multiple(game, "run", runs, options))
    parts.append(_multiple(game, "royal", min(c["K", trump], c["Q", trump]) - runs, options))
    for s in SUITS:
        if s != trump:
            parts.append(_multiple(game, "marriage", min(c["K", s], c["Q", s]), options))
    if game == "single":
        parts.append(SINGLE["dix"] * c["9", trump])
    parts.append(_multiple(game, "pinochle", min(c["Q", "S"], c["J", "D"]), options))
    for r in "AKQJ":
        parts.append(_multiple(game, r, min(c[r, s] for s in SUITS), options))
    if options.get("meld.round_house"):
        houses = min(min(c["K", s], c["Q", s]) for s in SUITS)
        parts.append(options["meld.round_house"] * houses)
    wins = GAME in parts
    return sum(p for p in parts if isinstance(p, int)), wins
