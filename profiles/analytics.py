"""A player's figures across events, from plain values (no queries): the arithmetic behind the
profile, kept apart from the reads so it can be checked on its own.

Words used here:

* a *hand* is the live revision of a hand that is not deleted, at a table where the player sat,
  seen from the player's seat (``position``) and side; misdeals are counted apart (they are not
  deals);
* the player *declared* a hand when they won the bid (``bidder`` is their seat); their own bids
  end *made*, *set* (in play, or by their side's renege), *board set* (no marriage in trump or
  too little meld: set without play) or *surrendered*;
* a *game* counts once it is finished (as in the standings); its points are the player's side's
  points over its live hands;
* a *bid bucket* groups bids of the ruleset's ladder: five of its smallest steps wide, never
  narrower than the step where the bid is (pagat: 50–54, 55–59, then 60, 65, ...; single deck:
  150–190, 200–240, ...), restarting where the ladder's step changes.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

BUCKET_STEPS = 5  # a bucket is this many of the ladder's smallest steps wide


@dataclass(frozen=True)
class Bucket:
    low: int
    high: int  # the highest bid of the ladder inside the bucket
    label: str


def bid_bucket(bid: int, *, min_bid: int, bid_step: int,
               bid_steps: Sequence[tuple[int, int]] = ()) -> Bucket:
    """The bucket of ``bid`` on a ladder that opens at ``min_bid`` in steps of ``bid_step`` and
    takes the steps ``bid_steps`` ([(from, step), ...]) from higher bids."""
    segments = [(min_bid, bid_step), *sorted((int(a), int(b)) for a, b in bid_steps)]
    smallest = min(step for _, step in segments)
    index = 0
    for i, (start, _) in enumerate(segments):
        if bid >= start:
            index = i
    start, step = segments[index]
    width = step * math.ceil(BUCKET_STEPS * smallest / step)
    low = start + ((bid - start) // width) * width
    high = low + width - step
    if index + 1 < len(segments):
        following = segments[index + 1][0]
        high = min(high, start + ((following - 1 - start) // step) * step)
    return Bucket(low, high, str(low) if high <= low else f"{low}–{high}")


@dataclass(frozen=True)
class PlayerHand:
    """One hand as the player saw it."""

    event_id: int
    game_id: int
    position: str
    side: str
    bidder: str
    bid: int | None
    outcome: str
    result: str
    made: bool | None
    meld: dict[str, Any]
    points: dict[str, Any]
    renege_seat: str = ""
    bucket: Bucket | None = None


@dataclass(frozen=True)
class PlayerGame:
    """A game the player sat in: their event, side, and whether it is finished."""

    event_id: int
    game_id: int
    side: str
    finished: bool


@dataclass
class _BucketCount:
    bucket: Bucket
    made: int = 0
    set: int = 0
    board_set: int = 0
    surrendered: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"low": self.bucket.low, "high": self.bucket.high, "label": self.bucket.label,
                "bids": self.made + self.set + self.board_set + self.surrendered,
                "made": self.made, "set": self.set, "board_set": self.board_set,
                "surrendered": self.surrendered}


@dataclass
class _Mean:
    total: float = 0
    count: int = 0

    def add(self, value: float) -> None:
        self.total += value
        self.count += 1

    @property
    def value(self) -> float | None:
        return round(self.total / self.count, 2) if self.count else None


def ending(hand: PlayerHand) -> str:
    """How a declared hand ended: ``made``, ``set``, ``board_set`` or ``surrendered``."""
    if hand.result == "board_set":
        return "board_set"
    if hand.result == "surrendered":
        return "surrendered"
    return "made" if hand.made else "set"


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass
class _Totals:
    hands: int = 0
    misdeals: int = 0
    declared: int = 0
    endings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(
        ("made", "set", "board_set", "surrendered"), 0))
    reneges: int = 0
    meld: _Mean = field(default_factory=_Mean)
    own_meld: _Mean = field(default_factory=_Mean)
    buckets: dict[tuple[int, int], _BucketCount] = field(default_factory=dict)


def hand_analytics(hands: Iterable[PlayerHand], games: Iterable[PlayerGame],
                   event_order: Sequence[int]) -> dict[str, Any]:
    """The figures of one group of events (one ruleset): hands, bids by bucket, meld, points
    per game overall and per event (``event_order``: the events oldest first)."""
    t = _Totals()
    game_points: dict[int, int] = {}
    for hand in hands:
        if hand.outcome == "misdeal":
            t.misdeals += 1
            continue
        t.hands += 1
        game_points[hand.game_id] = game_points.get(hand.game_id, 0) + int(
            hand.points.get(hand.side, 0))
        if hand.side in hand.meld:
            t.meld.add(int(hand.meld[hand.side]))
        if hand.renege_seat and hand.renege_seat == hand.position:
            t.reneges += 1
        if hand.bidder != hand.position:
            continue
        t.declared += 1
        how = ending(hand)
        t.endings[how] += 1
        if hand.side in hand.meld:
            t.own_meld.add(int(hand.meld[hand.side]))
        if hand.bucket is not None:
            key = (hand.bucket.low, hand.bucket.high)
            count = t.buckets.setdefault(key, _BucketCount(hand.bucket))
            setattr(count, how, getattr(count, how) + 1)
    per_event: dict[int, list[int]] = {}
    for game in games:
        if game.finished:
            per_event.setdefault(game.event_id, []).append(game_points.get(game.game_id, 0))
    all_points = [p for points in per_event.values() for p in points]
    events = []
    for event_id in event_order:
        points = per_event.get(event_id)
        if not points:
            continue
        events.append({
            "event_id": event_id, "games": len(points), "points": sum(points),
            "points_per_game": round(statistics.fmean(points), 2),
            "stderr": round(statistics.stdev(points) / math.sqrt(len(points)), 2)
            if len(points) > 1 else None,
        })
    return {
        "hands": t.hands, "misdeals": t.misdeals, "declared": t.declared,
        "declared_share": _share(t.declared, t.hands),
        **t.endings,
        "made_share": _share(t.endings["made"], t.declared),
        "reneges": t.reneges,
        "meld_per_hand": t.meld.value, "meld_on_own_bids": t.own_meld.value,
        "games": len(all_points), "points": sum(all_points),
        "points_per_game": round(statistics.fmean(all_points), 2) if all_points else None,
        "bids": [t.buckets[k].to_dict() for k in sorted(t.buckets)],
        "per_event": events,
    }


@dataclass
class _Company:
    player_id: int
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "games": self.games,
                "wins": self.wins, "losses": self.losses}


def company(meetings: Iterable[tuple[int, str, bool, str]]) -> list[dict[str, Any]]:
    """Partners (or opponents) from ``(player_id, name, finished, outcome)`` per finished game
    together, ``outcome`` being ``won``, ``lost`` or ``""`` (a level game) from the player's side:
    most games first, then most wins, then by name."""
    people: dict[int, _Company] = {}
    for player_id, name, finished, outcome in meetings:
        if not finished:
            continue
        person = people.setdefault(player_id, _Company(player_id, name))
        person.games += 1
        person.wins += outcome == "won"
        person.losses += outcome == "lost"
    ordered = sorted(people.values(), key=lambda p: (-p.games, -p.wins, p.name, p.player_id))
    return [p.to_dict() for p in ordered]
