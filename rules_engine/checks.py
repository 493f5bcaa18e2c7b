"""Checks: check pinochle's second tally, kept beside the points (option ``checks``).

Check pinochle is three-handed pinochle to 1,000 played for stakes. Besides the points, each
player gains or loses *checks*; at settlement every check a player gained is paid by each other
player (one stake each), so a player's money is ``n × own checks − everyone's checks`` for ``n``
players at the table (:func:`settlement`). The values are options (``checks.*``); the preset
``check_pinochle`` follows the encyclopedia.

What earns or costs checks
--------------------------
Melds (bidder or not, and kept when the bid is set or thrown in), entered per player as
``check_melds``, a list of names (:data:`CHECK_MELDS`):

``run``            a run (flush) in trump                       ``checks.run``
``double_run``     two runs in trump                           ``checks.double_run``
``aces``           aces around                                 ``checks.aces``
``double_aces``    twice around in aces  ``checks.double_around`` (+ ``checks.aces`` when
                   ``checks.doubles=add``)
``double_kings``, ``double_queens``, ``double_jacks``          ``checks.double_around`` each
``roundtable``     a marriage in each suit                      ``checks.roundtable``
``double_marriage`` two marriages in one suit (listed once per such suit, at most four times)
                                                               ``checks.double_marriage``
``double_pinochle`` both pinochles                             ``checks.double_pinochle``
``seven_nines``    seven nines in the hand dealt (no bid needed) ``checks.seven_nines``

The declarer losing the hand: after looking at the widow (talon), by conceding, being board set
or playing and losing, ``-checks.lose_looked``; when the hand was played (a set, or a renege by
the declarer), ``-checks.lose_played`` more. A declarer who concedes at the opening minimum
without looking at the widow (``widow_seen: false``) loses no check. Winning the game earns
``checks.game`` (:func:`rules_engine.game.score_game`).

The entry is checked against the meld: the cards the listed melds need at the fewest are put
in one hand and counted, and a player's meld must be at least that (``check_melds.N``, code
``meld_too_low``), and the cards must fit in the player's hand (code ``too_many_cards``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

from .cards import ACE, JACK, KING, NINE, NUM_CARD_TYPES, QUEEN, SUITS, TEN
from .errors import FieldError
from .i18n import Text, gettext_noop
from .inputs import key_text, shown
from .meld import meld_total
from .rulesets import Ruleset

__all__ = [
    "CHECK_MELDS",
    "parse_check_melds",
    "check_melds_fit",
    "meld_checks",
    "settlement",
]

# name -> (the option giving its checks, what people call it)
CHECK_MELDS: dict[str, tuple[str, str]] = {
    "run": ("run", Text(gettext_noop("a run (flush) in trump"))),
    "double_run": ("double_run", Text(gettext_noop("a double run"))),
    "aces": ("aces", Text(gettext_noop("aces around"))),
    "double_aces": ("double_around", Text(gettext_noop("double aces"))),
    "double_kings": ("double_around", Text(gettext_noop("double kings"))),
    "double_queens": ("double_around", Text(gettext_noop("double queens"))),
    "double_jacks": ("double_around", Text(gettext_noop("double jacks"))),
    "roundtable": ("roundtable", Text(gettext_noop("a roundtable (a marriage in each suit)"))),
    "double_marriage": ("double_marriage", Text(gettext_noop("a double marriage (two in one suit)"))),
    "double_pinochle": ("double_pinochle", Text(gettext_noop("a double pinochle"))),
    "seven_nines": ("seven_nines", Text(gettext_noop("seven nines"))),
}

_ALIASES = {
    "flush": "run",
    "double_flush": "double_run",
    "round_table": "roundtable",
    "roundhouse": "roundtable",
    "round_house": "roundtable",
    "roundrobin": "roundtable",  # "round robin": spaces and hyphens are dropped below
    "marriages_around": "roundtable",
    "7_nines": "seven_nines",
    "nines": "seven_nines",
}

# the same meld at most this many times in one hand (a double marriage: once per suit)
_MOST = {"double_marriage": 4}
# names that cannot be listed together: the double already holds the single
_EXCLUSIVE = (("run", "double_run"), ("aces", "double_aces"))


def _read_name(raw: object) -> str | None:
    if not isinstance(raw, str) or len(raw) > 30:
        return None
    word = raw.strip().lower().replace("-", "_").replace(" ", "_")
    word = _ALIASES.get(word, _ALIASES.get(word.replace("_", ""), word))
    return word if word in CHECK_MELDS else None


def parse_check_melds(
    raw: object, key: str, rs: Ruleset, errors: list[FieldError]
) -> dict[str, tuple[str, ...]] | None:
    """``check_melds`` as entered: per player (side), a list of check-earning melds.

    Every playing side is in the result (an empty tuple when not given). Errors name the
    player's entry (``check_melds.N``) or the list item (``check_melds.N[1]``).
    """
    if not isinstance(raw, Mapping):
        errors.append(
            FieldError(
                key,
                "bad_type",
                Text(gettext_noop("%(key)s must list each player's check melds, e.g. {\"N\": [\"run\", \"aces\"], \"E\": [], \"S\": [\"roundtable\"]}"), key=key),
            )
        )
        return None
    if len(raw) > 2 * len(rs.seats):
        errors.append(FieldError(key, "bad_type", Text(gettext_noop("%(key)s has %(count)s entries"), key=key, count=format(len(raw), ','))))
        return None
    out: dict[str, tuple[str, ...]] = dict.fromkeys(rs.sides, ())
    ok = True
    for k, v in raw.items():
        fld = f"{key}.{key_text(k)}"
        if isinstance(k, str) and k == rs.absent:
            errors.append(
                FieldError(fld, "sitting_out", Text(gettext_noop("%(k)s deals and sits this hand out: no meld"), k=k))
            )
            ok = False
            continue
        side = next((s for s in rs.sides if s == k), None) if isinstance(k, str) else None
        if side is None:
            errors.append(
                FieldError(
                    fld,
                    "bad_side",
                    Text(gettext_noop("%(value)s is not a player here; give %(key)s per player (%(values)s), in capital letters"), value=shown(k), key=key, values=', '.join(rs.sides)),
                )
            )
            ok = False
            continue
        if v is None:
            continue
        if not isinstance(v, list | tuple) or len(v) > 16:
            errors.append(
                FieldError(
                    fld,
                    "bad_type",
                    Text(gettext_noop("%(fld)s must be a list of melds, e.g. [\"run\", \"aces\"] (melds: %(values)s)"), fld=fld, values=', '.join(CHECK_MELDS)),
                )
            )
            ok = False
            continue
        names: list[str] = []
        for i, item in enumerate(v):
            name = _read_name(item)
            if name is None:
                errors.append(
                    FieldError(
                        f"{fld}[{i}]",
                        "bad_choice",
                        Text(gettext_noop("%(value)s is not a meld that earns checks; use %(values)s"), value=shown(item), values=', '.join(CHECK_MELDS)),
                    )
                )
                ok = False
                continue
            option = CHECK_MELDS[name][0]
            if not rs.check_values.get(option, 0):
                errors.append(
                    FieldError(
                        f"{fld}[{i}]",
                        "not_in_ruleset",
                        Text(gettext_noop("this ruleset gives no checks for %(check_melds)s (option checks.%(option)s)"), check_melds=CHECK_MELDS[name][1], option=option),
                    )
                )
                ok = False
                continue
            if names.count(name) >= _MOST.get(name, 1):
                most = _MOST.get(name, 1)
                errors.append(
                    FieldError(
                        f"{fld}[{i}]",
                        "duplicate",
                        Text(gettext_noop("%(meld)s is listed more than once"),
                             meld=CHECK_MELDS[name][1]) if most == 1
                        else Text(gettext_noop("%(meld)s is listed more than %(most)s times "
                                               "(once per suit)"),
                                  meld=CHECK_MELDS[name][1], most=most),
                    )
                )
                ok = False
                continue
            names.append(name)
        for single, double in _EXCLUSIVE:
            if single in names and double in names:
                errors.append(
                    FieldError(
                        fld,
                        "duplicate",
                        Text(gettext_noop("%(double)s already holds %(single)s: list only %(double)s"), double=double, single=single),
                    )
                )
                ok = False
        out[side] = tuple(names)
    return out if ok else None


def _needed_cards(names: Sequence[str], trump: int, doubled: Sequence[int]) -> list[int]:
    """The fewest cards that show every listed meld at once, with the double marriages in the
    suits ``doubled`` (a card serves every meld class, so the needs are merged card by card,
    each at its highest count)."""
    need = [0] * NUM_CARD_TYPES

    def at_least(card: int, n: int) -> None:
        need[card] = max(need[card], n)

    t = trump * 6
    for name in names:
        if name in ("run", "double_run"):
            n = 2 if name == "double_run" else 1
            for r in (ACE, TEN, KING, QUEEN, JACK):
                at_least(t + r, n)
        elif name == "aces" or name.startswith("double_") and name[7:] in (
            "aces", "kings", "queens", "jacks"
        ):
            n = 2 if name.startswith("double_") else 1
            rank = {"aces": ACE, "kings": KING, "queens": QUEEN, "jacks": JACK}[
                name.removeprefix("double_")
            ]
            for s in range(4):
                at_least(s * 6 + rank, n)
        elif name == "roundtable":
            for s in range(4):
                at_least(s * 6 + KING, 1)
                at_least(s * 6 + QUEEN, 1)
        elif name == "double_pinochle":
            at_least(0 * 6 + QUEEN, 2)
            at_least(2 * 6 + JACK, 2)
    for s in doubled:
        at_least(s * 6 + KING, 2)
        at_least(s * 6 + QUEEN, 2)
    if "seven_nines" in names:
        # seven of the eight nines: one of trump (the fewest dix), both of every other suit
        for s in range(4):
            at_least(s * 6 + NINE, 1 if s == trump else 2)
    return need


def check_melds_fit(
    names: Sequence[str],
    meld: int | None,
    trump: str | None,
    cards: int,
    field: str,
    rs: Ruleset,
) -> FieldError | None:
    """Whether a player's listed check melds fit the meld entered and the cards held.

    ``cards`` is how many cards the player melds from (a three-handed declarer holds the widow
    too); ``trump`` None (not entered yet) tries every suit and keeps the least."""
    if not names:
        return None
    trumps = [SUITS.index(trump)] if trump is not None and trump in SUITS else list(range(4))
    # which suits hold the double marriages is not entered: the least of every choice
    suits = list(combinations(range(4), list(names).count("double_marriage")))
    found = [
        (meld_total(need, t, rs), sum(need))
        for t in trumps
        for doubled in suits
        for need in [_needed_cards(names, t, doubled)]
    ]
    least = min(m for m, _ in found)
    held = min(n for _, n in found)
    listed = ", ".join(names)
    if held > cards:
        return FieldError(
            field,
            "too_many_cards",
            Text(gettext_noop("%(listed)s need at least %(held)s cards, more than the %(cards)s this player melds from"), listed=listed, held=held, cards=cards),
        )
    if meld is not None and meld < least:
        return FieldError(
            field,
            "meld_too_low",
            Text(gettext_noop("%(listed)s show at least %(least)s meld, but this player's meld is %(meld)s (check the meld and the check melds)"), listed=listed, least=least, meld=meld),
        )
    return None


def meld_checks(names: Sequence[str], rs: Ruleset) -> int:
    """The checks one player's listed melds earn."""
    values = rs.check_values
    total = sum(values.get(CHECK_MELDS[n][0], 0) for n in names)
    if "double_aces" in names and rs.options.get("checks.doubles") == "add":
        total += values.get("aces", 0)
    return total


def settlement(totals: Mapping[str, int]) -> dict[str, int]:
    """Stakes won (positive) or owed per player: each check a player gained is paid by every
    other player, each check lost is paid to every other player."""
    n = len(totals)
    everyone = sum(totals.values())
    return {s: n * c - everyone for s, c in totals.items()}
