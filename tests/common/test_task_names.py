"""Every Celery task queued by name (``common.tasks``) is a task the project's Celery app
registers: "go to definition" stops at a string, so this test follows it.

The names are collected from the code with ``ast``: every string constant of ``common/tasks.py``
that names a task (a dotted module path), and the first argument of every call to a queueing
helper (``task_queue``, ``task_by_name``, ``common.tasks._publish``) anywhere in the project, a
string literal or a constant of the calling module or of ``common.tasks``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from config.celery import app
from tests.config.test_layers import MODULES

ROOT = Path(__file__).resolve().parents[2]
QUEUEING_HELPERS = {"task_queue", "task_by_name", "_publish"}
TASK_NAME = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+$")


def _constants(tree: ast.Module) -> dict[str, str]:
    """The module's top-level ``NAME = "text"`` assignments."""
    found = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)):
            found.update({t.id: node.value.value for t in node.targets
                          if isinstance(t, ast.Name)})
    return found


COMMON_TASKS = _constants(ast.parse((ROOT / "common" / "tasks.py").read_text()))


def _queued_names(source: str, where: str) -> tuple[set[str], list[str]]:
    """The task names ``source`` queues, and the calls whose name could not be resolved."""
    tree = ast.parse(source)
    local = _constants(tree)
    names: set[str] = set()
    unresolved: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else \
            func.attr if isinstance(func, ast.Attribute) else None
        if called not in QUEUEING_HELPERS:
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.add(first.value)
        elif isinstance(first, ast.Name) and first.id in local:
            names.add(local[first.id])
        elif isinstance(first, ast.Name) and first.id in COMMON_TASKS:
            names.add(COMMON_TASKS[first.id])
        elif isinstance(first, ast.Attribute) and first.attr in COMMON_TASKS:
            names.add(COMMON_TASKS[first.attr])  # tasks.RATE_GAME
        elif where != "common.tasks":  # the helpers themselves pass their ``name`` along
            unresolved.append(f"{where}:{node.lineno}")
    return names, unresolved


def _every_queued_name() -> tuple[set[str], list[str]]:
    names = {value for value in COMMON_TASKS.values() if TASK_NAME.match(value)}
    unresolved: list[str] = []
    sources = dict(MODULES)
    for folder in ("bench", "scripts", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if ".venv" in path.parts:  # a bench's own environment (bench/load/.venv)
                continue
            sources[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    for name, path in sources.items():
        found, lost = _queued_names(path.read_text(), name)
        names |= found
        unresolved += lost
    return names, unresolved


def test_every_task_queued_by_name_is_registered() -> None:
    app.loader.import_default_modules()  # autodiscovery, as a worker does at start
    names, unresolved = _every_queued_name()
    assert unresolved == []  # every queued name is a literal or a named constant
    # all five of common.tasks, and the ratings rebuild league's signals queue
    assert {"standings.tasks.compute_standings", "league.tasks.rebuild_ratings"} <= names
    assert len(names) >= 6
    missing = sorted(name for name in names if name not in app.tasks)
    assert missing == []


def test_the_scan_resolves_literals_and_constants_and_sees_a_wrong_name() -> None:
    source = (
        "from common.tasks import RATE_GAME, task_queue\n"
        "MINE = 'league.tasks.no_such_task'\n"
        "def f(x):\n"
        "    task_queue(RATE_GAME, args=(1,))\n"
        "    task_queue(MINE)\n"
        "    tasks.task_by_name('draw.tasks.seat_round')\n"
        "    task_queue(x)\n"
    )
    names, unresolved = _queued_names(source, "probe")
    assert names == {"league.tasks.rate_game", "league.tasks.no_such_task",
                     "draw.tasks.seat_round"}
    assert unresolved == ["probe:7"]
    app.loader.import_default_modules()
    assert "league.tasks.no_such_task" not in app.tasks
    assert "league.tasks.rate_game" in app.tasks
