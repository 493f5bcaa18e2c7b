"""The Swiss pairing's command line, run as a subprocess (and in process for the big inputs)."""

from __future__ import annotations

import io
import json
from functools import partial
from typing import Any

import pytest

from pairing.swiss.__main__ import MAX_INPUT_CHARS
from pairing.swiss.__main__ import run as run_in_process
from tests.pairing.cli_helpers import errors, run_json, run_module, strict_json_refusals, too_large

run = partial(run_json, "pairing.swiss")


def standings(count: int, **extra: Any) -> list[dict[str, Any]]:
    return [{"pair": p, "wins": 0, **extra} for p in range(1, count + 1)]


GOOD = {
    "standings": [
        {"pair": 1, "wins": 1, "points": 900, "opponents": [5], "byes": 0},
        {"pair": 2, "wins": 0, "points": 400, "opponents": [6], "byes": 0},
        {"pair": 3, "wins": 1, "points": 800, "opponents": [7]},
        {"pair": 4, "wins": 0, "points": 300, "opponents": [8]},
        {"pair": 5, "wins": 0, "points": 500, "opponents": [1]},
        {"pair": 6, "wins": 1, "points": 700, "opponents": [2]},
        {"pair": 7, "wins": 0, "points": 200, "opponents": [3]},
        {"pair": 8, "wins": 1, "points": 600, "opponents": [4, 99]},
    ]
}


def test_next_prints_matches_bye_and_quality() -> None:
    code, out = run("next", stdin=json.dumps(GOOD))
    assert code == 0
    assert out == {
        "matches": [[1, 6], [3, 8], [5, 4], [2, 7]],
        "bye": None,
        "quality": {"rematches": 0, "spread": 0, "cross_group": 0, "bye": None},
    }


def test_first_round_seeded_odd_and_shuffled() -> None:
    code, out = run("next", stdin=json.dumps({"standings": standings(7)}))
    assert code == 0
    assert out["matches"] == [[1, 4], [2, 5], [3, 6]] and out["bye"] == 7
    assert out["quality"]["bye"] == 7
    request = json.dumps({"standings": standings(16)})
    first = run("next", "--shuffle-first", "--seed", "5", stdin=request)
    assert first == run("next", "--shuffle-first", "--seed", "5", stdin=request)
    assert first[1]["matches"] != run("next", stdin=request)[1]["matches"]


def test_simulate_prints_each_round() -> None:
    code, out = run("simulate", "--pairs", "12", "--rounds", "5", "--seed", "3")
    assert code == 0
    assert out["pairs"] == 12
    assert [r["round"] for r in out["rounds"]] == [1, 2, 3, 4, 5]
    for r in out["rounds"]:
        assert set(r) == {"round", "seconds", "quality"}
        assert set(r["quality"]) == {"rematches", "spread", "cross_group", "bye"}
        assert r["quality"]["rematches"] == 0 and r["quality"]["bye"] is None
    assert out["slowest_seconds"] >= max(r["seconds"] for r in out["rounds"])


def _with_standing(i: int, **changes: Any) -> str:
    request = json.loads(json.dumps(GOOD))
    request["standings"][i].update(changes)
    return json.dumps(request)


@pytest.mark.parametrize(
    ("request_text", "field", "code"),
    [
        *strict_json_refusals("standings", '{"standings": [{"pair": 1, "wins": NaN}]}'),
        (json.dumps({"standings": [], "x": 10**40}), "input", "bad_number"),
        ("{}", "standings", "missing"),
        (json.dumps({"standings": {}}), "standings", "bad_standing"),
        (json.dumps({"standings": standings(3), "seed": 1}), "seed", "unknown_field"),
        (json.dumps({"standings": standings(1)}), "standings", "too_few"),
        (json.dumps({"standings": standings(2) * 2}), "standings", "duplicate"),
        (json.dumps({"standings": standings(501)}), "standings", "too_many"),
        (json.dumps({"standings": [1, 2]}), "standings[0]", "bad_standing"),
        (json.dumps({"standings": [{"pair": 1}]}), "standings[0].wins", "missing"),
        (json.dumps({"standings": [{"wins": 1}]}), "standings[0].pair", "missing"),
        (_with_standing(2, team="x"), "standings[2].team", "unknown_field"),
        (_with_standing(2, wins=1.5), "standings[2].wins", "bad_number"),
        (_with_standing(2, wins=True), "standings[2].wins", "bad_number"),
        (_with_standing(2, wins=-1), "standings[2].wins", "out_of_range"),
        (_with_standing(3, pair="4"), "standings[3].pair", "bad_number"),
        (_with_standing(1, points="many"), "standings[1].points", "bad_number"),
        (_with_standing(1, byes=-2), "standings[1].byes", "out_of_range"),
        (_with_standing(1, opponents=5), "standings[1].opponents", "bad_id"),
        (_with_standing(1, opponents=[5, "x"]), "standings[1].opponents[1]", "bad_number"),
    ],
)
def test_bad_input_exits_2_naming_the_field(request_text: str, field: str, code: str) -> None:
    status, out = run("next", stdin=request_text)
    assert status == 2
    assert errors(out) == [(field, code)]


def test_too_large_input_is_refused_before_parsing(capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps({"standings": standings(2)})
    padded = text[:-1] + " " * MAX_INPUT_CHARS + "}"
    status = run_in_process(["next"], stdin=io.StringIO(padded))
    assert status == 2
    assert json.loads(capsys.readouterr().out)["errors"] == too_large(MAX_INPUT_CHARS)


def test_in_process_run_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    status = run_in_process(["next"], stdin=io.StringIO(json.dumps(GOOD)))
    assert status == 0
    assert json.loads(capsys.readouterr().out)["matches"][0] == [1, 6]


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ([], "arguments"),
        (["bogus"], "arguments"),
        (["next", "--seed", "x"], "arguments"),
        (["simulate", "--pairs", "10"], "arguments"),
        (["simulate", "--pairs", "1", "--rounds", "3"], "pairs"),
        (["simulate", "--pairs", "10", "--rounds", "0"], "rounds"),
        (["simulate", "--pairs", "10", "--rounds", "101"], "rounds"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], field: str) -> None:
    status, out = run(*args)
    assert status == 2
    assert out["errors"][0]["field"] == field


def test_help_describes_the_json() -> None:
    for args in (["--help"], ["next", "--help"]):
        code, text = run_module("pairing.swiss", *args)
        assert code == 0
        assert '"standings"' in text and '"quality"' in text
