"""Pinochle rules engine: pure Python, no Django, standard library only.

Everything the rules decide is decided here, once: card parsing, rulesets (presets plus validated
overrides), meld counting, entry validation, hand scoring, the auction, trick-play legality and the
end of a game. The web app calls these functions and stores what they return.

Vocabulary (DESIGN §2)
----------------------
seat
    ``N``, ``E``, ``S``, ``W``, clockwise; N/S and E/W are partners.
side
    A partnership at a table, ``NS`` or ``EW``. In three-player games each player is a side.
hand (deal)
    One deal of the cards: bidding, meld, play, count. A :class:`Hand` is a deal as entered:
    dealer, bidder, bid, trump, meld and counters per side, and its outcome (``played``,
    ``no_marriage``, ``surrender``, ``renege``, ``misdeal``).
bid, contract, declarer, declaring side
    The winning bid is the contract; its maker is the declarer, their side the declaring side.
meld
    Points for card combinations in one player's hand, added per side. Classes: I runs and
    marriages (and dix), II pinochles, III arounds. A card may serve once per class.
counters
    A, 10, K taken in tricks plus the last-trick bonus (double deck: 48 + 2 = 50 a hand; single
    deck at ×10 scale: 250).
set, board set, surrender, renege, misdeal
    A set is a failed contract; a board set is a set without play (no marriage in trump, or too
    little meld); a surrender is a throw-in before play; a renege an illegal play; a misdeal voids
    the deal.
game, bid-and-out, slide-out
    Hands until a side reaches the target (or a fixed number of deals). Bid-and-out: when more
    than one side passes the target on the same hand the declaring side wins; in cutthroat it is
    the only way out. Slide-out: in bid-out games, a side over the target wins when its opponents
    have been set a given number of times.

Three-player seats
------------------
The three-player presets (``three_handed``, ``cutthroat``) seat the players at ``N``, ``E`` and
``S`` (clockwise, so ``S`` deals to ``N`` next) and every seat is its own side: meld, counters and
points are keyed ``"N"``, ``"E"``, ``"S"``.

Entry points
------------
``get_ruleset(name, overrides)``, ``list_rulesets()``, ``parse_cards(tokens)``,
``count_meld(cards, trump, ruleset)``, ``check_meld_total(total, ruleset)``,
``parse_hand(data, ruleset)``, ``score_hand(hand, ruleset)``,
``validate_auction(dealer, calls, ruleset)``,
``check_play(trump, leader, hands, tricks, ruleset)``,
``score_game(hands, ruleset, max_deals=None)``; all raise :class:`RulesError` (a list of
:class:`FieldError`) on bad input. The command line is ``python -m rules_engine --help``.
"""

from __future__ import annotations

from .auction import AuctionResult, Call, validate_auction
from .cards import Deck, card_str, parse_card, parse_cards, parse_suit
from .errors import FieldError, RulesError
from .game import GameResult, score_game
from .meld import Meld, MeldResult, check_meld_total, count_meld, max_side_meld, meld_total
from .misdeal import is_misdeal
from .play import PlayResult, Renege, check_play, legal_cards, trick_winner
from .rulesets import DEFAULT_RULESET, PRESET_NAMES, Ruleset, get_ruleset, list_rulesets
from .scoring import Hand, HandScore, Outcome, Result, parse_hand, score_hand

__all__ = [
    "AuctionResult",
    "Call",
    "DEFAULT_RULESET",
    "Deck",
    "FieldError",
    "GameResult",
    "Hand",
    "HandScore",
    "Meld",
    "MeldResult",
    "Outcome",
    "PRESET_NAMES",
    "PlayResult",
    "Renege",
    "Result",
    "RulesError",
    "Ruleset",
    "card_str",
    "check_meld_total",
    "check_play",
    "count_meld",
    "get_ruleset",
    "is_misdeal",
    "legal_cards",
    "list_rulesets",
    "max_side_meld",
    "meld_total",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_suit",
    "score_game",
    "score_hand",
    "trick_winner",
    "validate_auction",
]
