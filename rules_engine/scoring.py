"""Hands as entered and their scores (DESIGN §4.3).

:func:`parse_hand` validates raw input (a JSON object) against a ruleset and reports every problem
at once; :func:`score_hand` scores an already-validated :class:`Hand` and is kept cheap because the
web app scores each hand as it is typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import SUITS, parse_suit
from .errors import FieldError, RulesError
from .meld import check_meld_total
from .rulesets import Ruleset

__all__ = ["Outcome", "Result", "Hand", "HandScore", "parse_hand", "score_hand"]


class Outcome(StrEnum):
    """What happened to a hand, as entered at the table."""

    PLAYED = "played"
    NO_MARRIAGE = "no_marriage"
    SURRENDER = "surrender"
    RENEGE = "renege"
    MISDEAL = "misdeal"


class Result(StrEnum):
    """The verdict on a hand."""

    MADE = "made"
    SET = "set"
    BOARD_SET = "board_set"
    SURRENDERED = "surrendered"
    RENEGE = "renege"
    MISDEAL = "misdeal"


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
}


@dataclass(frozen=True, slots=True)
class Hand:
    """One deal as entered: who bid what, meld and counters per side, and what happened.

    ``meld`` and ``counters`` are keyed by side (``NS``/``EW``; the seat in three-player games).
    ``counters`` is None when no cards were played. ``quadruple_run`` names the side that showed a
    quadruple run (a special win under some rulesets); ``tricks`` optionally gives tricks won per
    side (three-handed: a player must take a trick to save meld; without it, a player with no
    counters is taken to have won no trick).
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
        return d


@dataclass(frozen=True, slots=True)
class HandScore:
    """Points per side for one hand, the verdict and a sentence explaining it."""

    points: dict[str, int]
    declaring_side: str | None
    made: bool | None
    result: str
    reason: str = field(default="")

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": dict(self.points),
            "declaring_side": self.declaring_side,
            "made": self.made,
            "result": str(self.result),
            "reason": self.reason,
        }


# --- validation --------------------------------------------------------------------------------


def _int_value(v: object) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v.strip())
    return None


def _seat(
    data: Mapping[str, object], key: str, rs: Ruleset, errors: list[FieldError], required: bool
) -> str | None:
    raw = data.get(key)
    if raw is None:
        if required:
            errors.append(
                FieldError(
                    key, "required", f"{key} is missing: give a seat ({', '.join(rs.seats)})"
                )
            )
        return None
    seat = raw.strip().upper() if isinstance(raw, str) else None
    if seat not in rs.seats:
        errors.append(
            FieldError(
                key, "bad_seat", f"{raw!r} is not a seat at this table; use {', '.join(rs.seats)}"
            )
        )
        return None
    return seat


def _per_side(
    data: Mapping[str, object],
    key: str,
    rs: Ruleset,
    errors: list[FieldError],
    required: bool,
    partial: dict[str, int] | None = None,
) -> dict[str, int] | None:
    """Values per side; None unless every side has a valid value (``partial`` gets the valid)."""
    raw = data.get(key)
    if raw is None:
        if required:
            errors.append(
                FieldError(
                    key,
                    "required",
                    f"{key} is missing: give it per side, e.g. "
                    + "{"
                    + ", ".join(f'"{s}": 0' for s in rs.sides)
                    + "}",
                )
            )
        return None
    if not isinstance(raw, Mapping):
        errors.append(
            FieldError(key, "bad_type", f"{key} must be given per side ({', '.join(rs.sides)})")
        )
        return None
    out: dict[str, int] = {}
    by_seat = (
        rs.players == 4 and raw and all(isinstance(k, str) and k.upper() in rs.seats for k in raw)
    )
    ok = True
    for k, v in raw.items():
        name = str(k).strip().upper()
        fld = f"{key}.{k}"
        if by_seat:
            name = rs.side_of(name)
        elif name not in rs.sides:
            errors.append(
                FieldError(fld, "bad_side", f"{k!r} is not a side here; use {', '.join(rs.sides)}")
            )
            ok = False
            continue
        n = _int_value(v)
        if n is None:
            errors.append(
                FieldError(fld, "bad_type", f"{key} for {k} must be a whole number, got {v!r}")
            )
            ok = False
            continue
        if n < 0:
            errors.append(FieldError(fld, "negative", f"{key} for {k} cannot be negative"))
            ok = False
            continue
        out[name] = out.get(name, 0) + n
    for s in rs.sides:
        if s not in out and ok:
            errors.append(FieldError(f"{key}.{s}", "required", f"{key} for {s} is missing"))
            ok = False
    if partial is not None:
        partial.update(out)
    return out if ok else None


def parse_hand(data: Mapping[str, object], ruleset: Ruleset) -> Hand:
    """Validate a hand as entered (the CLI/JSON shape) and build a :class:`Hand`.

    Raises :class:`RulesError` listing every problem found, each naming its field.
    """
    rs = ruleset
    if not isinstance(data, Mapping):
        raise RulesError.single("hand", "bad_type", "a hand must be a JSON object")
    errors: list[FieldError] = []
    raw_outcome = data.get("outcome", "played")
    outcome: Outcome | None = None
    if isinstance(raw_outcome, str):
        outcome = _OUTCOME_ALIASES.get(raw_outcome.strip().lower().replace("-", "_"))
    if outcome is None:
        errors.append(
            FieldError(
                "outcome",
                "bad_choice",
                f"{raw_outcome!r} is not an outcome; use played, no_marriage, "
                "surrender, renege or misdeal",
            )
        )
    misdeal = outcome is Outcome.MISDEAL
    dealer = _seat(data, "dealer", rs, errors, required=False)
    bidder_key = "bidder" if "bidder" in data or "declarer" not in data else "declarer"
    bidder = _seat(data, bidder_key, rs, errors, required=not misdeal)
    bid: int | None = None
    if data.get("bid") is None:
        if not misdeal:
            errors.append(FieldError("bid", "required", "bid is missing"))
    else:
        bid = _int_value(data["bid"])
        problem = rs.bid_error(bid if bid is not None else data["bid"])
        if problem:
            errors.append(FieldError("bid", "bad_bid", problem))
            bid = None
    trump: str | None = None
    if data.get("trump") is None:
        if outcome in (Outcome.PLAYED, Outcome.RENEGE):
            errors.append(FieldError("trump", "required", "trump is missing: give S, H, D or C"))
    else:
        try:
            trump = SUITS[parse_suit(data["trump"])]
        except RulesError as exc:
            errors.extend(exc.errors)
    played = outcome in (Outcome.PLAYED, Outcome.RENEGE)
    valid_meld: dict[str, int] = {}
    meld = _per_side(data, "meld", rs, errors, required=played, partial=valid_meld)
    if valid_meld:
        for side, value in valid_meld.items():
            try:
                check_meld_total(value, rs, f"meld.{side}")
            except RulesError as exc:
                errors.extend(exc.errors)
    renege_seat: str | None = None
    if outcome is Outcome.RENEGE:
        renege_seat = _seat(data, "renege_seat", rs, errors, required=True)
    needs_counters = outcome is Outcome.PLAYED
    if outcome is Outcome.RENEGE and renege_seat is not None and bidder is not None:
        offender_declares = rs.side_of(renege_seat) == rs.side_of(bidder)
        needs_counters = offender_declares and rs.renege_declarer == "set"
    counters: dict[str, int] | None = None
    if needs_counters or (played and data.get("counters") is not None):
        counters = _per_side(data, "counters", rs, errors, required=needs_counters)
        if counters is not None:
            total = rs.counters_total
            bad = False
            for side, v in counters.items():
                if v > total:
                    errors.append(
                        FieldError(
                            f"counters.{side}",
                            "too_high",
                            f"{side} cannot take {v} counters: a hand holds {total}",
                        )
                    )
                    bad = True
            got = sum(counters.values())
            if not bad and got != total:
                errors.append(
                    FieldError("counters", "bad_sum", f"counters must add up to {total}, got {got}")
                )
    if outcome is Outcome.NO_MARRIAGE and not rs.trump_marriage_required:
        errors.append(
            FieldError(
                "outcome",
                "not_in_ruleset",
                "this ruleset does not require a marriage in trump, so a hand "
                "cannot be board set for the lack of one",
            )
        )
    quad: str | None = None
    if data.get("quadruple_run") is not None:
        raw = data["quadruple_run"]
        name = raw.strip().upper() if isinstance(raw, str) else ""
        if name in rs.seats:
            name = rs.side_of(name)
        if name not in rs.sides:
            errors.append(
                FieldError("quadruple_run", "bad_side", f"{raw!r} is not a side or seat here")
            )
        elif not rs.quadruple_run_wins:
            errors.append(
                FieldError(
                    "quadruple_run",
                    "not_in_ruleset",
                    "this ruleset gives no special win for a quadruple run",
                )
            )
        else:
            quad = name
    tricks: dict[str, int] | None = None
    if data.get("tricks") is not None:
        tricks = _per_side(data, "tricks", rs, errors, required=False)
    if errors:
        raise RulesError(errors)
    assert outcome is not None
    return Hand(
        dealer=dealer,
        bidder=bidder,
        bid=bid,
        trump=trump,
        meld=meld if meld is not None else {s: 0 for s in rs.sides},
        counters=counters,
        outcome=outcome,
        renege_seat=renege_seat,
        quadruple_run=quad,
        tricks=tricks,
    )


# --- scoring -----------------------------------------------------------------------------------


def _set_points(rs: Ruleset, points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    policy = rs.set_policy
    if policy == "subtract_bid":
        points[d] = -bid
        return f"{d} lose {bid}"
    if policy == "opponents_gain_bid":
        points[d] = 0
        for s in points:
            if s != d:
                points[s] += bid
        return f"the opponents gain {bid}"
    if policy == "subtract_bid_and_meld":
        points[d] = -(bid + meld_d)
        return f"{d} lose their bid and meld, {bid + meld_d}"
    points[d] = -2 * bid
    return f"{d} lose twice the bid, {2 * bid}"


def score_hand(hand: Hand, ruleset: Ruleset) -> HandScore:
    """Score an already-validated hand under the ruleset's policies."""
    rs = ruleset
    outcome = hand.outcome
    sides = rs.sides
    bidder = hand.bidder
    d = rs._seat_side[bidder] if bidder is not None else None
    if outcome == "misdeal" or d is None or hand.bid is None:
        return HandScore(
            dict.fromkeys(sides, 0),
            d,
            None,
            Result.MISDEAL,
            "misdeal: the deal is void and redealt, nobody scores",
        )
    bid = hand.bid
    meld = hand.meld
    mm = rs.min_meld
    eff = {s: (m if m >= mm else 0) for s, m in meld.items()}
    points = dict.fromkeys(sides, 0)

    if outcome == "played":
        counters = hand.counters
        assert counters is not None, "a played hand needs counters"
        if mm and rs.short_meld == "set" and meld[d] < mm:
            for s in sides:
                if s != d:
                    points[s] = eff[s]
            how = _set_points(rs, points, d, bid, meld[d])
            return HandScore(
                points,
                d,
                False,
                Result.BOARD_SET,
                f"{d} melded {meld[d]}, under the minimum of {mm}: set without play, {how}",
            )
        mc = rs.min_counters
        if rs.meld_needs_trick:
            tricks = hand.tricks
            for s in sides:
                took = tricks[s] > 0 if tricks is not None and s in tricks else counters[s] > 0
                if not took:
                    eff[s] = 0
        for s in sides:
            if s != d and counters[s] >= mc:
                points[s] = eff[s] + counters[s]
        cd = counters[d]
        got = eff[d] + cd
        if cd >= mc and got >= bid:
            points[d] = got
            return HandScore(
                points,
                d,
                True,
                Result.MADE,
                f"{d} bid {bid} and made {got} ({eff[d]} meld + {cd} counters)",
            )
        how = _set_points(rs, points, d, bid, meld[d])
        if cd < mc:
            why = f"{d} took only {cd} counters, {mc} needed"
        else:
            why = f"{d} bid {bid} but made only {got} ({eff[d]} meld + {cd} counters)"
        return HandScore(points, d, False, Result.SET, f"{why}: set, {how}")

    if outcome == "no_marriage":
        if rs.board_set_opponents == "meld":
            for s in sides:
                if s != d:
                    points[s] = eff[s]
        how = _set_points(rs, points, d, bid, meld[d])
        gets = (
            "the opponents score their meld"
            if rs.board_set_opponents == "meld"
            else "nobody scores meld"
        )
        return HandScore(
            points,
            d,
            False,
            Result.BOARD_SET,
            f"{bidder} has no marriage in trump: board set, {how}; {gets}",
        )

    if outcome == "surrender":
        policy = rs.surrender_policy
        if policy != "nothing":
            bonus = rs.surrender_bonus if policy == "meld_plus_bonus" else 0
            for s in sides:
                if s != d:
                    points[s] = eff[s] + bonus
        how = _set_points(rs, points, d, bid, meld[d])
        return HandScore(points, d, False, Result.SURRENDERED, f"{d} threw in the hand: {how}")

    # renege
    seat = hand.renege_seat
    assert seat is not None, "a renege needs renege_seat"
    offender = rs._seat_side[seat]
    if offender == d:
        policy = rs.renege_declarer
        if policy == "double_set":
            points = {s: (eff[s] if s != d else -2 * bid) for s in sides}
            how = f"{d} lose twice the bid, {2 * bid}; the opponents score their meld"
        elif policy == "set_bonus":
            for s in sides:
                if s != d:
                    points[s] = eff[s] + rs.renege_bonus
            how = (
                _set_points(rs, points, d, bid, meld[d])
                + f"; the opponents score meld + {rs.renege_bonus}"
            )
        else:
            counters = hand.counters or {}
            for s in sides:
                if s != d and counters.get(s, 0) >= rs.min_counters:
                    points[s] = eff[s] + counters.get(s, 0)
            how = _set_points(rs, points, d, bid, meld[d])
        return HandScore(
            points, d, False, Result.RENEGE, f"{seat} ({d}, declaring) reneged: set, {how}"
        )
    with_meld = rs.renege_defender == "bid_and_meld"
    for s in sides:
        if s == d:
            points[s] = bid + (eff[s] if with_meld else 0)
        elif s == offender:
            points[s] = -bid
        else:
            points[s] = eff[s]
    return HandScore(
        points,
        d,
        True,
        Result.RENEGE,
        f"{seat} ({offender}) reneged: {d} score their bid"
        f"{' and meld' if with_meld else ''}, {offender} lose their meld and "
        f"{bid}",
    )
