"""Whole-deal properties: a deal from a shuffled deck, played out legally, always validates."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    RulesError,
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


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["three_handed", "cutthroat"]))
def test_a_three_player_deal_played_out_validates_with_its_tricks(
    rng: random.Random, name: str
) -> None:
    """Deal, give the declarer the widow and three discards, play legally: the hand as entered
    (meld per player, counters with the discards, tricks per player) is always accepted, and
    meld is saved exactly by the players who took a trick."""
    rs = get_ruleset(name, {"forced_concession": False})
    cards = rs.deck.cards()
    rng.shuffle(cards)
    size = rs.hand_size
    dealt = {seat: cards[i * size : (i + 1) * size] for i, seat in enumerate(rs.seats)}
    widow = cards[len(rs.seats) * size :]
    bidder = rng.choice(rs.seats)
    trump = rng.randrange(4)
    melded = {s: list(h) for s, h in dealt.items()}
    melded[bidder] += widow
    meld = {s: count_meld(h, trump, rs).total for s, h in melded.items()}
    rng.shuffle(melded[bidder])
    discards = melded[bidder][size:]
    held = {s: (melded[bidder][:size] if s == bidder else h) for s, h in melded.items()}
    remaining = {s: list(h) for s, h in held.items()}
    seat = bidder
    tricks: list[list[str]] = []
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
    hands = {s: [card_str(c) for c in h] for s, h in held.items()}
    play = check_play("SHDC"[trump], bidder, hands, tricks, rs)
    assert play.legal and play.counters is not None
    counters = dict(play.counters)
    counters[bidder] += sum(rs.counter_values[c % 6] for c in discards)
    assert sum(counters.values()) == rs.counters_total
    taken = {s: play.winners.count(s) for s in rs.seats}
    data = {"dealer": rs.seats[0], "bidder": bidder, "bid": rs.min_bid, "trump": "SHDC"[trump],
            "meld": meld, "counters": counters, "tricks": taken, "outcome": "played"}
    score = score_hand(parse_hand(data, rs), rs)
    for s in rs.seats:
        if s != bidder:
            assert score.points[s] == (meld[s] if taken[s] else 0) + counters[s]


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["single_deck_partnership", "three_handed", "cutthroat"]),
    st.integers(0, 250).filter(lambda n: n % 10),
)
def test_counters_off_the_tens_are_always_refused(name: str, odd: int) -> None:
    rs = get_ruleset(name)
    sides = list(rs.sides)
    counters = dict.fromkeys(sides, 0)
    counters[sides[0]], counters[sides[1]] = odd, rs.counters_total - odd
    tricks = dict.fromkeys(sides, 0)
    tricks[sides[0]], tricks[sides[1]] = rs.hand_size - 6, 6
    data = {"dealer": rs.seats[0], "bidder": rs.seats[0], "bid": rs.min_bid, "trump": "H",
            "meld": dict.fromkeys(sides, 0), "counters": counters, "outcome": "played"}
    if rs.meld_needs_trick:
        data["tricks"] = tricks
    try:
        parse_hand(data, rs)
    except RulesError as exc:
        assert {e.code for e in exc.errors} == {"not_multiple"}
        assert {e.field for e in exc.errors} == {f"counters.{sides[0]}", f"counters.{sides[1]}"}
    else:
        raise AssertionError("counters off the tens were accepted")
