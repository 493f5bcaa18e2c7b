"""No refusal is written in English only: every message a service, a view or a pure core gives a
refusal is marked for translation, so the API answers it in the reader's language; so is every
``Http404`` reason ("No such table"), which the API and the 404 page show as given.

The code is read as a tree (``ast``): a refusal made with a literal message (a string or an
f-string) is an error. In the Django apps the message is ``gettext("... %(name)s ...") % {...}``
(translated as it is raised); in the pure packages it is ``Text(gettext_noop("..."), name=...)``
or ``gettext_noop("...")`` (translated where the web layer answers it,
``common.labels.translated``). A message held in a variable passes: it was made, and marked,
elsewhere. Command-line tools (``cli.py``, ``__main__.py``, management commands) speak to a
terminal and are left out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = ("rules_engine", "pairing", "ranking", "formats")
DJANGO = ("archive", "clubs", "common", "conduct", "draw", "events", "following", "league",
          "privacy", "profiles", "public", "registrations", "scoring", "search", "series",
          "standings", "tournaments")
# A refusal's constructor (or helper) and the place of its message among the positional
# arguments; ``message=`` / ``detail=`` are read wherever they are given.
DJANGO_CALLS: dict[str, int | None] = {
    "DomainError": 0, "ConflictError": 0, "ValidationError": 0, "PermissionDenied": 0,
    "NotFound": 0, "Http404": 0, "Throttled": None, "_refuse": 2, "_refused": 2}
PURE_CALLS: dict[str, int | None] = {
    "FieldError": 2, "single": 2, "CoreError": 0, "PairingError": 0, "BracketError": 0,
    "FormatError": 0, "SwissError": 0, "RankingError": 0, "ScheduleError": 0,
    "RatingInputError": 0, "ProgressiveError": 1, "RotationError": 1, "PairSettingsError": 1}
# The push server answers outside Django's request cycle (no reader's language there).
NOT_READ = {"push_server.py"}


def _modules() -> list[tuple[Path, bool]]:
    found = []
    for package in PURE + DJANGO:
        for path in sorted((ROOT / package).rglob("*.py")):
            if ("migrations" in path.parts or "management" in path.parts
                    or path.name in ("cli.py", "__main__.py", *NOT_READ)):
                continue
            found.append((path, package in PURE))
    return found


def _literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(node.value.strip()))


def _message(call: ast.Call, calls: dict[str, int | None]) -> ast.expr | None:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(
        func, ast.Attribute) else None
    if name not in calls:
        return None
    for keyword in call.keywords:
        if keyword.arg in ("message", "detail"):
            return keyword.value
    index = calls[name]
    return call.args[index] if index is not None and len(call.args) > index else None


def unmarked(source: str, *, pure: bool) -> list[int]:
    """The lines of ``source`` where a refusal's message is a literal nobody marked."""
    calls = PURE_CALLS if pure else DJANGO_CALLS
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _literal(_message(node, calls)):
            lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and not pure:  # an API error written out: {"message": ...}
            lines.extend(value.lineno for key, value in zip(node.keys, node.values, strict=True)
                         if isinstance(key, ast.Constant) and key.value == "message"
                         and _literal(value))
    return lines


def test_every_refusal_message_is_marked_for_translation() -> None:
    modules = _modules()
    assert len(modules) > 200
    found = [f"{path.relative_to(ROOT)}:{line}" for path, pure in modules
             for line in unmarked(path.read_text(), pure=pure)]
    assert not found, ("refusals with an unmarked message (gettext in the apps, "
                       "Text(gettext_noop(...)) in the pure packages):\n" + "\n".join(found))


@pytest.mark.parametrize(("source", "pure", "lines"), [
    ('raise DomainError("Give the event a name.", field="name")', False, [1]),
    ('raise DomainError(f"No round {n}.", field="round")', False, [1]),
    ('raise DomainError(gettext("Give the event a name."), field="name")', False, []),
    ('raise DomainError(message, field="name")', False, []),
    ('Response({"errors": [{"field": "x", "message": "Not here."}]})', False, [1]),
    ('raise serializers.ValidationError("Pick one.")', False, [1]),
    ('raise Http404("No such table")', False, [1]),
    ('raise Http404(f"page: there are {n} pages.")', False, [1]),
    ('raise Http404(gettext("No such table")) from None', False, []),
    ('raise Http404', False, []),
    ('errors.append(FieldError("bid", "required", "bid is missing"))', True, [1]),
    ('FieldError("bid", "required", Text(gettext_noop("bid is missing")))', True, []),
    ('raise ProgressiveError(where, f"{x} is not a player id.", "bad_id")', True, [1]),
    ('raise RulesError.single("trump", "required", gettext_noop("trump is missing"))', True, []),
])
def test_the_scan_finds_an_unmarked_message_and_passes_a_marked_one(
        source: str, pure: bool, lines: list[int]) -> None:
    assert unmarked(source, pure=pure) == lines
