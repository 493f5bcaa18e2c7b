from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# The published cases (meld examples, scoring cases) live beside the tests.
CASES = Path(__file__).resolve().parent / "cases"


def run_cli(*args: str, stdin: str | None = None) -> tuple[int, dict[str, Any]]:
    """Run ``python -m rules_engine`` as a subprocess; return (exit code, the one JSON object)."""
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stdout
    return proc.returncode, json.loads(lines[0])


def load_cases(name: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((CASES / name).read_text())["cases"]
    return cases
