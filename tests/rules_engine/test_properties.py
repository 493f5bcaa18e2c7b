"""Whole-deal properties: a deal from a shuffled deck, played out legally, always validates."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    check_play,
    count_meld,
    get_ruleset,
    legal_cards,
    parse_hand,
    score_hand,
    trick_winner,
)
from rules_engine.cards import card_str


@settings(max_examples=40, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(
        ["pagat_double_deck", "club_double_deck", "npa_double_deck", "single_deck_partnership"]
    ),
)
def test_a_dealt_and_played_hand_validates_and_scores(rng: random.Random, name: str) -> None:
    rs = get_ruleset(name)
    cards = rs.deck.cards()
    rng.shuffle(cards)
    size = rs.hand_size
    dealt = {seat: cards[i * size : (i + 1) * size] for i, seat in enumerate(rs.seats)}
    trump = rng.randrange(4)
    leader = rng.choice(rs.seats)
    remaining = {s: list(h) for s, h in dealt.items()}
    tricks: list[list[str]] = []
    seat = leader
    while remaining[seat]:
        order = [seat]
        while len(order) < rs.players:
            order.append(rs.next_dealer(order[-1]))
        played: list[int] = []
        for who in order:
            allowed, _ = legal_cards(remaining[who], played, trump, rs.head_rule)
            card = rng.choice(allowed)
            remaining[who].remove(card)
            played.append(card)
        tricks.append([card_str(c) for c in played])
        seat = order[trick_winner(played, trump)]
    hands = {s: [card_str(c) for c in h] for s, h in dealt.items()}
    play = check_play("SHDC"[trump], leader, hands, tricks, rs)
    assert play.legal and play.counters is not None
    # counters are conserved: every counter and the last-trick bonus end up with one side
    assert sum(play.counters.values()) == rs.counters_total
    meld = dict.fromkeys(rs.sides, 0)
    for s, h in dealt.items():
        meld[rs.side_of(s)] += count_meld(h, trump, rs).total
    bidder = rng.choice(rs.seats)
    bid = rng.choice(rs.next_bids(None, 12))
    data = {
        "dealer": rng.choice(rs.seats),
        "bidder": bidder,
        "bid": bid,
        "trump": "SHDC"[trump],
        "meld": meld,
        "counters": play.counters,
        "outcome": "played",
    }
    score = score_hand(parse_hand(data, rs), rs)
    assert score.result in ("made", "set", "board_set")
    assert score.declaring_side == rs.side_of(bidder)
