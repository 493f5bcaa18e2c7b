"""``Event.hands_version`` moves through one function, ``tournaments.services.hands_version_bump``,
on every write of hands: entered, corrected, deleted (``tests/scoring/test_version_bump.py``
shows each is one bump, the transaction's last write) and imported from an archive (here). The
code is scanned so that no other module writes the column."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from archive.selectors import event_archive_bytes
from archive.services import event_import
from scoring import services
from standings.status import HANDS_KEY
from tests.archive.play import empty_database
from tests.config.test_layers import MODULES
from tests.scoring.factories import seated_table, values
from tournaments.models import Event
from tournaments.signals import hands_version_moved

SQL_WRITE = re.compile(r"\bSET\s+\"?hands_version\b", re.IGNORECASE)
THE_BUMP = ("tournaments.services.events", "hands_version_bump")


WRITING_CALLS = {"update", "create", "get_or_create", "update_or_create", "Event"}


def _writing_call(call: ast.Call) -> bool:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id \
        if isinstance(func, ast.Name) else ""
    return name in WRITING_CALLS


def _writes_by_keyword(call: ast.Call) -> bool:
    return any((k.arg == "hands_version" and _writing_call(call))
               or (k.arg == "update_fields" and "'hands_version'" in ast.unparse(k.value))
               for k in call.keywords)


def _writes_of_hands_version(source: str) -> list[tuple[str, int]]:
    """(function, line) of every write of ``hands_version`` in ``source``: a keyword of an
    ``.update(...)``, ``.create(...)`` or ``Event(...)``, ``update_fields``, an attribute
    assignment, a ``SET hands_version`` statement."""
    tree = ast.parse(source)
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) \
                else function
            if isinstance(child, ast.Call) and _writes_by_keyword(child):
                found.append((function, child.lineno))
            elif isinstance(child, ast.Assign | ast.AugAssign | ast.AnnAssign):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                if any(isinstance(t, ast.Attribute) and t.attr == "hands_version"
                       for t in targets):
                    found.append((function, child.lineno))
            elif (isinstance(child, ast.Constant) and isinstance(child.value, str)
                    and SQL_WRITE.search(child.value)):
                found.append((function, child.lineno))
            visit(child, inner)

    visit(tree, "")
    return found


def test_only_the_one_bump_writes_hands_version() -> None:
    writers = {(name, function)
               for name, path in MODULES.items()
               for function, _ in _writes_of_hands_version(path.read_text())}
    bench = {("bench." + p.stem, f) for p in (Path(__file__).parents[2] / "bench").rglob("*.py")
             for f, _ in _writes_of_hands_version(p.read_text())}
    assert writers | bench == {THE_BUMP}


def test_the_scan_sees_each_kind_of_write() -> None:
    source = (
        "def a(e):\n    Event.objects.filter(pk=1).update(hands_version=F('hands_version') + 1)\n"
        "def b(e):\n    e.hands_version += 1\n"
        "def c(cursor):\n    cursor.execute('UPDATE tournaments_event SET hands_version = 3')\n"
        "def d(e):\n    return e.hands_version\n"
        "def e(x):\n    Event.objects.create(club=x, hands_version=4)\n"
        "def f(e):\n    e.save(update_fields=['hands_version'])\n"
        "def g(e):\n    return Status(hands_version=e.hands_version)\n"
    )
    assert [f for f, _ in _writes_of_hands_version(source)] == ["a", "b", "c", "e", "f"]


@pytest.mark.django_db
def test_importing_hands_moves_hands_version_through_the_bump(
        django_capture_on_commit_callbacks: Any) -> None:
    table = seated_table()
    for number, dealer in ((1, "S"), (2, "W"), (3, "N")):
        services.hand_submit(game=table.game, number=number, values=values(dealer=dealer))
    event = Event.objects.get(pk=table.round.event_id)
    archived = event.hands_version
    assert archived == 3
    raw, slug = event_archive_bytes(event=event), event.club.slug
    empty_database()
    cache.clear()
    moved: list[dict[str, Any]] = []

    def heard(**kwargs: Any) -> None:
        moved.append({k: kwargs[k] for k in ("event_id", "hands_version")})

    hands_version_moved.connect(heard, dispatch_uid="test-import-bump")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            imported = event_import(archive=json.loads(raw), club_slug=slug,
                                    create_club=True).event
    finally:
        hands_version_moved.disconnect(dispatch_uid="test-import-bump")
    assert imported is not None
    assert moved == [{"event_id": imported.pk, "hands_version": archived}]
    assert Event.objects.get(pk=imported.pk).hands_version == archived
    # the standings' cached status heard it too (the receiver in standings.signals)
    assert cache.get(HANDS_KEY.format(event_id=imported.pk)) == archived
    assert event_archive_bytes(event=Event.objects.get(pk=imported.pk)) == raw
