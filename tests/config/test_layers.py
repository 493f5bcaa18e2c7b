"""The house's layers, measured from the code: no upward import, no cycle, pure cores pure.

Layers, lowest first (docs/architecture.md "Layers"). A module may import from its own layer's package and
from lower layers only; the pure cores import nothing but the standard library and each other in
the order listed. Every import counts, including those inside functions.
"""

from __future__ import annotations

import ast
import graphlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LAYERS: list[set[str]] = [
    {"rules_engine"},
    {"pairing", "ranking"},
    {"formats"},
    {"verify"},
    {"common"},
    {"clubs"},
    {"tournaments"},
    {"scoring"},
    {"conduct"},
    {"standings"},
    {"draw"},
    {"events"},
    {"league", "archive", "following", "series", "registrations"},
    {"profiles", "privacy"},
    {"public", "search", "demo"},
    {"config"},
]
PURE = {"rules_engine", "pairing", "ranking", "formats", "verify"}
LEVEL = {package: level for level, packages in enumerate(LAYERS) for package in packages}
STDLIB = set(sys.stdlib_module_names)
# Pure libraries (no I/O, no framework) a pure core may use besides the standard library:
# the Swiss pairing's minimum-cost perfect matching, and the Weng-Lin team ratings.
PURE_LIBRARIES = {"pairing": {"networkx"}, "ranking": {"openskill"}}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[str]:
    """Absolute names of every module imported by ``path`` (relative imports resolved)."""
    return _imports_of(path.read_text(), _module_name(path), package=path.name == "__init__.py",
                       filename=str(path))


def _imports_of(source: str, module: str, *, package: bool = False,
                filename: str = "<string>") -> list[str]:
    """Absolute names of every module imported by ``source``, the text of module ``module``
    (``package``: an ``__init__.py``), relative imports resolved."""
    package_name = module if package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package_name.split(".")
                prefix = ".".join(parts[: len(parts) - node.level + 1])
                target = f"{prefix}.{node.module}" if node.module else prefix
                found.append(target)
                if not node.module:
                    found += [f"{prefix}.{alias.name}" for alias in node.names]
            else:
                found.append(node.module or "")
                found += [f"{node.module}.{alias.name}" for alias in node.names]
    return found


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in LEVEL:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[_module_name(path)] = path
    return modules


MODULES = _project_modules()


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        graph[name] = {imported for imported in _imports(path) if imported in MODULES} - {name}
    return graph


def test_the_layers_cover_every_app() -> None:
    apps = {p.parent.name for p in ROOT.glob("*/apps.py")}
    assert apps <= set(LEVEL), f"apps without a layer: {apps - set(LEVEL)}"
    assert len(MODULES) > 100


def _upward_imports(name: str, imports: list[str]) -> list[str]:
    mine = LEVEL[name.split(".")[0]]
    upward = []
    for imported in imports:
        top = imported.split(".")[0]
        if top in LEVEL and LEVEL[top] > mine:
            upward.append(f"{name} imports {imported}")
    return upward


def test_no_module_imports_a_higher_layer() -> None:
    upward = [line for name, path in MODULES.items()
              for line in _upward_imports(name, _imports(path))]
    assert upward == []


def test_same_layer_packages_do_not_import_each_other() -> None:
    sideways = []
    for name, path in MODULES.items():
        mine = name.split(".")[0]
        for imported in _imports(path):
            top = imported.split(".")[0]
            if top in LEVEL and top != mine and LEVEL[top] == LEVEL[mine] and mine != "rules_engine":
                sideways.append(f"{name} imports {imported}")
    assert sideways == []


def test_there_is_no_import_cycle() -> None:
    graph = _graph()
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        raise AssertionError(f"import cycle: {' -> '.join(exc.args[1])}") from None


def test_pure_cores_import_only_the_standard_library_and_pure_libraries() -> None:
    offenders = []
    for name, path in MODULES.items():
        top = name.split(".")[0]
        if top not in PURE:
            continue
        for imported in _imports(path):
            first = imported.split(".")[0]
            allowed = PURE_LIBRARIES.get(top, set())
            if (first and first not in STDLIB and first not in PURE and first not in allowed
                    and first != "__future__"):
                offenders.append(f"{name} imports {imported}")
    assert offenders == []


def test_no_import_hides_behind_a_noqa_marker() -> None:
    hidden = [
        f"{name}:{number}"
        for name, path in MODULES.items()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "import" in line and "noqa: PLC0415" in line
    ]
    assert hidden == []


def test_the_checker_sees_an_upward_import() -> None:
    """The checker itself, on a module parsed in memory (parallel runners read the real
    modules): a low module importing a high one inside a function is reported; its import
    from its own package is not."""
    source = "from .models import Club\n\ndef late():\n    from draw.services import round_create\n"
    imported = _imports_of(source, "clubs._layer_probe")
    assert LEVEL["draw"] > LEVEL["clubs"]
    assert _upward_imports("clubs._layer_probe", imported) == [
        "clubs._layer_probe imports draw.services",
        "clubs._layer_probe imports draw.services.round_create",
    ]


def _is(name: str, kind: str) -> bool:
    """Whether module ``name`` is (or lies inside) a module called ``kind``: ``x.selectors``,
    ``x.services.event_results`` (a name imported from it)."""
    return kind in name.split(".")


def _selectors_importing_services(imports: dict[str, list[str]]) -> list[str]:
    return sorted(f"{name} imports {imported}"
                  for name, found in imports.items() if _is(name, "selectors")
                  for imported in found
                  if _is(imported, "services") and imported.split(".")[0] in LEVEL)


def test_selectors_never_import_services() -> None:
    """Reads live in selectors, writes in services (STYLE: "selectors never import services"):
    no ``*.selectors`` module imports any app's ``services``, at the top or inside a function,
    so a page that only reads can never reach a write."""
    imports = {name: _imports(path) for name, path in MODULES.items()}
    assert _selectors_importing_services(imports) == []


def test_the_selectors_check_sees_each_way_of_importing_a_service() -> None:
    """The check itself, on modules parsed in memory: a direct import, a relative one, a
    package-level ``import … as``, and one hidden inside a function are each reported; a
    service importing a selector and a selector importing a selector are not."""
    probes = {
        "draw.selectors": "from standings.services import standings_rebuild\n",
        "scoring.selectors": "from . import services\n",
        "league.selectors": "import archive.services as archiving\n",
        "profiles.selectors": "def late():\n    from .services import profile_update\n",
        "standings.services": "from .selectors import standings_compute\n",
        "archive.selectors": "from standings.selectors import standings_compute\n",
    }
    imports = {name: _imports_of(source, name) for name, source in probes.items()}
    assert _selectors_importing_services(imports) == [
        "draw.selectors imports standings.services",
        "draw.selectors imports standings.services.standings_rebuild",
        "league.selectors imports archive.services",
        "profiles.selectors imports profiles.services",
        "scoring.selectors imports scoring.services",
    ]
