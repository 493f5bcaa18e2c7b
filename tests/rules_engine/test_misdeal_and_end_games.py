"""The technical misdeal, pinochling (every trick wins the game) and the slide-out, as the
encyclopedia describes them (wikipedia-pinochle-current.txt: "Technical Misdeal",
"Alternate end games")."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from rules_engine import (
    Outcome,
    RulesError,
    fields_for,
    get_ruleset,
    parse_hand,
    score_game,
    score_hand,
)

PAGAT = get_ruleset("pagat_double_deck")
TECH = {"dealer": "S", "outcome": "technical_misdeal", "misdeal_seat": "E"}


def codes(data: dict[str, Any], rs: Any = PAGAT, seats: Any = None) -> list[tuple[str, str]]:
    with pytest.raises(RulesError) as exc:
        parse_hand(data, rs, seats)
    return [(e.field, e.code) for e in exc.value.errors]


# --- the technical misdeal ---------------------------------------------------------------------------


def test_a_technical_misdeal_carries_the_dealer_and_who_called_it() -> None:
    assert fields_for("technical_misdeal", PAGAT) == ("dealer", "misdeal_seat")
    assert Outcome.TECHNICAL_MISDEAL.label.startswith("Technical misdeal")
    h = parse_hand(TECH, PAGAT)
    assert (h.outcome, h.dealer, h.misdeal_seat, h.meld) == ("technical_misdeal", "S", "E", {})
    assert parse_hand(h.to_dict(), PAGAT) == h


def test_it_voids_all_meld_and_the_same_dealer_deals_again() -> None:
    out = score_hand(parse_hand(TECH, PAGAT), PAGAT)
    assert out.points == {"NS": 0, "EW": 0} and out.result == "misdeal"
    assert out.made is None and out.deals_next == "S"
    assert out.to_dict()["deals_next"] == "S" and "E" in out.reason
    # an ordinary misdeal says nothing about the next dealer
    plain = score_hand(parse_hand({"dealer": "S", "outcome": "misdeal"}, PAGAT), PAGAT)
    assert plain.deals_next is None and "deals_next" not in plain.to_dict()


def test_who_deals_again_is_an_option() -> None:
    rs = get_ruleset("pagat_double_deck", {"misdeal_redeal": "next_dealer"})
    assert score_hand(parse_hand(TECH, rs), rs).deals_next == "W"
    # at a three-handed table of four the deal passes round all four seats
    three = get_ruleset("three_handed", {"misdeal_redeal": "next_dealer"})
    seats = ["N", "E", "S", "W"]
    data = {"dealer": "W", "outcome": "technical", "misdeal_seat": "N"}
    out = score_hand(parse_hand(data, three, seats), three)
    assert out.deals_next == "N" and out.points == {"N": 0, "E": 0, "S": 0, "W": 0}
    assert out.sitting_out == "W"


def test_it_is_a_players_call_where_the_ruleset_allows_one() -> None:
    off = get_ruleset("pagat_double_deck", {"misdeal_rule": "none"})
    assert codes(TECH, off) == [("outcome", "not_in_ruleset")]
    assert codes({**TECH, "misdeal_seat": None}) == [("misdeal_seat", "required")]
    assert codes({**TECH, "misdeal_seat": "X"}) == [("misdeal_seat", "bad_seat")]
    # nothing of the nullified hand is entered
    assert codes({**TECH, "meld": {"NS": 20, "EW": 10}}) == [("meld", "unexpected")]
    # the dealer who sits out holds no cards and cannot call it
    three = get_ruleset("three_handed")
    data = {"dealer": "W", "outcome": "technical_misdeal", "misdeal_seat": "W"}
    assert codes(data, three, ["N", "E", "S", "W"]) == [("misdeal_seat", "sitting_out")]


def test_a_technical_misdeal_is_no_deal_of_the_game() -> None:
    hand = {
        "dealer": "S",
        "bidder": "N",
        "bid": 60,
        "trump": "H",
        "meld": {"NS": 24, "EW": 20},
        "counters": {"NS": 30, "EW": 20},
    }
    hands = [parse_hand(TECH, PAGAT), parse_hand(hand, PAGAT)]
    res = score_game(hands, PAGAT, max_deals=1)
    assert res.finished_after == 2 and res.totals[0] == {"NS": 0, "EW": 0}


def test_the_command_line_scores_it() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", "score"],
        input=json.dumps(TECH),
        capture_output=True,
        text=True,
        check=False,
    )
    out = json.loads(proc.stdout)
    assert proc.returncode == 0 and out["deals_next"] == "S" and out["result"] == "misdeal"


# --- pinochling: every trick wins the game -----------------------------------------------------------


def three(bid: int, meld: tuple[int, int, int], counters: tuple[int, int, int],
          tricks: tuple[int, int, int], outcome: str = "played") -> dict[str, Any]:  # fmt: skip
    hand: dict[str, Any] = {
        "dealer": "S",
        "bidder": "N",
        "bid": bid,
        "trump": "H",
        "meld": dict(zip("NES", meld, strict=True)),
        "outcome": outcome,
    }
    if outcome == "played":
        hand["counters"] = dict(zip("NES", counters, strict=True))
        hand["tricks"] = dict(zip("NES", tricks, strict=True))
    return hand


def test_pinochling_is_the_all_tricks_win() -> None:
    rs = get_ruleset("three_handed", {"all_tricks": "pinochling"})
    assert rs.all_tricks == "wins_game"
    # the declarer takes every trick with a bid meld and counters cannot reach: still a win
    doomed = parse_hand(three(500, (100, 0, 0), (250, 0, 0), (15, 0, 0)), rs)
    res = score_game([doomed], rs)
    assert (res.winner, res.reason) == ("N", "all_tricks")
    assert res.scores[0].result == "set" and res.scores[0].points["N"] == -500
    # a defender may pinochle too
    defender = parse_hand(three(300, (200, 0, 0), (0, 250, 0), (0, 15, 0)), rs)
    assert score_game([defender], rs).winner == "E"


def test_the_bidder_stops_it_by_throwing_in() -> None:
    rs = get_ruleset("three_handed", {"all_tricks": "wins_game"})
    thrown = parse_hand(three(500, (100, 60, 0), (0, 0, 0), (0, 0, 0), "surrender"), rs)
    res = score_game([thrown], rs)
    assert res.winner is None and res.scores[0].result == "surrendered"


# --- the slide-out ------------------------------------------------------------------------------------


def cut(bidder: str, bid: int, meld: tuple[int, int, int], counters: tuple[int, int, int],
        tricks: tuple[int, int, int]) -> dict[str, Any]:  # fmt: skip
    return {
        "dealer": "S",
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "meld": dict(zip("NES", meld, strict=True)),
        "counters": dict(zip("NES", counters, strict=True)),
        "tricks": dict(zip("NES", tricks, strict=True)),
    }


SLIDE = get_ruleset("cutthroat", {"slide_out": True, "game_target": 600})
# E reaches 650 without bidding; then N bids 400 and is set, again and again
E_OVER = cut("N", 300, (100, 600, 100), (200, 50, 0), (10, 6, 0))
N_SET = cut("N", 400, (100, 100, 100), (100, 100, 50), (6, 5, 5))
# E bids 600 and is set: back under the target
E_SET = cut("E", 600, (100, 100, 100), (100, 100, 50), (6, 5, 5))


def game(*hands: dict[str, Any]) -> Any:
    return score_game([parse_hand(h, SLIDE) for h in hands], SLIDE)


def test_the_opponents_failing_three_times_slides_a_player_out() -> None:
    res = game(E_OVER, N_SET, N_SET, N_SET)
    assert (res.winner, res.reason, res.finished_after) == ("E", "slide_out", 4)
    assert game(E_OVER, N_SET, N_SET).winner is None


def test_falling_under_the_target_starts_the_count_again() -> None:
    # E's own set is not the opponents' failure and takes E back under 600
    res = game(E_OVER, N_SET, N_SET, E_SET, N_SET)
    assert res.totals[3]["E"] < 600 and res.winner is None


# N makes a bid of 300 that leaves it far under the target
N_MADE = cut("N", 300, (100, 0, 0), (200, 50, 0), (10, 6, 0))


def test_the_three_failures_need_not_come_in_a_row() -> None:
    # the text counts the opponents' failed bids while the side stays over the target ("fail
    # to make their bid three times"): a bid they make in between does not start it again
    res = game(E_OVER, N_SET, N_MADE, N_SET, N_SET)
    assert res.scores[2].made and res.totals[2]["E"] >= 600
    assert (res.winner, res.reason, res.finished_after) == ("E", "slide_out", 5)
    assert game(E_OVER, N_SET, N_MADE, N_SET).winner is None


def test_the_slide_out_is_only_for_bid_and_out_games() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("three_handed", {"slide_out": True})
    assert exc.value.errors[0].field == "options.slide_out"
    # the text's three, by default
    assert SLIDE.slide_out_sets == 3
