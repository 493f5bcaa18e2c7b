"""The engine's enums: seats, sides, suits, outcomes and results, with their labels."""

from __future__ import annotations

import json

import pytest

from rules_engine import (
    Outcome,
    Result,
    Seat,
    Side,
    Suit,
    get_ruleset,
    parse_hand,
    score_hand,
)


def test_seats_go_clockwise_and_sit_opposite_their_partners() -> None:
    assert list(Seat) == ["N", "E", "S", "W"]
    assert [s.next for s in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert [s.partner for s in Seat] == [Seat.S, Seat.W, Seat.N, Seat.E]
    assert [s.side for s in Seat] == [Side.NS, Side.EW, Side.NS, Side.EW]


def test_sides() -> None:
    assert list(Side) == ["NS", "EW"]
    assert Side.NS.seats == (Seat.N, Seat.S) and Side.EW.seats == (Seat.E, Seat.W)
    assert Side.NS.opponents is Side.EW and Side.EW.opponents is Side.NS


@pytest.mark.parametrize(
    ("member", "label"),
    [
        (Seat.N, "North"),
        (Seat.E, "East"),
        (Seat.S, "South"),
        (Seat.W, "West"),
        (Side.NS, "North–South"),
        (Side.EW, "East–West"),
        (Suit.S, "spades"),
        (Suit.H, "hearts"),
        (Suit.D, "diamonds"),
        (Suit.C, "clubs"),
        (Outcome.PLAYED, "Played"),
        (Outcome.NO_MARRIAGE, "No marriage in trump (board set)"),
        (Outcome.SURRENDER, "Surrender"),
        (Outcome.RENEGE, "Renege"),
        (Outcome.MISDEAL, "Misdeal"),
        (Result.BOARD_SET, "Board set"),
    ],
)
def test_labels(member: Seat | Side | Suit | Outcome | Result, label: str) -> None:
    assert member.label == label


def test_every_member_has_a_label() -> None:
    for enum in (Seat, Side, Suit, Outcome, Result):
        for member in enum:
            assert member.label


def test_suits_match_the_card_numbering() -> None:
    assert [s.number for s in Suit] == [0, 1, 2, 3]
    assert [Suit.of_number(n) for n in range(4)] == list(Suit)
    assert "".join(s.symbol for s in Suit) == "♠♥♦♣"


def test_rulesets_use_the_enums() -> None:
    four = get_ruleset("pagat_double_deck")
    assert four.seats == tuple(Seat) and four.sides == tuple(Side)
    assert all(isinstance(s, Seat) for s in four.seats)
    assert four.side_of(Seat.W) is Side.EW and four.next_dealer(Seat.W) is Seat.N
    three = get_ruleset("three_handed")
    assert three.seats == three.sides == (Seat.N, Seat.E, Seat.S)
    assert three.next_dealer(Seat.S) is Seat.N


def test_parsed_hands_hold_enum_members_and_serialise_as_strings() -> None:
    rs = get_ruleset("pagat_double_deck")
    hand = parse_hand(
        {
            "dealer": "w",
            "bidder": "n",
            "bid": 51,
            "trump": "♥",
            "meld": {"NS": 24, "EW": 32},
            "counters": {"NS": 27, "EW": 23},
        },
        rs,
    )
    assert (hand.dealer, hand.bidder, hand.trump) == (Seat.W, Seat.N, Suit.H)
    assert all(isinstance(k, Side) for k in hand.meld)
    score = score_hand(hand, rs)
    # the JSON shapes are plain strings, exactly as before the enums
    assert json.loads(json.dumps(hand.to_dict())) == {
        "dealer": "W",
        "bidder": "N",
        "bid": 51,
        "trump": "H",
        "meld": {"NS": 24, "EW": 32},
        "counters": {"NS": 27, "EW": 23},
        "outcome": "played",
    }
    assert json.dumps(score.to_dict()["points"]) == '{"NS": 51, "EW": 55}'
    assert json.dumps(get_ruleset("three_handed").to_dict()["sides"]) == '["N", "E", "S"]'
