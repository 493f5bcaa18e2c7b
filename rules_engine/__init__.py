"""Pinochle rules engine: pure Python, no Django, standard library only.

Everything the rules decide is decided here, once: card parsing, rulesets (presets plus validated
overrides), meld counting, entry validation, hand scoring, the auction, trick-play legality and the
end of a game. The web app calls these functions and stores what they return.

Vocabulary (docs/architecture.md, "Words")
------------------------------------------
seat
    :class:`Seat` ``N``, ``E``, ``S``, ``W``, clockwise; N/S and E/W are partners. Tables of
    two, five, six and eight use the compass names of :data:`ALL_SEATS` (``NE``, ``SE``, ``SW``,
    ``NW`` as plain strings; see "Table shape").
side
    :class:`Side`, a partnership at a table, ``NS`` or ``EW``. In individual games each
    player is a side, written with the seat's name; other teams are named by their seats
    joined clockwise from N (``NESW``, ``NSESW``).
suit
    :class:`Suit` ``S``, ``H``, ``D``, ``C`` (spades, hearts, diamonds, clubs).
hand (deal)
    One deal of the cards: bidding, meld, play, count. A :class:`Hand` is a deal as entered:
    dealer, bidder, bid, trump, meld and counters per side, and its :class:`Outcome`
    (``played``, ``no_marriage``, ``surrender``, ``renege``, ``misdeal``,
    ``technical_misdeal``), which decides the fields it carries (:func:`fields_for`).
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
    little meld); a surrender is a throw-in before play (three-handed: forced when the declarer's
    meld plus every counter cannot reach the bid); a renege an illegal play; a misdeal voids the
    deal. The verdict on a scored hand is a :class:`Result`.
game, bid-and-out, slide-out
    Hands until a side reaches the target (or a fixed number of deals). Bid-and-out: when more
    than one side passes the target on the same hand the declaring side wins; in cutthroat it is
    the only way out. Slide-out: in bid-out games, a side over the target wins when its opponents
    have been set a given number of times. Pinochling: taking every trick wins the game at once
    (``all_tricks="wins_game"``).
checks
    Check pinochle's second tally beside the points (option ``checks``, preset
    ``check_pinochle``): melds such as a run or a roundtable earn checks, a declarer losing after
    looking at the widow loses some, the game's winner gains some; each check is paid by every
    other player (:mod:`rules_engine.checks`). :class:`HandScore` and :class:`GameResult` carry
    them only under that option.

Three-player seats
------------------
The three-player presets (``three_handed``, ``cutthroat``, ``check_pinochle``) seat the players at ``N``, ``E`` and
``S`` (clockwise, so ``S`` deals to ``N`` next) and every seat is its own side: meld, counters and
points are keyed ``"N"``, ``"E"``, ``"S"``.

Table shape
-----------
The ruleset is the one source of a table's shape: ``table_sizes`` (how many a table may seat),
``seats_for(n)``, ``sides_for(n)``, ``individual`` and ``side_size``. With the option
``sit_out="dealer"`` (the three-player presets' default) a table may seat one player more than
the hands dealt: at ``N``, ``E``, ``S``, ``W`` the dealer of each hand sits it out
(``sitting_out(seats, dealer)``), the hand names the three playing seats, and scores and game
totals are keyed by all four (the sitter-out 0). Pass the table's seats to ``parse_hand`` and
``score_game`` (``seats=``); the command line takes ``--seats N,E,S,W``.

Seats and sides per table size (``rules_engine.seats``; :data:`ALL_SEATS` lists every seat name,
none longer than two letters, and :data:`TABLE_SIZES` the sizes):

* 2: ``N``, ``S``, each its own side.
* 3: ``N``, ``E``, ``S``, each its own side.
* 4: ``N``, ``E``, ``S``, ``W``; ``NS`` v ``EW``.
* 5: ``N``, ``E``, ``SE``, ``SW``, ``W``, each its own side over the game (five-handed: the
  bidder's called partner joins the bidder for one hand).
* 6: ``N``, ``NE``, ``SE``, ``S``, ``SW``, ``NW`` (a hexagon, clockwise); teams of three sitting
  alternately, ``NSESW`` (N, SE, SW) v ``NESNW`` (NE, S, NW): every player sits between two
  opponents.
* 8: ``N``, ``NE``, ``E``, ``SE``, ``S``, ``SW``, ``W``, ``NW``; four pairs, partners opposite:
  ``NS``, ``NESW``, ``EW``, ``SENW``.

``seat_label`` and ``side_label`` give the words (``South-East``; ``North, South-East and
South-West``).

Labels
------
:class:`Seat`, :class:`Side`, :class:`Suit`, :class:`Outcome` and :class:`Result` are
``StrEnum`` classes: a member equals its JSON string, and its ``label`` is what people read
(``Seat.N.label == "North"``, ``Side.NS.label == "North–South"``, ``Suit.S.label == "spades"``,
``Outcome.NO_MARRIAGE.label == "No marriage in trump (board set)"``).

Entry points
------------
``get_ruleset(name, overrides)``, ``list_rulesets()``, ``parse_cards(tokens)``,
``count_meld(cards, trump, ruleset)``, ``check_meld_total(total, ruleset)``,
``fields_for(outcome, ruleset)``, ``needs_tricks(ruleset)``,
``parse_hand(data, ruleset, seats=None)``, ``score_hand(hand, ruleset)``,
``validate_auction(dealer, calls, ruleset)``,
``check_play(trump, leader, hands, tricks, ruleset)``,
``score_game(hands, ruleset, max_deals=None, seats=None)``; all raise :class:`RulesError` (a list of at
most 20 :class:`FieldError`, plus a note when there were more) on bad input, and never quote a
huge input value back. ``check_bid(bid, ruleset)`` returns a bid's problem, if any, and
``max_bid(ruleset)`` the highest bid a hand could make (the most meld a side can show plus every
counter). ``browser_rules(ruleset)`` is what the entry form's browser checks and scores a
typed hand with (static/js/hand_preview.js). The command line is ``python -m rules_engine --help``.
"""

from __future__ import annotations

from .auction import AuctionResult, Call, validate_auction
from .bids import check_bid, max_bid
from .cards import Deck, Suit, card_str, parse_card, parse_cards, parse_suit
from .errors import CoreError, FieldError, RulesError
from .game import GameResult, score_game
from .hands import Hand, Outcome, fields_for, needs_tricks, parse_hand
from .meld import Meld, MeldResult, check_meld_total, count_meld, max_side_meld, meld_total
from .play import PlayResult, Renege, check_play, legal_cards, trick_winner
from .preview import browser_rules
from .rulesets import DEFAULT_RULESET, PRESET_NAMES, Ruleset, get_ruleset, list_rulesets
from .scoring import HandScore, Result, score_hand
from .seats import ALL_SEATS, TABLE_SIZES, Seat, Side, seat_label, side_label

__all__ = [
    "ALL_SEATS",
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
    "CoreError",
    "Ruleset",
    "Seat",
    "Side",
    "Suit",
    "TABLE_SIZES",
    "browser_rules",
    "card_str",
    "check_bid",
    "check_meld_total",
    "check_play",
    "count_meld",
    "fields_for",
    "get_ruleset",
    "legal_cards",
    "list_rulesets",
    "max_bid",
    "max_side_meld",
    "meld_total",
    "needs_tricks",
    "parse_card",
    "parse_cards",
    "parse_hand",
    "parse_suit",
    "score_game",
    "score_hand",
    "seat_label",
    "side_label",
    "trick_winner",
    "validate_auction",
]
