from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    Hand,
    Outcome,
    RulesError,
    fields_for,
    get_ruleset,
    parse_hand,
    score_hand,
)

from .conftest import load_cases


def score(preset: str, overrides: dict[str, object] | None = None, **hand: Any) -> Any:
    rs = get_ruleset(preset, overrides)
    return score_hand(parse_hand(hand, rs), rs)


def h4(
    bid: int = 51,
    bidder: str = "N",
    meld: tuple[int, int] = (24, 32),
    counters: tuple[int, int] | None = (27, 23),
    outcome: str = "played",
    **extra: Any,
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "dealer": "W",
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "meld": {"NS": meld[0], "EW": meld[1]},
        "outcome": outcome,
        **extra,
    }
    if counters is not None:
        d["counters"] = {"NS": counters[0], "EW": counters[1]}
    return d


@pytest.mark.parametrize("case", load_cases("score_examples.json"), ids=lambda c: c["note"])
def test_published_score_examples(case: dict[str, Any]) -> None:
    rs = get_ruleset(case["preset"])
    if "error_field" in case:
        with pytest.raises(RulesError) as exc:
            parse_hand(case["hand"], rs)
        assert case["error_field"] in [e.field for e in exc.value.errors]
        return
    result = score_hand(parse_hand(case["hand"], rs), rs)
    assert result.points == case["points"]


# --- pagat ----------------------------------------------------------------------------------


def test_pagat_made() -> None:
    s = score("pagat_double_deck", **h4())
    assert (s.points, s.made, s.result, s.declaring_side) == (
        {"NS": 51, "EW": 55},
        True,
        "made",
        "NS",
    )
    assert "made" in s.reason


def test_pagat_set_opponents_keep_meld_and_counters() -> None:
    s = score("pagat_double_deck", **h4(bid=60, counters=(30, 20)))
    assert s.points == {"NS": -60, "EW": 52}
    assert (s.made, s.result) == (False, "set")


def test_pagat_no_marriage_nobody_scores_meld() -> None:
    s = score("pagat_double_deck", **h4(outcome="no_marriage", counters=None))
    assert s.points == {"NS": -51, "EW": 0}
    assert s.result == "board_set"


def test_pagat_surrender_opponents_score_meld() -> None:
    s = score("pagat_double_deck", **h4(bid=65, outcome="surrender", counters=None))
    assert s.points == {"NS": -65, "EW": 32}
    assert s.result == "surrendered"


def test_pagat_renege_by_declaring_side() -> None:
    s = score("pagat_double_deck", **h4(outcome="renege", renege_seat="S"))
    assert s.points == {"NS": -51, "EW": 55}
    assert (s.result, s.made) == ("renege", False)


def test_pagat_renege_by_defender() -> None:
    s = score("pagat_double_deck", **h4(outcome="renege", renege_seat="E", counters=None))
    assert s.points == {"NS": 51, "EW": -51}
    assert (s.result, s.made) == ("renege", True)


def test_misdeal_scores_nothing() -> None:
    s = score("pagat_double_deck", dealer="N", outcome="misdeal")
    assert (s.points, s.result, s.made) == ({"NS": 0, "EW": 0}, "misdeal", None)


def test_dealer_stuck_bid() -> None:
    s = score("pagat_double_deck", **h4(bid=50, bidder="W", counters=(20, 30)))
    assert s.points == {"NS": 44, "EW": 62}


# --- club -----------------------------------------------------------------------------------


def test_club_meld_under_twenty_does_not_count() -> None:
    s = score("club_double_deck", **h4(bid=50, meld=(16, 18), counters=(35, 15)))
    assert s.points == {"NS": -50, "EW": 0}
    s = score("club_double_deck", **h4(bid=50, meld=(16, 18), counters=(50, 0)))
    assert s.points == {"NS": 50, "EW": 0}


def test_club_declaring_side_needs_twenty_counters() -> None:
    s = score("club_double_deck", **h4(bid=50, meld=(60, 20), counters=(19, 31)))
    assert s.points == {"NS": -50, "EW": 51}
    assert "took only 19 counters" in s.reason


def test_club_board_set() -> None:
    s = score("club_double_deck", **h4(outcome="no_marriage", counters=None))
    assert s.points == {"NS": -51, "EW": 32}
    s = score("club_double_deck", **h4(outcome="no_marriage", meld=(24, 18), counters=None))
    assert s.points == {"NS": -51, "EW": 0}


def test_club_surrender_gives_meld_plus_twenty() -> None:
    s = score("club_double_deck", **h4(outcome="surrender", counters=None))
    assert s.points == {"NS": -51, "EW": 52}
    s = score("club_double_deck", **h4(outcome="surrender", meld=(24, 12), counters=None))
    assert s.points == {"NS": -51, "EW": 20}


def test_club_renege_by_declaring_side() -> None:
    s = score("club_double_deck", **h4(bid=60, outcome="renege", renege_seat="N"))
    assert s.points == {"NS": -60, "EW": 52}


def test_club_renege_by_defender() -> None:
    s = score("club_double_deck", **h4(bid=60, outcome="renege", renege_seat="W"))
    assert s.points == {"NS": 60, "EW": -60}
    assert s.made is True


# --- npa ------------------------------------------------------------------------------------


def test_npa_too_little_meld_is_a_board_set() -> None:
    s = score("npa_double_deck", **h4(bid=50, meld=(16, 30), counters=(40, 10)))
    assert s.points == {"NS": -50, "EW": 30}
    assert s.result == "board_set"


def test_npa_minimums() -> None:
    s = score("npa_double_deck", **h4(bid=55, meld=(25, 20), counters=(35, 15)))
    assert s.points == {"NS": 60, "EW": 0}
    s = score("npa_double_deck", **h4(bid=55, meld=(25, 20), counters=(30, 20)))
    assert s.points == {"NS": 55, "EW": 40}


# --- overrides of policies ------------------------------------------------------------------


def test_progressive_set() -> None:
    s = score(
        "pagat_double_deck", {"set_policy": "opponents_gain_bid"}, **h4(bid=60, counters=(30, 20))
    )
    assert s.points == {"NS": 0, "EW": 112}


def test_set_losing_bid_and_meld() -> None:
    s = score(
        "pagat_double_deck",
        {"set_policy": "subtract_bid_and_meld"},
        **h4(bid=60, counters=(30, 20)),
    )
    assert s.points == {"NS": -84, "EW": 52}


@pytest.mark.parametrize(
    ("policy", "bonus", "ew"),
    [("nothing", 0, 0), ("meld", 0, 32), ("meld_plus_bonus", 25, 57), ("meld_plus_bonus", 50, 82)],
)
def test_surrender_policies(policy: str, bonus: int, ew: int) -> None:
    s = score(
        "pagat_double_deck",
        {"surrender_policy": policy, "surrender_bonus": bonus},
        **h4(outcome="surrender", counters=None),
    )
    assert s.points == {"NS": -51, "EW": ew}


def test_short_meld_play_on_versus_set() -> None:
    hand = h4(bid=50, meld=(10, 30), counters=(50, 0))
    assert score("pagat_double_deck", {"min_meld": 20}, **hand).points == {"NS": 50, "EW": 30}
    s = score("pagat_double_deck", {"min_meld": 20, "short_meld": "set"}, **hand)
    assert (s.points, s.result) == ({"NS": -50, "EW": 30}, "board_set")


# --- single deck and three-handed ------------------------------------------------------------


def test_single_deck_partnership() -> None:
    s = score(
        "single_deck_partnership",
        dealer="N",
        bidder="E",
        bid=250,
        trump="S",
        meld={"NS": 60, "EW": 150},
        counters={"NS": 120, "EW": 130},
    )
    assert s.points == {"NS": 180, "EW": 280}
    s = score(
        "single_deck_partnership",
        dealer="N",
        bidder="E",
        bid=300,
        trump="S",
        meld={"NS": 60, "EW": 150},
        counters={"NS": 120, "EW": 130},
    )
    assert s.points == {"NS": 180, "EW": -300}


def test_single_deck_renege_double_set() -> None:
    s = score(
        "single_deck_partnership",
        dealer="N",
        bidder="E",
        bid=250,
        trump="S",
        meld={"NS": 60, "EW": 150},
        outcome="renege",
        renege_seat="W",
    )
    assert s.points == {"NS": 60, "EW": -500}
    s = score(
        "single_deck_partnership",
        dealer="N",
        bidder="E",
        bid=250,
        trump="S",
        meld={"NS": 60, "EW": 150},
        outcome="renege",
        renege_seat="N",
    )
    assert s.points == {"NS": -250, "EW": 400}


def three(**extra: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "dealer": "S",
        "bidder": "N",
        "bid": 300,
        "trump": "H",
        "meld": {"N": 150, "E": 60, "S": 20},
        "counters": {"N": 160, "E": 90, "S": 0},
        # required: a player must take a trick to save meld (S took none)
        "tricks": {"N": 9, "E": 6, "S": 0},
    }
    d.update(extra)
    return {k: v for k, v in d.items() if v is not None}


def test_three_handed_made_and_meld_needs_a_trick() -> None:
    s = score("three_handed", **three())
    assert s.points == {"N": 310, "E": 150, "S": 0}
    s = score("three_handed", **three(tricks={"N": 9, "E": 5, "S": 1}))
    assert s.points == {"N": 310, "E": 150, "S": 20}


def test_three_handed_set_cancels_meld() -> None:
    s = score("three_handed", **three(bid=350))
    assert s.points == {"N": -350, "E": 150, "S": 0}


def test_three_handed_concede_and_renege() -> None:
    s = score("three_handed", **three(outcome="surrender", counters=None, tricks=None))
    assert s.points == {"N": -300, "E": 60, "S": 20}
    s = score("three_handed", **three(outcome="renege", renege_seat="N", tricks=None))
    assert s.points == {"N": -600, "E": 60, "S": 20}
    s = score("three_handed", **three(outcome="renege", renege_seat="E", tricks=None))
    assert s.points == {"N": 450, "E": -300, "S": 20}


def test_three_handed_has_no_board_set_for_marriage() -> None:
    with pytest.raises(RulesError) as exc:
        score("three_handed", **three(outcome="no_marriage", counters=None, tricks=None))
    assert [e.field for e in exc.value.errors] == ["outcome"]


# --- validation -------------------------------------------------------------------------------


def fields(preset: str, hand: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(RulesError) as exc:
        parse_hand(hand, get_ruleset(preset))
    return {e.field: e.code for e in exc.value.errors}


def test_every_error_is_reported_with_its_field() -> None:
    got = fields(
        "pagat_double_deck",
        {
            "dealer": "X",
            "bidder": "Q",
            "bid": 61,
            "trump": "Z",
            "meld": {"NS": 13, "EW": -2},
            "counters": {"NS": 26, "EW": 25},
            "outcome": "played",
        },
    )
    assert got == {
        "dealer": "bad_seat",
        "bidder": "bad_seat",
        "bid": "bad_bid",
        "trump": "bad_suit",
        "meld.NS": "not_achievable",
        "meld.EW": "negative",
        "counters": "bad_sum",
    }


def test_counter_messages_speak_plainly() -> None:
    with pytest.raises(RulesError) as exc:
        parse_hand(h4(counters=(26, 22)), get_ruleset("pagat_double_deck"))
    assert exc.value.errors[0].message == "counters must add up to 50, got 48"
    assert fields("pagat_double_deck", h4(counters=(51, 0))) == {"counters.NS": "too_high"}


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"bid": 45}, "bid", "bad_bid"),
        ({"bid": "lots"}, "bid", "bad_bid"),
        ({"bid": None}, "bid", "required"),
        ({"bidder": None}, "bidder", "required"),
        ({"trump": None}, "trump", "required"),
        ({"meld": None}, "meld", "required"),
        ({"meld": {"NS": 20}}, "meld.EW", "required"),
        ({"meld": {"NS": 20, "XY": 4, "EW": 2}}, "meld.XY", "bad_side"),
        ({"meld": {"NS": 20, "EW": 999}}, "meld.EW", "too_high"),
        ({"meld": [1, 2]}, "meld", "bad_type"),
        ({"counters": None}, "counters", "required"),
        ({"counters": {"NS": "x", "EW": 20}}, "counters.NS", "bad_type"),
        ({"outcome": "won"}, "outcome", "bad_choice"),
        ({"outcome": "renege"}, "renege_seat", "required"),
        ({"outcome": "renege", "renege_seat": "Z"}, "renege_seat", "bad_seat"),
        ({"quadruple_run": "NS"}, "quadruple_run", "not_in_ruleset"),
    ],
)
def test_field_errors(change: dict[str, Any], field: str, code: str) -> None:
    hand = h4()
    hand.update(change)
    hand = {k: v for k, v in hand.items() if v is not None}
    assert fields("pagat_double_deck", hand).get(field) == code


def test_meld_by_seat_is_summed_per_side() -> None:
    rs = get_ruleset("pagat_double_deck")
    hand = parse_hand({**h4(), "meld": {"N": 10, "S": 14, "E": 30, "W": 2}}, rs)
    assert hand.meld == {"NS": 24, "EW": 32}


def test_hand_round_trip() -> None:
    rs = get_ruleset("club_double_deck")
    hand = parse_hand(h4(), rs)
    assert parse_hand(hand.to_dict(), rs) == hand
    assert score_hand(hand, rs).to_dict()["points"] == {"NS": 51, "EW": 55}


# --- properties ---------------------------------------------------------------------------------

ROTATE = {"N": "E", "E": "S", "S": "W", "W": "N"}
SWAP = {"NS": "EW", "EW": "NS"}
FOUR = ["pagat_double_deck", "club_double_deck", "npa_double_deck"]


@st.composite
def double_deck_hands(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(FOUR))
    rs = get_ruleset(preset)
    bid = draw(st.sampled_from(rs.next_bids(None, 20)))
    evens = st.integers(0, 40).map(lambda n: 2 * n)
    ns = draw(st.integers(0, 50))
    outcome = draw(
        st.sampled_from(["played", "played", "no_marriage", "surrender", "renege", "misdeal"])
    )
    every = {
        "dealer": draw(st.sampled_from("NESW")),
        "bidder": draw(st.sampled_from("NESW")),
        "bid": bid,
        "trump": draw(st.sampled_from("SHDC")),
        "meld": {"NS": draw(evens), "EW": draw(evens)},
        "counters": {"NS": ns, "EW": 50 - ns},
        "renege_seat": draw(st.sampled_from("NESW")),
    }
    carried = set(fields_for(outcome, rs)) - {"quadruple_run"}
    return preset, {"outcome": outcome, **{k: v for k, v in every.items() if k in carried}}


@settings(max_examples=300, deadline=None)
@given(double_deck_hands())
def test_scoring_is_symmetric_under_swapping_seats(case: tuple[str, dict[str, Any]]) -> None:
    preset, hand = case
    rs = get_ruleset(preset)
    swapped = dict(hand)
    for key in ("dealer", "bidder", "renege_seat"):
        if key in hand:
            swapped[key] = ROTATE[hand[key]]
    for key in ("meld", "counters"):
        if key in hand:
            swapped[key] = {SWAP[s]: v for s, v in hand[key].items()}
    a = score_hand(parse_hand(hand, rs), rs)
    b = score_hand(parse_hand(swapped, rs), rs)
    assert b.points == {SWAP[s]: v for s, v in a.points.items()}
    assert (a.made, a.result) == (b.made, b.result)


@settings(max_examples=300, deadline=None)
@given(double_deck_hands())
def test_scores_stay_within_bounds(case: tuple[str, dict[str, Any]]) -> None:
    preset, hand = case
    rs = get_ruleset(preset)
    s = score_hand(parse_hand(hand, rs), rs)
    d = s.declaring_side
    if s.result == "made":
        assert s.points[d] >= hand["bid"]
    if s.made is False:
        assert s.points[d] == -hand["bid"]
    for side, p in s.points.items():
        if side != d and s.result in ("made", "set"):
            assert 0 <= p <= hand["meld"][side] + hand["counters"][side]


def test_score_hand_works_on_a_hand_built_directly() -> None:
    rs = get_ruleset("pagat_double_deck")
    hand = Hand(
        dealer="W",
        bidder="N",
        bid=51,
        trump="H",
        meld={"NS": 24, "EW": 32},
        counters={"NS": 27, "EW": 23},
        outcome="played",
        renege_seat=None,
    )
    assert score_hand(hand, rs).points == {"NS": 51, "EW": 55}


# --- three-handed forced concession -----------------------------------------------------------


def test_three_handed_declarer_who_cannot_reach_the_bid_must_concede() -> None:
    # 80 meld + all 250 counters = 330 < 350: the hand may not be played
    hand = three(bid=350, meld={"N": 80, "E": 60, "S": 20})
    s = score("three_handed", **hand)
    assert (s.result, s.made) == ("surrendered", False)
    # a concession, not a set after play: the others score their meld and no counters, and
    # S keeps meld although it took no counters (nobody had to take a trick)
    assert s.points == {"N": -350, "E": 60, "S": 20}
    assert "had to concede" in s.reason
    cut = dict(hand, tricks={"N": 10, "E": 6, "S": 0})  # cutthroat deals 16 tricks
    assert score("cutthroat", **cut).points == {"N": -350, "E": 60, "S": 20}


def test_forced_concession_only_below_the_reach_of_every_counter() -> None:
    # 100 meld + 250 = 350 reaches the bid: played out and set as usual
    s = score("three_handed", **three(bid=350, meld={"N": 100, "E": 60, "S": 20}))
    assert (s.result, s.points) == ("set", {"N": -350, "E": 150, "S": 0})


def test_forced_concession_is_an_option() -> None:
    hand = three(bid=350, meld={"N": 80, "E": 60, "S": 20})
    s = score("three_handed", {"forced_concession": False}, **hand)
    assert (s.result, s.points) == ("set", {"N": -350, "E": 150, "S": 0})
    # partnership presets play every hand out unless a club asks otherwise
    assert not get_ruleset("pagat_double_deck").forced_concession
    short = h4(bid=100, meld=(24, 32), counters=(30, 20))
    assert score("pagat_double_deck", **short).result == "set"
    s = score("pagat_double_deck", {"forced_concession": True}, **short)
    assert (s.result, s.points) == ("surrendered", {"NS": -100, "EW": 32})


def test_every_outcome_and_policy_has_a_scorer() -> None:
    from rules_engine.rulesets import _SPEC
    from rules_engine.scoring import _RENEGE_DECLARER, _SCORERS, _SET_POLICIES

    assert set(_SCORERS) | {"misdeal", "technical_misdeal"} == {o.value for o in Outcome}
    assert set(_SET_POLICIES) == set(_SPEC["set_policy"][1])
    assert set(_RENEGE_DECLARER) == set(_SPEC["renege_declarer"][1])


# --- tricks decide who saved meld; counters must fit the tricks --------------------------------


def test_tricks_are_required_where_meld_needs_a_trick() -> None:
    for preset, size in (("three_handed", 15), ("cutthroat", 16)):
        with pytest.raises(RulesError) as exc:
            score(preset, **three(tricks=None))
        (error,) = exc.value.errors
        assert (error.field, error.code) == ("tricks", "required")
        assert f"add up to {size}" in error.message and "save meld" in error.message
    # a hand without play carries no tricks at all
    assert score("three_handed", **three(outcome="surrender", counters=None, tricks=None))


def test_a_pointless_trick_saves_meld() -> None:
    # the defender S won one trick holding no counter: its 100 meld is saved
    s = score("three_handed", **three(meld={"N": 150, "E": 60, "S": 100},
                                      tricks={"N": 9, "E": 5, "S": 1}))
    assert s.points == {"N": 310, "E": 150, "S": 100}


def test_discarded_counters_do_not_save_the_declarers_meld() -> None:
    # N took no trick; its 30 counters are the three tens it discarded: meld lost, so set
    hand = three(bid=300, meld={"N": 280, "E": 60, "S": 20},
                 counters={"N": 30, "E": 150, "S": 70}, tricks={"N": 0, "E": 9, "S": 6})
    s = score("three_handed", **hand)
    assert (s.result, s.points) == ("set", {"N": -300, "E": 210, "S": 90})


@pytest.mark.parametrize(
    ("counters", "tricks", "field"),
    [
        # a defender with no trick holds no counter
        ({"N": 160, "E": 40, "S": 50}, {"N": 9, "E": 6, "S": 0}, "counters.S"),
        # one player took every trick while another has 50
        ({"N": 200, "E": 50, "S": 0}, {"N": 15, "E": 0, "S": 0}, "counters.E"),
        # the declarer's three discards hold at most three tens
        ({"N": 40, "E": 110, "S": 100}, {"N": 0, "E": 8, "S": 7}, "counters.N"),
        # one trick is three cards and perhaps the last trick: at most 40 here
        ({"N": 160, "E": 40, "S": 50}, {"N": 9, "E": 5, "S": 1}, "counters.S"),
    ],
)
def test_counters_impossible_for_the_tricks(
    counters: dict[str, int], tricks: dict[str, int], field: str
) -> None:
    with pytest.raises(RulesError) as exc:
        score("three_handed", **three(counters=counters, tricks=tricks))
    assert [(e.field, e.code) for e in exc.value.errors] == [(field, "impossible")]


def test_counters_at_the_edge_of_the_tricks_pass() -> None:
    # S: one trick of three tens, plus the last trick
    s = score("three_handed", **three(counters={"N": 160, "E": 50, "S": 40},
                                      tricks={"N": 9, "E": 5, "S": 1}))
    assert s.points["S"] == 60
    # N took no trick but discarded three tens: 30 counts for N
    score("three_handed", **three(counters={"N": 30, "E": 120, "S": 100},
                                  tricks={"N": 0, "E": 8, "S": 7}))


@pytest.mark.parametrize("preset", ["single_deck_partnership", "three_handed", "cutthroat"])
def test_counters_come_in_tens_where_every_card_does(preset: str) -> None:
    rs = get_ruleset(preset)
    sides = list(rs.sides)
    counters = dict.fromkeys(sides, 0)
    counters[sides[0]], counters[sides[1]] = 125, 125
    tricks = dict.fromkeys(sides, 0)
    tricks[sides[0]] = rs.hand_size - 3
    tricks[sides[1]] = 3
    hand = {"dealer": rs.seats[0], "bidder": rs.seats[0], "bid": 300, "trump": "H",
            "meld": dict.fromkeys(sides, 100), "counters": counters}
    if rs.meld_needs_trick:
        hand["tricks"] = tricks
    with pytest.raises(RulesError) as exc:
        score_hand(parse_hand(hand, rs), rs)
    assert {(e.field, e.code) for e in exc.value.errors} == {
        (f"counters.{sides[0]}", "not_multiple"), (f"counters.{sides[1]}", "not_multiple")}
    assert "multiple of 10" in exc.value.errors[0].message
    # counting 11/10/4/3/2 (classic) gives any whole number
    classic = get_ruleset(preset, {"count_method": "classic"})
    assert classic.counter_unit == 1


# --- the forced concession entered as the declarer's renege -----------------------------------


def test_a_renege_in_a_hand_the_declarer_had_to_concede_is_the_concession() -> None:
    # 80 meld + every counter (250) < 350: N had to concede before the first card. Entered as
    # N's renege it is scored as that concession (-350, the others their meld), not -2 x bid.
    hand = three(bid=350, meld={"N": 80, "E": 60, "S": 20}, outcome="renege", renege_seat="N",
                 tricks=None)
    s = score("three_handed", **hand)
    assert (s.result, s.points) == ("surrendered", {"N": -350, "E": 60, "S": 20})
    assert "does not count" in s.reason
    # a defender's renege in that hand does not hand the declarer the bid either
    s = score("three_handed", **dict(hand, renege_seat="E"))
    assert (s.result, s.points) == ("surrendered", {"N": -350, "E": 60, "S": 20})
    # a declarer who could reach the bid and reneged takes the double set
    s = score("three_handed", **dict(hand, meld={"N": 100, "E": 60, "S": 20}))
    assert (s.result, s.points) == ("renege", {"N": -700, "E": 60, "S": 20})


# --- a set that keeps meld --------------------------------------------------------------------


def test_a_set_that_keeps_meld() -> None:
    # the encyclopedia: the bid is subtracted, "often" with the meld lost as well -- where the
    # meld is not lost, the declaring side scores its meld less the bid
    hand = three(bid=350)  # 150 meld + 160 counters = 310 < 350
    assert score("three_handed", **hand).points == {"N": -350, "E": 150, "S": 0}
    s = score("three_handed", {"set_keeps_meld": True}, **hand)
    assert (s.result, s.points) == ("set", {"N": -200, "E": 150, "S": 0})
    assert "keep their meld, 150" in s.reason
    # the meld kept is the meld that counts: none without a trick
    s = score("three_handed", {"set_keeps_meld": True},
              **three(bid=300, meld={"N": 280, "E": 60, "S": 20},
                      counters={"N": 30, "E": 150, "S": 70}, tricks={"N": 0, "E": 9, "S": 6}))
    assert s.points["N"] == -300
    with pytest.raises(RulesError) as exc:
        get_ruleset("pagat_double_deck",
                    {"set_keeps_meld": True, "set_policy": "subtract_bid_and_meld"})
    assert exc.value.errors[0].field == "options.set_keeps_meld"
