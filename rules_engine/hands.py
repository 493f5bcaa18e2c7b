"""Hands as entered at the table, and the validation of raw input.

A hand is one deal as the scorer types it. What it carries depends on its outcome:

played
    The cards were played out: dealer, bidder, bid, trump, meld and counters per side (plus
    tricks per side, required where a player must take a trick to save meld or where taking
    every trick counts). Counters must be possible for the tricks: a side with no trick holds
    none (the declarer's discards aside), and where every card counts in tens so do counters.
no_marriage
    A board set: the declarer holds no marriage in trump, so there is no play and no counters.
surrender
    The declaring side threw the hand in before play: no counters either.
renege
    Somebody played illegally; ``renege_seat`` names them. Counters are needed only when the
    ruleset scores the declaring side's renege as an ordinary set.
misdeal
    The deal is void and dealt again; only the dealer is recorded.
technical_misdeal
    A player dealt a hand the ruleset's ``misdeal_rule`` allows them to refuse (``no_aces``: 13
    or more non-counters and no ace; ``nines``: five or more nines) declared a misdeal before
    playing to the first trick: all meld is void, nobody scores, and the hand is dealt again
    (by the same dealer under ``misdeal_redeal=same_dealer``). It carries the dealer and
    ``misdeal_seat``, who declared it.

Under ``checks`` (check pinochle, :mod:`rules_engine.checks`) every hand with a contract may
carry ``check_melds``: per player a list of the melds that earn checks, e.g. ``{"N": ["run",
"aces"], "S": ["double_marriage", "double_marriage"]}`` (run, double_run, aces, double_aces,
double_kings, double_queens, double_jacks, roundtable, double_marriage once per suit,
double_pinochle, seven_nines). Each list is checked against that player's meld: the melds
listed must fit in the player's cards and be worth no more than the meld entered. Where there
is a widow a surrender may carry ``widow_seen`` (default true): false is the declarer's
concession at the opening minimum without looking at the widow, which costs the bid and no
check, and the opponents score nothing.

:func:`fields_for` lists the fields an outcome carries and :func:`parse_hand` holds input to it:
a field the outcome does not carry is an error (``unexpected``), as is a field no hand has
(``unknown_field``), so a mistyped entry is never scored as something else. A null value, or
an empty object for meld, counters and tricks, counts as not given.

Meld, counters and tricks are keyed by side, with the exact letters ``NS``/``EW`` (the seat in
individual games; a team's joined seat names at tables of six and eight). In a game with a called
partner (five-handed) the hand names the ``partner`` and gives meld and counters per player: the
bidder's and the partner's are added up for their side when the hand is scored. At a four-player table a side may instead be given per seat (``"N": 10,
"S": 14``); each seat's meld is then checked as one player's hand and the seats are added up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .bids import check_bid
from .cards import Suit, parse_suit
from .checks import check_melds_fit, parse_check_melds
from .errors import FieldError, RulesError
from .i18n import Text, gettext_noop
from .inputs import key_text, shown, whole_number
from .meld import check_meld_total
from .rulesets import Ruleset

__all__ = [
    "Outcome", "Hand", "HAND_FIELDS", "fields_for", "needs_tricks", "parse_hand", "table_of",
]  # fmt: skip


class Outcome(StrEnum):
    """What happened to a hand, as entered at the table."""

    PLAYED = "played"
    NO_MARRIAGE = "no_marriage"
    SURRENDER = "surrender"
    RENEGE = "renege"
    MISDEAL = "misdeal"
    TECHNICAL_MISDEAL = "technical_misdeal"

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]


_OUTCOME_LABELS = {
    Outcome.PLAYED: gettext_noop("Played"),
    Outcome.NO_MARRIAGE: gettext_noop("No marriage in trump (board set)"),
    Outcome.SURRENDER: gettext_noop("Surrender"),
    Outcome.RENEGE: gettext_noop("Renege"),
    Outcome.MISDEAL: gettext_noop("Misdeal"),
    Outcome.TECHNICAL_MISDEAL: gettext_noop("Technical misdeal (a player's call: dealt again)"),
}

# words scorers use for the same outcome
_OUTCOME_ALIASES = {
    "played": Outcome.PLAYED,
    "play": Outcome.PLAYED,
    "made": Outcome.PLAYED,
    "set": Outcome.PLAYED,
    "no_marriage": Outcome.NO_MARRIAGE,
    "board_set": Outcome.NO_MARRIAGE,
    "boardset": Outcome.NO_MARRIAGE,
    "surrender": Outcome.SURRENDER,
    "surrendered": Outcome.SURRENDER,
    "throw_in": Outcome.SURRENDER,
    "throwin": Outcome.SURRENDER,
    "concede": Outcome.SURRENDER,
    "renege": Outcome.RENEGE,
    "misdeal": Outcome.MISDEAL,
    "technical_misdeal": Outcome.TECHNICAL_MISDEAL,
    "technical": Outcome.TECHNICAL_MISDEAL,
    "tech_misdeal": Outcome.TECHNICAL_MISDEAL,
}

HAND_FIELDS: tuple[str, ...] = (
    "dealer",
    "bidder",
    "bid",
    "trump",
    "meld",
    "counters",
    "renege_seat",
    "tricks",
    "quadruple_run",
    "misdeal_seat",
    "widow_seen",
    "check_melds",
    "partner",
)
_FIELD_ALIASES = {"declarer": "bidder", "called_partner": "partner"}

_BEFORE_PLAY = ("dealer", "bidder", "bid", "trump", "meld")
_CARRIES: dict[Outcome, tuple[str, ...]] = {
    Outcome.PLAYED: (*_BEFORE_PLAY, "counters"),
    Outcome.NO_MARRIAGE: _BEFORE_PLAY,
    Outcome.SURRENDER: _BEFORE_PLAY,
    Outcome.RENEGE: (*_BEFORE_PLAY, "counters", "renege_seat"),
    Outcome.MISDEAL: ("dealer",),
    Outcome.TECHNICAL_MISDEAL: ("dealer", "misdeal_seat"),
}
_NO_CONTRACT = (Outcome.MISDEAL, Outcome.TECHNICAL_MISDEAL)


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal as entered: who bid what, meld and counters per side, and what happened.

    ``meld`` and ``counters`` are keyed by side (``NS``/``EW``; the seat in three-player games).
    ``counters`` is None when no cards were played; ``meld`` is empty for a misdeal.
    ``quadruple_run`` names the side that showed a quadruple run (a special win under some
    rulesets); ``tricks`` gives tricks won per side, which :func:`parse_hand` requires of a played
    hand wherever a player must take a trick to save meld or taking every trick counts
    (:func:`needs_tricks`).
    :func:`parse_hand` fills the seat, side and suit fields with :class:`~rules_engine.Seat`,
    :class:`~rules_engine.Side` and :class:`~rules_engine.Suit` members, which are strings; a
    hand built directly may use plain strings.

    ``seats`` is the table's seats where one of them sits the hand out (a three-player game at
    a table of four): the dealer sits out, and every value above names the three playing seats.
    It is None at a table where everybody plays. It is the table's, not the hand's, so
    :meth:`to_dict` leaves it out: ``parse_hand(hand.to_dict(), ruleset, hand.seats) == hand``.

    ``misdeal_seat`` is who declared a technical misdeal; ``widow_seen`` is False for a
    concession without looking at the widow (None: not entered, the widow was seen);
    ``check_melds`` the check-earning melds per player under ``checks`` (None elsewhere).
    """

    dealer: str | None
    bidder: str | None
    bid: int | None
    trump: str | None
    meld: Mapping[str, int]
    counters: Mapping[str, int] | None
    outcome: str = Outcome.PLAYED
    renege_seat: str | None = None
    quadruple_run: str | None = None
    tricks: Mapping[str, int] | None = None
    seats: tuple[str, ...] | None = None
    misdeal_seat: str | None = None
    widow_seen: bool | None = None
    check_melds: Mapping[str, tuple[str, ...]] | None = None
    partner: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "dealer": self.dealer,
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": self.trump,
            "meld": dict(self.meld),
            "counters": None if self.counters is None else dict(self.counters),
            "outcome": str(self.outcome),
        }
        if self.renege_seat is not None:
            d["renege_seat"] = self.renege_seat
        if self.quadruple_run is not None:
            d["quadruple_run"] = self.quadruple_run
        if self.tricks is not None:
            d["tricks"] = dict(self.tricks)
        if self.misdeal_seat is not None:
            d["misdeal_seat"] = self.misdeal_seat
        if self.widow_seen is not None:
            d["widow_seen"] = self.widow_seen
        if self.check_melds is not None:
            d["check_melds"] = {s: list(v) for s, v in self.check_melds.items()}
        if self.partner is not None:
            d["partner"] = self.partner
        return d


def _read_outcome(raw: object) -> Outcome | None:
    if isinstance(raw, str) and len(raw) <= 20:
        return _OUTCOME_ALIASES.get(raw.strip().lower().replace("-", "_"))
    return None


def fields_for(outcome: Outcome | str, ruleset: Ruleset) -> tuple[str, ...]:
    """The hand fields an outcome carries under the ruleset, in input order.

    ``outcome`` itself is always allowed and not listed. ``tricks`` is carried by played hands
    where meld needs a trick, ``quadruple_run`` by every hand but a misdeal where a quadruple run
    wins the game. Raises :class:`RulesError` for an unknown outcome.
    """
    o = _read_outcome(outcome)
    if o is None:
        raise RulesError.single("outcome", "bad_choice", _bad_outcome(outcome))
    fields = _CARRIES[o]
    if o is Outcome.PLAYED and needs_tricks(ruleset):
        fields = (*fields, "tricks")
    if o not in _NO_CONTRACT and ruleset.quadruple_run_wins:
        fields = (*fields, "quadruple_run")
    if o is Outcome.SURRENDER and ruleset.widow:
        fields = (*fields, "widow_seen")
    if o not in _NO_CONTRACT and ruleset.checks:
        fields = (*fields, "check_melds")
    if o is not Outcome.MISDEAL and ruleset.called_partner:
        fields = (*fields, "partner")
    return fields


def needs_tricks(ruleset: Ruleset) -> bool:
    """Whether a played hand must say how many tricks each side took: where meld is saved only
    by taking a trick, or where taking every trick counts (``all_tricks``). Counters cannot
    stand in for tricks: a trick may hold no counter, and the declarer's discards hold some."""
    return ruleset.meld_needs_trick or ruleset.all_tricks != "nothing"


def _bad_outcome(raw: object) -> str:
    return Text(gettext_noop("%(value)s is not an outcome; use played, no_marriage, surrender, "
                             "renege, misdeal or technical_misdeal"), value=shown(raw))


def _given(value: object) -> bool:
    return value is not None and not (isinstance(value, Mapping) and not value)


# --- which keys were given ------------------------------------------------------------------

# A hand has a dozen keys at most; a bigger object is refused before any key is looked at.
_MAX_KEYS = 32


def _not_carried(key: str, name: str, outcome: Outcome, rs: Ruleset) -> FieldError:
    if name == "tricks" and not needs_tricks(rs):
        return FieldError(
            key,
            "not_in_ruleset",
            Text(gettext_noop("this ruleset does not need a trick to save meld, so tricks are not entered")),
        )
    if name == "partner" and not rs.called_partner:
        return FieldError(
            key, "not_in_ruleset", Text(gettext_noop("this ruleset plays in fixed sides: there is no called partner"))
        )
    if name == "quadruple_run" and not rs.quadruple_run_wins:
        return FieldError(
            key, "not_in_ruleset", Text(gettext_noop("this ruleset gives no special win for a quadruple run"))
        )
    if name == "check_melds" and not rs.checks:
        return FieldError(key, "not_in_ruleset", Text(gettext_noop("this ruleset keeps no checks (option checks)")))
    if name == "widow_seen" and not rs.widow:
        return FieldError(key, "not_in_ruleset", Text(gettext_noop("this ruleset deals no widow")))
    return FieldError(
        key,
        "unexpected",
        Text(gettext_noop("a hand with the outcome %(value)s has no %(key)s; leave it out (it has %(values)s)"), value=outcome.value, key=key, values=', '.join(fields_for(outcome, rs))),
    )


def _given_fields(
    data: Mapping[str, object],
    outcome: Outcome | None,
    rs: Ruleset,
    errors: list[FieldError],
) -> dict[str, tuple[str, object]]:
    """Field name -> (key as given, value) for every given field the outcome carries."""
    carried = fields_for(outcome, rs) if outcome is not None else HAND_FIELDS
    out: dict[str, tuple[str, object]] = {}
    for key, value in data.items():
        if key == "outcome":
            continue
        name = _FIELD_ALIASES.get(key, key) if isinstance(key, str) else None
        if name not in HAND_FIELDS or not isinstance(key, str):
            errors.append(
                FieldError(
                    key_text(key),
                    "unknown_field",
                    Text(gettext_noop("a hand has no field called %(key)s; its fields are "
                                      "outcome, %(fields)s"), key=shown(key),
                         fields=", ".join(HAND_FIELDS)),
                )
            )
            continue
        if not _given(value):
            continue
        if name in out:
            errors.append(
                FieldError(
                    key, "duplicate", Text(gettext_noop("%(key)s and %(out)s are the same field: give one"), key=key, out=out[name][0])
                )
            )
            continue
        if name not in carried:
            assert outcome is not None  # every field is carried when the outcome is unknown
            errors.append(_not_carried(key, name, outcome, rs))
            continue
        out[name] = (key, value)
    return out


# --- single values ----------------------------------------------------------------------------


def _seat(
    given: Mapping[str, tuple[str, object]],
    name: str,
    rs: Ruleset,
    errors: list[FieldError],
    required: bool,
    seats: Sequence[str] | None = None,
) -> str | None:
    """The seat a field names, among ``seats`` (default: the seats playing the hand)."""
    choices = rs.seats if seats is None else seats
    if name not in given:
        if required:
            why = Text(gettext_noop("give a seat"))
            if seats is not None and len(seats) > rs.players:
                why = Text(gettext_noop("at a table of %(count)s the dealer sits the hand out, "
                                        "so give the dealer"), count=len(seats))
            errors.append(
                FieldError(name, "required", Text(gettext_noop("%(name)s is missing: %(why)s (%(values)s)"), name=name, why=why, values=', '.join(choices)))
            )
        return None
    key, raw = given[name]
    seat = raw.strip().upper() if isinstance(raw, str) and len(raw) <= 10 else None
    if seat is not None and seat == rs.absent:
        errors.append(_sitting_out(key, rs))
        return None
    if seat is None or seat not in choices:
        errors.append(
            FieldError(
                key,
                "bad_seat",
                Text(gettext_noop("%(value)s is not a seat at this table; use %(values)s"), value=shown(raw), values=', '.join(choices)),
            )
        )
        return None
    return choices[list(choices).index(seat)]


def _sitting_out(field: str, rs: Ruleset) -> FieldError:
    return FieldError(
        field,
        "sitting_out",
        Text(gettext_noop("%(absent)s dealt this hand and sits it out; the hand is played by %(values)s"), absent=rs.absent, values=', '.join(rs.seats)),
    )


def _bid(
    given: Mapping[str, tuple[str, object]],
    rs: Ruleset,
    errors: list[FieldError],
    required: bool,
    dealer: str | None,
    bidder: str | None,
) -> int | None:
    if "bid" not in given:
        if required:
            errors.append(FieldError("bid", "required", Text(gettext_noop("bid is missing"))))
        return None
    raw = given["bid"][1]
    bid = whole_number(raw)
    lowest = rs.dealer_lowest_bid
    if lowest is not None and bid == lowest:
        # the dealer's own opening, one step under the minimum, when everybody else passed
        if dealer is not None and bidder == dealer:
            return bid
        errors.append(
            FieldError(
                "bid",
                "bad_bid",
                Text(gettext_noop("bid %(bid)s is below the opening minimum of %(minimum)s; "
                                  "only the dealer may open at %(bid)s"), bid=bid,
                     minimum=rs.min_bid)
                if dealer is not None else
                Text(gettext_noop("bid %(bid)s is below the opening minimum of %(minimum)s; "
                                  "only the dealer may open at %(bid)s: give the dealer"),
                     bid=bid, minimum=rs.min_bid),
            )
        )
        return None
    problem = check_bid(bid if bid is not None else raw, rs)
    if problem is not None:
        code, message = problem
        errors.append(FieldError("bid", "too_high" if code == "too_high" else "bad_bid", message))
        return None
    return bid


def _trump(
    given: Mapping[str, tuple[str, object]], errors: list[FieldError], required: bool
) -> Suit | None:
    if "trump" not in given:
        if required:
            errors.append(FieldError("trump", "required",
                                     Text(gettext_noop("trump is missing: give S, H, D or C"))))
        return None
    try:
        return Suit.of_number(parse_suit(given["trump"][1]))
    except RulesError as exc:
        errors.extend(exc.errors)
        return None


def _quadruple_run(
    given: Mapping[str, tuple[str, object]], rs: Ruleset, errors: list[FieldError]
) -> str | None:
    if "quadruple_run" not in given:
        return None
    raw = given["quadruple_run"][1]
    name = raw.strip().upper() if isinstance(raw, str) and len(raw) <= 10 else ""
    if name and name == rs.absent:
        errors.append(_sitting_out("quadruple_run", rs))
        return None
    if name in rs.seats:
        return rs.side_of(name)
    for side in rs.sides:
        if side == name:
            return side
    errors.append(
        FieldError("quadruple_run", "bad_side", Text(gettext_noop("%(value)s is not a side or seat here"), value=shown(raw)))
    )
    return None


# --- values per side --------------------------------------------------------------------------

# check(value, field, one_player, side) -> the problem with one entered value, or None
_Check = Callable[[int, str, bool, str], FieldError | None]


def _per_side(
    given: Mapping[str, tuple[str, object]],
    name: str,
    rs: Ruleset,
    errors: list[FieldError],
    required: bool,
    check: _Check,
) -> dict[str, int] | None:
    """Whole numbers per side, each passed through ``check``; None unless every side is valid.

    At a four-player table a side may be given as its two seats instead (each checked as one
    player's value, then added); side keys must be written exactly (``NS``, not ``ns``) so two
    spellings of one side are never added together.
    """
    if name not in given:
        if required:
            example = ", ".join(f'"{s}": 0' for s in rs.sides)
            errors.append(
                FieldError(
                    name, "required", Text(gettext_noop("%(name)s is missing: give it per side, e.g. {%(example)s}"), name=name, example=example)
                )
            )
        return None
    key, raw = given[name]
    if not isinstance(raw, Mapping):
        errors.append(
            FieldError(key, "bad_type", Text(gettext_noop("%(key)s must be given per side (%(values)s)"), key=key, values=', '.join(rs.sides)))
        )
        return None
    if len(raw) > 2 * len(rs.seats):
        errors.append(
            FieldError(
                key,
                "bad_type",
                Text(gettext_noop("%(key)s has %(count)s entries; give one per side (%(values)s)"), key=key, count=format(len(raw), ','), values=', '.join(rs.sides)),
            )
        )
        return None
    by_side: dict[str, int] = {}
    by_seat: dict[str, dict[str, int]] = {}
    ok = True
    for k, v in raw.items():
        fld = f"{key}.{key_text(k)}"
        if isinstance(k, str) and k == rs.absent:
            errors.append(_sitting_out(fld, rs))
            ok = False
            continue
        side = next((s for s in rs.sides if s == k), None) if isinstance(k, str) else None
        seat = None
        if side is None and not rs.individual and isinstance(k, str) and k in rs.seats:
            seat = rs.seats[rs.seats.index(k)]
        if side is None and seat is None:
            seats = "" if rs.individual else f" or per seat ({', '.join(rs.seats)})"
            errors.append(
                FieldError(
                    fld,
                    "bad_side",
                    Text(gettext_noop("%(value)s is not a side here; give %(key)s per side (%(values)s)%(seats)s, in capital letters"), value=shown(k), key=key, values=', '.join(rs.sides), seats=seats),
                )
            )
            ok = False
            continue
        n = whole_number(v)
        problem: FieldError | None
        if n is None:
            problem = FieldError(
                fld, "bad_type", Text(gettext_noop("%(key)s for %(side)s must be a whole number, "
                                                   "got %(value)s"), key=key, side=k, value=shown(v))
            )
        elif n < 0:
            problem = FieldError(fld, "negative", Text(
                gettext_noop("%(key)s for %(side)s cannot be negative"), key=key, side=k))
        else:
            where = rs.side_of(seat) if seat is not None else side
            assert where is not None
            problem = check(n, fld, seat is not None, where)
        if problem is not None:
            errors.append(problem)
            ok = False
            continue
        assert n is not None
        if seat is not None:
            by_seat.setdefault(rs.side_of(seat), {})[seat] = n
        else:
            assert side is not None
            by_side[side] = n
    if not ok:
        # what is missing is only worth saying once the keys given are right
        return None
    out: dict[str, int] = {}
    for side in rs.sides:
        seats_given = by_seat.get(side, {})
        if side in by_side and seats_given:
            errors.append(
                FieldError(
                    f"{key}.{side}",
                    "duplicate",
                    Text(gettext_noop("%(key)s for %(side)s is given both for the side and for %(values)s: give one or the other"), key=key, side=side, values=', '.join(seats_given)),
                )
            )
            ok = False
        elif side in by_side:
            out[side] = by_side[side]
        elif seats_given:
            missing = [s for s in rs.seats_of(side) if s not in seats_given]
            if missing:
                errors.append(
                    FieldError(
                        f"{key}.{missing[0]}",
                        "required",
                        Text(gettext_noop("%(key)s for %(missing)s is missing: give every seat of %(side)s, or %(side)s as a whole"), key=key, missing=missing[0], side=side),
                    )
                )
                ok = False
            else:
                out[side] = sum(seats_given.values())
        else:
            errors.append(FieldError(f"{key}.{side}", "required", Text(gettext_noop("%(key)s for %(side)s is missing"), key=key, side=side)))
            ok = False
    return out if ok else None


def _meld_check(rs: Ruleset, bidder: str | None) -> _Check:
    """A side's (or seat's) meld against what its cards can show. With a widow, only the
    declarer melds with it: a defender's meld is checked against a hand without it."""
    declaring = rs.side_of(bidder) if bidder is not None else None

    def check(value: int, field: str, one_player: bool, side: str) -> FieldError | None:
        cards = None
        # a defender holds no widow: exact for one player; a team's total is checked against
        # the bound of its hands (which allows for the widow), a superset
        defender = rs.widow and declaring is not None and side != declaring
        if defender and (one_player or rs.individual):
            cards = rs.hand_size
        try:
            check_meld_total(value, rs, field, player=one_player, cards=cards)
        except RulesError as exc:
            return exc.errors[0]
        return None

    return check


def _at_most(name: str, limit: int, what: str) -> _Check:
    def check(value: int, field: str, one_player: bool, side: str) -> FieldError | None:
        if value > limit:
            return FieldError(
                field, "too_high", Text(gettext_noop("%(value)s is more %(name)s than %(what)s (%(limit)s)"), value=shown(value), name=name, what=what, limit=limit)
            )
        return None

    return check


def _counter_check(rs: Ruleset) -> _Check:
    """Counters are at most every counter in the hand, in the units cards count in."""
    total, unit = rs.counters_total, rs.counter_unit

    def check(value: int, field: str, one_player: bool, side: str) -> FieldError | None:
        if value > total:
            return FieldError(
                field, "too_high", Text(gettext_noop("%(value)s is more counters than a hand "
                                                     "holds (%(total)s)"),
                                        value=shown(value), total=total)
            )
        if unit > 1 and value % unit:
            return FieldError(
                field,
                "not_multiple",
                Text(gettext_noop("%(value)s counters cannot be taken here: every card and the "
                                  "last trick count in multiples of %(unit)s, so counters are a "
                                  "multiple of %(unit)s"), value=shown(value), unit=unit),
            )
        return None

    return check


def top_counters(rs: Ruleset) -> list[int]:
    """Entry n: the most counters ``n`` cards of the deck can hold (the best ones)."""

    def build() -> list[int]:
        values = sorted((rs.counter_values[c % 6] for c in rs.deck.cards()), reverse=True)
        best = [0]
        for v in values:
            best.append(best[-1] + v)
        return best

    best: list[int] = rs.memo("top_counters", build)
    return best


def _top_counters(rs: Ruleset, cards: int) -> int:
    """The most counters ``cards`` cards of the deck can hold (the best ones)."""
    best = top_counters(rs)
    return best[min(cards, len(best) - 1)]


def _counters_fit_tricks(
    counters: Mapping[str, int] | None,
    tricks: Mapping[str, int] | None,
    bidder: str | None,
    rs: Ruleset,
    errors: list[FieldError],
) -> None:
    """Counters a side could hold with the tricks it took: none without a trick (save the
    declarer's discards, which count for the declarer), and at most the best cards of its
    tricks plus the last trick."""
    if counters is None or tricks is None or bidder is None:
        return
    declaring = rs.side_of(bidder)
    for side in rs.sides:
        took = tricks[side]
        discards = rs.widow if side == declaring else 0
        cap = _top_counters(rs, took * rs.players + discards)
        if took:
            cap += rs.last_trick
        cap = min(cap, rs.counters_total)
        if counters[side] <= cap:
            continue
        why: Text
        if not took and discards:
            why = Text(gettext_noop("%(side)s took no trick, so only the %(discards)s discarded "
                                    "cards count for %(side)s: at most %(cap)s"),
                       side=side, discards=discards, cap=cap)
        elif not took:
            why = Text(gettext_noop("%(side)s took no trick, so %(side)s holds no counters"),
                       side=side)
        elif discards:
            why = Text(gettext_noop("%(side)s took 1 trick and discarded %(discards)s cards: at "
                                    "most %(cap)s counters"), side=side, discards=discards,
                       cap=cap) if took == 1 else Text(
                gettext_noop("%(side)s took %(took)s tricks and discarded %(discards)s cards: "
                             "at most %(cap)s counters"),
                side=side, took=took, discards=discards, cap=cap)
        else:
            why = Text(gettext_noop("%(side)s took 1 trick: at most %(cap)s counters"),
                       side=side, cap=cap) if took == 1 else Text(
                gettext_noop("%(side)s took %(took)s tricks: at most %(cap)s counters"),
                side=side, took=took, cap=cap)
        errors.append(
            FieldError(
                f"counters.{side}",
                "impossible",
                Text(gettext_noop("%(value)s counters for %(side)s cannot be: %(why)s (check counters and tricks)"), value=shown(counters[side]), side=side, why=why),
            )
        )


def _adds_up(
    values: Mapping[str, int] | None, name: str, total: int, errors: list[FieldError]
) -> None:
    if values is None:
        return
    got = sum(values.values())
    if got != total:
        errors.append(
            FieldError(name, "bad_sum", Text(gettext_noop("%(name)s must add up to %(total)s, "
                                                          "got %(got)s"),
                                             name=name, total=total, got=shown(got)))
        )


# --- the hand ---------------------------------------------------------------------------------


def table_of(ruleset: Ruleset, seats: Sequence[str] | None) -> tuple[str, ...]:
    """The table's seats, checked against the ruleset; RulesError on field ``seats``."""
    rs = ruleset
    if seats is None:
        return rs.seats
    given = [x.strip().upper() if isinstance(x, str) else x for x in seats]
    try:
        table = rs.seats_for(len(given))
    except ValueError:
        sizes = " or ".join(str(n) for n in rs.table_sizes)
        raise RulesError.single(
            "seats",
            "bad_table",
            Text(gettext_noop("%(name)s seats %(sizes)s players at a table, not %(count)s"),
                 name=rs.name, sizes=sizes, count=len(given)) if len(rs.table_sizes) > 1
            else Text(gettext_noop("%(name)s seats %(sizes)s players at a table, not %(count)s "
                                   "(see the option sit_out)"),
                      name=rs.name, sizes=sizes, count=len(given)),
        ) from None
    if tuple(given) != table:
        raise RulesError.single(
            "seats",
            "bad_table",
            Text(gettext_noop("a table of %(count)s sits at %(values)s (clockwise), not %(values2)s"), count=len(table), values=', '.join(table), values2=', '.join(shown(x) for x in seats)),
        )
    return table


def parse_hand(
    data: Mapping[str, object], ruleset: Ruleset, seats: Sequence[str] | None = None
) -> Hand:
    """Validate a hand as entered (the CLI/JSON shape) and build a :class:`Hand`.

    ``seats`` is the table's seats (default the ruleset's own, :attr:`Ruleset.seats`). At a
    table of one more than the ruleset deals to (``sit_out="dealer"``), the dealer is required
    and sits the hand out: every other seat field and per-side value names the playing seats,
    and naming the dealer there is an error (code ``sitting_out``).

    Raises :class:`RulesError` listing every problem found, each naming its field.
    """
    table = table_of(ruleset, seats)
    rs = ruleset
    if not isinstance(data, Mapping):
        raise RulesError.single("hand", "bad_type", Text(gettext_noop("a hand must be a JSON object")))
    if len(data) > _MAX_KEYS:
        raise RulesError.single(
            "hand",
            "bad_type",
            Text(gettext_noop("a hand has at most %(value)s fields, got %(count)s"), value=len(HAND_FIELDS) + 1, count=format(len(data), ',')),
        )
    errors: list[FieldError] = []
    raw_outcome = data.get("outcome")
    outcome = Outcome.PLAYED if raw_outcome is None else _read_outcome(raw_outcome)
    if outcome is None:
        errors.append(FieldError("outcome", "bad_choice", _bad_outcome(raw_outcome)))
    given = _given_fields(data, outcome, rs, errors)

    known = outcome is not None
    contract = known and outcome not in _NO_CONTRACT
    played = outcome in (Outcome.PLAYED, Outcome.RENEGE)
    sit_out = len(table) > rs.players
    dealer = _seat(given, "dealer", rs, errors, required=sit_out, seats=table)
    # the dealer's privilege in the auction (dealer_opens_lower) is the last bidder's
    last_to_bid = dealer
    if sit_out:
        if dealer is None:
            # who plays is unknown until the dealer is: the other fields cannot be checked yet
            raise RulesError(errors)
        rs = rs.for_hand(table, dealer)
        last_to_bid = table[table.index(dealer) - 1]
    bidder = _seat(given, "bidder", rs, errors, required=contract)
    partner = None
    if rs.called_partner:
        # five-handed: the bidder and the called partner are one side for this hand; meld and
        # counters stay per player here (each checked as one hand) and are added up when scored
        partner = _seat(given, "partner", rs, errors, required=contract)
    bid = _bid(given, rs, errors, required=contract, dealer=last_to_bid, bidder=bidder)
    trump = _trump(given, errors, required=played)
    meld = _per_side(given, "meld", rs, errors, required=played, check=_meld_check(rs, bidder))
    renege_seat = _seat(given, "renege_seat", rs, errors, required=outcome is Outcome.RENEGE)
    # a renege by the declaring side is scored from the counters only when it is an ordinary set
    needs_counters = outcome is Outcome.PLAYED or (
        outcome is Outcome.RENEGE
        and renege_seat is not None
        and bidder is not None
        and rs.side_of(renege_seat) == rs.side_of(bidder)
        and rs.renege_declarer == "set"
    )
    total = rs.counters_total
    counters = _per_side(
        given,
        "counters",
        rs,
        errors,
        required=needs_counters,
        check=_counter_check(rs),
    )
    _adds_up(counters, "counters", total, errors)
    # who saved meld (or took every trick) is read from tricks, never guessed from counters
    if outcome is Outcome.PLAYED and needs_tricks(rs) and "tricks" not in given:
        example = ", ".join(f'"{s}": 0' for s in rs.sides)
        why = (
            "a player must take a trick to save meld"
            if rs.meld_needs_trick
            else "taking every trick counts here"
        )
        errors.append(
            FieldError(
                "tricks",
                "required",
                Text(gettext_noop("tricks is missing: %(why)s, so give the tricks each side took (they add up to %(hand_size)s), e.g. {%(example)s}"), why=why, hand_size=rs.hand_size, example=example),
            )
        )
    tricks = _per_side(
        given,
        "tricks",
        rs,
        errors,
        required=False,
        check=_at_most("tricks", rs.hand_size, "a deal has"),
    )
    _adds_up(tricks, "tricks", rs.hand_size, errors)
    if (
        counters is not None
        and sum(counters.values()) == total
        and tricks is not None
        and sum(tricks.values()) == rs.hand_size
    ):
        _counters_fit_tricks(counters, tricks, bidder, rs, errors)
    quad = _quadruple_run(given, rs, errors)
    misdeal_seat = _seat(
        given, "misdeal_seat", rs, errors, required=outcome is Outcome.TECHNICAL_MISDEAL
    )
    if outcome is Outcome.TECHNICAL_MISDEAL and rs.misdeal_rule == "none":
        errors.append(
            FieldError(
                "outcome",
                "not_in_ruleset",
                Text(gettext_noop("this ruleset lets no player call a misdeal on the cards dealt (option misdeal_rule)")),
            )
        )
    widow_seen = _widow_seen(given, rs, bid, errors)
    check_melds = None
    if "check_melds" in given:
        key, raw = given["check_melds"]
        check_melds = parse_check_melds(raw, key, rs, errors)
    elif contract and rs.checks:
        check_melds = dict.fromkeys(rs.sides, ())
    if check_melds is not None:
        _check_melds_fit(check_melds, meld, trump, bidder, rs, errors)
    if outcome is Outcome.NO_MARRIAGE and not rs.trump_marriage_required:
        errors.append(
            FieldError(
                "outcome",
                "not_in_ruleset",
                Text(gettext_noop("this ruleset does not require a marriage in trump, so a hand cannot be board set for the lack of one")),
            )
        )
    if errors:
        raise RulesError(errors)
    assert outcome is not None
    if meld is None:
        meld = {} if outcome in _NO_CONTRACT else dict.fromkeys(rs.sides, 0)
    return Hand(
        dealer=dealer,
        bidder=bidder,
        bid=bid,
        trump=trump,
        meld=meld,
        counters=counters,
        outcome=outcome,
        renege_seat=renege_seat,
        quadruple_run=quad,
        tricks=tricks,
        seats=table if sit_out else None,
        misdeal_seat=misdeal_seat,
        widow_seen=widow_seen,
        check_melds=check_melds,
        partner=partner,
    )


def _widow_seen(
    given: Mapping[str, tuple[str, object]],
    rs: Ruleset,
    bid: int | None,
    errors: list[FieldError],
) -> bool | None:
    """``widow_seen``: false only for a concession at the opening minimum (the declarer forced
    to bid may throw the hand in without turning up the widow)."""
    if "widow_seen" not in given:
        return None
    key, raw = given["widow_seen"]
    if not isinstance(raw, bool):
        errors.append(
            FieldError(key, "bad_type", Text(gettext_noop("%(key)s must be true or false, got %(value)s"), key=key, value=shown(raw)))
        )
        return None
    if not raw and bid is not None and bid != rs.min_bid:
        errors.append(
            FieldError(
                key,
                "not_minimum",
                Text(gettext_noop("only a declarer held to the opening minimum of %(min_bid)s may concede without looking at the widow; the bid is %(bid)s"), min_bid=rs.min_bid, bid=bid),
            )
        )
        return None
    return raw


def _check_melds_fit(
    check_melds: Mapping[str, tuple[str, ...]],
    meld: Mapping[str, int] | None,
    trump: str | None,
    bidder: str | None,
    rs: Ruleset,
    errors: list[FieldError],
) -> None:
    """Each player's check melds against the meld entered and the cards the player melds from
    (a declarer with a widow melds from it too)."""
    declaring = rs.side_of(bidder) if bidder is not None else None
    for side, names in check_melds.items():
        cards = rs.hand_size + (rs.widow if side == declaring or declaring is None else 0)
        problem = check_melds_fit(
            names,
            None if meld is None else meld.get(side),
            trump,
            cards,
            f"check_melds.{side}",
            rs,
        )
        if problem is not None:
            errors.append(problem)
