"""The rules engine is pure: standard library only, never Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from .conftest import REPO

PACKAGE = REPO / "rules_engine"


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, rules_engine, rules_engine.cli\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == ""


def test_engine_imports_only_the_standard_library() -> None:
    stdlib = set(sys.stdlib_module_names)
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root in stdlib or root == "__future__", f"{path.name} imports {name}"


def test_every_module_uses_postponed_annotations() -> None:
    for path in PACKAGE.glob("*.py"):
        text = Path(path).read_text()
        assert "from __future__ import annotations" in text, path.name
