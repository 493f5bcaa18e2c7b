"""What the pairing command-line tests share: running a module as a subprocess or in process,
and reading its JSON answer and refusals."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[2]


def run_module(module: str, *args: str, stdin: str = "") -> tuple[int, str]:
    """``python -m module args`` from the project root: exit status and stdout (no stderr)."""
    proc = subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr
    assert proc.stderr == ""
    return proc.returncode, proc.stdout


def run_json(module: str, *args: str, stdin: str = "") -> tuple[int, Any]:
    """:func:`run_module`, its stdout read as one JSON object."""
    code, out = run_module(module, *args, stdin=stdin)
    return code, json.loads(out)


def run_local(
    run: Callable[[Sequence[str], TextIO], int], *args: str, stdin: str = ""
) -> tuple[int, Any]:
    """A command line's ``run(argv, stdin)`` in process: exit status and its JSON answer."""
    out = io.StringIO()
    with redirect_stdout(out):
        code = run(list(args), io.StringIO(stdin))
    return code, json.loads(out.getvalue())


def errors(out: Any) -> list[tuple[str, str]]:
    """The (field, code) of each refusal in ``{"errors": [...]}``, checking their shape."""
    assert set(out) == {"errors"}
    for error in out["errors"]:
        assert set(error) == {"field", "code", "message"}
        assert error["message"]
    return [(e["field"], e["code"]) for e in out["errors"]]


def strict_json_refusals(key: str, with_nan: str) -> list[tuple[str, str, str]]:
    """(request text, field, code) of the inputs every strict reader refuses: not JSON, empty, not
    an object, ``key`` twice, NaN (in ``with_nan``) and nesting too deep."""
    return [
        ("not json", "input", "bad_json"),
        ("", "input", "empty"),
        ("[]", "input", "bad_json"),
        (f'{{"{key}": [], "{key}": []}}', "input", "duplicate_key"),
        (with_nan, "input", "bad_json"),
        ("[" * 100_000, "input", "too_deep"),
    ]


def too_large(max_chars: int) -> list[dict[str, str]]:
    """The refusal of an input longer than ``max_chars``."""
    return [
        {
            "field": "input",
            "code": "too_large",
            "message": f"The input is longer than {max_chars:,} characters.",
        }
    ]


def imports_django(*modules: str) -> str:
    """The django and celery modules loaded by importing ``modules`` in a fresh interpreter, as
    the printed sorted list (``[]`` when none)."""
    code = (
        f"import sys, {', '.join(modules)}; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery')))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()
