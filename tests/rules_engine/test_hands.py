"""Reading hands as entered: the fields each outcome carries, and hostile input."""

from __future__ import annotations

import time
from typing import Any

import pytest

from rules_engine import (
    Outcome,
    RulesError,
    fields_for,
    get_ruleset,
    max_bid,
    max_side_meld,
    parse_hand,
    score_hand,
)
from rules_engine.hands import HAND_FIELDS
from rules_engine.inputs import shown

PAGAT = get_ruleset("pagat_double_deck")
CLUB = get_ruleset("club_double_deck")
THREE = get_ruleset("three_handed")

PLAYED: dict[str, Any] = {
    "dealer": "W",
    "bidder": "N",
    "bid": 51,
    "trump": "H",
    "meld": {"NS": 24, "EW": 32},
    "counters": {"NS": 27, "EW": 23},
    "outcome": "played",
}
BEFORE_PLAY = {k: v for k, v in PLAYED.items() if k != "counters"}


def errors(hand: dict[str, Any], rs: Any = PAGAT) -> dict[str, str]:
    with pytest.raises(RulesError) as exc:
        parse_hand(hand, rs)
    return {e.field: e.code for e in exc.value.errors}


# --- fields_for ---------------------------------------------------------------------------------


def test_fields_each_outcome_carries() -> None:
    base = ("dealer", "bidder", "bid", "trump", "meld")
    assert fields_for("played", PAGAT) == (*base, "counters")
    assert fields_for(Outcome.NO_MARRIAGE, PAGAT) == base
    assert fields_for("surrender", PAGAT) == base
    assert fields_for("renege", PAGAT) == (*base, "counters", "renege_seat")
    assert fields_for("misdeal", PAGAT) == ("dealer",)


def test_fields_depend_on_the_ruleset() -> None:
    # a quadruple run wins under the club sheet, and three-handed meld needs a trick
    assert fields_for("surrender", CLUB)[-1] == "quadruple_run"
    assert "quadruple_run" not in fields_for("misdeal", CLUB)
    assert fields_for("played", THREE)[-1] == "tricks"
    assert "tricks" not in fields_for("renege", THREE)
    for outcome in Outcome:
        for rs in (PAGAT, CLUB, THREE):
            assert set(fields_for(outcome, rs)) <= set(HAND_FIELDS)


def test_fields_for_an_unknown_outcome() -> None:
    with pytest.raises(RulesError) as exc:
        fields_for("won", PAGAT)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("outcome", "bad_choice")


@pytest.mark.parametrize("outcome", list(Outcome))
def test_a_hand_with_exactly_its_fields_parses(outcome: Outcome) -> None:
    every = {**PLAYED, "renege_seat": "E", "quadruple_run": "NS", "misdeal_seat": "E"}
    hand = {"outcome": outcome, **{k: every[k] for k in fields_for(outcome, CLUB)}}
    score_hand(parse_hand(hand, CLUB), CLUB)


# --- fields an outcome does not carry ----------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (dict(PLAYED, renege_seat="E"), "renege_seat"),
        (dict(PLAYED, outcome="surrender"), "counters"),
        (dict(PLAYED, outcome="no_marriage"), "counters"),
        ({"dealer": "S", "outcome": "misdeal", "bid": 50}, "bid"),
        ({"dealer": "S", "outcome": "misdeal", "meld": {"NS": 0, "EW": 0}}, "meld"),
        ({"dealer": "S", "outcome": "misdeal", "declarer": "N"}, "declarer"),
    ],
)
def test_a_field_the_outcome_does_not_carry_is_an_error(hand: dict[str, Any], field: str) -> None:
    assert errors(hand) == {field: "unexpected"}


@pytest.mark.parametrize("counters", [{"NS": 99, "EW": -5}, "garbage", {"NS": 25, "EW": 25}])
@pytest.mark.parametrize("outcome", ["surrender", "no_marriage"])
def test_counters_are_never_taken_without_play(outcome: str, counters: object) -> None:
    # even plausible counters: a hand without play cannot have any, so they are a typing slip
    assert errors(dict(BEFORE_PLAY, outcome=outcome, counters=counters)) == {
        "counters": "unexpected"
    }


def test_null_and_empty_values_count_as_not_given() -> None:
    # the web app stores an empty meld for a misdeal and null for counters it did not take
    parse_hand({"dealer": "S", "outcome": "misdeal", "meld": {}, "bid": None}, PAGAT)
    hand = parse_hand(dict(BEFORE_PLAY, outcome="surrender", counters=None), PAGAT)
    assert hand.counters is None
    assert errors(dict(PLAYED, meld={})) == {"meld": "required"}


def test_a_misdeal_round_trips_without_meld() -> None:
    hand = parse_hand({"dealer": "S", "outcome": "misdeal"}, PAGAT)
    assert hand.meld == {}
    assert parse_hand(hand.to_dict(), PAGAT) == hand


def test_features_the_ruleset_lacks_are_named_as_such() -> None:
    assert errors(dict(PLAYED, tricks={"NS": 10, "EW": 10})) == {"tricks": "not_in_ruleset"}
    assert errors(dict(PLAYED, quadruple_run="NS")) == {"quadruple_run": "not_in_ruleset"}


def test_bidder_and_its_alias_declarer() -> None:
    assert parse_hand({**PLAYED, "declarer": "E", "bidder": None}, PAGAT).bidder == "E"
    assert errors(dict(PLAYED, declarer="E")) == {"declarer": "duplicate"}


# --- unknown fields ---------------------------------------------------------------------------


def test_unknown_top_level_fields_are_errors() -> None:
    assert errors(dict(PLAYED, options=[1, 2])) == {"options": "unknown_field"}
    assert errors(dict(PLAYED, Bid=60)) == {"Bid": "unknown_field"}


def test_a_huge_unknown_field_is_refused_without_echoing_it() -> None:
    big = "x" * 10_000_000
    start = time.perf_counter()
    with pytest.raises(RulesError) as exc:
        parse_hand({**PLAYED, big: big, "notes": big}, PAGAT)
    assert time.perf_counter() - start < 0.5
    assert len(str(exc.value)) < 1_000
    assert {e.code for e in exc.value.errors} == {"unknown_field"}
    assert "notes" in [e.field for e in exc.value.errors]


def test_an_object_with_thousands_of_keys_is_refused_at_once() -> None:
    hand = {**PLAYED, **{f"k{i}": i for i in range(100_000)}}
    with pytest.raises(RulesError) as exc:
        parse_hand(hand, PAGAT)
    assert [e.field for e in exc.value.errors] == ["hand"]


# --- per-side values --------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["counters", "meld"])
def test_side_keys_that_differ_only_in_case_are_not_added(key: str) -> None:
    hand = dict(PLAYED)
    hand[key] = {**hand[key], "ns": 10}
    assert errors(hand) == {f"{key}.ns": "bad_side"}


@pytest.mark.parametrize(
    ("meld", "expected"),
    [
        ({"ns": 24, "ew": 32}, {"meld.ns": "bad_side", "meld.ew": "bad_side"}),
        ({"NS": 24, "EW": 32, "North": 2}, {"meld.North": "bad_side"}),
        ({"NS": 24, "E": 30, "w": 2}, {"meld.w": "bad_side"}),
        ({"NS": 24, " EW": 32}, {"meld. EW": "bad_side"}),
    ],
)
def test_unknown_side_or_seat_keys_name_the_field(
    meld: dict[str, int], expected: dict[str, str]
) -> None:
    assert errors(dict(PLAYED, meld=meld)) == expected


def test_three_player_sides_are_the_seats() -> None:
    hand = {
        "dealer": "S",
        "bidder": "N",
        "bid": 300,
        "trump": "H",
        "meld": {"N": 150, "E": 60, "S": 20},
        "counters": {"N": 160, "E": 90, "S": 0},
        "tricks": {"N": 9, "E": 6, "S": 0},
    }
    parse_hand(hand, THREE)
    assert errors(dict(hand, meld={"N": 150, "E": 60, "S": 20, "W": 0}), THREE) == {
        "meld.W": "bad_side"
    }
    assert errors(dict(hand, meld={"NS": 170, "E": 60}), THREE) == {"meld.NS": "bad_side"}
    assert errors(dict(hand, meld={"N": 170, "E": 60}), THREE) == {"meld.S": "required"}


def test_meld_per_seat_is_checked_per_player() -> None:
    # 13 + 11 = 24 is a fine side total, but no single pagat hand melds 13 or 11
    got = errors(dict(PLAYED, meld={"N": 13, "S": 11, "EW": 32}))
    assert got == {"meld.N": "not_achievable", "meld.S": "not_achievable"}
    # one player holds at most 315 (a side's bound is twice that)
    assert errors(dict(PLAYED, meld={"N": 316, "S": 0, "EW": 32}))["meld.N"] == "too_high"
    hand = parse_hand(dict(PLAYED, meld={"N": 10, "S": 14, "EW": 32}), PAGAT)
    assert hand.meld == {"NS": 24, "EW": 32}


def test_a_side_given_per_seat_needs_both_seats_and_not_the_side_too() -> None:
    assert errors(dict(PLAYED, meld={"N": 10, "EW": 32})) == {"meld.S": "required"}
    assert errors(dict(PLAYED, meld={"N": 10, "S": 14, "NS": 24, "EW": 32})) == {
        "meld.NS": "duplicate"
    }


def test_counters_per_seat_are_checked_and_added() -> None:
    hand = parse_hand(dict(PLAYED, counters={"N": 20, "S": 7, "E": 23, "W": 0}), PAGAT)
    assert hand.counters == {"NS": 27, "EW": 23}
    assert errors(dict(PLAYED, counters={"N": 51, "S": 0, "EW": 0})) == {"counters.N": "too_high"}


# --- numbers --------------------------------------------------------------------------------


@pytest.mark.parametrize("bid", [10**30, -(10**30), 10**5000, "9" * 5000, 1e300, 685], ids=shown)
def test_impossible_bids_are_field_errors(bid: object) -> None:
    got = errors(dict(PLAYED, bid=bid))
    assert list(got) == ["bid"]
    assert got["bid"] in ("too_high", "bad_bid")


def test_the_bid_ceiling_is_meld_plus_counters() -> None:
    # the most a side can meld (two hands from one deck: 572, not twice one hand's 315) plus
    # all 50 counters
    assert max_bid(PAGAT) == 572 + 50
    assert errors(dict(PLAYED, bid=625)) == {"bid": "too_high"}
    assert errors(dict(PLAYED, bid=10**30)) == {"bid": "too_high"}
    parse_hand(
        dict(PLAYED, bid=620, meld={"NS": 572, "EW": 0}, counters={"NS": 50, "EW": 0}), PAGAT
    )
    assert errors(dict(PLAYED, meld={"NS": 573, "EW": 0})) == {"meld.NS": "too_high"}


@pytest.mark.parametrize(
    ("key", "value", "code"),
    [
        ("meld", 10**30, "too_high"),
        ("meld", 10**5000, "too_high"),
        ("meld", "²", "bad_type"),
        ("meld", "1" * 5000, "too_high"),
        ("meld", float("inf"), "bad_type"),
        ("meld", True, "bad_type"),
        ("counters", 10**30, "too_high"),
        ("counters", -(10**5000), "negative"),
        ("counters", 2.5, "bad_type"),
    ],
    ids=shown,
)
def test_huge_or_odd_values_are_field_errors(key: str, value: object, code: str) -> None:
    hand = dict(PLAYED)
    hand[key] = {"NS": value, "EW": hand[key]["EW"]}
    with pytest.raises(RulesError) as exc:
        parse_hand(hand, PAGAT)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == (f"{key}.NS", code)
    assert len(str(exc.value)) < 500


def test_numbers_written_as_strings_are_read() -> None:
    hand = parse_hand(dict(PLAYED, bid=" 51 ", meld={"NS": "24", "EW": 32.0}), PAGAT)
    assert (hand.bid, hand.meld) == (51, {"NS": 24, "EW": 32})


def test_tricks_are_checked_like_counters() -> None:
    hand = {
        "dealer": "S",
        "bidder": "N",
        "bid": 300,
        "trump": "H",
        "meld": {"N": 150, "E": 60, "S": 20},
        "counters": {"N": 160, "E": 90, "S": 0},
    }
    parse_hand(dict(hand, tricks={"N": 9, "E": 5, "S": 1}), THREE)
    assert errors(dict(hand, tricks={"N": 16, "E": 0, "S": 0}), THREE) == {"tricks.N": "too_high"}
    assert errors(dict(hand, tricks={"N": 9, "E": 5, "S": 0}), THREE) == {"tricks": "bad_sum"}
    assert errors(hand, THREE) == {"tricks": "required"}
    assert errors(dict(hand, tricks={}), THREE) == {"tricks": "required"}
    assert errors(dict(hand, tricks=None), THREE) == {"tricks": "required"}


SINGLE = get_ruleset("single_deck_partnership")


def test_a_single_deck_side_melds_at_most_2220() -> None:
    # two hands of 12 from one 48-card deck: double aces and double pinochle in one hand,
    # double kings and the double royal and club marriages in the other (tests/rules_engine/
    # test_meld.py enumerates it); twice one hand's best (1800) cannot be reached
    hand = {"dealer": "S", "bidder": "N", "bid": 250, "trump": "H",
            "meld": {"NS": 2220, "EW": 0}, "counters": {"NS": 250, "EW": 0}}
    parse_hand(hand, SINGLE)
    for impossible in (2230, 3600):
        got = errors(dict(hand, meld={"NS": impossible, "EW": 0}), SINGLE)
        assert got == {"meld.NS": "too_high"}
    try:
        parse_hand(dict(hand, meld={"NS": 3600, "EW": 0}), SINGLE)
    except RulesError as exc:
        assert "at most 2220" in exc.errors[0].message
    assert max_bid(SINGLE) == 2470
    assert errors(dict(hand, bid=2480), SINGLE) == {"bid": "too_high"}
    parse_hand(dict(hand, bid=2470), SINGLE)


def test_a_three_handed_defender_melds_from_15_cards() -> None:
    hand = {"dealer": "S", "bidder": "N", "bid": 300, "trump": "H",
            "meld": {"N": 150, "E": 60, "S": 20}, "counters": {"N": 160, "E": 90, "S": 0},
            "tricks": {"N": 9, "E": 6, "S": 0}}
    # the declarer, with the widow (18 cards), can show 2800; a defender holds 15
    parse_hand(dict(hand, meld={"N": 2800, "E": 60, "S": 20}), THREE)
    got = errors(dict(hand, meld={"N": 150, "E": 2800, "S": 20}), THREE)
    assert got == {"meld.E": "too_high"}
    try:
        parse_hand(dict(hand, meld={"N": 150, "E": 2800, "S": 20}), THREE)
    except RulesError as exc:
        assert "a player holding 15 cards" in exc.errors[0].message
    # cutthroat has no widow: every player holds 16
    cut = get_ruleset("cutthroat")
    top = max_side_meld(cut)
    parse_hand(dict(hand, meld={"N": 150, "E": top, "S": 20},
                    tricks={"N": 10, "E": 6, "S": 0}), cut)


def test_the_dealer_may_open_one_lower() -> None:
    rs = get_ruleset("three_handed", {"dealer_opens_lower": True})
    hand = {"dealer": "N", "bidder": "N", "bid": 290, "trump": "H",
            "meld": {"N": 150, "E": 60, "S": 20}, "counters": {"N": 160, "E": 90, "S": 0},
            "tricks": {"N": 9, "E": 6, "S": 0}}
    assert parse_hand(hand, rs).bid == 290
    assert errors(dict(hand, dealer="S"), rs) == {"bid": "bad_bid"}
    assert errors(dict(hand, dealer=None), rs) == {"bid": "bad_bid"}
    assert errors(dict(hand, bid=280), rs) == {"bid": "bad_bid"}
    assert errors(hand, THREE) == {"bid": "bad_bid"}
