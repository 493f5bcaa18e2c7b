"""The bracket command line (python -m pairing.bracket), as a subprocess and in process."""

from __future__ import annotations

import json
from functools import partial

import pytest

from pairing.bracket.__main__ import MAX_INPUT_CHARS
from pairing.bracket.__main__ import run as run_in_process
from tests.pairing.cli_helpers import errors, run_local, run_module

run = partial(run_module, "pairing.bracket")
local = partial(run_local, run_in_process)


def test_plan_text_lists_every_match_with_where_pairs_go() -> None:
    code, text = run("plan", "--entrants", "16", "--kind", "double")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "Double elimination, 16 pairs: 30 matches, 31 if GF2 is needed."
    assert "  W1-1  depth 1  seed 1 v seed 16  winner -> W2-1  loser -> L1-1" in lines
    assert "Winners bracket" in lines and "Losers bracket" in lines and "Grand final" in lines
    assert lines.index("Winners bracket") < lines.index("Losers bracket")
    assert lines.index("Losers bracket") < lines.index("Grand final")
    l61 = next(line for line in lines if line.startswith("  L6-1 "))
    assert "winner -> GF" in l61 and "loser -> out, place 3" in l61
    gf = next(line for line in lines if line.startswith("  GF "))
    assert "winner -> place 1 or GF2" in gf and "loser -> place 2 or GF2" in gf
    assert any("only if the losers-bracket side wins GF" in line for line in lines)
    assert sum(1 for line in lines if line.startswith("  ")) == 31


def test_plan_text_single_with_third_place_and_consolation() -> None:
    code, text = run(
        "plan", "--entrants", "12", "--kind", "single", "--third-place", "--consolation", "1"
    )
    assert code == 0
    lines = text.splitlines()
    assert lines[0].startswith("Single elimination, 12 pairs: 12 matches")
    assert "Third-place match" in lines and "Consolation bracket" in lines
    final = next(line for line in lines if line.startswith("  W4-1 "))
    assert final.endswith("winner -> place 1  loser -> place 2")
    assert any(line.startswith("  3P ") and "winner -> place 3" in line for line in lines)
    # the four first-round losers go to the consolation (and share ninth place)
    assert sum(1 for line in lines if line.startswith("  W1-") and "-> C" in line) == 4
    assert "(place 9)" in next(line for line in lines if line.startswith("  W1-"))


def test_plan_json() -> None:
    code, text = run("plan", "--entrants", "5", "--kind", "double", "--no-reset", "--json")
    assert code == 0
    out = json.loads(text)
    assert out["count"] == len(out["matches"]) == 8
    assert (out["kind"], out["entrants"], out["reset"]) == ("double", 5, False)
    first = out["matches"][0]
    assert set(first) == {
        "code", "bracket", "round", "position", "sides", "winner_to", "loser_to", "depth",
        "conditional", "winner_place", "loser_place",
    }  # fmt: skip
    assert first["sides"] == [{"kind": "seed", "ref": 4}, {"kind": "seed", "ref": 5}]
    gf = next(m for m in out["matches"] if m["code"] == "GF")
    assert (gf["winner_place"], gf["loser_place"], gf["winner_to"]) == (1, 2, None)
    depths = [m["depth"] for m in out["matches"]]
    assert depths == sorted(depths)


@pytest.mark.parametrize(
    ("args", "field", "code"),
    [
        (["plan", "--entrants", "1"], "entrants", "too_few"),
        (["plan", "--entrants", "8", "--kind", "triple"], "kind", "bad_kind"),
        (["plan", "--entrants", "8", "--kind", "double", "--third-place"], "third_place", "not_single"),
        (["plan", "--entrants", "8", "--consolation", "1,x"], "consolation", "bad_consolation"),
        (["plan", "--entrants", "8", "--consolation", "3"], "consolation", "bad_round"),
        (["plan", "--entrants", "eight"], "arguments", "usage"),
        (["plan"], "arguments", "usage"),
        ([], "arguments", "usage"),
        (["draw"], "arguments", "usage"),
    ],
)  # fmt: skip
def test_plan_errors(args: list[str], field: str, code: str) -> None:
    status, out = local(*args)
    assert status == 2
    assert errors(out) == [(field, code)]


def test_plan_error_as_a_subprocess() -> None:
    code, text = run("plan", "--entrants", "1")
    assert code == 2
    assert json.loads(text) == {
        "errors": [
            {"field": "entrants", "code": "too_few", "message": "A bracket needs at least 2 pairs."}
        ]
    }


REQUEST = {
    "entrants": 4,
    "kind": "double",
    "seeds": [11, 12, 13, 14],
    "results": {"W1-1": 11, "W1-2": 13},
}


def test_state_prints_the_state() -> None:
    code, text = run("state", stdin=json.dumps(REQUEST))
    assert code == 0
    out = json.loads(text)
    assert set(out) == {
        "sides", "winners", "losers", "ready", "skipped", "complete", "champion", "losses",
        "placements", "consolation_placements",
    }  # fmt: skip
    assert out["ready"] == ["W2-1", "L1-1"]
    assert out["sides"]["W2-1"] == [11, 13]
    assert out["sides"]["L1-1"] == [14, 12]
    assert out["sides"]["GF"] == [None, None]
    assert out["losses"] == {"11": 0, "12": 1, "13": 0, "14": 1}
    assert out["complete"] is False and out["champion"] is None and out["placements"] == []


def test_state_to_the_end() -> None:
    results = {"W1-1": 11, "W1-2": 13, "W2-1": 11, "L1-1": 14, "L2-1": 13, "GF": 11}
    code, out = local("state", stdin=json.dumps({**REQUEST, "results": results}))
    assert code == 0
    assert out["complete"] is True and out["champion"] == 11
    assert out["skipped"] == ["GF2"]
    assert out["placements"] == [
        {"place": 1, "entrant": 11},
        {"place": 2, "entrant": 13},
        {"place": 3, "entrant": 14},
        {"place": 4, "entrant": 12},
    ]


@pytest.mark.parametrize(
    ("request_text", "field", "code"),
    [
        (json.dumps({**REQUEST, "results": {"W2-1": 11}}), "match", "not_ready"),
        (json.dumps({**REQUEST, "results": {"W1-1": 13}}), "winner", "wrong_winner"),
        (json.dumps({**REQUEST, "results": {"X": 11}}), "match", "unknown_match"),
        (json.dumps({**REQUEST, "results": {"W1-1": 11.0}}), "winner", "bad_id"),
        (json.dumps({**REQUEST, "results": [1]}), "results", "bad_results"),
        (json.dumps({**REQUEST, "seeds": [11, 12, 13]}), "seeds", "wrong_count"),
        (json.dumps({**REQUEST, "seeds": [11, 12, 13, "x"]}), "seeds", "bad_id"),
        (json.dumps({**REQUEST, "kind": "triple"}), "kind", "bad_kind"),
        (json.dumps({**REQUEST, "kind": 2}), "kind", "bad_kind"),
        (json.dumps({**REQUEST, "entrants": 1}), "entrants", "too_few"),
        (json.dumps({**REQUEST, "entrants": "4"}), "entrants", "bad_entrants"),
        (json.dumps({**REQUEST, "reset": "yes"}), "reset", "bad_option"),
        (json.dumps({**REQUEST, "consolation": 1}), "consolation", "bad_consolation"),
        (json.dumps({**REQUEST, "colour": "red"}), "colour", "unknown_field"),
        (json.dumps({"entrants": 4}), "seeds", "missing"),
        (json.dumps([1, 2]), "input", "bad_json"),
        ("{", "input", "bad_json"),
        ("", "input", "empty"),
        ('{"entrants": 4, "entrants": 5}', "input", "duplicate_key"),
        ('{"entrants": NaN}', "input", "bad_json"),
        ('{"entrants": ' + "9" * 40 + "}", "input", "bad_number"),
        ("[" * 100_000 + "]" * 100_000, "input", "too_deep"),
    ],
)
def test_state_errors(request_text: str, field: str, code: str) -> None:
    status, out = local("state", stdin=request_text)
    assert status == 2
    assert errors(out) == [(field, code)]


def test_state_not_ready_message_names_the_match() -> None:
    code, text = run("state", stdin=json.dumps({**REQUEST, "results": {"W2-1": 11}}))
    assert code == 2
    (error,) = json.loads(text)["errors"]
    assert error["field"] == "match"
    assert error["message"].startswith("The pairs of match W2-1 are not known yet")


def test_state_refuses_oversized_input() -> None:
    status, out = local("state", stdin=" " * (MAX_INPUT_CHARS + 1))
    assert status == 2
    assert errors(out) == [("input", "too_large")]
