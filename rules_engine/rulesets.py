"""Rulesets as data: named presets, every option overridable and validated.

The four-handed and three-player presets come first; the presets for tables of two, five, six
and eight (``two_handed``, ``six_handed_triple_deck``, ``eight_handed_double_deck``,
``racehorse``, ``five_handed``) follow in their own block (``_BIG_TABLES``). A preset's
``players`` is how many are dealt cards and its ``side_size`` how many play for one side (1:
each for themselves; 2 or 3: teams seated apart, rules_engine.seats).

A ruleset is a preset name plus overrides. ``get_ruleset("club_double_deck", {"game_target": 250})``
returns an immutable :class:`Ruleset` whose ``options`` is a plain JSON-serialisable dict of every
option value, so a caller can store ``(name, overrides)`` and rebuild the same ruleset later.

Point-valued options are stated at the preset's scale (×1 for double deck, ×10 for single deck).
Overriding ``scale`` rescales every point value of the preset first (run 150 → 15, counters 10 → 1,
target 1000 → 100, ...); any other override given at the same time is taken literally. Whole-number
options are capped at :data:`MAX_OPTION_VALUE`, far above any real game, so that an absurd value is
an error rather than a slow or broken game.

Three-player presets model the forced concession (``forced_concession``): a declarer whose meld
plus every counter in the deck is still short of the bid may not play the hand, so a hand entered
as played is scored as a concession.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .cards import RANKS, Deck
from .errors import FieldError, RulesError
from .i18n import Text, gettext_noop
from .inputs import key_text, shown
from .seats import table_seats, table_sides, table_teams

__all__ = [
    "Ruleset",
    "get_ruleset",
    "list_rulesets",
    "OPTION_HELP",
    "PRESET_NAMES",
    "DEFAULT_RULESET",
    "MAX_OPTION_VALUE",
]

DEFAULT_RULESET = "pagat_double_deck"

# Largest whole-number option value accepted: a thousand times a single-deck game target.
MAX_OPTION_VALUE = 1_000_000

MELD_KEYS = (
    "meld.run",
    "meld.royal_marriage",
    "meld.marriage",
    "meld.pinochle",
    "meld.aces",
    "meld.kings",
    "meld.queens",
    "meld.jacks",
)

# option name -> (kind, extra, point valued, help)
# kinds: int, int_or_null, bool, choice, meld_list, counter_values, bid_steps; extra: a choice's
# values, an int's least value, None for the other kinds
_SPEC: dict[str, tuple[str, tuple[str | int, ...] | int | None, bool, str]] = {
    "deck": ("choice", ("double", "single", "triple", "quadruple"), False,
             "double (80 cards, no nines), single (48), triple (120, no nines: six-handed) or "
             "quadruple (160, two double decks: eight-handed)"),
    "scale": ("choice", (1, 10), False, "1 (aces around = 10) or 10 (aces around = 100)"),
    "widow": ("int", 0, False, "cards left undealt for the declarer (three-handed: 3)"),
    "stock": ("int", 0, False,
              "cards not dealt at first that still end up in play and count in the counters "
              "(two-handed: the 24 drawn after the early tricks, or passed over while hands are "
              "built); the hand size is what each player melds from"),
    "meld.run": ("meld_list", None, True, "run in trump: single, double, triple, quadruple"),
    "meld.royal_marriage": ("meld_list", None, True, "K-Q of trump not used in a run"),
    "meld.marriage": ("meld_list", None, True, "K-Q of a suit other than trump"),
    "meld.pinochle": ("meld_list", None, True, "Q of spades with J of diamonds"),
    "meld.aces": ("meld_list", None, True, "an ace of each suit (aces around)"),
    "meld.kings": ("meld_list", None, True, "a king of each suit"),
    "meld.queens": ("meld_list", None, True, "a queen of each suit"),
    "meld.jacks": ("meld_list", None, True, "a jack of each suit"),
    "meld.dix": ("int", 0, True, "each nine of trump (single deck)"),
    "meld.quadruple_pinochle": ("int", 0, True,
                                "points for a quadruple pinochle (four queens of spades and four "
                                "jacks of diamonds) in place of meld.pinochle's fourth value; 0: "
                                "that value (eight-handed: the optional 1,000)"),
    "meld.round_house": ("int", 0, True,
                         "bonus for a marriage in every suit (round house, round table), per "
                         "round house held, on top of its marriages and kings and queens "
                         "around (0: none; two-handed varieties give 10 at scale 10: 250 in all)"),
    "meld.run_extra": ("int", 0, True,
                       "each extra king or queen of trump beside a run, not paired in a royal "
                       "marriage (0: nothing; the encyclopedia gives 20 or 40)"),
    "quadruple_run_wins": ("bool", None, False, "a quadruple run wins the game outright"),
    "quadruple_melds_win": ("bool", None, False,
                            "a quadruple marriage in trump or a quadruple pinochle wins the game "
                            "too, like a quadruple run (racehorse: \"the game\"); needs "
                            "quadruple_run_wins"),
    "nines_added": ("int", 0, False,
                    "nines added to a pack without nines so the deal comes out even, one of each "
                    "suit per four (racehorse: 4, for six hands of 20 and a blind of 4); they meld "
                    "and count nothing"),
    "forced_opening": ("bool", None, False,
                       "the player at the dealer's left opens at min_bid without a choice (the "
                       "auction's first call is made for them: racehorse's automatic 500)"),
    "called_partner": ("bool", None, False,
                       "the bidder calls a card of trump and the first other player holding it is "
                       "the bidder's partner for the hand; everyone else plays alone against them "
                       "(five-handed). A hand names the partner (the bidder, if they hold the card "
                       "themselves) and gives meld and counters per player"),
    "partner_scores": ("choice", ("team", "nothing"), False,
                       "called_partner games: team: the called partner scores what the bidder "
                       "does (the team's meld and counters, or the set); nothing: only the "
                       "bidder scores the contract, the partner helped"),
    "pass_cards": ("int", 0, False,
                   "cards each of the bidder's partners passes to the bidder after trump is "
                   "named (racehorse passing; 0: none). Recorded for the rules page: meld and "
                   "counters are entered after the pass, so scoring is the same"),
    "counter_values": ("counter_values", None, True, "points per card taken in tricks, by rank"),
    "last_trick": ("int", 0, True, "bonus for winning the last trick"),
    "min_bid": ("int", 1, True, "lowest opening bid"),
    "bid_step": ("int", 1, True, "bid increment from the opening bid"),
    "bid_steps": ("bid_steps", None, True, "[[from, step], ...]: larger steps from higher bids"),
    "dealer_stuck": ("int_or_null", 1, True, "if all others pass the dealer must bid this; null: redeal"),
    "dealer_opens_lower": ("bool", None, False,
                           "when all others pass, the dealer may open one step below min_bid"),
    "trump_marriage_required": ("bool", None, False, "declarer must hold a marriage in trump"),
    "board_set_opponents": ("choice", ("nothing", "meld"), False,
                            "what the opponents score when the declarer has no trump marriage"),
    "min_meld": ("int", 0, True, "a side's meld counts only if at least this"),
    "min_counters": ("int", 0, True,
                     "a side must take this many counters to score; the declaring side is set"),
    "min_counters_declarer": ("bool", None, False,
                              "min_counters holds the declaring side too, which is set with "
                              "fewer (off: only the other sides need it to score, and the "
                              "declaring side makes its bid on meld plus count; racehorse)"),
    "short_meld": ("choice", ("play", "set"), False,
                   "declaring side under min_meld: play on, or set without play"),
    "meld_needs_trick": ("bool", None, False, "a player must take a trick to save meld"),
    "forced_concession": ("bool", None, False,
                          "a declarer whose meld plus every counter cannot reach the bid must "
                          "concede: a played hand is scored as a concession (three-handed)"),
    "set_keeps_meld": ("bool", None, False,
                       "a declaring side set in play still scores its meld (less the set)"),
    "set_policy": ("choice",
                   ("subtract_bid", "opponents_gain_bid", "subtract_bid_and_meld", "double_bid"),
                   False, "what a set costs"),
    "surrender_policy": ("choice", ("nothing", "meld", "meld_plus_bonus"), False,
                         "what the opponents score when the declaring side throws in"),
    "surrender_bonus": ("int", 0, True, "points for cards the opponents get on a throw-in"),
    "renege_declarer": ("choice", ("set", "set_bonus", "double_set"), False,
                        "declaring side reneges: set (opponents score meld and counters), "
                        "set_bonus (opponents meld + renege_bonus), double_set (twice the bid, "
                        "opponents meld)"),
    "renege_defender": ("choice", ("bid", "bid_and_meld"), False,
                        "a defender reneges: declaring side scores its bid (and meld); "
                        "the offender loses its meld and is set"),
    "renege_bonus": ("int", 0, True, "points for cards the opponents get after a renege"),
    "misdeal_rule": ("choice", ("none", "no_aces", "nines"), False,
                     "no_aces: 13+ non-counters and no aces; nines: 5+ nines"),
    "head_rule": ("choice", ("always", "trump_led"), False,
                  "must beat the trick: always (pagat), or only when trump is led (post-1945)"),
    "game_target": ("int_or_null", 1, True, "score that ends the game; null: play max_deals"),
    "target_exceed": ("bool", None, False,
                      "a side must pass game_target (score more than it), not just reach it"),
    "all_tricks": ("choice", ("nothing", "wins_game", "bonus"), False,
                   "a side that takes every trick: nothing special, wins the game at once "
                   "(whoever bid; \"pinochling\": a declarer may play for it even when the bid "
                   "cannot be made, and stops it by throwing in), or scores all_tricks_bonus on "
                   "top of the hand"),
    "all_tricks_bonus": ("int", 0, True, "points for taking every trick (all_tricks=bonus)"),
    "out_rule": ("choice", ("target", "bid_out"), False,
                 "target: reaching it wins; bid_out: only a declarer who makes the bid goes out"),
    "tie_rule": ("choice", ("declaring_side", "highest_score", "overtime"), False,
                 "several sides over the target on one hand"),
    "overtime_step": ("int", 1, True, "how far the target moves under tie_rule=overtime"),
    "slide_out": ("bool", None, False,
                  "bid_out games: a side at or over the target wins without bidding once the "
                  "others have failed their bids slide_out_sets times while it stayed there"),
    "slide_out_sets": ("int", 1, False, "sets needed for a slide-out"),
    "max_deals": ("int_or_null", 1, False, "game of a fixed number of deals (misdeals not counted)"),
    "sit_out": ("choice", ("none", "dealer"), False,
                "none: a table seats as many players as hands are dealt; dealer: a table may seat "
                "one player more, and the dealer of each hand sits it out (deals to the others, "
                "plays no cards, scores nothing that hand; three-player games only)"),
    "misdeal_redeal": ("choice", ("same_dealer", "next_dealer"), False,
                       "who deals after a technical misdeal (a player's call under misdeal_rule): "
                       "the same dealer again (the encyclopedia), or the next dealer"),
    # check pinochle: a second tally of checks beside the points (players who play alone only)
    "checks": ("bool", None, False,
               "keep checks beside the points (check pinochle): melds, losses and the game earn "
               "or cost checks; each check a player gains, every other player owes them a stake"),
    "checks.run": ("int", 0, False, "checks for a run (flush) in trump"),
    "checks.double_run": ("int", 0, False,
                          "checks for a double run (the text is silent: 2 counts each run)"),
    "checks.aces": ("int", 0, False, "checks for aces around"),
    "checks.roundtable": ("int", 0, False, "checks for a roundtable (a marriage in each suit)"),
    "checks.double_marriage": ("int", 0, False,
                               "checks for each suit holding two marriages (0: not counted)"),
    "checks.double_pinochle": ("int", 0, False, "checks for a double pinochle (0: not counted)"),
    "checks.double_around": ("int", 0, False,
                             "checks for each of double aces, kings, queens or jacks "
                             "(0: not counted)"),
    "checks.doubles": ("choice", ("replace", "add"), False,
                       "double aces: its checks replace the aces check (replace), or come on top "
                       "of it (add); the text does not say"),
    "checks.seven_nines": ("int", 0, False,
                           "checks for holding seven nines, bidder or not (the text: 5 or 10; "
                           "0: not counted)"),
    "checks.lose_looked": ("int", 0, False,
                           "checks the declarer loses for losing a hand after looking at the "
                           "widow (talon), by conceding or by playing"),
    "checks.lose_played": ("int", 0, False,
                           "checks the declarer loses on top for playing the hand and losing "
                           "(0: not counted)"),
    "checks.game": ("int", 0, False, "checks for winning the game (the text: 5 or 10)"),
    "checks.meld_saved_only": ("bool", None, False,
                               "meld checks only for a player who saved the meld (took a trick "
                               "where meld needs one); off: kept whatever happens, as the text "
                               "keeps them on a set or a throw-in"),
}  # fmt: skip

OPTION_HELP: dict[str, str] = {k: v[3] for k, v in _SPEC.items()}

# words people use for the same choice
_ALIASES: dict[tuple[str, str], str] = {
    ("head_rule", "pagat"): "always",
    ("head_rule", "pre_1945"): "always",
    ("head_rule", "post_1945"): "trump_led",
    ("set_policy", "progressive"): "opponents_gain_bid",
    ("set_policy", "double_set"): "double_bid",
    ("tie_rule", "bid_and_out"): "declaring_side",
    ("tie_rule", "play_another_hand"): "highest_score",
    ("out_rule", "bid_and_out"): "bid_out",
    ("renege_declarer", "double"): "double_set",
    ("all_tricks", "pinochling"): "wins_game",
    ("all_tricks", "pinochle"): "wins_game",
}

_COUNT_METHODS: dict[str, tuple[dict[str, int], int]] = {
    "classic": ({"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}, 10),
    "fives": ({"A": 10, "T": 10, "K": 5, "Q": 5, "J": 0, "9": 0}, 10),
    "tens": ({"A": 10, "T": 10, "K": 10, "Q": 0, "J": 0, "9": 0}, 10),
    "ones": ({"A": 1, "T": 1, "K": 1, "Q": 0, "J": 0, "9": 0}, 1),
}

# no checks: every preset but check_pinochle
_CHECKS_OFF: dict[str, Any] = {
    "checks": False,
    "checks.run": 0,
    "checks.double_run": 0,
    "checks.aces": 0,
    "checks.roundtable": 0,
    "checks.double_marriage": 0,
    "checks.double_pinochle": 0,
    "checks.double_around": 0,
    "checks.doubles": "replace",
    "checks.seven_nines": 0,
    "checks.lose_looked": 0,
    "checks.lose_played": 0,
    "checks.game": 0,
    "checks.meld_saved_only": False,
}

_DOUBLE_BASE: dict[str, Any] = {
    "deck": "double",
    "scale": 1,
    "widow": 0,
    "stock": 0,
    "meld.run": [15, 150, 225, 300],
    "meld.royal_marriage": [4, 8, 12, 16],
    "meld.marriage": [2, 4, 6, 8],
    "meld.pinochle": [4, 30, 60, 90],
    "meld.aces": [10, 100, 150, 200],
    "meld.kings": [8, 80, 120, 160],
    "meld.queens": [6, 60, 90, 120],
    "meld.jacks": [4, 40, 60, 80],
    "meld.dix": 0,
    "meld.quadruple_pinochle": 0,
    "meld.round_house": 0,
    "meld.run_extra": 0,
    "quadruple_run_wins": False,
    "quadruple_melds_win": False,
    "nines_added": 0,
    "forced_opening": False,
    "pass_cards": 0,
    "called_partner": False,
    "partner_scores": "team",
    "counter_values": {"A": 1, "T": 1, "K": 1, "Q": 0, "J": 0, "9": 0},
    "last_trick": 2,
    "min_bid": 50,
    "bid_step": 1,
    "bid_steps": [[60, 5]],
    "dealer_stuck": 50,
    "dealer_opens_lower": False,
    "trump_marriage_required": True,
    "board_set_opponents": "nothing",
    "min_meld": 0,
    "min_counters": 0,
    "min_counters_declarer": True,
    "short_meld": "play",
    "meld_needs_trick": False,
    "forced_concession": False,
    "set_keeps_meld": False,
    "set_policy": "subtract_bid",
    "surrender_policy": "meld",
    "surrender_bonus": 0,
    "renege_declarer": "set",
    "renege_defender": "bid",
    "renege_bonus": 0,
    "misdeal_rule": "no_aces",
    "head_rule": "always",
    "game_target": 500,
    "target_exceed": False,
    "all_tricks": "nothing",
    "all_tricks_bonus": 25,
    "out_rule": "target",
    "tie_rule": "declaring_side",
    "overtime_step": 250,
    "slide_out": False,
    "slide_out_sets": 3,
    "max_deals": None,
    "sit_out": "none",
    "misdeal_redeal": "same_dealer",
    **_CHECKS_OFF,
}

_SINGLE_BASE: dict[str, Any] = {
    **_DOUBLE_BASE,
    "deck": "single",
    "scale": 10,
    "meld.run": [150, 1500],
    "meld.royal_marriage": [40, 80],
    "meld.marriage": [20, 40],
    "meld.pinochle": [40, 300],
    "meld.aces": [100, 1000],
    "meld.kings": [80, 800],
    "meld.queens": [60, 600],
    "meld.jacks": [40, 400],
    "meld.dix": 10,
    "counter_values": {"A": 10, "T": 10, "K": 10, "Q": 0, "J": 0, "9": 0},
    "last_trick": 10,
    "min_bid": 150,
    "bid_step": 10,
    "bid_steps": [],
    "dealer_stuck": None,
    "trump_marriage_required": False,
    "board_set_opponents": "meld",
    "renege_declarer": "double_set",
    "renege_defender": "bid_and_meld",
    "misdeal_rule": "nines",
    "game_target": 1000,
    "all_tricks_bonus": 250,
}

_PRESETS: dict[str, dict[str, Any]] = {
    "pagat_double_deck": {
        "title": gettext_noop("Double-deck partnership pinochle (pagat)"),
        "seed": "pagat-double-deck.txt (pagat's Double Deck Pinochle page)",
        "players": 4,
        "options": dict(_DOUBLE_BASE),
    },
    "club_double_deck": {
        "title": gettext_noop("Double-deck partnership pinochle (club rule sheet)"),
        "seed": "club-double-deck-rules.txt (a club's double-deck rule sheet)",
        "players": 4,
        "options": {
            **_DOUBLE_BASE,
            "meld.run": [15, 150, 300, 0],
            "meld.pinochle": [4, 30, 90, 300],
            "meld.aces": [10, 100, 200, 300],
            "meld.kings": [8, 80, 160, 240],
            "meld.queens": [6, 60, 120, 180],
            "meld.jacks": [4, 40, 80, 120],
            "quadruple_run_wins": True,
            "board_set_opponents": "meld",
            "min_meld": 20,
            "min_counters": 20,
            "surrender_policy": "meld_plus_bonus",
            "surrender_bonus": 20,
            "renege_declarer": "set_bonus",
            "renege_bonus": 20,
        },
    },
    "npa_double_deck": {
        "title": gettext_noop("Double-deck partnership pinochle (NPA tournament values)"),
        "seed": "pagat-double-deck.txt (pagat's notes on NPA meld values and the minimum-20 rule)",
        "players": 4,
        "options": {
            **_DOUBLE_BASE,
            "meld.run": [25, 150, 225, 300],
            "meld.pinochle": [15, 30, 60, 90],
            "min_meld": 20,
            "min_counters": 20,
            "short_meld": "set",
        },
    },
    "single_deck_partnership": {
        "title": gettext_noop("Four-handed partnership auction pinochle (single deck)"),
        "seed": "wikipedia-pinochle-current.txt / wikipedia-pinochle-2009.txt (encyclopedia)",
        "players": 4,
        "options": dict(_SINGLE_BASE),
    },
    "three_handed": {
        "title": gettext_noop("Three-handed auction pinochle with a widow (single deck)"),
        "seed": "wikipedia-pinochle-current.txt / wikipedia-pinochle-2009.txt (encyclopedia)",
        "players": 3,
        "options": {
            **_SINGLE_BASE,
            "widow": 3,
            "min_bid": 300,
            "meld_needs_trick": True,
            "forced_concession": True,
            "sit_out": "dealer",
        },
    },
    "cutthroat": {
        "title": gettext_noop("Cutthroat pinochle: three players, no widow, bid-and-out only"),
        "seed": "wikipedia-pinochle-current.txt (encyclopedia, cutthroat)",
        "players": 3,
        "options": {
            **_SINGLE_BASE,
            "min_bid": 300,
            "meld_needs_trick": True,
            "forced_concession": True,
            "out_rule": "bid_out",
            "sit_out": "dealer",
        },
    },
    # --- check pinochle (checks beside the points) ---
    "check_pinochle": {
        "title": gettext_noop("Check pinochle: three-handed to 1,000, with checks"),
        "seed": "wikipedia-pinochle-2009.txt / wikipedia-pinochle-current.txt (encyclopedia, check)",
        "players": 3,
        "options": {
            **_SINGLE_BASE,
            "widow": 3,
            "min_bid": 300,
            "meld_needs_trick": True,
            "forced_concession": True,
            "sit_out": "dealer",
            "checks": True,
            "checks.run": 1,
            "checks.double_run": 2,
            "checks.aces": 1,
            "checks.roundtable": 2,
            "checks.double_marriage": 1,
            "checks.double_pinochle": 1,
            "checks.double_around": 2,
            "checks.seven_nines": 5,
            "checks.lose_looked": 1,
            "checks.lose_played": 1,
            "checks.game": 5,
        },
    },
}


# --- tables of two, five, six and eight (rules_engine.seats) ---------------------------------
# What the texts leave open, as chosen here (each an option a club may override):
# * two_handed: the bidding variant (hands of 12 built or dealt, the other 24 cards drawn or
#   discarded: ``stock``), meld from one 12-card hand, 250 counters with the last trick; the
#   opening minimum is the single-deck partnership one (150); ``meld.round_house`` is off (10 on).
# * six_handed_triple_deck: pagat's double-deck values; five and six of a meld count as a triple
#   plus the rest (the text's twenty aces: triple and double aces); bids step by 5 from 75.
# * eight_handed_double_deck: two double decks (160 cards, 20 each), pagat's values at ten
#   times, five to eight of a meld counted as the quadruple plus the rest.
# * racehorse: a triple deck and four nines (one of each suit) make 6 x 20 + 4; two teams of
#   three seated alternately; jacks around at 40/400 (the text's table leaves them out); twice
#   around and the table's "4 of a kind" are both 1000, so an around is worth no more beyond
#   twice; a quadruple (or more) run, royal marriage or pinochle is "the game" (entered as
#   ``quadruple_run``); bids in tens; the 10-count minimum (``min_counters``) holds the other
#   team only (``min_counters_declarer`` off); game to 5,000.
# * five_handed: the double deck deals 16 each with nothing to add or withhold; the partner
#   scores the team's points (``partner_scores``); totals are kept per player.


def _split_beyond(values: Sequence[int], copies: int, at: int) -> list[int]:
    """A meld list for a bigger pack: ``values`` up to ``at`` copies as given, and each larger
    multiple counted as that many ``at``-fold melds plus the rest (``at=3``: five aces are
    triple plus double aces, six two triples), so the extra copies add no new meld value."""
    out = list(values[:at])
    for n in range(at + 1, copies + 1):
        whole, rest = divmod(n, at)
        out.append(whole * out[at - 1] + (out[rest - 1] if rest else 0))
    if at < len(values):
        # the listed values above ``at`` stand (a quadruple keeps its own value)
        for n in range(at + 1, min(len(values), copies) + 1):
            out[n - 1] = values[n - 1]
    return out


_TRIPLE_MELD = {k: _split_beyond(_DOUBLE_BASE[k], 6, 3) for k in MELD_KEYS}

_BIG_TABLES: dict[str, dict[str, Any]] = {
    "six_handed_triple_deck": {
        "title": gettext_noop("Six-handed triple-deck pinochle: two teams of three, 120 cards"),
        "seed": "wikipedia-pinochle-current.txt (encyclopedia, triple-deck six-handed)",
        "players": 6,
        "side_size": 3,
        "options": {
            **_DOUBLE_BASE,
            "deck": "triple",
            **_TRIPLE_MELD,
            "min_bid": 75,
            "dealer_stuck": 75,
            "last_trick": 3,
        },
    },
    "two_handed": {
        "title": gettext_noop("Two-handed auction pinochle: 12 cards each and a stock of 24 (single deck)"),
        "seed": "wikipedia-pinochle-2009.txt / wikipedia-pinochle-current.txt (two-handed)",
        "players": 2,
        "options": {
            **_SINGLE_BASE,
            "stock": 24,
        },
    },
}


def _scaled(options: dict[str, Any], scale: int) -> dict[str, Any]:
    """``options`` with every point value put on ``scale`` (the base presets' values times 10)."""
    out = copy.deepcopy(options)
    k = scale // out["scale"]
    for name, (kind, _, pointy, _) in _SPEC.items():
        v = out.get(name)
        if not pointy or v is None:
            continue
        if kind == "meld_list":
            out[name] = [x * k for x in v]
        elif kind == "counter_values":
            out[name] = {r: x * k for r, x in v.items()}
        elif kind == "bid_steps":
            out[name] = [[a * k, b * k] for a, b in v]
        else:
            out[name] = v * k
    out["scale"] = scale
    return out


_DOUBLE_X10 = _scaled(_DOUBLE_BASE, 10)

_BIG_TABLES["eight_handed_double_deck"] = {
    "title": gettext_noop("Eight-handed pinochle: two double decks, four teams of two"),
    "seed": "wikipedia-pinochle-2009.txt / wikipedia-pinochle-current.txt (eight-player "
    "double deck)",
    "players": 8,
    "side_size": 2,
    "options": {
        **_DOUBLE_X10,
        "deck": "quadruple",
        **{k: _split_beyond(_DOUBLE_X10[k], 8, 4) for k in MELD_KEYS},
        "game_target": 5000,
    },
}


def _racehorse_around(single: int, twice: int) -> list[int]:
    """Racehorse arounds on six copies: once around ``single``, twice around ``twice``, and the
    text's "4 of a kind" the same ``twice`` again: an around is worth no more beyond twice (three
    to six of each suit count ``twice``)."""
    return [single] + [twice] * 5


# "the game": a quadruple (or more) wins the game (quadruple_melds_win); its points are the triple's
_RACEHORSE_TRUMP = {
    "meld.run": [150, 300, 900, 900, 900, 900],
    "meld.royal_marriage": [40, 300, 900, 900, 900, 900],
    "meld.pinochle": [40, 300, 900, 900, 900, 900],
}

_BIG_TABLES["racehorse"] = {
    "title": gettext_noop("Racehorse pinochle: six players in two teams, 20 cards each and a blind of 4"),
    "seed": "wikipedia-pinochle-2009.txt / wikipedia-pinochle-current.txt (racehorse)",
    "players": 6,
    "side_size": 3,
    "options": {
        **_DOUBLE_X10,
        "deck": "triple",
        "nines_added": 4,
        "widow": 4,
        **_RACEHORSE_TRUMP,
        # only trump marriages go double and higher: other marriages count one by one
        "meld.marriage": [20 * n for n in range(1, 7)],
        "meld.aces": _racehorse_around(100, 1000),
        "meld.kings": _racehorse_around(80, 800),
        "meld.queens": _racehorse_around(60, 600),
        # jacks are not in the text's table: counted like the other arounds, at 40 and 400
        "meld.jacks": _racehorse_around(40, 400),
        "quadruple_run_wins": True,
        "quadruple_melds_win": True,
        "counter_values": {"A": 10, "T": 10, "K": 10, "Q": 0, "J": 0, "9": 0},
        "last_trick": 10,
        "min_bid": 500,
        "bid_step": 10,
        "bid_steps": [],
        "forced_opening": True,
        "dealer_stuck": None,
        "trump_marriage_required": False,
        "min_counters": 10,
        # the text holds only "the other team" to 10 in the count
        "min_counters_declarer": False,
        "set_policy": "subtract_bid",
        "game_target": 5000,
    },
}

_BIG_TABLES["five_handed"] = {
    "title": gettext_noop("Five-handed pinochle: a called partner each hand (double deck, 16 cards each)"),
    "seed": "wikipedia-pinochle-2009.txt / wikipedia-pinochle-current.txt (five-handed and "
    "larger)",
    "players": 5,
    "options": {
        # the 80-card double deck deals evenly to five: no nines to add or withhold
        **_DOUBLE_BASE,
        "called_partner": True,
    },
}

_PRESETS.update(_BIG_TABLES)

PRESET_NAMES: tuple[str, ...] = tuple(_PRESETS)


def _opt_field(name: str) -> str:
    return f"options.{name}"


def _coerce_value(name: str, raw: object) -> object:
    """Turn a CLI string (``KEY=VALUE``) into JSON-ish data; other values pass through."""
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    try:
        return json.loads(text)
    except ValueError:
        pass
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", ""):
        return None
    kind = _SPEC[name][0] if name in _SPEC else ""
    if kind == "meld_list" and "," in text:
        parts = [p.strip() for p in text.split(",")]
        return [int(p) if p.lstrip("-").isdigit() else p for p in parts]
    if kind == "counter_values":
        out: dict[str, object] = {}
        for part in text.replace(";", ",").split(","):
            if "=" in part or ":" in part:
                k, _, v = part.replace(":", "=").partition("=")
                out[k.strip()] = int(v) if v.strip().lstrip("-").isdigit() else v.strip()
        return out
    if kind == "bid_steps":
        steps: list[object] = []
        for part in text.replace(";", ",").split(","):
            if ":" in part:
                a, _, b = part.partition(":")
                if a.strip().isdigit() and b.strip().isdigit():
                    steps.append([int(a), int(b)])
                    continue
            steps.append(part)
        return steps
    return text


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_type(name: str, value: object, copies: int) -> tuple[object, FieldError | None]:
    kind, extra, _, _ = _SPEC[name]
    field = _opt_field(name)
    if kind == "bool":
        if isinstance(value, bool):
            return value, None
        return value, FieldError(
            field, "bad_type", Text(gettext_noop("%(name)s must be true or false, got %(value)s"), name=name, value=shown(value))
        )
    if kind == "choice":
        assert isinstance(extra, tuple)
        if value is None and "none" in extra:
            # the word none, which a typed value reads as null
            return "none", None
        if value in extra and not isinstance(value, bool):
            return value, None
        if isinstance(value, str) and value.isdigit() and int(value) in extra:
            return int(value), None
        allowed = ", ".join(str(x) for x in extra)
        return value, FieldError(
            field, "bad_choice", Text(gettext_noop("%(name)s must be one of %(allowed)s, got %(value)s"), name=name, allowed=allowed, value=shown(value))
        )
    if kind in ("int", "int_or_null"):
        assert isinstance(extra, int)
        if value is None and kind == "int_or_null":
            return None, None
        if _is_int(value) and isinstance(value, int) and extra <= value <= MAX_OPTION_VALUE:
            return value, None
        return value, FieldError(
            field,
            "bad_type",
            Text(gettext_noop("%(name)s must be a whole number from %(extra)s to %(max_option_value)s, got %(value)s"), name=name, extra=extra, max_option_value=format(MAX_OPTION_VALUE, ','), value=shown(value)),
        )
    if kind == "meld_list":
        if (
            isinstance(value, list)
            and value
            and all(_is_int(x) and isinstance(x, int) and 0 <= x <= MAX_OPTION_VALUE for x in value)
        ):
            if len(value) != copies:
                return value, FieldError(
                    field,
                    "wrong_length",
                    Text(gettext_noop("%(name)s needs %(copies)s values (one for each number of copies, 1 to %(copies)s) for this deck, got %(count)s"), name=name, copies=copies, count=len(value)),
                )
            return list(value), None
        return value, FieldError(
            field, "bad_type", Text(gettext_noop("%(name)s must be a list of points per multiple, e.g. 15,150,225,300"), name=name)
        )
    if kind == "counter_values":
        if isinstance(value, Mapping):
            out: dict[str, int] = {r: 0 for r in RANKS}
            for k, v in value.items():
                key = key_text(k).upper()
                key = "T" if key == "10" else key
                if key not in out or not _is_int(v) or not 0 <= v <= MAX_OPTION_VALUE:
                    return value, FieldError(
                        field,
                        "bad_type",
                        Text(gettext_noop("counter_values: %(value)s=%(value2)s is not a rank with a points value"), value=shown(k), value2=shown(v)),
                    )
                out[key] = v
            return out, None
        return value, FieldError(
            field, "bad_type", Text(gettext_noop("counter_values must map ranks to points, e.g. A=1,T=1,K=1"))
        )
    if kind == "bid_steps":
        if isinstance(value, list) and all(
            isinstance(p, list | tuple)
            and len(p) == 2
            and all(_is_int(x) and 0 < x <= MAX_OPTION_VALUE for x in p)
            for p in value
        ):
            pairs = [[int(a), int(b)] for a, b in value]
            if any(pairs[i][0] >= pairs[i + 1][0] for i in range(len(pairs) - 1)):
                return value, FieldError(
                    field, "inconsistent", Text(gettext_noop("bid_steps must start at rising bids"))
                )
            return pairs, None
        return value, FieldError(
            field, "bad_type", Text(gettext_noop("bid_steps must be a list of [from, step] pairs, e.g. [[60, 5]]"))
        )
    raise AssertionError(kind)  # pragma: no cover


def _rescale(options: dict[str, Any], old: int, new: int) -> list[FieldError]:
    errors: list[FieldError] = []

    def conv(name: str, v: int) -> int:
        if (v * new) % old:
            errors.append(
                FieldError(
                    _opt_field(name),
                    "inconsistent",
                    Text(gettext_noop("%(name)s value %(v)s cannot be put on scale %(new)s; give the value yourself"), name=name, v=v, new=new),
                )
            )
        return v * new // old

    for name, (kind, _, pointy, _) in _SPEC.items():
        if not pointy or options.get(name) is None:
            continue
        v = options[name]
        if kind == "meld_list":
            options[name] = [conv(name, x) for x in v]
        elif kind == "counter_values":
            options[name] = {k: conv(name, x) for k, x in v.items()}
        elif kind == "bid_steps":
            options[name] = [[conv(name, a), conv(name, b)] for a, b in v]
        else:
            options[name] = conv(name, v)
    return errors


class Ruleset:
    """An immutable, validated ruleset. Build one with :func:`get_ruleset`."""

    __slots__ = (
        "name", "title", "seed", "players", "seats", "sides", "overrides", "options",
        "deck", "copies", "hand_size", "widow", "stock", "counters_total", "counter_values", "last_trick",
        "counter_unit", "dealer_lowest_bid",
        "game_target", "min_bid", "bid_step", "bid_steps", "dealer_stuck",
        "run_t", "royal_t", "marriage_t", "pinochle_t", "around_t", "dix", "round_house",
        "quadruple_melds_win", "nines_added", "forced_opening", "pass_cards", "deck_size",
        "called_partner", "partner_scores",
        "quadruple_run_wins", "trump_marriage_required", "board_set_opponents",
        "min_meld", "min_counters", "min_counters_declarer", "short_meld", "meld_needs_trick", "forced_concession",
        "run_extra", "set_keeps_meld", "dealer_opens_lower", "target_exceed", "all_tricks",
        "all_tricks_bonus", "set_policy",
        "surrender_policy", "surrender_bonus", "renege_declarer", "renege_defender",
        "renege_bonus", "misdeal_rule", "head_rule", "out_rule", "tie_rule", "overtime_step",
        "slide_out", "slide_out_sets", "max_deals", "sit_out", "table_sizes", "individual",
        "side_size", "_seat_side", "_next", "_absent", "_cache",
        "misdeal_redeal", "checks", "check_values",
    )  # fmt: skip

    name: str
    title: str
    seed: str
    players: int
    seats: tuple[str, ...]
    sides: tuple[str, ...]
    overrides: dict[str, Any]
    options: dict[str, Any]
    deck: Deck
    copies: int
    hand_size: int
    widow: int
    stock: int
    counters_total: int
    counter_values: tuple[int, ...]
    last_trick: int
    counter_unit: int
    dealer_lowest_bid: int | None
    game_target: int | None
    min_bid: int
    bid_step: int
    bid_steps: tuple[tuple[int, int], ...]
    dealer_stuck: int | None
    run_t: tuple[int, ...]
    royal_t: tuple[int, ...]
    marriage_t: tuple[int, ...]
    pinochle_t: tuple[int, ...]
    around_t: tuple[tuple[int, ...], ...]
    dix: int
    round_house: int
    quadruple_melds_win: bool
    nines_added: int
    forced_opening: bool
    pass_cards: int
    deck_size: int
    called_partner: bool
    partner_scores: str
    quadruple_run_wins: bool
    trump_marriage_required: bool
    board_set_opponents: str
    min_meld: int
    min_counters: int
    min_counters_declarer: bool
    short_meld: str
    meld_needs_trick: bool
    forced_concession: bool
    run_extra: int
    set_keeps_meld: bool
    dealer_opens_lower: bool
    target_exceed: bool
    all_tricks: str
    all_tricks_bonus: int
    set_policy: str
    surrender_policy: str
    surrender_bonus: int
    renege_declarer: str
    renege_defender: str
    renege_bonus: int
    misdeal_rule: str
    head_rule: str
    out_rule: str
    tie_rule: str
    overtime_step: int
    slide_out: bool
    slide_out_sets: int
    max_deals: int | None
    sit_out: str
    table_sizes: tuple[int, ...]
    individual: bool
    side_size: int
    _seat_side: dict[str, str]
    _next: dict[str, str]
    _absent: str | None
    _cache: dict[str, Any]
    misdeal_redeal: str
    checks: bool
    check_values: dict[str, int]

    def __init__(
        self,
        name: str,
        title: str,
        seed: str,
        players: int,
        options: dict[str, Any],
        overrides: dict[str, Any],
        side_size: int | None = None,
    ) -> None:
        if side_size is None:
            side_size = 2 if players == 4 else 1
        s = object.__setattr__
        s(self, "name", name)
        s(self, "title", title)
        s(self, "seed", seed)
        s(self, "players", players)
        seats = table_seats(players)
        s(self, "seats", seats)
        # individual games: every seat is its own side, written with the seat's name; teams are
        # named by their seats joined clockwise from N (rules_engine.seats.table_sides)
        s(self, "individual", side_size == 1)
        s(self, "side_size", side_size)
        sides = table_sides(players, side_size)
        s(self, "sides", sides)
        s(self, "sit_out", options["sit_out"])
        sizes = (players, players + 1) if options["sit_out"] == "dealer" else (players,)
        s(self, "table_sizes", sizes)
        # every seat of the largest table: W plays for itself at a three-player game's table of four
        widest = table_seats(sizes[-1])
        team = {
            x: side for side, members in zip(sides, table_teams(players, side_size), strict=True)
            for x in members
        }  # fmt: skip
        s(self, "_seat_side", {x: team.get(x, x) for x in widest})
        s(self, "_next", {x: seats[(i + 1) % len(seats)] for i, x in enumerate(seats)})
        s(self, "_absent", None)
        s(self, "overrides", copy.deepcopy(overrides))
        s(self, "options", copy.deepcopy(options))
        o = options
        deck = Deck(o["deck"])
        s(self, "deck", deck)
        s(self, "copies", deck.copies)
        s(self, "widow", o["widow"])
        s(self, "stock", o["stock"])
        s(self, "nines_added", o["nines_added"])
        # the cards dealt: the pack and any nines added to make the deal even
        s(self, "deck_size", deck.size + o["nines_added"])
        s(self, "hand_size", (self.deck_size - o["widow"] - o["stock"]) // players)
        cv = tuple(o["counter_values"][r] for r in RANKS)
        s(self, "counter_values", cv)
        s(self, "last_trick", o["last_trick"])
        per_copy = sum(cv[r] for r in range(len(deck.ranks))) * 4
        s(self, "counters_total", per_copy * deck.copies + o["last_trick"])
        # every counter total is a multiple of this (10 when cards and last trick count in tens)
        s(self, "counter_unit", math.gcd(*(cv[r] for r in range(len(deck.ranks))), o["last_trick"]))
        s(self, "game_target", o["game_target"])
        s(self, "min_bid", o["min_bid"])
        s(self, "bid_step", o["bid_step"])
        s(self, "bid_steps", tuple((a, b) for a, b in o["bid_steps"]))
        s(self, "dealer_stuck", o["dealer_stuck"])
        # the dealer's own opening when everybody else passed (dealer_opens_lower)
        lower = o["min_bid"] - _first_step(o) if o["dealer_opens_lower"] else None
        s(self, "dealer_lowest_bid", lower)
        s(self, "run_t", (0, *o["meld.run"]))
        s(self, "royal_t", (0, *o["meld.royal_marriage"]))
        s(self, "marriage_t", (0, *o["meld.marriage"]))
        pinochles = [0, *o["meld.pinochle"]]
        if o["meld.quadruple_pinochle"] and deck.copies >= 4:
            # the quadruple's own value, and each quadruple within more (eight pinochles in a
            # pack of eight copies: two quadruples)
            more = o["meld.quadruple_pinochle"] - pinochles[4]
            for n in range(4, deck.copies + 1):
                pinochles[n] += (n // 4) * more
        s(self, "pinochle_t", tuple(pinochles))
        s(
            self,
            "around_t",
            tuple((0, *o[k]) for k in ("meld.aces", "meld.kings", "meld.queens", "meld.jacks")),
        )
        s(self, "dix", o["meld.dix"])
        s(self, "round_house", o["meld.round_house"])
        for key in (
            "quadruple_melds_win", "forced_opening", "pass_cards", "called_partner",
            "partner_scores",
        ):  # fmt: skip
            s(self, key, o[key])
        s(self, "run_extra", o["meld.run_extra"])
        for key in (
            "quadruple_run_wins", "trump_marriage_required", "board_set_opponents", "min_meld",
            "min_counters", "min_counters_declarer", "short_meld", "meld_needs_trick", "forced_concession", "set_policy",
            "surrender_policy",
            "surrender_bonus", "renege_declarer", "renege_defender", "renege_bonus",
            "misdeal_rule", "head_rule", "out_rule", "tie_rule", "overtime_step", "slide_out",
            "slide_out_sets", "max_deals", "set_keeps_meld", "dealer_opens_lower", "target_exceed",
            "all_tricks", "all_tricks_bonus",
        ):  # fmt: skip
            s(self, key, o[key])
        s(self, "_cache", {})
        s(self, "misdeal_redeal", o["misdeal_redeal"])
        s(self, "checks", o["checks"])
        # check values by what earns them: run, aces, ... (the option name after "checks.")
        s(
            self,
            "check_values",
            {k[len("checks.") :]: v for k, v in o.items() if k.startswith("checks.") and _is_int(v)},
        )

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError(f"Ruleset is immutable (tried to set {key})")

    def __delattr__(self, key: str) -> None:
        raise AttributeError(f"Ruleset is immutable (tried to delete {key})")

    def __repr__(self) -> str:
        return f"Ruleset({self.name!r}, overrides={self.overrides!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.name == other.name and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.options, sort_keys=True)))

    # --- seats and sides -------------------------------------------------------------------
    def side_of(self, seat: str) -> str:
        """The side a seat plays for (``N`` → ``NS``; in three-player games the seat itself,
        ``W`` included where a fourth player sits out in turn)."""
        return self._seat_side[seat]

    def next_dealer(self, seat: str, seats: Sequence[str] | None = None) -> str:
        """The next seat clockwise: the deal passes to the dealer's left. ``seats``: the
        table's seats (default the ruleset's own), e.g. four at a table with a sitter-out."""
        if seats is None:
            return self._next[seat]
        table = self.seats_for(len(seats))
        return table[(table.index(seat) + 1) % len(table)]

    def seats_of(self, side: str) -> tuple[str, ...]:
        """The seats playing for a side (for an individual game's side, its one seat)."""
        return tuple(x for x, s in self._seat_side.items() if s == side)

    # --- the table's shape ------------------------------------------------------------------
    # ``players`` is how many are dealt cards; ``table_sizes`` how many a table may seat. With
    # ``sit_out="dealer"`` a three-player game may be played at a table of four: N, E, S, W
    # clockwise, and the dealer of each hand sits it out, so each player is a side of the game
    # (four totals) while every hand is a three-player hand among the other three.
    def seats_for(self, n: int) -> tuple[str, ...]:
        """The seats of a table of ``n`` players, clockwise from N; ValueError for a table the
        ruleset does not seat."""
        if n not in self.table_sizes or isinstance(n, bool):
            sizes = " or ".join(str(x) for x in self.table_sizes)
            raise ValueError(f"{self.name} seats {sizes} players at a table, not {n!r}")
        return table_seats(n)

    def sides_for(self, n: int) -> tuple[str, ...]:
        """The scoring sides at a table of ``n`` players: the teams, or every seat."""
        seats = self.seats_for(n)
        return tuple(seats) if self.individual else table_sides(n, self.side_size)

    def sitting_out(self, seats: Sequence[str], dealer: str) -> str | None:
        """The seat sitting out of a hand dealt by ``dealer`` at a table with these seats (None
        when everyone plays). ValueError for seats the ruleset does not seat or a dealer not
        among them."""
        table = self.seats_for(len(seats))
        if tuple(seats) != table:
            raise ValueError(f"a table of {len(seats)} sits at {', '.join(table)}, not {seats!r}")
        if dealer not in table:
            raise ValueError(f"the dealer {dealer!r} is not a seat at this table")
        return table[table.index(dealer)] if len(table) > self.players else None

    def playing_seats(self, seats: Sequence[str], dealer: str) -> tuple[str, ...]:
        """The seats dealt cards in a hand dealt by ``dealer``, clockwise from N."""
        off = self.sitting_out(seats, dealer)
        table = self.seats_for(len(seats))
        return tuple(x for x in table if x != off)

    def for_hand(self, seats: Sequence[str], dealer: str) -> Ruleset:
        """The ruleset as one hand sees it: itself when everyone plays, else the same rules
        with the playing seats as its seats (and sides, ``next_dealer``), so a three-player
        hand at a table of four is checked and scored in the table's own seat letters.

        Such a view is internal to parsing and scoring; it shares the memo of derived tables
        (they depend on the options only) and remembers the seat that sits out.
        """
        off = self.sitting_out(seats, dealer)
        if off is None:
            return self
        key = f"hand_view:{off}"
        view: Ruleset = self.memo(key, lambda: self._view(off))
        return view

    def _view(self, off: str) -> Ruleset:
        view = object.__new__(Ruleset)
        s = object.__setattr__
        for slot in Ruleset.__slots__:
            s(view, slot, getattr(self, slot))
        playing = tuple(x for x in self.seats_for(self.players + 1) if x != off)
        s(view, "seats", playing)
        s(view, "sides", playing)
        s(view, "_seat_side", {x: x for x in playing})
        s(view, "_next", {x: playing[(i + 1) % len(playing)] for i, x in enumerate(playing)})
        s(view, "_absent", off)
        return view

    def for_partner(self, bidder: str, partner: str) -> Ruleset:
        """The ruleset as one hand of a ``called_partner`` game sees it: the bidder and the
        called partner are one side, named by their seats joined clockwise (the bidder's seat
        alone when they hold the called card themselves), and every other player is a side of
        their own. Meld and counters are entered per player and added up for the team.
        ValueError for seats not at the table."""
        seats = self.seats
        if bidder not in seats or partner not in seats:
            raise ValueError(f"the bidder and partner must be seats of {', '.join(seats)}")
        key = f"partner_view:{bidder}:{partner}"
        view: Ruleset = self.memo(key, lambda: self._partner_view(bidder, partner))
        return view

    def _partner_view(self, bidder: str, partner: str) -> Ruleset:
        view = object.__new__(Ruleset)
        s = object.__setattr__
        for slot in Ruleset.__slots__:
            s(view, slot, getattr(self, slot))
        team = tuple(x for x in self.seats if x in (bidder, partner))
        name = "".join(team) if len(team) > 1 else team[0]
        sides = tuple(name if x in team else x for x in self.seats)
        s(view, "sides", tuple(dict.fromkeys(sides)))
        s(view, "_seat_side", {x: (name if x in team else x) for x in self.seats})
        # per-seat entry for the team; every other side is one player
        s(view, "individual", len(team) == 1)
        return view

    @property
    def absent(self) -> str | None:
        """On a view from :meth:`for_hand`, the seat sitting the hand out; else None."""
        return self._absent

    def memo(self, key: str, build: Callable[[], Any]) -> Any:
        """Per-ruleset memo for derived lookups (achievable meld totals, the meld table, ...)."""
        store = self._cache
        if key not in store:
            store[key] = build()
        return store[key]

    # --- bidding ------------------------------------------------------------------------------
    def _step_at(self, bid: int) -> tuple[int, int]:
        start, step = self.min_bid, self.bid_step
        for frm, st in self.bid_steps:
            if bid >= frm:
                start, step = frm, st
        return start, step

    def bid_check(self, bid: object) -> tuple[str, str] | None:
        """None for a bid on the ladder, else ``(code, sentence)``.

        Codes: ``bad_type`` (not a whole number), ``below_minimum``, ``wrong_step``. The ladder
        has no top here; :func:`rules_engine.bids.check_bid` adds the ceiling of what a hand
        can be worth, which needs the meld tables.
        """
        if not _is_int(bid) or not isinstance(bid, int):
            return "bad_type", Text(gettext_noop("bid must be a whole number, got %(value)s"),
                                    value=shown(bid))
        if bid < self.min_bid:
            return (
                "below_minimum",
                Text(gettext_noop("bid %(bid)s is below the opening minimum of %(minimum)s"),
                     bid=shown(bid), minimum=self.min_bid),
            )
        start, step = self._step_at(bid)
        if (bid - start) % step:
            lower = bid - (bid - start) % step
            return (
                "wrong_step",
                Text(gettext_noop("bid %(bid)s is not allowed: from %(start)s bids go up in "
                                  "steps of %(step)s (%(lower)s or %(higher)s)"),
                     bid=bid, start=start, step=step, lower=lower, higher=lower + step),
            )
        return None

    def bid_error(self, bid: object) -> str | None:
        """None for a bid on the ladder, else a sentence saying why it is not."""
        problem = self.bid_check(bid)
        return None if problem is None else problem[1]

    def is_valid_bid(self, bid: object) -> bool:
        return self.bid_check(bid) is None

    def next_bids(self, after: int | None, count: int = 5) -> list[int]:
        """The next ``count`` bids on the ladder above ``after`` (or from the opening minimum)."""
        out: list[int] = []
        b = self.min_bid if after is None else max(after + 1, self.min_bid)
        while len(out) < count:
            if self.is_valid_bid(b):
                out.append(b)
            b += 1
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "title": self.title,
            "seed": self.seed,
            "players": self.players,
            "seats": list(self.seats),
            "sides": list(self.sides),
            "deck": self.deck.value,
            "deck_size": self.deck_size,
            "hand_size": self.hand_size,
            "widow": self.widow,
            "stock": self.stock,
            "counters_total": self.counters_total,
            "game_target": self.game_target,
            "min_bid": self.min_bid,
            "dealer_stuck": self.dealer_stuck,
            "table_sizes": list(self.table_sizes),
            "side_size": self.side_size,
            "sit_out": self.sit_out,
            "overrides": copy.deepcopy(self.overrides),
            "options": copy.deepcopy(self.options),
        }


_RULESET_CACHE: dict[str, Ruleset] = {}


def _first_step(options: Mapping[str, Any]) -> int:
    """The step of the bid ladder at the opening minimum."""
    step: int = options["bid_step"]
    for frm, st in options["bid_steps"]:
        if options["min_bid"] >= frm:
            step = st
    return step


def _validate(options: dict[str, Any], players: int) -> list[FieldError]:
    errors: list[FieldError] = []
    deck = Deck(options["deck"])

    def err(name: str, message: str) -> None:
        errors.append(FieldError(_opt_field(name), "inconsistent", message))

    free = deck.size + options["nines_added"] - options["widow"] - options["stock"]
    if options["nines_added"] and (deck is Deck.SINGLE or options["nines_added"] % 4):
        err(
            "nines_added",
            "nines are added one of each suit (a multiple of 4), to a pack without nines"
            if deck is not Deck.SINGLE
            else "a single deck has its nines already, so nines_added must be 0",
        )
    kept = "widow" if options["widow"] or not options["stock"] else "stock"
    if free < players:
        err(
            kept,
            f"a widow of {options['widow']} and a stock of {options['stock']} leave too few of "
            f"{deck.size} cards to deal",
        )
    elif free % players:
        err(
            kept,
            f"{deck.size} cards less a widow of {options['widow']} and a stock of "
            f"{options['stock']} cannot be dealt evenly to {players} players",
        )
    lowest = options["min_bid"]
    if options["dealer_opens_lower"]:
        lowest -= _first_step(options)
        if lowest < 1:
            err(
                "dealer_opens_lower",
                f"the dealer cannot open one step below an opening minimum of "
                f"{options['min_bid']}: that bid would be {lowest}",
            )
    if options["dealer_stuck"] is not None and options["dealer_stuck"] < lowest:
        err(
            "dealer_stuck",
            f"dealer_stuck ({options['dealer_stuck']}) is below the opening "
            f"minimum of {lowest}",
        )
    if options["set_keeps_meld"] and options["set_policy"] == "subtract_bid_and_meld":
        err(
            "set_keeps_meld",
            "set_keeps_meld cannot be on when set_policy is subtract_bid_and_meld "
            "(a set that costs the meld cannot also keep it)",
        )
    if options["all_tricks"] == "bonus" and options["all_tricks_bonus"] <= 0:
        err("all_tricks_bonus", "all_tricks is bonus, so all_tricks_bonus must be above 0")
    if options["slide_out"] and options["out_rule"] != "bid_out":
        err("slide_out", "slide_out only applies when out_rule is bid_out")
    if options["game_target"] is None and options["max_deals"] is None:
        err("game_target", "a game needs a target score or a number of deals (max_deals)")
    if options["checks"] and players == 4:
        err(
            "checks",
            "checks are kept per player: only in games where each player plays alone",
        )
    if options["sit_out"] == "dealer" and players != 3:
        err(
            "sit_out",
            f"a {players}-handed game seats exactly {players}: a player sitting out is "
            "supported for three-player games only, so sit_out must be none",
        )
    if deck is not Deck.SINGLE and options["meld.dix"]:
        err("meld.dix", f"a {deck.value} deck has no nines, so meld.dix must be 0")
    if options["quadruple_melds_win"] and not options["quadruple_run_wins"]:
        err("quadruple_melds_win", "quadruple_melds_win needs quadruple_run_wins on")
    if options["called_partner"] and players % 2 == 0:
        err(
            "called_partner",
            "a called partner is for an odd number of players (five-handed); even tables "
            "play in fixed teams",
        )
    if options["forced_opening"] and options["dealer_stuck"] is not None:
        err(
            "forced_opening",
            "with a forced opening somebody always holds a bid, so dealer_stuck must be null",
        )
    if options["quadruple_run_wins"] and deck.copies < 4:
        err("quadruple_run_wins", "a single deck cannot hold a quadruple run")
    cv = options["counter_values"]
    total = sum(cv[r] for r in deck.ranks) * 4 * deck.copies + options["last_trick"]
    if total <= 0:
        err("counter_values", "cards taken in tricks must be worth something")
    if options["min_counters"] > total:
        err(
            "min_counters",
            f"min_counters ({options['min_counters']}) is more than the "
            f"{total} counters a hand holds",
        )
    return errors


def get_ruleset(name: str, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """A preset by name, with optional overrides; raises :class:`RulesError` naming the option.

    Overrides may be typed values or strings as typed on the command line (``"20"``,
    ``"15,150,225,300"``, ``"true"``). ``count_method`` (classic, fives, tens, ones) is accepted
    as a shorthand that sets ``counter_values`` and ``last_trick``.
    """
    if not isinstance(name, str) or name not in _PRESETS:
        called = "no ruleset name given" if name == "" else f"no ruleset called {shown(name)}"
        raise RulesError.single(
            "ruleset", "unknown_ruleset", Text(gettext_noop("%(called)s; choose one of %(values)s"), called=called, values=', '.join(_PRESETS))
        )
    over = dict(overrides or {})
    if len(over) > 2 * len(_SPEC):
        raise RulesError.single(
            "options", "too_many", Text(gettext_noop("%(count)s options given; a ruleset has %(count2)s"), count=format(len(over), ','), count2=len(_SPEC))
        )
    key = ""
    if not over:
        cached = _RULESET_CACHE.get(name)
        if cached is not None:
            return cached
    else:
        try:
            key = name + json.dumps(over, sort_keys=True, default=str)
        except (TypeError, ValueError):
            key = ""
        if len(key) > 10_000:
            key = ""  # not worth remembering: real overrides are a few hundred characters
        if key and key in _RULESET_CACHE:
            return _RULESET_CACHE[key]
    preset = _PRESETS[name]
    options: dict[str, Any] = copy.deepcopy(preset["options"])
    players: int = preset["players"]
    errors: list[FieldError] = []
    given: dict[str, object] = {}
    for k, raw in over.items():
        kname = k if isinstance(k, str) else key_text(k)
        if kname.startswith("options."):
            kname = kname[len("options.") :]
        if kname == "players":
            if raw not in (players, str(players)):
                errors.append(
                    FieldError(
                        "options.players",
                        "inconsistent",
                        Text(gettext_noop("%(name)s is a %(players)s-player game; choose another preset for a different number of players"), name=name, players=players),
                    )
                )
            continue
        if kname == "count_method":
            method = raw.strip().lower() if isinstance(raw, str) else ""
            if method not in _COUNT_METHODS:
                errors.append(
                    FieldError(
                        "options.count_method",
                        "bad_choice",
                        Text(gettext_noop("count_method must be one of %(values)s"), values=', '.join(_COUNT_METHODS)),
                    )
                )
                continue
            values, last = _COUNT_METHODS[method]
            given.setdefault("counter_values", dict(values))
            given.setdefault("last_trick", last)
            continue
        if kname not in _SPEC:
            errors.append(
                FieldError(
                    _opt_field(key_text(kname)),
                    "unknown_option",
                    Text(gettext_noop("there is no option called %(value)s"), value=shown(kname)),
                )
            )
            continue
        try:
            value = _coerce_value(kname, raw)
        except ValueError:
            errors.append(FieldError(_opt_field(kname), "bad_type", Text(gettext_noop("cannot read %(value)s"), value=shown(raw))))
            continue
        if isinstance(value, str):
            value = _ALIASES.get((kname, value.strip().lower()), value)
            bonus = value.strip().lower().removeprefix("meld_plus_")
            if kname == "surrender_policy" and bonus.isdigit():
                value = "meld_plus_bonus"
                given.setdefault("surrender_bonus", int(bonus))
        given[kname] = value
    if "scale" in given:
        value, e = _check_type("scale", given.pop("scale"), 4)
        if e:
            errors.append(e)
        elif value != options["scale"]:
            assert isinstance(value, int)
            errors.extend(_rescale(options, options["scale"], value))
            options["scale"] = value
    if "deck" in given:
        value, e = _check_type("deck", given.pop("deck"), 4)
        if e:
            errors.append(e)
        else:
            options["deck"] = value
    copies = Deck(options["deck"]).copies
    stuck_follows = options["dealer_stuck"] is not None and (
        options["dealer_stuck"] == options["min_bid"] and "dealer_stuck" not in given
    )
    for kname, value in given.items():
        checked, e = _check_type(kname, value, copies)
        if e:
            errors.append(e)
        else:
            options[kname] = checked
    if stuck_follows and _is_int(options["min_bid"]):
        options["dealer_stuck"] = options["min_bid"]
    if not errors:
        for kname in MELD_KEYS:
            if len(options[kname]) != copies:
                errors.append(
                    FieldError(
                        _opt_field(kname),
                        "inconsistent",
                        Text(gettext_noop("%(kname)s has %(count)s values but a %(deck)s deck needs %(copies)s"), kname=kname, count=len(options[kname]), deck=options['deck'], copies=copies),
                    )
                )
    if not errors:
        errors.extend(_validate(options, players))
    if errors:
        raise RulesError(errors)
    rs = Ruleset(
        name, preset["title"], preset["seed"], players, options, over, preset.get("side_size")
    )
    if not over:
        _RULESET_CACHE[name] = rs
    elif key and len(_RULESET_CACHE) < 512:
        _RULESET_CACHE[key] = rs
    return rs


def list_rulesets() -> list[Ruleset]:
    """Every preset with its default options."""
    return [get_ruleset(n) for n in _PRESETS]
