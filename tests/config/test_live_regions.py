"""One way for a page to keep itself current: static/js/live.js. No other script opens a push
stream, and no script that fetches runs a timer of its own unless the line says why it is not a
poll (a debounce, a pause, a wall's page turner). Offline hand entry is not a live region."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "static" / "js"
HELPER = "live.js"
# Offline hand entry keeps its own queue and its own retry (not a live region); the service
# worker has no page.
OFFLINE = {"offline_queue.js", "table_offline.js", "sw.js"}
TIMER = re.compile(r"\b(setTimeout|setInterval)\s*\(")


def _scripts() -> dict[str, str]:
    return {path.name: path.read_text() for path in sorted(JS.glob("*.js"))}


def test_only_the_helper_opens_a_push_stream() -> None:
    opening = [name for name, text in _scripts().items()
               if "new EventSource" in text and name != HELPER]
    assert opening == []
    assert "new EventSource" in _scripts()[HELPER]


def test_no_page_script_polls_on_a_timer_of_its_own() -> None:
    polling = []
    for name, text in _scripts().items():
        if name == HELPER or name in OFFLINE or "fetch(" not in text:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if TIMER.search(line) and "not a poll" not in line and "clearTimeout" not in line:
                polling.append(f"{name}:{number}: {line.strip()}")
    assert polling == [], "a timer in a script that fetches: use Live.every / Live.watch"


def test_every_page_that_loads_a_live_script_loads_the_helper_first() -> None:
    templates = Path(__file__).resolve().parents[2] / "templates"
    users = {name for name, text in _scripts().items() if "window.Live" in text} - {HELPER}
    assert len(users) >= 8
    for path in templates.rglob("*.html"):
        text = path.read_text()
        for name in users:
            at = text.find(f"js/{name}'")
            if at >= 0:
                helper = text.find(f"js/{HELPER}'")
                assert 0 <= helper < at, f"{path.name} loads {name} without live.js before it"
