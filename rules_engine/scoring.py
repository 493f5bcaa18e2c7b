"""Scoring one hand: points per side, made or set, and why.

:func:`score_hand` takes a :class:`~rules_engine.hands.Hand` that :func:`parse_hand` has already
validated and applies the ruleset's policies. It runs on every keystroke of the entry form, so it
does no validation of its own and stays cheap: one small function per outcome, picked from a
table, and one per set or renege policy.

Words used here: the *declaring side* ``d`` is the bidder's side; a side's *effective meld* is
its meld if it reaches ``min_meld``, else 0; a *set* costs the declaring side per ``set_policy``.

Under ``checks`` (check pinochle) the score also carries each player's checks for the hand
(:mod:`rules_engine.checks`) and ``checks_reason``, added after the points are decided (the
points' ``reason`` is the same as without checks); elsewhere ``checks`` is empty and both are
left out of :meth:`HandScore.to_dict`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import NotRequired, TypedDict

from .checks import meld_checks
from .hands import Hand, Outcome
from .i18n import gettext_noop
from .rulesets import Ruleset

__all__ = ["Result", "HandScore", "score_hand"]


class Result(StrEnum):
    """The verdict on a hand."""

    MADE = "made"
    SET = "set"
    BOARD_SET = "board_set"
    SURRENDERED = "surrendered"
    RENEGE = "renege"
    MISDEAL = "misdeal"

    @property
    def label(self) -> str:
        return _RESULT_LABELS[self]


_RESULT_LABELS = {
    Result.MADE: gettext_noop("Made"),
    Result.SET: gettext_noop("Set"),
    Result.BOARD_SET: gettext_noop("Board set"),
    Result.SURRENDERED: gettext_noop("Surrendered"),
    Result.RENEGE: gettext_noop("Renege"),
    Result.MISDEAL: gettext_noop("Misdeal"),
}


class HandScoreDict(TypedDict):
    """A hand's score as :meth:`HandScore.to_dict` writes it (the optional keys only where
    they apply)."""

    points: dict[str, int]
    declaring_side: str | None
    made: bool | None
    result: str
    reason: str
    all_tricks: NotRequired[str]
    sitting_out: NotRequired[str]
    checks: NotRequired[dict[str, int]]
    checks_reason: NotRequired[str]
    deals_next: NotRequired[str]


@dataclass(frozen=True, slots=True)
class HandScore:
    """Points per side for one hand, the verdict and a sentence explaining it."""

    points: dict[str, int]
    declaring_side: str | None
    made: bool | None
    result: str
    reason: str = field(default="")
    all_tricks: str | None = None  # the side that took every trick, where that counts
    sitting_out: str | None = None  # the seat that dealt and sat the hand out, scoring 0
    checks: dict[str, int] = field(default_factory=dict)  # per side, under the option checks
    checks_reason: str = ""  # what earned or cost the checks, under the option checks
    deals_next: str | None = None  # after a technical misdeal: the seat that deals again

    def to_dict(self) -> HandScoreDict:
        d: HandScoreDict = {
            "points": dict(self.points),
            "declaring_side": self.declaring_side,
            "made": self.made,
            "result": str(self.result),
            "reason": self.reason,
        }
        if self.all_tricks is not None:
            d["all_tricks"] = self.all_tricks
        if self.sitting_out is not None:
            d["sitting_out"] = self.sitting_out
        if self.checks:
            d["checks"] = dict(self.checks)
            d["checks_reason"] = self.checks_reason
        if self.deals_next is not None:
            d["deals_next"] = self.deals_next
        return d


# --- what a set costs -------------------------------------------------------------------------
# Each takes the points so far, the declaring side, the bid and its meld, books the set and says
# how in a few words.

_SetPolicy = Callable[[dict[str, int], str, int, int], str]


def _set_subtract_bid(points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    points[d] = -bid
    return f"{d} lose {bid}"


def _set_opponents_gain_bid(points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    points[d] = 0
    for s in points:
        if s != d:
            points[s] += bid
    return f"the opponents gain {bid}"


def _set_subtract_bid_and_meld(points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    points[d] = -(bid + meld_d)
    return f"{d} lose their bid and meld, {bid + meld_d}"


def _set_double_bid(points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    points[d] = -2 * bid
    return f"{d} lose twice the bid, {2 * bid}"


_SET_POLICIES: dict[str, _SetPolicy] = {
    "subtract_bid": _set_subtract_bid,
    "opponents_gain_bid": _set_opponents_gain_bid,
    "subtract_bid_and_meld": _set_subtract_bid_and_meld,
    "double_bid": _set_double_bid,
}


def _set(rs: Ruleset, points: dict[str, int], d: str, bid: int, meld_d: int) -> str:
    return _SET_POLICIES[rs.set_policy](points, d, bid, meld_d)


# --- one function per outcome -----------------------------------------------------------------
# Each takes the hand, the ruleset, the declaring side and the effective meld per side.

_Scorer = Callable[[Hand, Ruleset, str, dict[str, int]], HandScore]


def _score_played(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    bid = hand.bid
    assert bid is not None
    meld = hand.meld
    mm = rs.min_meld
    if mm and rs.short_meld == "set" and meld[d] < mm:
        points = {s: (0 if s == d else eff[s]) for s in rs.sides}
        how = _set(rs, points, d, bid, meld[d])
        return HandScore(
            points,
            d,
            False,
            Result.BOARD_SET,
            f"{d} melded {meld[d]}, under the minimum of {mm}: set without play, {how}",
        )
    if _must_concede(rs, eff[d], bid):
        return _concede(
            hand,
            rs,
            d,
            eff,
            f"{d} could not reach {bid} with {eff[d]} meld and every counter, so had to concede",
        )
    counters = hand.counters
    assert counters is not None, "a played hand needs counters"
    tricks = hand.tricks
    if rs.meld_needs_trick:
        # parse_hand requires tricks here: who saved meld is never guessed from counters
        assert tricks is not None, "a played hand needs tricks where meld needs a trick"
        eff = {s: (m if tricks[s] > 0 else 0) for s, m in eff.items()}
    mc = rs.min_counters
    points = dict.fromkeys(rs.sides, 0)
    for s in rs.sides:
        if s != d and counters[s] >= mc:
            points[s] = eff[s] + counters[s]
    cd = counters[d]
    got = eff[d] + cd
    # the declaring side's own minimum, where the ruleset holds it to one (racehorse does not)
    md = mc if rs.min_counters_declarer else 0
    if cd >= md and got >= bid:
        points[d] = got
        return _all_tricks(
            hand,
            rs,
            HandScore(
                points,
                d,
                True,
                Result.MADE,
                f"{d} bid {bid} and made {got} ({eff[d]} meld + {cd} counters)",
            ),
        )
    how = _set(rs, points, d, bid, meld[d])
    if rs.set_keeps_meld and cd >= md and eff[d]:
        points[d] += eff[d]
        how += f"; {d} keep their meld, {eff[d]}"
    if cd < md:
        why = f"{d} took only {cd} counters, {md} needed"
    else:
        why = f"{d} bid {bid} but made only {got} ({eff[d]} meld + {cd} counters)"
    return _all_tricks(hand, rs, HandScore(points, d, False, Result.SET, f"{why}: set, {how}"))


def _must_concede(rs: Ruleset, meld_d: int, bid: int) -> bool:
    """The forced concession: meld plus every counter short of the bid. Where taking every
    trick wins the game ("pinochling") a declarer may play for it even then, so a hand entered
    as played is played."""
    return (
        rs.forced_concession
        and rs.all_tricks != "wins_game"
        and meld_d + rs.counters_total < bid
    )


def _all_tricks(hand: Hand, rs: Ruleset, score: HandScore) -> HandScore:
    """A side that took every trick: named on the score (the game ends under
    ``all_tricks=wins_game``), or given ``all_tricks_bonus`` on top of the hand."""
    tricks = hand.tricks
    if rs.all_tricks == "nothing" or tricks is None:
        return score
    side = next((s for s in rs.sides if tricks.get(s) == rs.hand_size), None)
    if side is None:
        return score
    points = dict(score.points)
    if rs.all_tricks == "bonus":
        points[side] += rs.all_tricks_bonus
        note = f"; {side} took every trick: +{rs.all_tricks_bonus}"
    else:
        note = f"; {side} took every trick and wins the game"
    return HandScore(
        points, score.declaring_side, score.made, score.result, score.reason + note, side
    )


def _score_no_marriage(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    bid = hand.bid
    assert bid is not None
    opponents_meld = rs.board_set_opponents == "meld"
    points = {s: (eff[s] if opponents_meld and s != d else 0) for s in rs.sides}
    how = _set(rs, points, d, bid, hand.meld[d])
    gets = "the opponents score their meld" if opponents_meld else "nobody scores meld"
    return HandScore(
        points,
        d,
        False,
        Result.BOARD_SET,
        f"{hand.bidder} has no marriage in trump: board set, {how}; {gets}",
    )


def _concede(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int], why: str) -> HandScore:
    bid = hand.bid
    assert bid is not None
    policy = rs.surrender_policy
    bonus = rs.surrender_bonus if policy == "meld_plus_bonus" else 0
    points = {s: (eff[s] + bonus if policy != "nothing" and s != d else 0) for s in rs.sides}
    how = _set(rs, points, d, bid, hand.meld[d])
    return HandScore(points, d, False, Result.SURRENDERED, f"{why}: {how}")


def _score_surrender(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    if hand.widow_seen is False:
        bid = hand.bid
        assert bid is not None
        points = dict.fromkeys(rs.sides, 0)
        how = _set(rs, points, d, bid, hand.meld[d])
        return HandScore(
            points,
            d,
            False,
            Result.SURRENDERED,
            f"{d} conceded without looking at the widow: {how}, the opponents score nothing",
        )
    return _concede(hand, rs, d, eff, f"{d} threw in the hand")


# --- renege: one function per policy for the declaring side, one for a defender --------------


def _declarer_reneged(hand: Hand, d: str, points: dict[str, int], how: str) -> HandScore:
    reason = f"{hand.renege_seat} ({d}, declaring) reneged: set, {how}"
    return HandScore(points, d, False, Result.RENEGE, reason)


def _renege_declarer_set(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    """An ordinary set: the opponents score as if the hand had been played out."""
    bid = hand.bid
    assert bid is not None
    counters: Mapping[str, int] = hand.counters or {}
    points = dict.fromkeys(rs.sides, 0)
    for s in rs.sides:
        if s != d and counters.get(s, 0) >= rs.min_counters:
            points[s] = eff[s] + counters.get(s, 0)
    return _declarer_reneged(hand, d, points, _set(rs, points, d, bid, hand.meld[d]))


def _renege_declarer_set_bonus(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    bid = hand.bid
    assert bid is not None
    points = {s: (0 if s == d else eff[s] + rs.renege_bonus) for s in rs.sides}
    how = _set(rs, points, d, bid, hand.meld[d])
    return _declarer_reneged(
        hand, d, points, f"{how}; the opponents score meld + {rs.renege_bonus}"
    )


def _renege_declarer_double_set(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    bid = hand.bid
    assert bid is not None
    points = {s: (-2 * bid if s == d else eff[s]) for s in rs.sides}
    how = f"{d} lose twice the bid, {2 * bid}; the opponents score their meld"
    return _declarer_reneged(hand, d, points, how)


_RENEGE_DECLARER: dict[str, _Scorer] = {
    "set": _renege_declarer_set,
    "set_bonus": _renege_declarer_set_bonus,
    "double_set": _renege_declarer_double_set,
}


def _renege_defender(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    """The declaring side scores its bid (and meld); the offender loses its meld and is set."""
    bid = hand.bid
    seat = hand.renege_seat
    assert bid is not None and seat is not None
    offender = rs.side_of(seat)
    with_meld = rs.renege_defender == "bid_and_meld"
    points = {}
    for s in rs.sides:
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
        f"{seat} ({offender}) reneged: {d} score their bid{' and meld' if with_meld else ''}, "
        f"{offender} lose their meld and {bid}",
    )


def _score_renege(hand: Hand, rs: Ruleset, d: str, eff: dict[str, int]) -> HandScore:
    seat = hand.renege_seat
    bid = hand.bid
    assert seat is not None and bid is not None, "a renege needs renege_seat and a bid"
    if _must_concede(rs, eff[d], bid):
        # The declarer had to concede before the first card, so no card should have been
        # played: a renege in a hand that could not be played is no renege, and the hand is
        # scored as the concession it had to be (docs/architecture.md, "Rulesets").
        return _concede(
            hand,
            rs,
            d,
            eff,
            f"{d} could not reach {bid} with {eff[d]} meld and every counter, so had to "
            f"concede before play; the renege by {seat} in a hand that should not have been "
            "played does not count",
        )
    if rs.side_of(seat) == d:
        return _RENEGE_DECLARER[rs.renege_declarer](hand, rs, d, eff)
    return _renege_defender(hand, rs, d, eff)


_SCORERS: dict[str, _Scorer] = {
    Outcome.PLAYED: _score_played,
    Outcome.NO_MARRIAGE: _score_no_marriage,
    Outcome.SURRENDER: _score_surrender,
    Outcome.RENEGE: _score_renege,
}


def score_hand(hand: Hand, ruleset: Ruleset) -> HandScore:
    """Score an already-validated hand under the ruleset's policies.

    A hand at a table with a sitter-out (``hand.seats``) is scored among the playing seats and
    its points are keyed by every side of the table (:meth:`Ruleset.sides_for`), the seat that
    sat out with 0.
    """
    if hand.partner is not None and ruleset.called_partner and hand.bidder is not None:
        return _score_with_partner(hand, ruleset, hand.bidder, hand.partner)
    if hand.seats is None:
        return _score(hand, ruleset)
    if hand.dealer is None:
        raise ValueError("a hand at a table where the dealer sits out needs its dealer")
    view = ruleset.for_hand(hand.seats, hand.dealer)
    score = _score(hand, view)
    if view is ruleset:
        return score
    sides = ruleset.sides_for(len(hand.seats))
    points = {s: score.points.get(s, 0) for s in sides}
    checks = {s: score.checks.get(s, 0) for s in sides} if score.checks else {}
    return HandScore(
        points,
        score.declaring_side,
        score.made,
        score.result,
        score.reason,
        score.all_tricks,
        sitting_out=view.absent,
        checks=checks,
        checks_reason=score.checks_reason,
        deals_next=score.deals_next,
    )


def _score_with_partner(hand: Hand, ruleset: Ruleset, bidder: str, partner: str) -> HandScore:
    """A called-partner hand (five-handed): scored with the bidder and partner as one side, then
    given per player: the partner scores the side's points too under ``partner_scores="team"``,
    nothing under ``"nothing"``. The declaring side on the result is the bidder's seat, the
    side every player's game total is kept for."""
    view = ruleset.for_partner(bidder, partner)

    def by_side(values: Mapping[str, int] | None) -> dict[str, int] | None:
        if values is None:
            return None
        out = dict.fromkeys(view.sides, 0)
        for seat, n in values.items():
            out[view.side_of(seat)] += n
        return out

    team_hand = replace(
        hand,
        meld=by_side(hand.meld) or {},
        counters=by_side(hand.counters),
        tricks=by_side(hand.tricks),
    )
    score = _score(team_hand, view)
    team = view.side_of(bidder)
    points: dict[str, int] = {}
    for seat in ruleset.seats:
        side = view.side_of(seat)
        if side != team or seat == bidder or ruleset.partner_scores == "team":
            points[seat] = score.points.get(side, 0)
        else:
            points[seat] = 0
    alone = partner == bidder
    who = f"{bidder} alone (held the called card)" if alone else f"{bidder} with {partner}"
    reason = score.reason if alone else f"{who}: {score.reason}"
    return HandScore(
        points,
        bidder if score.declaring_side is not None else None,
        score.made,
        score.result,
        reason,
        score.all_tricks,
    )


def _score(hand: Hand, ruleset: Ruleset) -> HandScore:
    score = _score_points(hand, ruleset)
    if not ruleset.checks:
        return score
    return _with_checks(hand, ruleset, score)


def _with_checks(hand: Hand, rs: Ruleset, score: HandScore) -> HandScore:
    """The hand's checks per side: meld checks for every player, less the losing declarer's."""
    checks = dict.fromkeys(rs.sides, 0)
    notes: list[str] = []
    if score.result == Result.MISDEAL:
        return replace(score, checks=checks)
    saved_only = rs.options.get("checks.meld_saved_only", False)
    for side, names in (hand.check_melds or {}).items():
        if not names:
            continue
        if (
            saved_only
            and rs.meld_needs_trick
            and hand.tricks is not None
            and not hand.tricks.get(side)
            and score.result in (Result.MADE, Result.SET)
        ):
            notes.append(f"{side} took no trick: no checks for {', '.join(names)}")
            continue
        got = meld_checks(names, rs)
        checks[side] += got
        notes.append(f"{side} +{got} ({', '.join(names)})")
    d = score.declaring_side
    if d is not None and score.made is False and hand.widow_seen is not False:
        values = rs.check_values
        lost = values.get("lose_looked", 0)
        played = hand.outcome in (Outcome.PLAYED, Outcome.RENEGE) and score.result in (
            Result.SET,
            Result.RENEGE,
        )
        if played:
            lost += values.get("lose_played", 0)
        if lost:
            checks[d] -= lost
            how = "played and lost" if played else "lost"
            notes.append(f"{d} −{lost} ({how} after looking at the widow)")
    why = "; ".join(notes) if notes else "no checks this hand"
    return replace(score, checks=checks, checks_reason=why)


def _score_points(hand: Hand, ruleset: Ruleset) -> HandScore:
    rs = ruleset
    bidder = hand.bidder
    d = rs.side_of(bidder) if bidder is not None else None
    scorer = _SCORERS.get(hand.outcome)
    if hand.outcome == Outcome.TECHNICAL_MISDEAL and hand.dealer is not None:
        again = rs.misdeal_redeal == "same_dealer"
        deals = hand.dealer if again else rs.next_dealer(hand.dealer, hand.seats)
        return HandScore(
            dict.fromkeys(rs.sides, 0),
            None,
            None,
            Result.MISDEAL,
            f"technical misdeal called by {hand.misdeal_seat}: all meld is void, nobody "
            f"scores, and {deals} deals again",
            deals_next=deals,
        )
    if scorer is None or d is None or hand.bid is None:
        # a misdeal, or a hand without a contract: nothing to score
        return HandScore(
            dict.fromkeys(rs.sides, 0),
            d,
            None,
            Result.MISDEAL,
            "misdeal: the deal is void and redealt, nobody scores",
        )
    mm = rs.min_meld
    eff = {s: (m if m >= mm else 0) for s, m in hand.meld.items()}
    return scorer(hand, rs, d, eff)
