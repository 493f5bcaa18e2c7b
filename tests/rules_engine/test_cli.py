"""The command-line contract (DESIGN §4.4), tested as a subprocess."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import load_cases, run_cli

HAND = {
    "dealer": "S",
    "bidder": "N",
    "bid": 51,
    "trump": "H",
    "meld": {"NS": 24, "EW": 32},
    "counters": {"NS": 27, "EW": 23},
    "outcome": "played",
}


def assert_error(code: int, out: dict[str, Any], field: str | None = None) -> None:
    assert code == 2
    assert set(out) == {"errors"} and out["errors"]
    for err in out["errors"]:
        assert set(err) == {"field", "code", "message"}
        assert err["message"]
    if field is not None:
        assert field in [e["field"] for e in out["errors"]], out


def test_rulesets() -> None:
    code, out = run_cli("rulesets")
    assert code == 0
    names = [r["name"] for r in out["rulesets"]]
    assert names == [
        "pagat_double_deck",
        "club_double_deck",
        "npa_double_deck",
        "single_deck_partnership",
        "three_handed",
        "cutthroat",
    ]
    for r in out["rulesets"]:
        assert {"name", "title", "seed", "seats", "sides", "options"} <= set(r)
    three = out["rulesets"][4]
    assert three["seats"] == ["N", "E", "S"] and three["sides"] == ["N", "E", "S"]


def test_help_documents_three_player_seats() -> None:
    import subprocess
    import sys

    from .conftest import REPO

    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", "--help"],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    assert "N, E, S" in proc.stdout and "three_handed" in proc.stdout


@pytest.mark.parametrize("case", load_cases("meld_examples.json"), ids=lambda c: c["note"][:40])
def test_meld_command_on_published_examples(case: dict[str, Any]) -> None:
    code, out = run_cli(
        "meld", "--ruleset", case["preset"], "--trump", case["trump"], *case["cards"]
    )
    assert code == 0
    assert out["total"] == case["total"]
    for m in out["melds"]:
        assert {"name", "class", "times", "points"} <= set(m)


def test_meld_token_forms() -> None:
    code, out = run_cli("meld", "--trump", "♥", "AH", "10h", "K♥", "qh", "JH")
    assert (code, out["total"]) == (0, 15)
    assert out["melds"] == [{"name": "run", "class": "I", "times": 1, "points": 15, "suit": "H"}]
    code, out = run_cli("meld", "--ruleset", "single_deck_partnership", "--trump", "S", "9S")
    assert (code, out["total"]) == (0, 10)


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["meld", "--trump", "H", "AH", "XX"], "cards[1]"),
        (["meld", "--trump", "H", "9H"], "cards[0]"),
        (["meld", "--trump", "H", "AH", "AH", "AH", "AH", "AH"], "cards"),
        (["meld", "--trump", "Z", "AH"], "trump"),
        (["meld", "AH"], "trump"),
        (["meld", "--ruleset", "nope", "--trump", "H", "AH"], "ruleset"),
        (["meld", "--option", "bogus=1", "--trump", "H", "AH"], "options.bogus"),
        (["meld", "--option", "noequals", "--trump", "H", "AH"], "options"),
        (["frobnicate"], "command"),
        ([], "command"),
        (["score", "--wat"], None),
    ],
)
def test_bad_arguments(args: list[str], field: str | None) -> None:
    code, out = run_cli(*args, stdin="{}")
    assert_error(code, out, field)


@pytest.mark.parametrize("case", load_cases("score_examples.json"), ids=lambda c: c["note"])
def test_score_command_on_published_examples(case: dict[str, Any]) -> None:
    code, out = run_cli("score", "--ruleset", case["preset"], stdin=json.dumps(case["hand"]))
    if "error_field" in case:
        assert_error(code, out, case["error_field"])
        assert "counters must add up to 50, got 51" in out["errors"][0]["message"]
        return
    assert code == 0
    assert out["points"] == case["points"]
    assert {"points", "declaring_side", "made", "result"} <= set(out)


def test_score_default_ruleset_is_pagat() -> None:
    hand = dict(HAND, counters={"NS": 36, "EW": 14})
    code, out = run_cli("score", stdin=json.dumps(hand))
    assert code == 0
    assert out == {
        **out,
        "points": {"NS": 60, "EW": 46},
        "declaring_side": "NS",
        "made": True,
        "result": "made",
    }


@pytest.mark.parametrize(
    ("hand", "result", "points"),
    [
        (dict(HAND, outcome="no_marriage"), "board_set", {"NS": -51, "EW": 32}),
        (dict(HAND, outcome="surrender"), "surrendered", {"NS": -51, "EW": 52}),
        (dict(HAND, outcome="renege", renege_seat="E"), "renege", {"NS": 51, "EW": -51}),
        (dict(HAND, outcome="renege", renege_seat="S"), "renege", {"NS": -51, "EW": 52}),
        ({"dealer": "S", "outcome": "misdeal"}, "misdeal", {"NS": 0, "EW": 0}),
    ],
)
def test_score_outcomes_club(hand: dict[str, Any], result: str, points: dict[str, int]) -> None:
    code, out = run_cli("score", "--ruleset", "club_double_deck", stdin=json.dumps(hand))
    assert code == 0, out
    assert (out["result"], out["points"]) == (result, points)


@pytest.mark.parametrize(
    ("stdin", "field"),
    [
        ("", "input"),
        ("{not json", "input"),
        ("[1, 2]", "input"),
        (json.dumps(dict(HAND, bid=61)), "bid"),
        (json.dumps(dict(HAND, bid=45)), "bid"),
        (json.dumps(dict(HAND, meld={"NS": 13, "EW": 32})), "meld.NS"),
        (json.dumps(dict(HAND, bidder="X")), "bidder"),
        (json.dumps(dict(HAND, trump="Q")), "trump"),
        (json.dumps(dict(HAND, outcome="renege")), "renege_seat"),
        (json.dumps(dict(HAND, counters={"NS": 30, "EW": 30})), "counters"),
        (json.dumps({k: v for k, v in HAND.items() if k != "counters"}), "counters"),
    ],
)
def test_score_rejections(stdin: str, field: str) -> None:
    code, out = run_cli("score", stdin=stdin)
    assert_error(code, out, field)


def test_score_with_options() -> None:
    hand = dict(HAND, counters={"NS": 36, "EW": 14})
    code, out = run_cli("score", "--option", "min_counters=20", stdin=json.dumps(hand))
    assert (code, out["points"]) == (0, {"NS": 60, "EW": 0})
    code, out = run_cli("score", "--option", "min_counters=lots", stdin=json.dumps(hand))
    assert_error(code, out, "options.min_counters")


def test_three_handed_score() -> None:
    hand = {
        "dealer": "S",
        "bidder": "N",
        "bid": 300,
        "trump": "H",
        "meld": {"N": 150, "E": 60, "S": 20},
        "counters": {"N": 160, "E": 90, "S": 0},
    }
    code, out = run_cli("score", "--ruleset", "three_handed", stdin=json.dumps(hand))
    assert (code, out["points"]) == (0, {"N": 310, "E": 150, "S": 0})


def test_auction_command() -> None:
    code, out = run_cli("auction", "--dealer", "S", "pass", "51", "pass", "55", "pass")
    assert code == 0
    assert (out["declarer"], out["bid"]) == ("S", 55)
    code, out = run_cli("auction", "--dealer", "S", "pass", "pass", "pass")
    assert (code, out["declarer"], out["bid"]) == (0, "S", 50)


@pytest.mark.parametrize(
    ("calls", "field", "code_"),
    [
        (["45"], "calls[0]", "below_minimum"),
        (["50", "61"], "calls[1]", "wrong_step"),
        (["55", "52"], "calls[1]", "not_higher"),
        (["pass", "pass", "pass", "pass"], "calls[3]", "dealer_stuck"),
        (["50", "pass"], "calls", "incomplete"),
    ],
)
def test_auction_rejections(calls: list[str], field: str, code_: str) -> None:
    code, out = run_cli("auction", "--dealer", "S", *calls)
    assert_error(code, out, field)
    assert out["errors"][0]["code"] == code_


PLAY = {
    "trump": "H",
    "leader": "N",
    "hands": {"N": ["AH", "KS"], "E": ["KH", "QS"], "S": ["TH", "JH"], "W": ["JS", "QH"]},
    "tricks": [["AH", "KH", "TH", "QH"], ["KS", "QS", "JH", "JS"]],
}


def test_play_command() -> None:
    code, out = run_cli("play", stdin=json.dumps(PLAY))
    assert code == 0 and out["legal"] is True
    bad = dict(PLAY, trump="S", tricks=[["KS", "KH", "TH", "JS"]])
    code, out = run_cli("play", stdin=json.dumps(bad))
    assert code == 0 and out["legal"] is False
    assert out["renege"] == {
        **out["renege"],
        "trick": 1,
        "seat": "E",
        "card": "KH",
        "rule": "follow_suit",
    }


def test_play_rejections() -> None:
    code, out = run_cli("play", stdin=json.dumps(dict(PLAY, tricks=[["AH", "KH", "TH", "AS"]])))
    assert_error(code, out, "tricks[0][3]")
    code, out = run_cli("play", stdin=json.dumps({"trump": "H"}))
    assert_error(code, out, "hands")


def test_game_command() -> None:
    hand = dict(HAND, bid=60, meld={"NS": 150, "EW": 20}, counters={"NS": 30, "EW": 20})
    code, out = run_cli("game", stdin=json.dumps([hand] * 3))
    assert code == 0
    assert out["totals"][-1] == {"NS": 540, "EW": 120}
    assert (out["winner"], out["reason"]) == ("NS", "target")
    code, out = run_cli("game", stdin=json.dumps([hand] * 4))
    assert_error(code, out, "hands[3]")
    code, out = run_cli("game", stdin=json.dumps([hand, dict(hand, bid=61)]))
    assert_error(code, out, "hands[1].bid")
    code, out = run_cli("game", "--max-deals", "1", stdin=json.dumps([hand]))
    assert (code, out["winner"], out["reason"]) == (0, "NS", "deals")


def test_game_accepts_an_object_with_hands() -> None:
    hand = dict(HAND, bid=60, meld={"NS": 150, "EW": 20}, counters={"NS": 30, "EW": 20})
    code, out = run_cli(
        "game", "--ruleset", "club_double_deck", stdin=json.dumps({"hands": [hand], "max_deals": 1})
    )
    assert (code, out["reason"]) == (0, "deals")
