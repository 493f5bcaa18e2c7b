from __future__ import annotations

from typing import Any

import pytest

from rules_engine import RulesError, get_ruleset, parse_hand, score_game


def hand(
    bidder: str,
    bid: int,
    ns_meld: int,
    ew_meld: int,
    ns_cnt: int,
    outcome: str = "played",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "dealer": "N",
        "bidder": bidder,
        "bid": bid,
        "trump": "S",
        "meld": {"NS": ns_meld, "EW": ew_meld},
        "counters": {"NS": ns_cnt, "EW": 50 - ns_cnt},
        "outcome": outcome,
        **extra,
    }


def game(
    preset: str,
    hands: list[dict[str, Any]],
    overrides: dict[str, object] | None = None,
    max_deals: int | None = None,
) -> Any:
    rs = get_ruleset(preset, overrides)
    return score_game([parse_hand(h, rs) for h in hands], rs, max_deals)


def test_running_totals_and_target() -> None:
    hands = [hand("N", 60, 150, 20, 30)] * 3
    res = game("pagat_double_deck", hands)
    assert res.totals == [{"NS": 180, "EW": 40}, {"NS": 360, "EW": 80}, {"NS": 540, "EW": 120}]
    assert (res.winner, res.reason, res.finished_after) == ("NS", "target", 3)


def test_unfinished_game() -> None:
    res = game("pagat_double_deck", [hand("N", 60, 24, 20, 30)])
    assert (res.winner, res.reason, res.finished_after) == (None, None, None)
    assert res.to_dict()["finished"] is False


def test_hands_after_the_end_are_an_error() -> None:
    with pytest.raises(RulesError) as exc:
        game("pagat_double_deck", [hand("N", 60, 150, 20, 30)] * 4)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("hands[3]", "game_over")


def test_both_over_the_declaring_side_wins() -> None:
    hands = [hand("E", 60, 200, 200, 25), hand("E", 60, 200, 200, 25), hand("E", 60, 30, 30, 20)]
    res = game("pagat_double_deck", hands)
    # NS 225, 450, 500 ; EW 225, 450, 510 -> both over; EW declared
    assert res.totals[-1] == {"NS": 500, "EW": 510}
    assert (res.winner, res.reason) == ("EW", "bid_and_out")
    hands[-1] = hand("N", 60, 30, 30, 30)
    res = game("pagat_double_deck", hands)
    assert res.totals[-1] == {"NS": 510, "EW": 500}
    assert (res.winner, res.reason) == ("NS", "bid_and_out")


def test_declaring_side_wins_even_with_fewer_points() -> None:
    hands = [hand("E", 60, 200, 200, 25), hand("E", 60, 200, 200, 25), hand("E", 55, 30, 20, 40)]
    res = game("club_double_deck", hands)
    # NS 225+225+70=520 ; EW 225+225+0 -> EW was set? EW meld 20 + 10 counters < 55 -> set
    assert res.totals[-1]["NS"] >= 500
    assert res.winner == "NS"


def test_club_quadruple_run_wins_at_once() -> None:
    res = game("club_double_deck", [hand("N", 60, 24, 20, 30, quadruple_run="W")])
    assert (res.winner, res.reason, res.finished_after) == ("EW", "quadruple_run", 1)


def test_fixed_number_of_deals() -> None:
    hands = [
        hand("N", 60, 24, 20, 30),
        hand("E", 60, 24, 30, 20),
        {"dealer": "S", "outcome": "misdeal"},
        hand("S", 50, 20, 20, 30),
        hand("W", 50, 20, 40, 10),
    ]
    res = game("npa_double_deck", hands, max_deals=4)
    assert res.finished_after == 5  # the misdeal does not count as a deal
    assert res.reason == "deals"
    totals = res.totals[-1]
    assert res.winner == max(totals, key=lambda s: totals[s])
    res = game("npa_double_deck", hands[:4], {"max_deals": 3})
    assert res.finished_after == 4 and res.reason == "deals"


def three(
    bidder: str,
    bid: int,
    meld: tuple[int, int, int],
    counters: tuple[int, int, int],
    outcome: str = "played",
) -> dict[str, Any]:
    return {
        "dealer": "N",
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "meld": dict(zip("NES", meld, strict=True)),
        "counters": dict(zip("NES", counters, strict=True)),
        "outcome": outcome,
    }


def test_cutthroat_only_bid_and_out_wins() -> None:
    h1 = three("N", 300, (300, 500, 400), (100, 100, 50))
    res = game("cutthroat", [h1, h1])
    # N made twice: 400 + 400 = 800; E 600 + 600 = 1200 without bidding: no win
    assert res.totals[-1] == {"N": 800, "E": 1200, "S": 900}
    assert res.winner is None
    res = game("cutthroat", [h1, h1, h1])
    assert (res.winner, res.reason, res.finished_after) == ("N", "bid_and_out", 3)


def test_three_handed_target_and_ties() -> None:
    h1 = three("N", 300, (300, 500, 100), (100, 100, 50))
    res = game("three_handed", [h1, h1])
    assert res.totals[-1] == {"N": 800, "E": 1200, "S": 300}
    assert (res.winner, res.reason) == ("E", "target")
    h2 = three("S", 300, (500, 500, 100), (100, 100, 50))
    res = game("three_handed", [h2, h2])
    # N and E both 1200, bidder S not over: equal highest -> play on
    assert res.winner is None
    res = game("three_handed", [h2, h2], {"tie_rule": "overtime"})
    assert res.winner is None and res.target == 1250


def test_overtime_picks_the_one_over_the_new_target() -> None:
    h = three("S", 300, (600, 500, 100), (100, 100, 50))
    res = game("three_handed", [h, h], {"tie_rule": "overtime"})
    assert res.totals[-1] == {"N": 1400, "E": 1200, "S": -600}
    assert (res.winner, res.reason, res.target) == ("N", "overtime", 1250)


def test_slide_out() -> None:
    h_out = three("N", 300, (100, 600, 100), (200, 50, 0))  # N makes 300, E reaches 650
    set_n = three("N", 400, (100, 100, 100), (100, 100, 50))  # N set
    rs_over = {"slide_out": True, "game_target": 600}
    res = game("cutthroat", [h_out, set_n, set_n, set_n], rs_over)
    assert (res.winner, res.reason, res.finished_after) == ("E", "slide_out", 4)


def test_to_dict_shape() -> None:
    d = game("pagat_double_deck", [hand("N", 60, 24, 20, 30)]).to_dict()
    assert set(d) >= {"totals", "winner", "reason", "finished_after", "hands"}
