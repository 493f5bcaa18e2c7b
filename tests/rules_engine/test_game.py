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
    tricks: tuple[int, int, int] = (5, 5, 5),
    outcome: str = "played",
) -> dict[str, Any]:
    """A three-player hand; tricks are required (a player must take one to save meld): 15 a
    deal three-handed, 16 in cutthroat."""
    return {
        "dealer": "N",
        "bidder": bidder,
        "bid": bid,
        "trump": "H",
        "meld": dict(zip("NES", meld, strict=True)),
        "counters": dict(zip("NES", counters, strict=True)),
        "tricks": dict(zip("NES", tricks, strict=True)),
        "outcome": outcome,
    }


def test_cutthroat_only_bid_and_out_wins() -> None:
    h1 = three("N", 300, (300, 500, 400), (100, 100, 50), (6, 5, 5))
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
    # N makes 300, E reaches 650; S takes no trick and loses its meld
    h_out = three("N", 300, (100, 600, 100), (200, 50, 0), (10, 6, 0))
    set_n = three("N", 400, (100, 100, 100), (100, 100, 50), (6, 5, 5))  # N set
    rs_over = {"slide_out": True, "game_target": 600}
    res = game("cutthroat", [h_out, set_n, set_n, set_n], rs_over)
    assert (res.winner, res.reason, res.finished_after) == ("E", "slide_out", 4)


def test_to_dict_shape() -> None:
    d = game("pagat_double_deck", [hand("N", 60, 24, 20, 30)]).to_dict()
    assert set(d) >= {"totals", "winner", "reason", "finished_after", "hands"}


def test_a_target_that_must_be_passed() -> None:
    # the encyclopedia: "if two players exceed 1000 points on the same hand" -- with
    # target_exceed, reaching the target exactly is not enough
    h = three("N", 300, (300, 500, 100), (100, 100, 50))  # N +400, E +600, S +150
    reach = game("three_handed", [h], {"game_target": 600})
    assert (reach.winner, reach.reason) == ("E", "target")
    passed = game("three_handed", [h], {"game_target": 600, "target_exceed": True})
    assert passed.winner is None and passed.finished_after is None
    res = game("three_handed", [h, h], {"game_target": 600, "target_exceed": True})
    assert res.totals[-1] == {"N": 800, "E": 1200, "S": 300}
    # N and E are both past 600 on the second hand; the declarer N wins (bid-and-out)
    assert (res.winner, res.reason) == ("N", "bid_and_out")
    bid_out = game("cutthroat", [three("N", 300, (500, 0, 0), (100, 100, 50), (6, 5, 5))],
                   {"game_target": 600, "target_exceed": True})
    assert bid_out.totals[-1]["N"] == 600 and bid_out.winner is None


def test_taking_every_trick_wins_the_game_from_any_score() -> None:
    # the encyclopedia's "pinochling": all the tricks win at once, bid made or not, bidder or not
    every = three("N", 300, (100, 100, 100), (0, 250, 0), (0, 15, 0))  # E, not bidding, takes all
    res = game("three_handed", [every], {"all_tricks": "wins_game"})
    assert (res.winner, res.reason, res.finished_after) == ("E", "all_tricks", 1)
    assert res.scores[0].all_tricks == "E"
    plain = game("three_handed", [every])
    assert plain.winner is None and plain.scores[0].all_tricks is None
    # the text: a declarer may play for it even when meld and every counter cannot reach the
    # bid, so a hand entered as played is played (no forced concession) ...
    doomed = three("N", 300, (0, 100, 100), (0, 250, 0), (0, 15, 0))
    res = game("three_handed", [doomed], {"all_tricks": "wins_game"})
    assert (res.winner, res.scores[0].result) == ("E", "set")
    # ... and without pinochling the forced concession stands
    assert game("three_handed", [doomed]).scores[0].result == "surrendered"
    with pytest.raises(RulesError) as exc:
        game("three_handed", [every, every], {"all_tricks": "wins_game"})
    assert exc.value.errors[0].code == "game_over"


def test_taking_every_trick_at_a_partnership_table_needs_tricks() -> None:
    rs = {"all_tricks": "bonus"}
    with pytest.raises(RulesError) as exc:
        game("single_deck_partnership", [dict(hand("N", 250, 100, 0, 0), counters=None)], rs)
    assert "tricks" in {e.field for e in exc.value.errors}
    h = {"dealer": "N", "bidder": "N", "bid": 250, "trump": "S", "meld": {"NS": 100, "EW": 0},
         "counters": {"NS": 250, "EW": 0}, "tricks": {"NS": 12, "EW": 0}}
    res = game("single_deck_partnership", [h], rs)
    # 100 meld + 250 counters, and the encyclopedia's 250 for taking every trick
    assert res.totals[-1] == {"NS": 600, "EW": 0}
