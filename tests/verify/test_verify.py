"""``python -m verify`` on one club night played once for the module (the events each test
plays itself are in ``test_played_events``): a copy changed in one derived value is caught
naming it; a file that is not an archive is refused with exit status 2. The verifier needs no
Django settings and no database (run as a subprocess with an empty environment)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import TestCase

import verify
from archive.format import FORMAT_NAME, VERSION
from archive.selectors import event_archive_bytes
from tests.archive.play import club_night
from tests.shared import module_data
from verify.cli import main

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def _run(archive: Any, tmp_path: Path, capsys: Any, name: str = "event.json") -> tuple[int, str]:
    path = tmp_path / name
    path.write_bytes(archive if isinstance(archive, bytes) else json.dumps(archive).encode())
    code = main([str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err




@module_data
def night_archive() -> dict[str, Any]:
    """A club night's archive with adjusted results, penalties and appeals (parsed): played
    once for the module."""
    event = club_night(TestCase.captureOnCommitCallbacks, decisions=True)
    return dict(json.loads(event_archive_bytes(event=event)))


@pytest.fixture
def night(night_archive: dict[str, Any]) -> dict[str, Any]:
    """The club night's archive, a copy of the test's own."""
    return copy.deepcopy(night_archive)


def _played(archive: dict[str, Any]) -> int:
    return next(i for i, h in enumerate(archive["hands"])
                if h["revisions"][-1]["outcome"] == "played" and not h["deleted_at"])


def _more_points(a: dict[str, Any]) -> None:
    points = a["hands"][_played(a)]["revisions"][-1]["points"]
    points["NS"] += 10


def _other_winner(a: dict[str, Any]) -> None:
    game = next(g for g in a["games"] if g["winner"] and not g["adjusted"])
    game["winner"] = "EW" if game["winner"] == "NS" else "NS"


def _swapped_places(a: dict[str, Any]) -> None:
    first, second = a["standings"]["placements"][:2]
    first["entry_id"], second["entry_id"] = second["entry_id"], first["entry_id"]


def _row_points(a: dict[str, Any]) -> None:
    a["standings"]["rows"][0]["points"] += 1


def _penalty_dropped(a: dict[str, Any]) -> None:
    a["penalties"] = [p for p in a["penalties"] if p["withdrawn_at"] is not None]


def _adjusted_points(a: dict[str, Any]) -> None:
    game = next(g for g in a["games"] if (g["adjusted"] or {}).get("kind") == "points")
    game["adjusted"]["points"] = {"NS": 10, "EW": 200}


def _unseated_confirmer(a: dict[str, Any]) -> None:
    game = next(g for g in a["games"] if g["confirmed_by"] is not None)
    seated = {s["entry"] for s in a["seats"]
              if (s["round"], s["table"]) == (game["round"], game["table"])}
    game["confirmed_by"] = next(e["id"] for e in a["entries"] if e["id"] not in seated)


def _seats_swapped(a: dict[str, Any]) -> None:
    """Two players of round 2 change seats (table 1's North and table 2's East)."""
    first = next(s for s in a["seats"] if (s["round"], s["table"], s["position"]) == (2, 1, "N"))
    other = next(s for s in a["seats"] if (s["round"], s["table"], s["position"]) == (2, 2, "E"))
    first["entry"], other["entry"] = other["entry"], first["entry"]


TAMPERED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("two players' seats swapped", _seats_swapped, "seat at round 2, table 1, seat N"),
    ("one hand's points", _more_points, "hand points at hands[{played}].revisions["),
    ("one game's winner", _other_winner, "game winner at games["),
    ("two placements swapped", _swapped_places, "placement entry_id at standings.placements[0]"),
    ("one standings row's points", _row_points, "standings points at standings.rows[0]"),
    ("a penalty in force left out", _penalty_dropped, "standings penalty_points at standings.rows["),
    ("an adjusted result's points", _adjusted_points, "game totals at games["),
    ("a confirmation by a player of another table", _unseated_confirmer,
     "confirmation by a player not at the table at games["),
]


@pytest.mark.parametrize(("change", "named"), [(c, n) for _, c, n in TAMPERED],
                         ids=[t[0] for t in TAMPERED])
def test_a_tampered_archive_exits_1_naming_what_differs(
        night: dict[str, Any], tmp_path: Path, capsys: Any,
        change: Callable[[dict[str, Any]], None], named: str) -> None:
    bad = copy.deepcopy(night)
    change(bad)
    code, out = _run(bad, tmp_path, capsys)
    assert code == 1, out
    assert named.format(played=_played(night)) in out, out
    assert "stored " in out and "recomputed " in out
    assert out.strip().splitlines()[-1].startswith("verified: ")
    assert not out.strip().splitlines()[-1].endswith(" 0 discrepancies")


def test_the_discrepancy_says_what_was_stored_and_what_is_recomputed(
        night: dict[str, Any], tmp_path: Path, capsys: Any) -> None:
    bad = copy.deepcopy(night)
    _row_points(bad)
    stored = bad["standings"]["rows"][0]["points"]
    code, out = _run(bad, tmp_path, capsys)
    line = next(x for x in out.splitlines() if x.startswith("standings points"))
    assert code == 1
    assert line.endswith(f"stored {stored}, recomputed {stored - 1}")


def test_the_seats_are_drawn_again_from_a_seed_given_on_the_command_line(
        night: dict[str, Any], tmp_path: Path, capsys: Any) -> None:
    """An event not finished carries no public seed: its seats are checked only with
    ``--seed``; a seed other than the archive's is a discrepancy, and draws other seats."""
    running = copy.deepcopy(night)
    running["event"]["status"] = "running"
    running["standings"]["placements"] = []
    seed = night["event"]["seed"]
    path = tmp_path / "running.json"
    path.write_text(json.dumps(running))
    assert main([str(path)]) == 0
    assert "seats" not in capsys.readouterr().out
    assert main([str(path), "--seed", seed]) == 0
    rounds = len(night["rounds"])
    assert (f"{rounds} rounds' seats drawn again from the seed, 0 not re-checkable, "
            "0 discrepancies") in capsys.readouterr().out
    assert main([str(path), "--seed", str(int(seed) + 1)]) == 1
    out = capsys.readouterr().out
    assert f'draw seed at event.seed: stored "{seed}", recomputed "{int(seed) + 1}"' in out
    assert "seat at round 1, table 1" in out
    with pytest.raises(SystemExit) as refused:
        main([str(path), "--seed", "not-a-seed"])
    assert refused.value.code == 2 and "not a draw seed" in capsys.readouterr().err


def test_a_round_whose_inputs_changed_after_its_draw_is_not_rechecked(
        night: dict[str, Any], tmp_path: Path, capsys: Any) -> None:
    """A re-draw of round 3 the log records but the seats do not follow is a discrepancy of its
    seats; the same round counts as not re-checkable (with why) once a hand of an earlier round
    was corrected after it was seated: its draw read the results before the correction."""
    bad = copy.deepcopy(night)
    round_3 = next(r for r in bad["rounds"] if r["number"] == 3)
    bad["log"].append({"action": "round_redrawn", "actor": "night-director",
                       "created_at": round_3["created_at"],
                       "details": {"draw": 1, "reason": "a player was at the bar", "round": 3}})
    code, out = _run(bad, tmp_path, capsys)
    # (the other draw of the same seed seats at least one of round 3's tables otherwise)
    assert code == 1 and "seat at round 3, table " in out, out
    assert "seat at round 2" not in out
    hand = next(h for h in bad["hands"] if h["round"] == 2)
    hand["revisions"][-1]["created_at"] = "2999-01-01T00:00:00.000000Z"
    code, out = _run(bad, tmp_path, capsys)
    assert code == 0, out
    assert ("round 3's seats not re-checkable: an earlier round's hand was entered or "
            "corrected after it was seated") in out
    assert "2 rounds' seats drawn again from the seed, 1 not re-checkable" in out


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("not JSON", lambda a: b"{not json", "not JSON"),
    ("not an object", lambda a: [a], "one JSON object"),
    ("another format", lambda a: {**a, "format": "something-else"}, "format:"),
    ("a newer version", lambda a: {**a, "version": VERSION + 1}, "version:"),
    ("a section missing", lambda a: {k: v for k, v in a.items() if k != "seats"}, "seats:"),
    ("a version 2 section missing", lambda a: {k: v for k, v in a.items() if k != "penalties"},
     "penalties:"),
    ("a section of the wrong type", lambda a: {**a, "games": {}}, "games: must be a list"),
    ("a value of the wrong type",
     lambda a: {**a, "rounds": [{**a["rounds"][0], "number": "one"}, *a["rounds"][1:]]},
     "rounds[0].number: must be a whole number"),
    ("a row missing a key",
     lambda a: {**a, "hands": [{k: v for k, v in a["hands"][0].items() if k != "number"},
                               *a["hands"][1:]]}, "hands[0].number: is missing"),
    ("a reference to nothing",
     lambda a: {**a, "seats": [{**a["seats"][0], "entry": 999}, *a["seats"][1:]]},
     "seats[0].entry: names an entry"),
    ("an unknown ruleset",
     lambda a: {**a, "event": {**a["event"], "ruleset_preset": "no-such-rules"}},
     "event.ruleset_preset"),
]


@pytest.mark.parametrize(("change", "named"), [(c, n) for _, c, n in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_a_malformed_archive_exits_2_with_a_clear_error(
        night: dict[str, Any], tmp_path: Path, capsys: Any,
        change: Callable[[dict[str, Any]], Any], named: str) -> None:
    code, out = _run(change(copy.deepcopy(night)), tmp_path, capsys)
    assert code == 2, out
    assert out.startswith("not a readable event archive: ") and named in out, out


def test_a_version_1_archive_verifies(night: dict[str, Any], tmp_path: Path,
                                     capsys: Any) -> None:
    """An archive written before adjusted results and penalties were carried reads as one
    without them: this night's then differs exactly there."""
    older = {k: v for k, v in night.items() if k not in ("penalties", "appeals")}
    older["version"] = 1
    code, out = _run(older, tmp_path, capsys)
    assert code == 1 and "standings penalty_points" in out


def test_the_verifier_reads_the_format_the_site_writes() -> None:
    assert (verify.FORMAT_NAME, verify.VERSION) == (FORMAT_NAME, VERSION)


def test_it_runs_as_a_command_without_django_or_a_database(
        night: dict[str, Any], tmp_path: Path) -> None:
    """``python -m verify FILE`` in an environment with nothing set (no settings module, no
    database address) from the repository's root: it verifies and never imports Django."""
    path = tmp_path / "event.json"
    path.write_text(json.dumps(night))
    bare = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    done = subprocess.run([sys.executable, "-m", "verify", str(path)], cwd=ROOT, env=bare,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified: ") and done.stdout.strip().endswith(
        " 0 discrepancies")
    probe = ("import sys, verify.cli\n"
             "code = verify.cli.main([sys.argv[1]])\n"
             "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'config')]\n"
             "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", probe, str(path)], cwd=ROOT, env=bare,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = subprocess.run([sys.executable, "-m", "verify", str(bad)], cwd=ROOT, env=bare,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "not JSON" in done.stderr
