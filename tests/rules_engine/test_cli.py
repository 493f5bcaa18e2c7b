"""The command-line contract (``python -m rules_engine --help``), tested as a subprocess."""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.cli import main
from rules_engine.errors import MAX_ERRORS

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


# no cards were played: a board set or a surrender carries no counters
BEFORE_PLAY = {k: v for k, v in HAND.items() if k != "counters"}


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
    # the presets for other table sizes follow (tests/rules_engine/test_big_tables.py)
    assert names[:6] == [
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
        (dict(BEFORE_PLAY, outcome="no_marriage"), "board_set", {"NS": -51, "EW": 32}),
        (dict(BEFORE_PLAY, outcome="surrender"), "surrendered", {"NS": -51, "EW": 52}),
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
        "tricks": {"N": 9, "E": 6, "S": 0},
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


# --- hostile and mistyped input: always exit 2 with field errors, fast and short ---------------


BIG = "9" * 5000  # a JSON number too long for Python's int()


def hand_json(**change: object) -> str:
    hand = dict(HAND, **change)
    return json.dumps({k: v for k, v in hand.items() if v is not None})


@pytest.mark.parametrize(
    ("args", "stdin", "field", "code"),
    [
        (
            ["score"],
            hand_json(meld={"NS": 24, "EW": 32, "ns": 10}),
            "meld.ns",
            "bad_side",
        ),
        (["score"], hand_json(counters={"NS": 27, "EW": 23, "Ew": 1}), "counters.Ew", "bad_side"),
        (["score"], hand_json(meld={"N": 13, "S": 11, "EW": 32}), "meld.N", "not_achievable"),
        (["score"], hand_json(bid=10**30), "bid", "too_high"),
        (["score"], hand_json(bid=685), "bid", "too_high"),
        (["score"], hand_json(meld={"NS": 10**30, "EW": 32}), "meld.NS", "too_high"),
        (["score"], hand_json(counters={"NS": 10**30, "EW": 23}), "counters.NS", "too_high"),
        (["score"], hand_json(options=[1, 2]), "options", "bad_type"),
        (["score"], hand_json(notes="hi"), "notes", "unknown_field"),
        (["score"], hand_json(ruleset=""), "ruleset", "unknown_ruleset"),
        (["score"], hand_json(ruleset=7), "ruleset", "bad_type"),
        (["score", "--ruleset", ""], hand_json(), "ruleset", "unknown_ruleset"),
        (["score"], hand_json(renege_seat="E"), "renege_seat", "unexpected"),
        (["score"], hand_json(outcome="misdeal"), "bidder", "unexpected"),
        (
            ["score"],
            hand_json(outcome="surrender", counters={"NS": 99, "EW": -5}),
            "counters",
            "unexpected",
        ),
        (["score"], hand_json(outcome="surrender", counters="garbage"), "counters", "unexpected"),
        (["score"], hand_json(outcome="no_marriage"), "counters", "unexpected"),
        (["score"], '{"bid": 51, "bid": 52}', "input", "duplicate_key"),
        (["score"], hand_json()[:-1] + ', "bid2": NaN}', "input", "bad_json"),
        (["auction", "--dealer", "S", "9" * 5000], None, "calls[0]", "too_high"),
        (["auction", "--dealer", "S", "²"], None, "calls[0]", "bad_call"),
        (["auction"], '{"dealer": ' + BIG + ', "calls": []}', "dealer", "bad_seat"),
        (["auction"], json.dumps({"dealer": "S", "calls": "pass"}), "calls", "bad_type"),
        (
            ["meld"],
            json.dumps({"trump": "H", "cards": ["AH"], "extra": 1}),
            "extra",
            "unknown_field",
        ),
        (["meld"], '{"trump": ' + BIG + ', "cards": ["AH"]}', "trump", "bad_suit"),
        (["meld"], json.dumps({"trump": "H", "cards": [1, "AH"]}), "cards[0]", "bad_card"),
        (
            ["play"],
            '{"trump": "H", "leader": ' + BIG + ', "hands": {}, "tricks": []}',
            "leader",
            "bad_seat",
        ),
        (["game"], json.dumps({"hands": [], "rounds": 3}), "rounds", "unknown_field"),
    ],
)
def test_bad_input_is_a_field_error(
    args: list[str], stdin: str | None, field: str, code: str
) -> None:
    exit_code, out = run_cli(*args, stdin=stdin)
    assert_error(exit_code, out, field)
    assert code in [e["code"] for e in out["errors"] if e["field"] == field], out
    assert len(json.dumps(out)) < 2_000


def test_numbers_too_long_for_python_are_field_errors() -> None:
    # over 4,300 digits Python refuses to convert a numeral; that is the input's fault, not ours
    digits = "9" * 5000
    stdin = hand_json()
    stdin = stdin.replace('"bid": 51', f'"bid": {digits}')
    stdin = stdin.replace('"NS": 24', f'"NS": -{digits}')
    code, out = run_cli("score", stdin=stdin)
    assert_error(code, out, "bid")
    assert {(e["field"], e["code"]) for e in out["errors"]} == {
        ("bid", "too_high"),
        ("meld.NS", "negative"),
    }
    assert len(json.dumps(out)) < 1_000


def test_input_over_the_size_limit_is_refused_quickly() -> None:
    huge = hand_json()[:-1] + ', "notes": "' + "x" * 10_000_000 + '"}'
    start = time.perf_counter()
    code, out = run_cli("score", stdin=huge)
    assert time.perf_counter() - start < 5  # mostly interpreter start-up and the pipe
    assert_error(code, out, "input")
    assert out["errors"][0]["code"] == "too_large"
    assert len(json.dumps(out)) < 500


def test_a_10_mb_list_of_bad_cards_answers_quickly_and_briefly() -> None:
    start = time.perf_counter()
    code, out = run_cli("meld", stdin=json.dumps({"trump": "H", "cards": ["ZZ"] * 2_000_000}))
    assert time.perf_counter() - start < 5
    assert_error(code, out, "input")
    assert len(json.dumps(out)) < 500


def test_many_bad_cards_under_the_size_limit_give_a_capped_list() -> None:
    hands = {seat: ["ZZ" * 50] * 20 for seat in "NESW"}
    deal = {"trump": "H", "leader": "N", "hands": hands, "tricks": []}
    code, out = run_cli("play", stdin=json.dumps(deal))
    assert_error(code, out)
    assert len(out["errors"]) == MAX_ERRORS + 1
    assert out["errors"][-1]["code"] == "too_many_errors"
    assert all(len(e["message"]) < 200 for e in out["errors"])
    code, out = run_cli("meld", stdin=json.dumps({"trump": "H", "cards": ["ZZ"] * 50_000}))
    assert_error(code, out, "cards")
    assert [e["code"] for e in out["errors"]] == ["too_many_cards"]


def test_a_game_full_of_bad_hands_gives_a_capped_list() -> None:
    code, out = run_cli("game", stdin=json.dumps([dict(HAND, bid=61)] * 500))
    assert_error(code, out, "hands[0].bid")
    assert len(out["errors"]) == MAX_ERRORS + 1


def test_three_handed_forced_concession() -> None:
    hand = {
        "dealer": "S",
        "bidder": "N",
        "bid": 350,
        "trump": "H",
        "meld": {"N": 80, "E": 60, "S": 20},
        "counters": {"N": 160, "E": 90, "S": 0},
        "tricks": {"N": 9, "E": 6, "S": 0},
    }
    code, out = run_cli("score", "--ruleset", "three_handed", stdin=json.dumps(hand))
    assert (code, out["result"], out["points"]) == (0, "surrendered", {"N": -350, "E": 60, "S": 20})
    code, out = run_cli(
        "score",
        "--ruleset",
        "three_handed",
        "--option",
        "forced_concession=false",
        stdin=json.dumps(hand),
    )
    assert (code, out["result"]) == (0, "set")


def test_ruleset_and_options_may_come_with_the_hand() -> None:
    stdin = json.dumps(dict(HAND, ruleset="club_double_deck", options={"min_counters": 0}))
    code, out = run_cli("score", stdin=stdin)
    assert (code, out["points"]) == (0, {"NS": 51, "EW": 55})


def test_help_lists_the_fields_each_outcome_carries() -> None:
    from rules_engine import Outcome, fields_for, get_ruleset
    from rules_engine.cli import EPILOG

    rs = get_ruleset("pagat_double_deck")
    lines = {line.split()[0]: line.split()[1:] for line in EPILOG.splitlines() if line[:2] == "  "}
    for outcome in Outcome:
        listed = [w for w in lines[outcome.value] if w.isidentifier()]
        assert listed[: len(fields_for(outcome, rs))] == list(fields_for(outcome, rs))


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**40), 10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["N", "NS", "ns", "H", "AS", "10H", "played", "surrender", "renege", "²"])
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                [
                    *HAND,
                    "renege_seat",
                    "tricks",
                    "quadruple_run",
                    "cards",
                    "hands",
                    "leader",
                    "calls",
                ]
            )
            | st.text(max_size=4),
            inner,
            max_size=8,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["score", "game", "meld", "play", "auction"]), _JSON)
def test_any_json_gets_an_answer_never_an_internal_error(command: str, data: object) -> None:
    out = io.StringIO()
    code = main([command], stdin=io.StringIO(json.dumps(data)), stdout=out)
    result = json.loads(out.getvalue())
    assert code in (0, 2)
    if code == 2:
        assert "internal_error" not in {e["code"] for e in result["errors"]}, result


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(list(HAND)),
        st.integers(-(10**40), 10**40) | st.text(max_size=6) | st.none(),
        max_size=7,
    )
)
def test_mutated_hands_get_an_answer(change: dict[str, object]) -> None:
    out = io.StringIO()
    code = main(["score"], stdin=io.StringIO(json.dumps({**HAND, **change})), stdout=out)
    result = json.loads(out.getvalue())
    assert code in (0, 2)
    if code == 2:
        assert "internal_error" not in {e["code"] for e in result["errors"]}, result


# --- the stricter checks, through the command line ---------------------------------------------

THREE_HAND = {
    "dealer": "S", "bidder": "N", "bid": 300, "trump": "H", "outcome": "played",
    "meld": {"N": 150, "E": 60, "S": 20}, "counters": {"N": 160, "E": 90, "S": 0},
    "tricks": {"N": 9, "E": 6, "S": 0},
}
SINGLE_HAND = {
    "dealer": "S", "bidder": "N", "bid": 250, "trump": "H", "outcome": "played",
    "meld": {"NS": 100, "EW": 60}, "counters": {"NS": 150, "EW": 100},
}


@pytest.mark.parametrize(
    ("preset", "hand", "field", "code_", "words"),
    [
        # tricks decide who saved meld; they are never guessed from counters
        ("three_handed", {**THREE_HAND, "tricks": None}, "tricks", "required", "save meld"),
        ("cutthroat", {**THREE_HAND, "tricks": None}, "tricks", "required", "add up to 16"),
        # counters in tens under the 10/10/10 count
        ("single_deck_partnership", {**SINGLE_HAND, "counters": {"NS": 155, "EW": 95}},
         "counters.NS", "not_multiple", "multiple of 10"),
        ("three_handed", {**THREE_HAND, "counters": {"N": 165, "E": 85, "S": 0}},
         "counters.N", "not_multiple", "multiple of 10"),
        # counters the tricks cannot hold
        ("three_handed", {**THREE_HAND, "counters": {"N": 160, "E": 40, "S": 50}},
         "counters.S", "impossible", "took no trick"),
        ("three_handed", {**THREE_HAND, "counters": {"N": 200, "E": 50, "S": 0},
                          "tricks": {"N": 15, "E": 0, "S": 0}},
         "counters.E", "impossible", "took no trick"),
        ("three_handed", {**THREE_HAND, "counters": {"N": 40, "E": 110, "S": 100},
                          "tricks": {"N": 0, "E": 8, "S": 7}},
         "counters.N", "impossible", "3 discarded cards"),
        # meld the cards cannot give
        ("single_deck_partnership", {**SINGLE_HAND, "meld": {"NS": 3600, "EW": 0}},
         "meld.NS", "too_high", "at most 2220"),
        ("single_deck_partnership", {**SINGLE_HAND, "bid": 2500}, "bid", "too_high",
         "at most 2470"),
        ("pagat_double_deck", {**HAND, "meld": {"NS": 600, "EW": 0}}, "meld.NS", "too_high",
         "at most 572"),
        ("three_handed", {**THREE_HAND, "meld": {"N": 150, "E": 2800, "S": 20}}, "meld.E",
         "too_high", "15 cards"),
        # the dealer's lower opening is the dealer's alone, and only where the option is on
        ("three_handed", {**THREE_HAND, "bid": 290}, "bid", "bad_bid", "below the opening"),
    ],
)
def test_new_malformed_hands_are_refused_naming_the_field(
    preset: str, hand: dict[str, Any], field: str, code_: str, words: str
) -> None:
    data = {k: v for k, v in hand.items() if v is not None}
    code, out = run_cli("score", "--ruleset", preset, stdin=json.dumps(data))
    assert_error(code, out, field)
    error = next(e for e in out["errors"] if e["field"] == field)
    assert error["code"] == code_ and words in error["message"], error


@pytest.mark.parametrize(
    ("option", "field"),
    [
        ("meld.run_extra=-20", "options.meld.run_extra"),
        ("set_keeps_meld=perhaps", "options.set_keeps_meld"),
        ("dealer_opens_lower=2", "options.dealer_opens_lower"),
        ("target_exceed=[1]", "options.target_exceed"),
        ("all_tricks=moon", "options.all_tricks"),
        ("all_tricks_bonus=-5", "options.all_tricks_bonus"),
    ],
)
def test_bad_values_of_the_new_options_name_the_option(option: str, field: str) -> None:
    code, out = run_cli("score", "--ruleset", "three_handed", "--option", option,
                        stdin=json.dumps(THREE_HAND))
    assert_error(code, out, field)


def test_the_new_options_through_the_command_line() -> None:
    # a set that keeps meld: 150 meld + 160 counters short of 350
    hand = {**THREE_HAND, "bid": 350}
    code, out = run_cli("score", "-r", "three_handed", "-o", "set_keeps_meld=true",
                        stdin=json.dumps(hand))
    assert (code, out["points"]) == (0, {"N": -200, "E": 150, "S": 0})
    # the dealer's lower opening
    code, out = run_cli("auction", "-r", "three_handed", "-o", "dealer_opens_lower=true",
                        "--dealer", "S", "pass", "pass", "290")
    assert (code, out["declarer"], out["bid"]) == (0, "S", 290)
    # an extra king beside a run
    code, out = run_cli("meld", "-r", "single_deck_partnership", "-o", "meld.run_extra=40",
                        "--trump", "H", "AH", "TH", "KH", "KH", "QH", "JH")
    assert (code, out["total"]) == (0, 190)
    # taking every trick wins the game
    every = {**THREE_HAND, "meld": {"N": 100, "E": 100, "S": 100},
             "counters": {"N": 0, "E": 250, "S": 0}, "tricks": {"N": 0, "E": 15, "S": 0}}
    code, out = run_cli("game", "-r", "three_handed", "-o", "all_tricks=wins_game",
                        stdin=json.dumps([every]))
    assert (code, out["winner"], out["reason"]) == (0, "E", "all_tricks")
    # a target to pass: 400 + 600 reaches 1000 but does not pass it
    made = {**THREE_HAND, "meld": {"N": 240, "E": 0, "S": 0}}
    code, out = run_cli("game", "-r", "three_handed", "-o", "target_exceed=true",
                        "-o", "game_target=800", stdin=json.dumps([made, made]))
    assert code == 0 and out["totals"][-1]["N"] == 800 and out["winner"] is None


def test_a_forced_concession_entered_as_a_renege() -> None:
    hand = {**THREE_HAND, "bid": 350, "meld": {"N": 80, "E": 60, "S": 20}, "outcome": "renege",
            "renege_seat": "N"}
    del hand["tricks"], hand["counters"]
    code, out = run_cli("score", "-r", "three_handed", stdin=json.dumps(hand))
    assert (code, out["result"], out["points"]) == (0, "surrendered", {"N": -350, "E": 60, "S": 20})


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["three_handed", "cutthroat"]),
    st.dictionaries(st.sampled_from(["N", "E", "S"]), st.integers(-3, 20), min_size=0, max_size=3),
    st.dictionaries(st.sampled_from(["N", "E", "S"]), st.integers(-5, 260), min_size=0, max_size=3),
)
def test_three_player_hands_with_any_tricks_and_counters_get_an_answer(
    preset: str, tricks: dict[str, int], counters: dict[str, int]
) -> None:
    hand = {**THREE_HAND, "tricks": tricks, "counters": counters}
    out = io.StringIO()
    code = main(["score", "-r", preset], stdin=io.StringIO(json.dumps(hand)), stdout=out)
    result = json.loads(out.getvalue())
    assert code in (0, 2)
    if code == 2:
        assert "internal_error" not in {e["code"] for e in result["errors"]}, result
        return
    # accepted: the tricks add up, counters add up and come in tens, and fit the tricks
    size = 15 if preset == "three_handed" else 16
    assert sum(tricks.values()) == size and sum(counters.values()) == 250
    assert all(v % 10 == 0 for v in counters.values())
    for seat in "ES":  # defenders with no trick hold no counter
        assert tricks[seat] > 0 or counters[seat] == 0
    # and meld was saved exactly by the players who took a trick
    saved = {s: tricks[s] > 0 for s in "NES"}
    for seat in "ES":
        assert result["points"][seat] == (THREE_HAND["meld"][seat] if saved[seat] else 0) + \
            counters[seat]
