"""The profile's arithmetic on plain values: bid buckets on each preset's ladder, how a bid
ended, partners' ordering."""

from __future__ import annotations

import pytest

from profiles.analytics import (
    PlayerGame,
    PlayerHand,
    bid_bucket,
    company,
    ending,
    hand_analytics,
)
from rules_engine import get_ruleset


def bucket_of(bid: int, preset: str) -> str:
    ruleset = get_ruleset(preset)
    return bid_bucket(bid, min_bid=ruleset.min_bid, bid_step=ruleset.bid_step,
                      bid_steps=ruleset.bid_steps).label


@pytest.mark.parametrize(("bid", "label"), [
    (50, "50–54"), (54, "50–54"), (55, "55–59"), (59, "55–59"), (60, "60"), (65, "65"),
    (100, "100"),
])
def test_pagat_ladder_buckets(bid: int, label: str) -> None:
    # 50 to 59 by ones, then fives: five of the smallest steps, one bid each past 60
    assert bucket_of(bid, "pagat_double_deck") == label


@pytest.mark.parametrize(("bid", "label"), [
    (150, "150–190"), (190, "150–190"), (200, "200–240"), (250, "250–290"), (350, "350–390"),
])
def test_single_deck_ladder_buckets(bid: int, label: str) -> None:
    assert bucket_of(bid, "single_deck_partnership") == label


def test_every_bid_of_a_ladder_is_in_exactly_one_bucket_and_buckets_do_not_overlap() -> None:
    for preset in ("pagat_double_deck", "single_deck_partnership", "three_handed", "cutthroat"):
        ruleset = get_ruleset(preset)
        bids = ruleset.next_bids(None, 60)
        seen: dict[tuple[int, int], list[int]] = {}
        for bid in bids:
            bucket = bid_bucket(bid, min_bid=ruleset.min_bid, bid_step=ruleset.bid_step,
                                bid_steps=ruleset.bid_steps)
            assert bucket.low <= bid <= bucket.high, (preset, bid, bucket)
            seen.setdefault((bucket.low, bucket.high), []).append(bid)
        spans = sorted(seen)
        for (_, high), (low, _) in zip(spans, spans[1:], strict=False):
            assert high < low
        # the label names the bucket's first and last bid on the ladder
        for (low, high), members in seen.items():
            assert members[0] == low and (high == members[-1] or members[-1] == bids[-1])


def test_a_ladder_with_mixed_steps_keeps_whole_steps_in_a_bucket() -> None:
    # opening 20 by ones, then twos from 30: a bucket past 30 is three steps of two
    assert bid_bucket(31, min_bid=20, bid_step=1, bid_steps=[(30, 2)]).label == "30–34"
    assert bid_bucket(36, min_bid=20, bid_step=1, bid_steps=[(30, 2)]).label == "36–40"
    assert bid_bucket(29, min_bid=20, bid_step=1, bid_steps=[(30, 2)]).label == "25–29"


def hand(**over: object) -> PlayerHand:
    values: dict[str, object] = {
        "event_id": 1, "game_id": 1, "position": "N", "side": "NS", "bidder": "N", "bid": 50,
        "outcome": "played", "result": "made", "made": True, "meld": {"NS": 20, "EW": 30},
        "points": {"NS": 50, "EW": 40},
    }
    values.update(over)
    return PlayerHand(**values)  # type: ignore[arg-type]


def test_how_a_declared_hand_ended() -> None:
    assert ending(hand()) == "made"
    assert ending(hand(result="set", made=False)) == "set"
    assert ending(hand(outcome="renege", result="renege", made=False)) == "set"
    assert ending(hand(outcome="renege", result="renege", made=True)) == "made"
    assert ending(hand(outcome="no_marriage", result="board_set", made=False)) == "board_set"
    assert ending(hand(outcome="surrender", result="surrendered", made=False)) == "surrendered"


def test_nothing_to_divide_by_is_none_not_an_error() -> None:
    figures = hand_analytics([], [], [1])
    assert figures["declared_share"] is None and figures["points_per_game"] is None
    assert figures["meld_per_hand"] is None and figures["bids"] == []
    only_misdeal = hand_analytics([hand(outcome="misdeal", bidder="", bid=None, meld={},
                                        points={})], [PlayerGame(1, 1, "NS", False)], [1])
    assert only_misdeal["hands"] == 0 and only_misdeal["misdeals"] == 1
    assert only_misdeal["games"] == 0 and only_misdeal["per_event"] == []


def test_partners_are_ordered_by_games_then_wins_then_name() -> None:
    rows = company([
        (2, "Bea", True, "won"), (2, "Bea", True, "lost"), (3, "Al", True, "won"),
        (4, "Cy", True, "won"), (4, "Cy", True, "won"), (5, "Di", False, "won"),
        (6, "Ed", True, ""), (6, "Ed", True, "lost"),
    ])
    assert [(r["name"], r["games"], r["wins"], r["losses"]) for r in rows] == [
        ("Cy", 2, 2, 0), ("Bea", 2, 1, 1), ("Ed", 2, 0, 1), ("Al", 1, 1, 0),
    ]  # Di's game is not finished; Ed's level game is neither won nor lost
