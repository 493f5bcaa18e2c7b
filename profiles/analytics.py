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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

BUCKET_STEPS = 5  # a bucket is this many of the ladder's smallest steps wide
ENDINGS = ("made", "set", "board_set", "surrendered")


class BucketRow(TypedDict):
    """The bids of one bucket: how many, and how each ended."""

    low: int
    high: int
    label: str
    bids: int
    made: int
    set: int
    board_set: int
    surrendered: int


class EventRow(TypedDict):
    """An event's line of ``per_event``: its finished games' points (:func:`event_row`)."""

    event_id: int
    games: int
    points: int
    points_per_game: float
    stderr: float | None


class CompanyRow(TypedDict):
    """A partner or an opponent (:func:`company_of`): finished games together, won, lost."""

    player_id: int
    name: str
    games: int
    wins: int
    losses: int


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
    meld: dict[str, int]
    points: dict[str, int]
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

    def to_dict(self) -> BucketRow:
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


def event_figures(hands: Iterable[PlayerHand], games: Iterable[PlayerGame]) -> dict[str, Any]:
    """One event's share of :func:`hand_analytics`, as plain JSON values (what a summary row
    keeps, ``profiles.models.EventSummary``): counts, meld sums and counts, bids by bucket, and
    the points of each finished game. :func:`combine_figures` adds such shares up."""
    endings = dict.fromkeys(ENDINGS, 0)
    hands_count = misdeals = declared = reneges = 0
    meld = [0, 0]  # sum, count
    own_meld = [0, 0]
    buckets: dict[tuple[int, int], list[Any]] = {}  # low, high, label, then one count per ending
    game_points: dict[int, int] = {}
    for hand in hands:
        if hand.outcome == "misdeal":
            misdeals += 1
            continue
        hands_count += 1
        game_points[hand.game_id] = game_points.get(hand.game_id, 0) + int(
            hand.points.get(hand.side, 0))
        if hand.side in hand.meld:
            meld[0] += int(hand.meld[hand.side])
            meld[1] += 1
        if hand.renege_seat and hand.renege_seat == hand.position:
            reneges += 1
        if hand.bidder != hand.position:
            continue
        declared += 1
        how = ending(hand)
        endings[how] += 1
        if hand.side in hand.meld:
            own_meld[0] += int(hand.meld[hand.side])
            own_meld[1] += 1
        if hand.bucket is not None:
            key = (hand.bucket.low, hand.bucket.high)
            row = buckets.setdefault(key, [hand.bucket.low, hand.bucket.high, hand.bucket.label,
                                           0, 0, 0, 0])
            row[3 + ENDINGS.index(how)] += 1
    seated = 0
    points = []
    for game in games:
        seated += 1
        if game.finished:
            points.append(game_points.get(game.game_id, 0))
    return {"seated": seated, "hands": hands_count, "misdeals": misdeals, "declared": declared,
            **endings, "reneges": reneges, "meld": meld, "own_meld": own_meld,
            "bids": [buckets[k] for k in sorted(buckets)], "points": points}


def _event_row(event_id: int, points: list[int]) -> EventRow:
    return {
        "event_id": event_id, "games": len(points), "points": sum(points),
        "points_per_game": round(statistics.fmean(points), 2),
        "stderr": round(statistics.stdev(points) / math.sqrt(len(points)), 2)
        if len(points) > 1 else None,
    }


def combine_figures(shares: Mapping[int, dict[str, Any]],
                    event_order: Sequence[int]) -> dict[str, Any]:
    """The figures of one group of events from each event's :func:`event_figures` (by event
    id): what :func:`hand_analytics` answers for the same hands and games."""
    totals = dict.fromkeys(("hands", "misdeals", "declared", *ENDINGS, "reneges"), 0)
    meld, own_meld = _Mean(), _Mean()
    buckets: dict[tuple[int, int], _BucketCount] = {}
    for share in shares.values():
        for key in totals:
            totals[key] += share[key]
        meld.total += share["meld"][0]
        meld.count += share["meld"][1]
        own_meld.total += share["own_meld"][0]
        own_meld.count += share["own_meld"][1]
        for low, high, label, *counts in share["bids"]:
            count = buckets.setdefault((low, high), _BucketCount(Bucket(low, high, label)))
            for how, n in zip(ENDINGS, counts, strict=True):
                setattr(count, how, getattr(count, how) + n)
    all_points = [p for share in shares.values() for p in share["points"]]
    events = []
    for event_id in event_order:
        found = shares.get(event_id)
        if found and found["points"]:  # a stored line is copied: callers add to it
            events.append(dict(found.get("row") or _event_row(event_id, found["points"])))
    return {
        "hands": totals["hands"], "misdeals": totals["misdeals"], "declared": totals["declared"],
        "declared_share": _share(totals["declared"], totals["hands"]),
        **{how: totals[how] for how in ENDINGS},
        "made_share": _share(totals["made"], totals["declared"]),
        "reneges": totals["reneges"],
        "meld_per_hand": meld.value, "meld_on_own_bids": own_meld.value,
        "games": len(all_points), "points": sum(all_points),
        "points_per_game": round(statistics.fmean(all_points), 2) if all_points else None,
        "bids": [buckets[k].to_dict() for k in sorted(buckets)],
        "per_event": events,
    }


def event_row(event_id: int, share: dict[str, Any]) -> EventRow | None:
    """The event's line of ``per_event`` (games, points, points per game and its standard
    error over its finished games), None without one: kept beside a stored share."""
    return _event_row(event_id, share["points"]) if share["points"] else None


def hand_analytics(hands: Iterable[PlayerHand], games: Iterable[PlayerGame],
                   event_order: Sequence[int]) -> dict[str, Any]:
    """The figures of one group of events (one ruleset): hands, bids by bucket, meld, points
    per game overall and per event (``event_order``: the events oldest first)."""
    hands_of: dict[int, list[PlayerHand]] = {}
    games_of: dict[int, list[PlayerGame]] = {}
    for hand in hands:
        hands_of.setdefault(hand.event_id, []).append(hand)
    for game in games:
        games_of.setdefault(game.event_id, []).append(game)
    shares = {event_id: event_figures(hands_of.get(event_id, []), games_of.get(event_id, []))
              for event_id in {*hands_of, *games_of}}
    return combine_figures(shares, event_order)


@dataclass
class _Company:
    player_id: int
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0

    def to_dict(self) -> CompanyRow:
        return {"player_id": self.player_id, "name": self.name, "games": self.games,
                "wins": self.wins, "losses": self.losses}


def meeting_counts(meetings: Iterable[tuple[int, str, bool, str]]) -> dict[int, list[int]]:
    """``[games, wins, losses]`` per other player over the finished games of ``meetings``
    (``(player_id, name, finished, outcome)`` as :func:`company` takes them)."""
    counts: dict[int, list[int]] = {}
    for player_id, _, finished, outcome in meetings:
        if not finished:
            continue
        row = counts.setdefault(player_id, [0, 0, 0])
        row[0] += 1
        row[1] += outcome == "won"
        row[2] += outcome == "lost"
    return counts


def company_of(counts: Mapping[int, Sequence[int]],
               names: Mapping[int, str]) -> list[CompanyRow]:
    """Partners (or opponents) from ``[games, wins, losses]`` per player id: most games first,
    then most wins, then by name."""
    people = [_Company(player_id, names[player_id], *row) for player_id, row in counts.items()]
    ordered = sorted(people, key=lambda p: (-p.games, -p.wins, p.name, p.player_id))
    return [p.to_dict() for p in ordered]


def company(meetings: Iterable[tuple[int, str, bool, str]]) -> list[CompanyRow]:
    """Partners (or opponents) from ``(player_id, name, finished, outcome)`` per finished game
    together, ``outcome`` being ``won``, ``lost`` or ``""`` (a level game) from the player's side:
    most games first, then most wins, then by name."""
    meetings = list(meetings)
    names = {player_id: name for player_id, name, *_ in meetings}
    return company_of(meeting_counts(meetings), names)
