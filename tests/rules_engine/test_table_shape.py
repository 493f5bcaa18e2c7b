"""The table's shape: how many a table seats, its seats and sides, and a three-player game at a
table of four where the dealer sits each hand out (``sit_out="dealer"``)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from rules_engine import (
    Hand,
    RulesError,
    browser_rules,
    get_ruleset,
    parse_hand,
    score_game,
    score_hand,
)
from rules_engine.rulesets import OPTION_HELP, Ruleset

from .conftest import run_cli

FOUR = ("N", "E", "S", "W")

# preset -> (table_sizes, sides at each size, individual)
SHAPES: dict[str, tuple[tuple[int, ...], dict[int, tuple[str, ...]], bool]] = {
    "pagat_double_deck": ((4,), {4: ("NS", "EW")}, False),
    "club_double_deck": ((4,), {4: ("NS", "EW")}, False),
    "npa_double_deck": ((4,), {4: ("NS", "EW")}, False),
    "single_deck_partnership": ((4,), {4: ("NS", "EW")}, False),
    "three_handed": ((3, 4), {3: ("N", "E", "S"), 4: FOUR}, True),
    "cutthroat": ((3, 4), {3: ("N", "E", "S"), 4: FOUR}, True),
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_every_preset_knows_its_table_shape(name: str) -> None:
    rs = get_ruleset(name)
    sizes, sides, individual = SHAPES[name]
    assert rs.table_sizes == sizes
    assert rs.sit_out == ("dealer" if individual else "none")
    assert (rs.individual, rs.side_size) == (individual, 1 if individual else 2)
    for n in sizes:
        assert rs.seats_for(n) == FOUR[:n]
        assert rs.sides_for(n) == sides[n]
        # every seat of every table has a side, and every side its seats
        assert {rs.side_of(seat) for seat in rs.seats_for(n)} == set(sides[n])
        assert sorted(x for side in sides[n] for x in rs.seats_of(side)) == sorted(FOUR[:n])
        assert all(rs.side_of(x) == side for side in sides[n] for x in rs.seats_of(side))
    for n in {2, 3, 4, 5} - set(sizes):
        with pytest.raises(ValueError, match=f"not {n}"):
            rs.seats_for(n)
        with pytest.raises(ValueError):
            rs.sides_for(n)
    d = rs.to_dict()
    assert (d["table_sizes"], d["sit_out"]) == (list(sizes), rs.sit_out)
    rules = browser_rules(rs)
    assert (rules["table_sizes"], rules["sit_out"]) == (list(sizes), rs.sit_out)
    assert rules["seats_by_size"] == {str(n): list(FOUR[:n]) for n in sizes}


def test_the_option_is_documented_for_the_rules_page() -> None:
    assert "dealer of each hand sits it out" in OPTION_HELP["sit_out"]
    code, out = run_cli("rulesets")
    assert code == 0
    assert "sits it out" in out["option_help"]["sit_out"]
    by_name = {r["name"]: r for r in out["rulesets"]}
    assert by_name["cutthroat"]["table_sizes"] == [3, 4]
    assert by_name["pagat_double_deck"]["options"]["sit_out"] == "none"


@pytest.mark.parametrize("name", ["pagat_double_deck", "single_deck_partnership"])
def test_a_four_handed_game_refuses_a_sitter_out(name: str) -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset(name, {"sit_out": "dealer"})
    assert [(e.field, e.code) for e in exc.value.errors] == [("options.sit_out", "inconsistent")]


def test_a_three_player_game_without_a_sitter_out_seats_three() -> None:
    rs = get_ruleset("three_handed", {"sit_out": "none"})
    assert rs.table_sizes == (3,)
    with pytest.raises(ValueError):
        rs.seats_for(4)
    with pytest.raises(RulesError) as exc:
        parse_hand({"dealer": "N", "outcome": "misdeal"}, rs, FOUR)
    assert [(e.field, e.code) for e in exc.value.errors] == [("seats", "bad_table")]
    with pytest.raises(RulesError) as exc:
        get_ruleset("three_handed", {"sit_out": "always"})
    assert exc.value.errors[0].field == "options.sit_out"


def test_who_sits_out_and_who_deals_next() -> None:
    rs = get_ruleset("three_handed")
    assert rs.sitting_out(FOUR, "E") == "E"
    assert rs.sitting_out(("N", "E", "S"), "E") is None
    assert rs.playing_seats(FOUR, "S") == ("N", "E", "W")
    assert rs.playing_seats(("N", "E", "S"), "S") == ("N", "E", "S")
    assert [rs.next_dealer(x, FOUR) for x in FOUR] == ["E", "S", "W", "N"]
    assert rs.next_dealer("S") == "N"
    with pytest.raises(ValueError):
        rs.sitting_out(FOUR, "X")
    with pytest.raises(ValueError):
        rs.sitting_out(("N", "S", "E", "W"), "N")
    assert get_ruleset("pagat_double_deck").sitting_out(FOUR, "W") is None


# --- a hand at a table of four equals the same hand at a table of three, seats renamed ------


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, dict):
        return {names.get(k, k): v for k, v in value.items()}
    return value


def _split(total: int, unit: int, cuts: tuple[int, int]) -> list[int]:
    a, b = sorted(c % (total // unit + 1) for c in cuts)
    return [a * unit, (b - a) * unit, total - b * unit]


# mostly good values, now and then a bad one
_SEAT = st.sampled_from(["N", "E", "S"] * 6 + ["X"])
_MELD = st.sampled_from([0, 0, 20, 40, 60, 80, 100, 150, 190, 240, 300, 1000, 1500] * 3 + [15])


@st.composite
def three_player_hands(draw: st.DrawFn, rs: Ruleset) -> dict[str, Any]:
    """A hand as typed at a table of three with S dealing: mostly valid, sometimes not."""
    outcome = draw(st.sampled_from(["played", "played", "played", "surrender", "renege",
                                    "misdeal"]))  # fmt: skip
    data: dict[str, Any] = {"dealer": "S", "outcome": outcome}
    if outcome == "misdeal":
        return data
    seats = ["N", "E", "S"]
    bids = rs.next_bids(None, 30)
    if rs.dealer_lowest_bid is not None:
        bids.append(rs.dealer_lowest_bid)
    data["bidder"] = draw(_SEAT)
    data["bid"] = draw(st.sampled_from(bids * 9 + [5, 295, 3000]))
    data["trump"] = draw(st.sampled_from("SHDC"))
    data["meld"] = {s: draw(_MELD) for s in seats}
    if outcome in ("played", "renege"):
        data["counters"] = dict(zip(seats, _split(rs.counters_total, 10,
                                                  draw(st.tuples(st.integers(0, 30),
                                                                 st.integers(0, 30)))),
                                    strict=True))  # fmt: skip
    if outcome == "played":
        cuts = draw(st.tuples(st.integers(0, 20), st.integers(0, 20)))
        data["tricks"] = dict(zip(seats, _split(rs.hand_size, 1, cuts), strict=True))
    if outcome == "renege":
        data["renege_seat"] = draw(_SEAT)
    return data


_RULESETS = [
    get_ruleset("three_handed"),
    get_ruleset("cutthroat"),
    get_ruleset("three_handed", {"dealer_opens_lower": True, "forced_concession": False}),
    get_ruleset("cutthroat", {"all_tricks": "bonus", "set_policy": "opponents_gain_bid"}),
]


def _words(text: str, names: dict[str, str]) -> str:
    return re.sub(r"\b[NESW]\b", lambda m: names.get(m.group(0), m.group(0)), text)


@settings(max_examples=400, deadline=None)
@given(st.data(), st.sampled_from(range(len(_RULESETS))), st.sampled_from(FOUR))
def test_a_hand_with_a_sitter_out_is_the_three_player_hand_with_seats_renamed(
    data: st.DataObject, which: int, dealer: str
) -> None:
    rs = _RULESETS[which]
    three = data.draw(three_player_hands(rs))
    # the players clockwise from the dealer's left become N, E, S of a table of three (S deals)
    at = FOUR.index(dealer)
    playing = [FOUR[(at + i) % 4] for i in (1, 2, 3)]
    names = dict(zip(("N", "E", "S"), playing, strict=True))
    four = {k: (v if k in ("trump", "bid", "outcome") else _rename(v, names))
            for k, v in three.items()}  # fmt: skip
    four["dealer"] = dealer
    try:
        small = parse_hand(three, rs)
    except RulesError as exc:
        event("refused")
        with pytest.raises(RulesError) as big:
            parse_hand(four, rs, FOUR)
        # the same problems; per-seat ones listed in the table's clockwise order
        expected = sorted((_words(e.field, names), e.code) for e in exc.errors)
        assert sorted((e.field, e.code) for e in big.value.errors) == expected
        return
    hand = parse_hand(four, rs, FOUR)
    event(f"scored: {hand.outcome}")
    assert hand.seats == FOUR and hand.dealer == dealer
    assert parse_hand(hand.to_dict(), rs, hand.seats) == hand
    a, b = score_hand(small, rs), score_hand(hand, rs)
    expected_points = {x: 0 for x in FOUR} | {names[k]: v for k, v in a.points.items()}
    assert b.points == expected_points and list(b.points) == list(FOUR)
    assert b.sitting_out == dealer
    assert (b.result, b.made) == (a.result, a.made)
    assert b.declaring_side == _rename(a.declaring_side, names)
    assert b.all_tricks == _rename(a.all_tricks, names)
    assert b.reason == _words(a.reason, names)


# --- errors name the table's real seats ------------------------------------------------------


def _codes(data: dict[str, Any], rs: Ruleset | None = None) -> list[tuple[str, str]]:
    with pytest.raises(RulesError) as exc:
        parse_hand(data, rs or get_ruleset("three_handed"), FOUR)
    return [(e.field, e.code) for e in exc.value.errors]


def test_the_dealer_sits_out_and_errors_name_real_seats() -> None:
    base = {"dealer": "S", "bidder": "W", "bid": 300, "trump": "H",
            "meld": {"N": 0, "E": 60, "W": 190}, "counters": {"N": 50, "E": 60, "W": 140},
            "tricks": {"N": 3, "E": 4, "W": 8}}  # fmt: skip
    rs = get_ruleset("three_handed")
    assert score_hand(parse_hand(base, rs, FOUR), rs).points == {"N": 50, "E": 120, "S": 0,
                                                                 "W": 330}  # fmt: skip
    assert _codes({**base, "bidder": "S"}) == [("bidder", "sitting_out")]
    with pytest.raises(RulesError) as exc:
        parse_hand({**base, "bidder": "S"}, rs, FOUR)
    assert exc.value.errors[0].message.startswith("S dealt this hand and sits it out")
    assert _codes({**base, "meld": {"N": 0, "E": 60, "S": 150}}) == [("meld.S", "sitting_out")]
    assert _codes({**base, "meld": {"N": 0, "E": 60, "W": "lots"}}) == [("meld.W", "bad_type")]
    assert _codes({**base, "counters": {"N": 50, "E": 200}}) == [("counters.W", "required"),
                                                                ]  # fmt: skip
    assert _codes({**base, "tricks": {"N": 3, "E": 4, "W": 9}}) == [("tricks", "bad_sum")]
    assert _codes({**base, "outcome": "renege", "renege_seat": "S",
                   "tricks": None}) == [("renege_seat", "sitting_out")]  # fmt: skip
    assert _codes({k: v for k, v in base.items() if k != "dealer"}) == [("dealer", "required")]
    assert _codes({**base, "dealer": "X"}) == [("dealer", "bad_seat")]
    assert _codes({"outcome": "misdeal"}) == [("dealer", "required")]
    with pytest.raises(RulesError) as exc:
        parse_hand(base, rs, ("N", "S", "E", "W"))
    assert [(e.field, e.code) for e in exc.value.errors] == [("seats", "bad_table")]
    # a table of three in the same ruleset still has no W
    assert parse_hand({**base, "dealer": "W", "bidder": "S", "meld": {"N": 0, "E": 60, "S": 150},
                       "counters": {"N": 50, "E": 60, "S": 140},
                       "tricks": {"N": 3, "E": 4, "S": 8}}, rs, FOUR).seats == FOUR  # fmt: skip
    with pytest.raises(RulesError) as exc:
        parse_hand({**base, "dealer": "N"}, rs)
    assert ("bidder", "bad_seat") in [(e.field, e.code) for e in exc.value.errors]


def test_the_dealer_opening_lower_is_the_last_to_bid() -> None:
    """With dealer_opens_lower the privilege goes to the player on the dealer's right, who
    bids last as a dealer would."""
    rs = get_ruleset("three_handed", {"dealer_opens_lower": True})
    low = rs.dealer_lowest_bid
    assert low == rs.min_bid - 10
    hand = {"dealer": "N", "bidder": "W", "bid": low, "trump": "H", "outcome": "surrender",
            "meld": {"E": 0, "S": 0, "W": 0}}  # fmt: skip
    assert parse_hand(hand, rs, FOUR).bid == low
    assert _codes({**hand, "bidder": "E"}, rs) == [("bid", "bad_bid")]


def test_a_game_at_a_table_of_four_gives_each_player_their_own_hands() -> None:
    rs = get_ruleset("three_handed", {"game_target": 5000})
    meld = {"N": 150, "E": 60, "S": 240, "W": 100}
    hands = []
    for i in range(8):
        dealer = FOUR[i % 4]
        playing = [x for x in FOUR if x != dealer]
        bidder = playing[i % 3]
        counters = dict(zip(playing, (100, 80, 70), strict=True))
        tricks = dict(zip(playing, (6, 5, 4), strict=True))
        hands.append(parse_hand({"dealer": dealer, "bidder": bidder, "bid": 300, "trump": "S",
                                 "meld": {x: meld[x] for x in playing}, "counters": counters,
                                 "tricks": tricks}, rs, FOUR))  # fmt: skip
    res = score_game(hands, rs, seats=FOUR)
    scores = [score_hand(h, rs) for h in hands]
    assert all(s.points[h.dealer] == 0 and s.sitting_out == h.dealer
               for s, h in zip(scores, hands, strict=True))  # fmt: skip
    for i, totals in enumerate(res.totals):
        assert list(totals) == list(FOUR)
        assert totals == {x: sum(s.points[x] for s in scores[: i + 1]) for x in FOUR}
    assert res.totals[-1] != dict.fromkeys(FOUR, 0) and res.winner is None
    assert json.loads(json.dumps(res.to_dict()))["hands"][0]["sitting_out"] == "N"


def test_cutthroat_at_a_table_of_four_only_the_bidder_goes_out() -> None:
    rs = get_ruleset("cutthroat")
    hands = [
        # N deals and sits out; E passes 1000 defending, which does not end a bid-and-out game
        {"dealer": "N", "bidder": "S", "bid": 300, "trump": "H",
         "meld": {"E": 1000, "S": 150, "W": 0}, "counters": {"E": 100, "S": 150, "W": 0},
         "tricks": {"E": 5, "S": 10, "W": 1}},
        # E deals and sits out, over the target; N bids, makes it and goes out
        {"dealer": "E", "bidder": "N", "bid": 300, "trump": "S",
         "meld": {"S": 0, "W": 60, "N": 1000}, "counters": {"S": 40, "W": 60, "N": 150},
         "tricks": {"S": 3, "W": 3, "N": 10}},
    ]  # fmt: skip
    parsed = [parse_hand(h, rs, FOUR) for h in hands]
    first = score_game(parsed[:1], rs, seats=FOUR)
    assert first.totals == [{"N": 0, "E": 1100, "S": 300, "W": 0}]
    assert first.winner is None
    res = score_game(parsed, rs, seats=FOUR)
    assert res.totals[-1] == {"N": 1150, "E": 1100, "S": 340, "W": 120}
    assert (res.winner, res.reason, res.finished_after) == ("N", "bid_and_out", 2)
    # the same game through the command line
    code, out = run_cli("game", "--ruleset", "cutthroat", "--seats", "N,E,S,W",
                        stdin=json.dumps(hands))  # fmt: skip
    assert code == 0 and (out["winner"], out["reason"]) == ("N", "bid_and_out")
    assert out["hands"][1]["sitting_out"] == "E"


def test_a_game_refuses_hands_of_another_table() -> None:
    rs = get_ruleset("three_handed")
    three = parse_hand({"dealer": "N", "outcome": "misdeal"}, rs)
    four = parse_hand({"dealer": "N", "outcome": "misdeal"}, rs, FOUR)
    assert score_game([four], rs, seats=FOUR).totals == [dict.fromkeys(FOUR, 0)]
    for hands, seats in (([three], FOUR), ([four], None)):
        with pytest.raises(RulesError) as exc:
            score_game(hands, rs, seats=seats)
        assert [(e.field, e.code) for e in exc.value.errors] == [("hands[0]", "wrong_table")]


def test_a_hand_built_without_its_dealer_cannot_be_scored_at_a_table_of_four() -> None:
    rs = get_ruleset("three_handed")
    hand = Hand(None, None, None, None, {}, None, "misdeal", seats=FOUR)
    with pytest.raises(ValueError, match="dealer"):
        score_hand(hand, rs)


def test_the_command_line_scores_a_hand_at_a_table_of_four() -> None:
    hand = {"dealer": "E", "bidder": "W", "bid": 300, "trump": "H",
            "meld": {"N": 100, "S": 60, "W": 200}, "counters": {"N": 50, "S": 60, "W": 140},
            "tricks": {"N": 3, "S": 4, "W": 8}}  # fmt: skip
    code, out = run_cli("score", "--ruleset", "three_handed", "--seats", "N,E,S,W",
                        stdin=json.dumps(hand))  # fmt: skip
    assert code == 0
    assert out["points"] == {"N": 150, "E": 0, "S": 120, "W": 340}
    assert (out["declaring_side"], out["sitting_out"]) == ("W", "E")
    # the table may come with the JSON instead
    code, same = run_cli("score", "--ruleset", "three_handed",
                         stdin=json.dumps({**hand, "seats": list(FOUR)}))  # fmt: skip
    assert (code, same) == (0, out)
    # without the table, W is no seat of a three-player game
    code, out = run_cli("score", "--ruleset", "three_handed", stdin=json.dumps(hand))
    assert code == 2 and ("bidder", "bad_seat") in [(e["field"], e["code"])
                                                    for e in out["errors"]]  # fmt: skip
    code, out = run_cli("score", "--ruleset", "pagat_double_deck", "--seats", "N,E,S",
                        stdin=json.dumps(hand))  # fmt: skip
    assert code == 2 and [(e["field"], e["code"]) for e in out["errors"]] == [
        ("seats", "bad_table")
    ]
