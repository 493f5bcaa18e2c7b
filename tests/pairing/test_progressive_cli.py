"""The progressive movement's command line, run as a subprocess."""

from __future__ import annotations

import io
import json
from functools import partial
from typing import Any

import pytest

from pairing.progressive.__main__ import MAX_INPUT_CHARS
from pairing.progressive.__main__ import run as run_in_process
from tests.pairing.cli_helpers import (
    errors,
    imports_django,
    run_json,
    run_module,
    strict_json_refusals,
    too_large,
)

run = partial(run_json, "pairing.progressive")


def tables(count: int) -> list[dict[str, int]]:
    return [{s: 4 * t + i + 1 for i, s in enumerate("NESW")} for t in range(count)]


GOOD = {
    "tables": tables(3),
    "winners": ["NS", "EW", "NS"],
    "history": [[2, 6], tables(3)],
    "settings": {"movement": "winners_move", "direction": "up", "draw": "system", "seed": 5},
}


def test_next_prints_tables_and_quality() -> None:
    code, out = run("next", stdin=json.dumps(GOOD))
    assert code == 0
    assert set(out) == {"tables", "quality"}
    assert len(out["tables"]) == 3
    assert all(set(t) == {"N", "E", "S", "W"} for t in out["tables"])
    assert sorted(p for t in out["tables"] for p in t.values()) == list(range(1, 13))
    q = out["quality"]
    assert {"repeat_partners", "repeat_opponents", "moves", "warnings"} <= set(q)
    assert set(q["moves"][0]) == {"player", "from_table", "from_seat", "to_table", "to_seat"}
    assert len(q["moves"]) == 12
    assert q["repeat_partners"] == []  # 2 partnered 6 before; the system draw avoids it
    # table 1's winners (1 and 3) went to the last table
    assert {1, 3} <= set(out["tables"][2].values())
    assert [d["table"] for d in q["draws"]] == [1, 2, 3]


def test_next_is_deterministic_and_seed_flag_overrides() -> None:
    once = run("next", stdin=json.dumps(GOOD))
    assert once == run("next", stdin=json.dumps(GOOD))
    code, out = run("next", "--seed", "9", stdin=json.dumps(GOOD))
    assert code == 0 and out["quality"]["settings"]["seed"] == 9


def test_table_draw_fixed_seats_and_alternates_through_the_cli() -> None:
    request = {
        "tables": tables(2),
        "winners": ["NS", "EW"],
        "settings": {"draw": "table"},
        "table_draw": [[2, 8], [5, 1]],
    }
    code, out = run("next", stdin=json.dumps(request))
    assert code == 0
    assert {out["tables"][0]["N"], out["tables"][0]["S"]} in ({2, 8}, {4, 6})
    request = {
        "tables": tables(4),
        "settings": {"movement": "fixed_seats", "steps": {"E": -1, "W": -1}},
        "entering": ["alt"],
        "leaving": [1],
    }
    code, out = run("next", stdin=json.dumps(request))
    assert code == 0
    assert out["tables"][0]["N"] == "alt"
    assert [w["code"] for w in out["quality"]["warnings"]] == ["partners_repeat"]
    assert out["quality"]["substitutions"] == [
        {"left": 1, "entered": "alt", "table": 1, "seat": "N"}
    ]


def test_a_tie_decided_by_points_and_a_refused_exact_tie() -> None:
    request = {"tables": tables(1), "winners": [None], "points": [{"NS": 200, "EW": 350}]}
    assert run("next", stdin=json.dumps(request))[0] == 0
    request["points"] = [{"NS": 300, "EW": 300}]
    code, out = run("next", stdin=json.dumps(request))
    assert code == 2
    assert out["errors"][0]["field"] == "winners[0]" and out["errors"][0]["code"] == "tie"


def _with(**changes: Any) -> str:
    request = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("settings_"):
            request["settings"][key.removeprefix("settings_")] = value
        else:
            request[key] = value
    return json.dumps(request)


BAD_TABLE = [{"N": 1, "E": 2, "S": 3, "W": 4}, {"N": 5, "E": 2, "S": 7, "W": 8}]


@pytest.mark.parametrize(
    ("request_text", "field", "code"),
    [
        *strict_json_refusals("tables", '{"tables": [{"N": NaN}]}'),
        (json.dumps({"winners": ["NS"]}), "tables", "missing"),
        (_with(tables=[{"N": 1, "E": 2, "S": 3, "West": 4}]), "tables[0]", "unknown_seat"),
        (_with(tables=[{"N": 1, "E": 2, "S": 3}]), "tables[0]", "missing_seat"),
        (_with(tables=BAD_TABLE, winners=["NS", "NS"]), "tables[1].E", "seated_twice"),
        (
            _with(tables=[{"N": 1, "E": 2, "S": 3, "W": 4.5}], winners=["NS"]),
            "tables[0].W",
            "bad_id",
        ),
        (
            _with(tables=[{"N": 1, "E": 2, "S": 3, "W": True}], winners=["NS"]),
            "tables[0].W",
            "bad_id",
        ),
        (_with(winners=["NS", "EW"]), "winners[2]", "missing"),
        (_with(winners=["NS", "EW", "N"]), "winners[2]", "bad_side"),
        (_with(winners="NS"), "winners", "bad_winners"),
        (_with(settings_movement="swiss"), "settings.movement", "bad_movement"),
        (_with(settings_direction="sideways"), "settings.direction", "bad_direction"),
        (_with(settings_draw="dice"), "settings.draw", "bad_draw"),
        (_with(settings_seed="seven"), "settings.seed", "bad_seed"),
        (_with(settings_seed=1.5), "settings.seed", "bad_number"),
        (_with(settings_steps={"E": "up"}), "settings.steps.E", "bad_step"),
        (_with(settings_steps={"NE": 1}), "settings.steps", "unknown_seat"),
        (_with(settings_games=-1), "settings.games", "bad_games"),
        (_with(settings_speed=3), "settings.speed", "unknown_field"),
        (_with(settings=[]), "settings", "bad_settings"),
        (_with(extra=1), "extra", "unknown_field"),
        (_with(settings_draw="table"), "table_draw", "missing"),
        (_with(table_draw=[[2, 6]] * 3), "table_draw", "not_used"),
        (_with(leaving=[5]), "tables[1].N", "empty_seat"),
        (_with(entering=[50]), "entering", "no_seat"),
        (_with(history=[[1]]), "history[0][0]", "bad_table"),
        (json.dumps({"tables": tables(1), "winners": ["NS"], "x": 10**40}), "input", "bad_number"),
    ],
)
def test_bad_input_exits_2_naming_the_field(request_text: str, field: str, code: str) -> None:
    status, out = run("next", stdin=request_text)
    assert status == 2
    assert errors(out) == [(field, code)]


def test_too_large_input_is_refused_before_parsing(capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps({"tables": tables(1), "winners": ["NS"], "history": []})
    padded = text[:-2] + " " * MAX_INPUT_CHARS + "]}"
    status = run_in_process(["next"], stdin=io.StringIO(padded))
    assert status == 2
    assert json.loads(capsys.readouterr().out)["errors"] == too_large(MAX_INPUT_CHARS)


def test_too_many_tables_is_refused() -> None:
    status, out = run("next", stdin=json.dumps({"tables": tables(251), "winners": ["NS"] * 251}))
    assert status == 2
    assert out["errors"][0]["field"] == "tables" and out["errors"][0]["code"] == "too_many"


@pytest.mark.parametrize("args", [[], ["bogus"], ["next", "--seed", "x"]])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    status, out = run(*args)
    assert status == 2
    assert out["errors"][0]["field"] == "arguments"


def test_help_describes_the_json() -> None:
    for args in (["--help"], ["next", "--help"]):
        code, text = run_module("pairing.progressive", *args)
        assert code == 0
        for word in (
            "tables",
            "winners",
            "history",
            "settings",
            "table_draw",
            "quality",
            "moves",
            "errors",
            "winners_move",
            "fixed_seats",
        ):
            assert word in text


def test_progressive_imports_nothing_from_django() -> None:
    assert imports_django("pairing.progressive", "pairing.progressive.__main__") == "[]"
