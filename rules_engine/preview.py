"""What the entry form's browser needs to check and score a typed hand without asking the server.

The table's phone shows a live preview (points, made or set) and the field messages while a
hand is typed. ``static/js/hand_preview.js`` computes them in the browser from
:func:`browser_rules`: the ruleset's values that :func:`~rules_engine.hands.parse_hand` and
:func:`~rules_engine.scoring.score_hand` read for the fields the form sends, and the derived
tables that would cost the browser a search (the meld totals a side, or a three-handed defender,
can show, as hexadecimal bitsets; the highest bid). The browser's answers equal the engine's
(tests/e2e/test_hand_preview.py runs generated hands of every preset through both); where a hand
holds something the port does not read, the browser asks the server as before. The save is
always validated and scored here, on the server.
"""

from __future__ import annotations

from .bids import max_bid
from .hands import Outcome, fields_for, needs_tricks, top_counters
from .meld import _side_bits, achievable_hand_totals
from .rulesets import Ruleset
from .seats import ALL_SEATS

__all__ = ["browser_rules"]

# the ruleset's own values the port reads, by name
_OPTIONS = (
    "players", "hand_size", "widow", "counters_total", "counter_unit", "min_bid", "bid_step",
    "dealer_lowest_bid", "min_meld", "min_counters", "short_meld", "meld_needs_trick",
    "forced_concession", "set_keeps_meld", "set_policy", "surrender_policy", "surrender_bonus",
    "renege_declarer", "renege_defender", "renege_bonus", "board_set_opponents",
    "trump_marriage_required", "all_tricks", "all_tricks_bonus", "last_trick", "sit_out",
    "called_partner",
)  # fmt: skip


def browser_rules(ruleset: Ruleset) -> dict[str, object]:
    """The ruleset as the browser's port of hand checking and scoring reads it (JSON-ready).

    ``table_sizes`` and ``sit_out`` give the table's shape: at a table of ``players + 1``
    (``sit_out="dealer"``) the dealer sits each hand out and the form sends values for the
    other seats; ``seats_by_size`` gives each table's seats and ``side_of`` covers them all.
    ``top_counters[n]``: the most counters n cards of the deck hold (what tricks can carry).
    ``called_partner``: the sides change with each hand's partner (five-handed); the port leaves
    those hands to the server.
    ``meld_side``: bit n set when a side (a three-handed declarer, with the widow) can show n
    meld; ``meld_defender``: the same for a player without the widow (None without a widow).
    """
    rs = ruleset

    def build() -> dict[str, object]:
        rules: dict[str, object] = {name: getattr(rs, name) for name in _OPTIONS}
        rules.update(
            seats=[str(s) for s in rs.seats],
            # every seat name a hand's seat fields may hold (the API's choices)
            seat_letters=list(ALL_SEATS),
            sides=[str(s) for s in rs.sides],
            side_of={
                str(s): str(rs.side_of(s)) for s in rs.seats_for(rs.table_sizes[-1])
            },
            table_sizes=list(rs.table_sizes),
            # what the browser's port mirrors: tables of two, three and four of one player or a
            # pair a side; teams of three and tables of five, six and eight are the server's
            # (and the declaring side held to min_counters, the only way the port reads it)
            preview=max(rs.table_sizes) <= 4 and rs.side_size <= 2 and rs.min_counters_declarer,
            seats_by_size={str(n): [str(s) for s in rs.seats_for(n)] for n in rs.table_sizes},
            bid_steps=[list(p) for p in rs.bid_steps],
            max_bid=max_bid(rs),
            needs_tricks=needs_tricks(rs),
            fields={o.value: list(fields_for(o, rs)) for o in Outcome},
            top_counters=list(top_counters(rs)),
            meld_side=format(_side_bits(rs), "x"),
            meld_defender=format(achievable_hand_totals(rs, rs.hand_size), "x")
            if rs.widow
            else None,
        )
        return rules

    rules: dict[str, object] = rs.memo("browser_rules", build)
    return rules
