"""The auction: validate a sequence of calls and find the contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from .bids import bids_above, check_bid
from .errors import RulesError
from .i18n import Text, gettext_noop
from .inputs import shown, whole_number
from .rulesets import Ruleset

__all__ = ["Call", "AuctionResult", "validate_auction"]

_PASS_WORDS = {"pass", "p", "-", "no", "no bid", "nobid"}


class CallDict(TypedDict):
    """A call as :meth:`Call.to_dict` writes it: ``call`` is the bid or ``"pass"``."""

    seat: str
    call: int | str
    forced: NotRequired[bool]


class AuctionDict(TypedDict):
    """An auction's result as :meth:`AuctionResult.to_dict` writes it."""

    declarer: str | None
    bid: int | None
    dealer: str
    complete: bool
    dealer_stuck: bool
    redeal: bool
    next: str | None
    calls: list[CallDict]


@dataclass(frozen=True, slots=True)
class Call:
    seat: str
    bid: int | None  # None = pass
    forced: bool = False

    def to_dict(self) -> CallDict:
        d: CallDict = {"seat": self.seat, "call": "pass" if self.bid is None else self.bid}
        if self.forced:
            d["forced"] = True
        return d


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """The contract, if the auction is over; ``redeal`` when everybody passed and nobody is stuck."""

    dealer: str
    declarer: str | None
    bid: int | None
    complete: bool
    next_seat: str | None
    calls: tuple[Call, ...]
    dealer_stuck: bool = False
    redeal: bool = False

    def to_dict(self) -> AuctionDict:
        return {
            "declarer": self.declarer,
            "bid": self.bid,
            "dealer": self.dealer,
            "complete": self.complete,
            "dealer_stuck": self.dealer_stuck,
            "redeal": self.redeal,
            "next": self.next_seat,
            "calls": [c.to_dict() for c in self.calls],
        }


def _parse_call(raw: object, index: int, rs: Ruleset) -> tuple[str | None, int | None]:
    """(seat named in the call or None, bid or None for pass)."""
    field = f"calls[{index}]"
    seat: str | None = None
    value: object = raw
    if isinstance(raw, str):
        text = raw.strip()
        head, sep, tail = text.partition(":")
        if sep and head.strip().upper() in rs.seats:
            seat = head.strip().upper()
            text = tail.strip()
        if text.lower() in _PASS_WORDS:
            return seat, None
        number = whole_number(text)
        if number is not None:
            return seat, number
        value = text
    elif isinstance(raw, int) and not isinstance(raw, bool):
        return None, raw
    elif raw is None:
        return None, None
    raise RulesError.single(
        field, "bad_call", Text(gettext_noop("%(value)s is not a call: give a number or pass"), value=shown(value))
    )


def validate_auction(dealer: object, calls: Sequence[object], ruleset: Ruleset) -> AuctionResult:
    """Check calls made in turn from the dealer's left (passed players are skipped).

    A call is a number, ``pass``, or either prefixed by the seat (``E:52``) to make the order
    explicit. Raises :class:`RulesError` naming the first illegal call (``calls[3]``), with the
    code ``bad_call``, ``out_of_turn``, ``already_passed``, ``below_minimum``, ``wrong_step``,
    ``too_high`` (above :func:`~rules_engine.bids.max_bid`), ``not_higher``, ``dealer_stuck`` or
    ``auction_over``.
    The auction ends when all but one player have passed after a bid; under
    ``dealer_opens_lower`` a dealer whom everybody passed to may open one step below the minimum.
    If everybody but the dealer passes without a bid, the dealer is stuck with ``dealer_stuck`` (or, if the ruleset has
    no such rule, everybody may pass and the hand is redealt). Under ``forced_opening`` the
    dealer's left has opened at ``min_bid`` before the first call given (a forced call in the
    log), so the calls start with the next player and the auction always has a contract.
    """
    rs = ruleset
    d = dealer.strip().upper() if isinstance(dealer, str) and len(dealer) <= 10 else ""
    if d not in rs.seats:
        raise RulesError.single(
            "dealer", "bad_seat", Text(gettext_noop("%(value)s is not a seat here; use %(values)s"), value=shown(dealer), values=', '.join(rs.seats))
        )
    seats = rs.seats
    n = len(seats)
    passed: set[str] = set()
    high: int | None = None
    high_seat: str | None = None
    turn = rs.next_dealer(d)
    log: list[Call] = []
    done = False
    redeal = False
    stuck = False
    if rs.forced_opening:
        # the dealer's left opens at the minimum without a choice: the call is made for them
        high, high_seat = rs.min_bid, turn
        log.append(Call(turn, rs.min_bid, forced=True))
        turn = rs.next_dealer(turn)
    for i, raw in enumerate(calls):
        field = f"calls[{i}]"
        named, bid = _parse_call(raw, i, rs)
        if done:
            raise RulesError.single(
                field,
                "auction_over",
                Text(gettext_noop("the auction is already over: %(seat)s won it at %(bid)s"),
                     seat=high_seat, bid=high)
                if high_seat else Text(gettext_noop("the auction is already over")),
            )
        if named is not None and named != turn:
            if named in passed:
                raise RulesError.single(
                    field, "already_passed", Text(gettext_noop("%(named)s passed earlier and cannot bid again"), named=named)
                )
            raise RulesError.single(field, "out_of_turn", Text(gettext_noop("it is %(turn)s's turn, not %(named)s's"), turn=turn, named=named))
        is_stuck = high is None and len(passed) == n - 1 and turn == d
        if bid is None:
            if is_stuck and rs.dealer_stuck is not None:
                raise RulesError.single(
                    field,
                    "dealer_stuck",
                    Text(gettext_noop("everybody else passed: the dealer %(d)s must bid at least %(dealer_stuck)s"), d=d, dealer_stuck=rs.dealer_stuck),
                )
            passed.add(turn)
            log.append(Call(turn, None))
        else:
            problem = check_bid(bid, rs)
            if (
                problem is not None
                and bid == rs.dealer_lowest_bid
                and turn == d
                and high is None
            ):
                problem = None  # the dealer opens one step lower when everybody else passed
            if problem is not None:
                code, message = problem
                raise RulesError.single(field, code, Text(gettext_noop("%(turn)s: %(message)s"), turn=turn, message=message))
            if high is not None and bid <= high:
                higher = bids_above(high, rs, 1)
                can = (
                    Text(gettext_noop("bid at least %(bid)s or pass"), bid=higher[0]) if higher
                    else Text(gettext_noop("no higher bid exists: pass"))
                )
                raise RulesError.single(
                    field, "not_higher", Text(gettext_noop("%(turn)s bid %(bid)s, but the bid is already %(high)s: %(can)s"), turn=turn, bid=bid, high=high, can=can)
                )
            if is_stuck and rs.dealer_stuck is not None and bid < rs.dealer_stuck:
                raise RulesError.single(
                    field,
                    "dealer_stuck",
                    Text(gettext_noop("the stuck dealer %(d)s must bid at least %(dealer_stuck)s"), d=d, dealer_stuck=rs.dealer_stuck),
                )
            high, high_seat = bid, turn
            stuck = is_stuck
            log.append(Call(turn, bid))
        if len(passed) == n:
            done = redeal = True
        elif len(passed) == n - 1 and high is not None:
            done = True
        if not done:
            nxt = rs.next_dealer(turn)
            while nxt in passed:
                nxt = rs.next_dealer(nxt)
            turn = nxt
    if not done and high is None and len(passed) == n - 1 and rs.dealer_stuck is not None:
        # the dealer is forced: the auction is settled without a call
        log.append(Call(d, rs.dealer_stuck, forced=True))
        return AuctionResult(d, d, rs.dealer_stuck, True, None, tuple(log), dealer_stuck=True)
    if redeal:
        return AuctionResult(d, None, None, True, None, tuple(log), redeal=True)
    return AuctionResult(
        d,
        high_seat if done else None,
        high if done else None,
        done,
        None if done else turn,
        tuple(log),
        dealer_stuck=stuck and done,
    )
