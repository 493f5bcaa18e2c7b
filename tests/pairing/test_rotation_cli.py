"""The rotation command line, run as a subprocess."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial

import pytest

from tests.pairing.cli_helpers import imports_django, run_json, run_module

run = partial(run_json, "pairing.rotation")


@pytest.mark.parametrize(("n", "r"), [(8, 4), (13, 13), (22, 10), (57, 12)])
def test_plan_prints_rounds_and_quality(n: int, r: int) -> None:
    code, out = run("plan", "--players", str(n), "--rounds", str(r), "--seed", "7")
    assert code == 0
    assert len(out["rounds"]) == r
    partners: Counter[frozenset[int]] = Counter()
    for rnd in out["rounds"]:
        seated = [p for t in rnd["tables"] for p in t]
        assert sorted(seated + rnd["byes"]) == list(range(1, n + 1))
        for t in rnd["tables"]:
            partners[frozenset((t[0], t[2]))] += 1
            partners[frozenset((t[1], t[3]))] += 1
    assert max(partners.values()) == 1
    q = out["quality"]
    assert q["repeat_partners"] == 0
    assert {
        "repeat_opponents",
        "opponents_lower_bound",
        "repeat_tablemates",
        "tablemates_lower_bound",
        "byes_per_player",
        "max_byes",
        "min_byes",
    } <= set(q)


def test_plan_is_deterministic() -> None:
    assert run("plan", "--players", "18", "--rounds", "5", "--seed", "3") == run(
        "plan", "--players", "18", "--rounds", "5", "--seed", "3"
    )


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["plan", "--players", "3", "--rounds", "2"], "players"),
        (["plan", "--players", "8", "--rounds", "12"], "rounds"),
        (["plan", "--players", "8", "--rounds", "0"], "rounds"),
        (["plan", "--players", "eight", "--rounds", "2"], "arguments"),
        (["plan", "--rounds", "2"], "arguments"),
        (["bogus"], "arguments"),
        (["design", "--players", "10"], "players"),
    ],
)
def test_bad_requests_exit_2_with_errors(args: list[str], field: str) -> None:
    code, out = run(*args)
    assert code == 2
    assert out["errors"][0]["field"] == field
    assert out["errors"][0]["message"]
    assert out["errors"][0]["code"]


def test_next_reads_history_and_honours_fixed_tables() -> None:
    request = {
        "players": list(range(1, 11)),
        "rounds": [{"tables": [[1, 2, 3, 4], [5, 6, 7, 8]], "byes": [9, 10]}],
        "fixed_tables": {"7": 2},
    }
    code, out = run("next", "--seed", "2", stdin=json.dumps(request))
    assert code == 0
    rnd = out["round"]
    assert 7 in rnd["tables"][1]
    assert not set(rnd["byes"]) & {9, 10}
    assert out["quality"]["repeat_partners"] == 0
    assert out["quality"]["rounds"] == 2
    assert out["history_quality"]["rounds"] == 1


def test_next_with_string_ids() -> None:
    request = {"players": ["ann", "bob", "cy", "di", "ed"], "rounds": []}
    code, out = run("next", stdin=json.dumps(request))
    assert code == 0
    assert len(out["round"]["byes"]) == 1


@pytest.mark.parametrize(
    ("request_text", "field"),
    [
        ("not json", "input"),
        ("[]", "input"),
        (json.dumps({"players": [1, 2, 3]}), "players"),
        (json.dumps({"players": [1, 2, 3, 4, 5], "fixed_tables": {"9": 1}}), "fixed_tables"),
        (json.dumps({"players": [1, 2, 3, 4], "fixed_tables": {"1": 2}}), "fixed_tables"),
        (
            json.dumps({"players": [1, 2, 3, 4], "rounds": [{"tables": [[1, 2, 3]]}]}),
            "rounds[0].tables[0]",
        ),
        (json.dumps({"players": [1, 2, 3, 4], "rounds": [{"tables": [[1, 1, 2, 3]]}]}), "history"),
        (json.dumps({"players": [1, 2, 3, 4.5]}), "players"),
    ],
)
def test_next_bad_input(request_text: str, field: str) -> None:
    code, out = run("next", stdin=request_text)
    assert code == 2
    assert out["errors"][0]["field"] == field


def test_design_command_prints_a_whist_design() -> None:
    code, out = run("design", "--players", "12")
    assert code == 0
    assert len(out["rounds"]) == 11
    code, out = run("designs", "--limit", "30")
    assert code == 0
    assert {8, 12, 13, 16, 17, 20} <= set(out["sizes"])


def test_help_documents_the_shapes() -> None:
    code, text = run_module("pairing.rotation", "--help")
    assert code == 0
    assert "fixed_tables" in text and "quality" in text


def test_rotation_imports_nothing_from_django() -> None:
    assert imports_django("pairing.rotation", "pairing.rotation.__main__") == "[]"
