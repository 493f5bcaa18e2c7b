"""A table's shape comes from the ruleset: outside the pure packages no module, template or
script names the seats or sides of a four-player table. They ask the rules engine (a ruleset's
``seats_for``, ``sides_for``, ``side_of``, ``seats_of``; ``common.rulesets.table_seats``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The pure packages own the game's vocabulary; tests, benches and migrations may name seats.
SKIPPED = {"rules_engine", "pairing", "ranking", "formats", "verify", "tests", "bench", ".venv",
           "staticfiles", "test-output", "node_modules"}

# A seat or side of a four-player table written out: "NS" / "EW" as a string, a side read by
# name in a template (totals.NS), two seat letters in one literal sequence or map ("N", "E"),
# the letters NESW in one string, or a seat or side compared with one of them.
PATTERNS = [
    re.compile(r"""(["'])(NS|EW)\1"""),
    re.compile(r"""\.(NS|EW)\b"""),
    re.compile(r"""(["'])[NESW]\1\s*[,:]\s*(["'])[NESW]\2"""),
    re.compile(r"""(["'])NESW\1|(["'])NS\2|in\s+(["'])(NS|EW)\3"""),
    re.compile(r"""[=!]=\s*(["'])[NESW]{1,2}\1"""),
    re.compile(r"""\b(Seat\.[NESW]|Side\.(NS|EW))\b"""),
    re.compile(r"""\bN[ ,·]+E[ ,·]+S[ ,·]+(or )?W\b"""),
]


def _four_seat_literals() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if (path.suffix not in {".py", ".html", ".js", ".sh"} or rel.parts[0] in SKIPPED
                or "migrations" in rel.parts or "vendor" in rel.parts):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if any(p.search(line) for p in PATTERNS):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_no_layer_outside_the_pure_packages_assumes_four_seats() -> None:
    assert _four_seat_literals() == []


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    samples = ['side = "NS"', "{{ totals.EW }}", 'for p in ("N", "E", "S", "W")',
               'PARTNER = {"N": "S"}', 'for position in "NESW"', 'if seat == "N":',
               "Side.NS", 'x in "NS"', "Players (N · E · S · W)", "N, E, S or W"]
    for sample in samples:
        assert any(p.search(sample) for p in PATTERNS), sample
    for innocent in ['"NSW"', "North", 'name="N"ame', "f'{side}'", "NS_PER_SECOND"]:
        assert not any(p.search(innocent) for p in PATTERNS), innocent
