"""Trick play: find the first renege in a played-out deal.

Following rules (``head_rule="always"``, pagat): follow suit and beat the best card of the led
suit if you can (unless the trick is already trumped); void in the led suit, play a trump and beat
the best trump already played if you can; with neither, play anything. Under
``head_rule="trump_led"`` (post-1945 books) you must still follow suit and trump when void, but
must beat the trick only when trump was led. Of identical cards the one played first wins.

Each obligation (``follow_suit``, ``must_head``, ``must_trump``, ``must_overtrump``) is one entry
of a table: when it applies to a player's hand and which cards satisfy it. :func:`legal_cards`
and :func:`broken_rule` both read that table, so the two can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, NotRequired, TypedDict

from .cards import Deck, card_str, check_pack, parse_card, parse_cards, parse_suit
from .errors import FieldError, RulesError
from .i18n import Text, gettext_noop
from .inputs import key_text, shown
from .rulesets import Ruleset

__all__ = ["Renege", "PlayResult", "check_play", "trick_winner", "legal_cards", "broken_rule"]


class RenegeDict(TypedDict):
    """The first illegal play as :meth:`Renege.to_dict` writes it (``field`` names the card in
    the input)."""

    trick: int
    seat: str
    card: str
    rule: str
    field: str
    message: str


class PlayDict(TypedDict):
    """A play check as :meth:`PlayResult.to_dict` writes it."""

    legal: bool
    renege: NotRequired[RenegeDict]
    winners: list[str]
    counters: NotRequired[dict[str, int]]


@dataclass(frozen=True, slots=True)
class Renege:
    """The first illegal play: ``trick`` counts from 1; ``rule`` is the obligation broken."""

    trick: int
    seat: str
    card: str
    rule: str
    message: str
    position: int = 0

    def to_dict(self) -> RenegeDict:
        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": self.card,
            "rule": self.rule,
            "field": f"tricks[{self.trick - 1}][{self.position}]",
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class PlayResult:
    legal: bool
    renege: Renege | None
    winners: tuple[str, ...]
    counters: dict[str, int] | None

    def to_dict(self) -> PlayDict:
        # the keys in this order: legal, renege (when there is one), winners, counters
        d: PlayDict
        if self.renege is None:
            d = {"legal": self.legal, "winners": list(self.winners)}
        else:
            d = {"legal": self.legal, "renege": self.renege.to_dict(),
                 "winners": list(self.winners)}
        if self.counters is not None:
            d["counters"] = dict(self.counters)
        return d


def _strength(card: int) -> int:
    return 5 - card % 6


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that wins the trick; the first of equal cards wins."""
    led = cards[0] // 6
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        cs, bs = c // 6, b // 6
        if cs == bs:
            if _strength(c) > _strength(b):
                best = i
        elif cs == trump and bs != trump or cs == led and bs not in (led, trump):
            best = i
    return best


# --- the obligations --------------------------------------------------------------------------


class _Spot(NamedTuple):
    """What a player faces: the suit led, trump, the card winning so far, whether it must be
    beaten, and whether the player's hand can follow suit or trump."""

    led: int
    trump: int
    win: int
    head: bool
    follows: bool
    trumps: bool


def _spot(hand: Sequence[int], played: Sequence[int], trump: int, head_rule: str) -> _Spot:
    led = played[0] // 6
    suits = {c // 6 for c in hand}
    return _Spot(
        led,
        trump,
        played[trick_winner(played, trump)],
        head_rule == "always" or led == trump,
        led in suits,
        trump in suits,
    )


def _beats(card: int, win: int) -> bool:
    return card % 6 < win % 6  # a lower rank number is a stronger card


def _can_beat_in(hand: Sequence[int], suit: int, win: int) -> bool:
    rank = win % 6
    return any(c // 6 == suit and c % 6 < rank for c in hand)


def _follow_applies(hand: Sequence[int], t: _Spot) -> bool:
    return t.follows


def _follow_ok(card: int, t: _Spot) -> bool:
    return card // 6 == t.led


def _head_applies(hand: Sequence[int], t: _Spot) -> bool:
    # a trick already trumped (win not of the led suit) need not be headed in the led suit
    return t.head and t.win // 6 == t.led and _can_beat_in(hand, t.led, t.win)


def _beats_ok(card: int, t: _Spot) -> bool:
    return _beats(card, t.win)


def _trump_applies(hand: Sequence[int], t: _Spot) -> bool:
    return not t.follows and t.trumps


def _trump_ok(card: int, t: _Spot) -> bool:
    return card // 6 == t.trump


def _overtrump_applies(hand: Sequence[int], t: _Spot) -> bool:
    return not t.follows and t.head and t.win // 6 == t.trump and _can_beat_in(hand, t.trump, t.win)


# (name, applies to this hand, card satisfies it), strictest last: a card must satisfy every
# obligation that applies, and the first one it breaks is the one reported.
_OBLIGATIONS: tuple[
    tuple[str, Callable[[Sequence[int], _Spot], bool], Callable[[int, _Spot], bool]], ...
] = (
    ("follow_suit", _follow_applies, _follow_ok),
    ("must_head", _head_applies, _beats_ok),
    ("must_trump", _trump_applies, _trump_ok),
    ("must_overtrump", _overtrump_applies, _beats_ok),
)


def legal_cards(
    hand: Sequence[int], played: Sequence[int], trump: int, head_rule: str = "always"
) -> tuple[list[int], str | None]:
    """Cards of ``hand`` that may be played to a trick already holding ``played``.

    Returns the legal cards and the obligation that restricts them (None: anything goes).
    """
    if not played:
        return list(hand), None
    t = _spot(hand, played, trump, head_rule)
    rules = [(name, ok) for name, applies, ok in _OBLIGATIONS if applies(hand, t)]
    if not rules:
        return list(hand), None
    allowed = [c for c in hand if all(ok(c, t) for _, ok in rules)]
    return allowed, rules[-1][0]


def broken_rule(
    hand: Sequence[int], played: Sequence[int], card: int, trump: int, head_rule: str = "always"
) -> str | None:
    """The obligation that playing ``card`` breaks, or None if the play is legal."""
    if not played:
        return None
    t = _spot(hand, played, trump, head_rule)
    for name, applies, ok in _OBLIGATIONS:
        if not ok(card, t) and applies(hand, t):
            return name
    return None


_RULE_TEXT = {
    "follow_suit": Text(gettext_noop("had to follow suit")),
    "must_head": Text(gettext_noop("had to beat the best card of the suit led")),
    "must_trump": Text(gettext_noop("was void in the suit led and had to trump")),
    "must_overtrump": Text(gettext_noop("had to beat the trump already played")),
}


# --- reading the deal -------------------------------------------------------------------------


def _read_trump(trump: object, errors: list[FieldError]) -> int | None:
    if isinstance(trump, int) and not isinstance(trump, bool) and 0 <= trump < 4:
        return trump
    try:
        return parse_suit(trump)
    except RulesError as exc:
        errors.extend(exc.errors)
        return None


def _read_leader(leader: object, rs: Ruleset, errors: list[FieldError]) -> str | None:
    seat = leader.strip().upper() if isinstance(leader, str) and len(leader) <= 10 else ""
    if seat in rs.seats:
        return seat
    errors.append(
        FieldError(
            "leader", "bad_seat", Text(gettext_noop("%(value)s is not a seat here; use %(values)s"), value=shown(leader), values=', '.join(rs.seats))
        )
    )
    return None


def _cards_of(rs: Ruleset) -> Deck | None:
    """The deck a card token is checked against: none in a pack with nines added (racehorse),
    whose every card is then checked by :func:`check_pack`."""
    return None if rs.nines_added else rs.deck


def _read_hands(hands: object, rs: Ruleset, errors: list[FieldError]) -> dict[str, list[int]]:
    if not isinstance(hands, Mapping):
        errors.append(FieldError("hands", "bad_type", Text(gettext_noop("hands must map each seat to its cards"))))
        return {}
    if len(hands) > 2 * len(rs.seats):
        errors.append(
            FieldError(
                "hands",
                "bad_type",
                Text(gettext_noop("%(count)s hands given; there are %(count2)s seats here"), count=format(len(hands), ','), count2=len(rs.seats)),
            )
        )
        return {}
    for key in hands:
        if key not in rs.seats:
            errors.append(
                FieldError(
                    f"hands.{key_text(key)}",
                    "bad_seat",
                    Text(gettext_noop("%(value)s is not a seat here; use %(values)s"), value=shown(key), values=', '.join(rs.seats)),
                )
            )
    held: dict[str, list[int]] = {}
    for seat in rs.seats:
        raw = hands.get(seat)
        fld = f"hands.{seat}"
        if raw is None:
            errors.append(FieldError(fld, "required", Text(gettext_noop("the hand of %(seat)s is missing"), seat=seat)))
        elif isinstance(raw, str) or not isinstance(raw, Sequence):
            errors.append(FieldError(fld, "bad_type", Text(gettext_noop("a hand is a list of cards"))))
        elif len(raw) > rs.hand_size:
            # size first: a huge list is refused before any card in it is read
            errors.append(
                FieldError(
                    fld,
                    "too_many_cards",
                    Text(gettext_noop("each player holds %(hand_size)s cards here, got %(count)s"), hand_size=rs.hand_size, count=format(len(raw), ',')),
                )
            )
        else:
            try:
                held[seat] = parse_cards(raw, _cards_of(rs), fld)
                check_pack(held[seat], rs.deck, rs.nines_added, fld)
            except RulesError as exc:
                errors.extend(exc.errors)
    if len(held) == len(rs.seats):
        sizes = {len(h) for h in held.values()}
        if len(sizes) > 1:
            errors.append(
                FieldError(
                    "hands",
                    "unequal_hands",
                    Text(gettext_noop("every player must hold the same number of cards, got "
                                      "%(counts)s"),
                         counts=", ".join(f"{s} {len(h)}" for s, h in held.items())),
                )
            )
        try:
            check_pack([c for h in held.values() for c in h], rs.deck, rs.nines_added, "hands")
        except RulesError as exc:
            errors.extend(exc.errors)
    return held


def _read_tricks(tricks: object, rs: Ruleset, errors: list[FieldError]) -> list[list[int]]:
    if not isinstance(tricks, Sequence) or isinstance(tricks, str):
        errors.append(FieldError("tricks", "bad_type", Text(gettext_noop("tricks must be a list of tricks"))))
        return []
    if len(tricks) > rs.hand_size:
        errors.append(
            FieldError(
                "tricks",
                "too_many_tricks",
                Text(gettext_noop("a deal has %(hand_size)s tricks here, got %(count)s"), hand_size=rs.hand_size, count=format(len(tricks), ',')),
            )
        )
        return []
    n = len(rs.seats)
    parsed: list[list[int]] = []
    for i, trick in enumerate(tricks):
        if isinstance(trick, str) or not isinstance(trick, Sequence):
            errors.append(FieldError(f"tricks[{i}]", "bad_type", Text(gettext_noop("a trick is a list of cards"))))
            continue
        if len(trick) > n or (len(trick) < n and i != len(tricks) - 1) or not trick:
            errors.append(
                FieldError(
                    f"tricks[{i}]",
                    "bad_trick",
                    Text(gettext_noop("trick %(value)s has %(count)s cards; each trick has %(n)s"), value=i + 1, count=format(len(trick), ','), n=n),
                )
            )
            continue
        row: list[int] = []
        for j, tok in enumerate(trick):
            try:
                row.append(parse_card(tok, f"tricks[{i}][{j}]", _cards_of(rs)))
            except RulesError as exc:
                errors.extend(exc.errors)
        parsed.append(row)
    return parsed


# --- replaying the tricks ---------------------------------------------------------------------


def _replay(
    trump: int, leader: str, held: Mapping[str, list[int]], tricks: list[list[int]], rs: Ruleset
) -> PlayResult:
    remaining = {s: list(h) for s, h in held.items()}
    n = len(rs.seats)
    seat = leader
    winners: list[str] = []
    taken = dict.fromkeys(rs.sides, 0)
    cv = rs.counter_values
    for i, trick in enumerate(tricks):
        order = [seat]
        while len(order) < n:
            order.append(rs.next_dealer(order[-1]))
        for j, card in enumerate(trick):
            who = order[j]
            hand = remaining[who]
            if card not in hand:
                raise RulesError.single(
                    f"tricks[{i}][{j}]",
                    "not_in_hand",
                    Text(gettext_noop("trick %(value)s: %(who)s plays %(value2)s but does not hold it (any more)"), value=i + 1, who=who, value2=card_str(card)),
                )
            rule = broken_rule(hand, trick[:j], card, trump, rs.head_rule)
            if rule is not None:
                allowed, _ = legal_cards(hand, trick[:j], trump, rs.head_rule)
                msg = Text(gettext_noop("trick %(number)s: %(who)s played %(card)s but %(rule)s "
                                        "(could play %(cards)s)"),
                           number=i + 1, who=who, card=card_str(card), rule=_RULE_TEXT[rule],
                           cards=", ".join(sorted({card_str(c) for c in allowed})))
                return PlayResult(
                    False, Renege(i + 1, who, card_str(card), rule, msg, j), tuple(winners), None
                )
            hand.remove(card)
        if len(trick) < n:
            break
        w = order[trick_winner(trick, trump)]
        winners.append(w)
        taken[rs.side_of(w)] += sum(cv[c % 6] for c in trick)
        seat = w
    complete = all(not h for h in remaining.values()) and bool(winners)
    if complete:
        taken[rs.side_of(winners[-1])] += rs.last_trick
    return PlayResult(True, None, tuple(winners), taken if complete else None)


def check_play(
    trump: object,
    leader: object,
    hands: Mapping[str, Sequence[int | str]],
    tricks: Sequence[Sequence[int | str]],
    ruleset: Ruleset,
) -> PlayResult:
    """Replay the tricks from the dealt hands and report the first renege, if any.

    ``tricks`` list each trick's cards in the order played, starting with its leader: ``leader``
    leads the first trick and each trick's winner leads the next. Cards not in the player's hand,
    unequal hands, or too many copies are input errors (:class:`RulesError`), not reneges.
    ``trump`` is a suit (``H``, ``♥``) or its index 0-3.
    """
    rs = ruleset
    errors: list[FieldError] = []
    t = _read_trump(trump, errors)
    lead_seat = _read_leader(leader, rs, errors)
    held = _read_hands(hands, rs, errors)
    parsed = _read_tricks(tricks, rs, errors)
    if errors:
        raise RulesError(errors)
    assert t is not None and lead_seat is not None
    return _replay(t, lead_seat, held, parsed, rs)
