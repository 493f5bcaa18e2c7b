"""The conformance corpus's runner (``bench/conformance.py``): how the events are shared among
jobs, and one job playing its share into the ledger."""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

import pytest

from bench.conformance import ledger_lines, run_job, seal, share


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_jobs_share_every_event_once(jobs: int) -> None:
    played = sorted(i for job in range(jobs) for i in share(10, jobs, job))
    assert played == list(range(10))


@pytest.mark.django_db
def test_a_single_job_plays_its_events_into_the_ledger(tmp_path: Path) -> None:
    args = argparse.Namespace(per_format=2, jobs=1, job=None, seed=7, max_players=4,
                              keep=None, hours=0.0)
    run_job(args, ["club_night"], tmp_path)
    lines = [json.loads(line) for path in tmp_path.glob("*.jsonl")
             for line in path.read_text().splitlines()]
    assert sorted(line["index"] for line in lines) == [0, 1]
    assert all(line["found"] == 0 and line["caught"] == line["tampered"] > 0 for line in lines)
    run_job(args, ["club_night"], tmp_path)  # a second sitting: the ledger holds them all
    assert sum(len(p.read_text().splitlines()) for p in tmp_path.glob("*.jsonl")) == 2


@pytest.mark.django_db
def test_a_kept_sitting_counts_as_played(tmp_path: Path) -> None:
    """A finished sitting's file, gzipped (as committed under ``bench/corpus/``), is read
    beside the one under way: its events are not played again."""
    args = argparse.Namespace(per_format=2, jobs=1, job=None, seed=7, max_players=4,
                              keep=None, hours=0.0)
    line = {"corpus": 7, "format": "club_night", "index": 0, "seed": 1, "players": 4,
            "rules": "x", "seats": 1, "unchecked": 0, "found": 0, "early": False,
            "generate_s": 1.0, "verify_s": 0.0, "commit": "c", "tampered": 1, "caught": 1}
    (tmp_path / "sitting-1.jsonl.gz").write_bytes(gzip.compress(json.dumps(line).encode()))
    assert [v.index for v in ledger_lines(tmp_path)] == [0]
    run_job(args, ["club_night"], tmp_path)
    played = [json.loads(row)["index"] for path in tmp_path.glob("*.jsonl")
              for row in path.read_text().splitlines()]
    assert played == [1]


def test_a_sitting_is_sealed_into_one_file_the_same_whichever_job_played_what(
        tmp_path: Path) -> None:
    def line(name: str, index: int) -> str:
        return json.dumps({"corpus": 7, "format": name, "index": index, "seed": index,
                           "players": 4, "rules": "x", "seats": 1, "unchecked": 0, "found": 0,
                           "early": False, "generate_s": 1.0, "verify_s": 0.0, "commit": "c",
                           "tampered": 1, "caught": 1})

    one, other = tmp_path / "one", tmp_path / "other"
    for ledger, jobs in ((one, [[("swiss", 1), ("club_night", 0)], [("swiss", 0)]]),
                         (other, [[("swiss", 0), ("swiss", 1), ("club_night", 0)]])):
        ledger.mkdir()
        for number, played in enumerate(jobs):
            (ledger / f"job-{number}.jsonl").write_text(
                "".join(line(name, index) + "\n" for name, index in played))
    kept = [seal(ledger, "first") for ledger in (one, other)]
    assert kept[0] is not None and kept[1] is not None
    assert kept[0].read_bytes() == kept[1].read_bytes()
    assert not list(one.glob("*.jsonl"))
    assert [(v.format, v.index) for v in ledger_lines(one)] == [
        ("club_night", 0), ("swiss", 0), ("swiss", 1)]
    assert seal(one, "second") is None  # nothing under way
