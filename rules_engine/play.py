"""Trick play: find the first renege in a played-out deal (DESIGN §4.3).

Following rules (``head_rule="always"``, pagat): follow suit and beat the best card of the led
suit if you can (unless the trick is already trumped); void in the led suit, play a trump and beat
the best trump already played if you can; with neither, play anything. Under
``head_rule="trump_led"`` (post-1945 books) you must still follow suit and trump when void, but
must beat the trick only when trump was led. Of identical cards the one played first wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import card_str, parse_card, parse_cards, parse_suit
from .errors import FieldError, RulesError
from .rulesets import Ruleset

__all__ = ["Renege", "PlayResult", "check_play", "trick_winner", "legal_cards", "broken_rule"]


@dataclass(frozen=True, slots=True)
class Renege:
    """The first illegal play: ``trick`` counts from 1; ``rule`` is the obligation broken."""

    trick: int
    seat: str
    card: str
    rule: str
    message: str
    position: int = 0

    def to_dict(self) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"legal": self.legal}
        if self.renege is not None:
            d["renege"] = self.renege.to_dict()
        d["winners"] = list(self.winners)
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


def legal_cards(
    hand: Sequence[int], played: Sequence[int], trump: int, head_rule: str = "always"
) -> tuple[list[int], str | None]:
    """Cards of ``hand`` that may be played to a trick already holding ``played``.

    Returns the legal cards and the obligation that restricts them (None: anything goes).
    """
    if not played:
        return list(hand), None
    led = played[0] // 6
    win = played[trick_winner(played, trump)]
    win_suit = win // 6
    must_head = head_rule == "always" or led == trump
    follow = [c for c in hand if c // 6 == led]
    if follow:
        if win_suit == led and must_head:
            higher = [c for c in follow if _strength(c) > _strength(win)]
            if higher:
                return higher, "must_head"
        return follow, "follow_suit"
    trumps = [c for c in hand if c // 6 == trump]
    if trumps:
        if win_suit == trump and must_head:
            higher = [c for c in trumps if _strength(c) > _strength(win)]
            if higher:
                return higher, "must_overtrump"
        return trumps, "must_trump"
    return list(hand), None


def broken_rule(
    hand: Sequence[int], played: Sequence[int], card: int, trump: int, head_rule: str = "always"
) -> str | None:
    """The obligation that playing ``card`` breaks, or None if the play is legal."""
    if not played:
        return None
    led = played[0] // 6
    win = played[trick_winner(played, trump)]
    must_head = head_rule == "always" or led == trump
    suit = card // 6
    if any(c // 6 == led for c in hand):
        if suit != led:
            return "follow_suit"
        if (
            must_head
            and win // 6 == led
            and _strength(card) <= _strength(win)
            and any(c // 6 == led and _strength(c) > _strength(win) for c in hand)
        ):
            return "must_head"
        return None
    if any(c // 6 == trump for c in hand):
        if suit != trump:
            return "must_trump"
        if (
            must_head
            and win // 6 == trump
            and _strength(card) <= _strength(win)
            and any(c // 6 == trump and _strength(c) > _strength(win) for c in hand)
        ):
            return "must_overtrump"
    return None


_RULE_TEXT = {
    "follow_suit": "had to follow suit",
    "must_head": "had to beat the best card of the suit led",
    "must_trump": "was void in the suit led and had to trump",
    "must_overtrump": "had to beat the trump already played",
}


def check_play(
    trump: int | str,
    leader: str,
    hands: Mapping[str, Sequence[int | str]],
    tricks: Sequence[Sequence[int | str]],
    ruleset: Ruleset,
) -> PlayResult:
    """Replay the tricks from the dealt hands and report the first renege, if any.

    ``tricks`` list each trick's cards in the order played, starting with its leader: ``leader``
    leads the first trick and each trick's winner leads the next. Cards not in the player's hand,
    unequal hands, or too many copies are input errors (:class:`RulesError`), not reneges.
    """
    rs = ruleset
    errors: list[FieldError] = []
    t: int | None = None
    try:
        t = trump if isinstance(trump, int) and not isinstance(trump, bool) else parse_suit(trump)
    except RulesError as exc:
        errors.extend(exc.errors)
    lead_seat = leader.strip().upper() if isinstance(leader, str) else ""
    if lead_seat not in rs.seats:
        errors.append(
            FieldError(
                "leader", "bad_seat", f"{leader!r} is not a seat here; use {', '.join(rs.seats)}"
            )
        )
    held: dict[str, list[int]] = {}
    if not isinstance(hands, Mapping):
        errors.append(FieldError("hands", "bad_type", "hands must map each seat to its cards"))
        hands = {}
    for key in hands:
        if not isinstance(key, str) or key.strip().upper() not in rs.seats:
            errors.append(FieldError(f"hands.{key}", "bad_seat", f"{key!r} is not a seat here"))
    for seat in rs.seats:
        raw = hands.get(seat)
        if raw is None:
            errors.append(FieldError(f"hands.{seat}", "required", f"the hand of {seat} is missing"))
            continue
        if isinstance(raw, str) or not isinstance(raw, Sequence):
            errors.append(FieldError(f"hands.{seat}", "bad_type", "a hand is a list of cards"))
            continue
        try:
            held[seat] = parse_cards(raw, rs.deck, f"hands.{seat}")
        except RulesError as exc:
            errors.extend(exc.errors)
    if len(held) == len(rs.seats):
        sizes = {len(h) for h in held.values()}
        if len(sizes) > 1:
            errors.append(
                FieldError(
                    "hands",
                    "unequal_hands",
                    "every player must hold the same number of cards, got "
                    + ", ".join(f"{s} {len(h)}" for s, h in held.items()),
                )
            )
        elif max(sizes) > rs.hand_size:
            errors.append(
                FieldError(
                    "hands",
                    "too_many_cards",
                    f"each player holds {rs.hand_size} cards here, got {max(sizes)}",
                )
            )
        try:
            from .cards import check_copies

            check_copies([c for h in held.values() for c in h], rs.deck, "hands")
        except RulesError as exc:
            errors.extend(exc.errors)
    if not isinstance(tricks, Sequence) or isinstance(tricks, str):
        errors.append(FieldError("tricks", "bad_type", "tricks must be a list of tricks"))
        tricks = []
    parsed_tricks: list[list[int]] = []
    n = len(rs.seats)
    for i, trick in enumerate(tricks):
        if isinstance(trick, str) or not isinstance(trick, Sequence):
            errors.append(FieldError(f"tricks[{i}]", "bad_type", "a trick is a list of cards"))
            continue
        if len(trick) > n or (len(trick) < n and i != len(tricks) - 1) or not trick:
            errors.append(
                FieldError(
                    f"tricks[{i}]",
                    "bad_trick",
                    f"trick {i + 1} has {len(trick)} cards; each trick has {n}",
                )
            )
            continue
        row: list[int] = []
        for j, tok in enumerate(trick):
            try:
                row.append(parse_card(tok, f"tricks[{i}][{j}]", rs.deck))
            except RulesError as exc:
                errors.extend(exc.errors)
        parsed_tricks.append(row)
    if errors:
        raise RulesError(errors)
    assert t is not None
    remaining = {s: list(h) for s, h in held.items()}
    seat = lead_seat
    winners: list[str] = []
    taken = dict.fromkeys(rs.sides, 0)
    cv = rs.counter_values
    for i, trick in enumerate(parsed_tricks):
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
                    f"trick {i + 1}: {who} plays {card_str(card)} but does not hold it (any more)",
                )
            rule = broken_rule(hand, trick[:j], card, t, rs.head_rule)
            if rule is not None:
                allowed, _ = legal_cards(hand, trick[:j], t, rs.head_rule)
                msg = (
                    f"trick {i + 1}: {who} played {card_str(card)} but "
                    f"{_RULE_TEXT[rule]} (could play "
                    f"{', '.join(sorted({card_str(c) for c in allowed}))})"
                )
                return PlayResult(
                    False, Renege(i + 1, who, card_str(card), rule, msg, j), tuple(winners), None
                )
            hand.remove(card)
        if len(trick) < n:
            break
        w = order[trick_winner(trick, t)]
        winners.append(w)
        side = rs.side_of(w)
        taken[side] += sum(cv[c % 6] for c in trick)
        seat = w
    complete = all(not h for h in remaining.values()) and bool(winners)
    if complete:
        taken[rs.side_of(winners[-1])] += rs.last_trick
    return PlayResult(True, None, tuple(winners), taken if complete else None)
