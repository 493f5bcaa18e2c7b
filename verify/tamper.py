"""Tampered copies of an archive, to check the verifier against: each changes one stored value
the way a hand altering the file would, and says what the verifier must report.

``TAMPERINGS`` (name, change) are the three the issue's check names: one hand's points, one
placement, one seat. A change edits the parsed archive (a ``dict``, as ``json.load`` gives it)
in place and returns the text the verifier's report must contain (``Discrepancy.line()``), or
None when the archive has nothing it applies to (no hand played out, fewer than two different
places, a first round whose seats could only be swapped between partners). The conformance
corpus (``bench/conformance.py``) verifies a tampered copy of every event it plays with each;
the suite does so for its sample (``tests/verify/test_generated.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Change = Callable[[dict[str, Any]], str | None]


def hand_points(archive: dict[str, Any]) -> str | None:
    """The first hand played out (not deleted, not a misdeal) scores 10 more for its first side."""
    hand = next((h for h in archive["hands"] if not h["deleted_at"]
                 and h["revisions"][-1]["outcome"] == "played"), None)
    if hand is None:
        return None
    points = hand["revisions"][-1]["points"]
    points[next(iter(points))] += 10
    return "hand points at hands["


def placement(archive: dict[str, Any]) -> str | None:
    """The first placed and the first placed lower than them change places."""
    placements = archive["standings"]["placements"]
    if not placements:
        return None
    first = placements[0]
    other = next((p for p in placements if p["place"] != first["place"]), None)
    if other is None:
        return None
    key = "pair_id" if "pair_id" in first else "entry_id"
    if first.get(key) == other.get(key):
        return None
    first[key], other[key] = other[key], first[key]
    return f"placement {key} at standings.placements[0]"


def seat(archive: dict[str, Any]) -> str | None:
    """Two players of round 1 change places: the first seated, and the first seated at another
    table or across the table from them (round 1's draw reads nothing that could change
    later)."""
    seats = sorted((s for s in archive["seats"] if s["round"] == 1),
                   key=lambda s: (s["table"], s["position"]))
    if not seats:
        return None
    first = seats[0]
    other = next((s for s in seats if s["entry"] != first["entry"]
                  and (s["table"] != first["table"] or s["position"] in ("E", "W"))), None)
    if other is None:
        return None
    first["entry"], other["entry"] = other["entry"], first["entry"]
    return f"seat at round 1, table {first['table']}, seat {first['position']}"


TAMPERINGS: tuple[tuple[str, Change], ...] = (
    ("hand points", hand_points), ("placement", placement), ("seat", seat))

__all__ = ["TAMPERINGS", "Change", "hand_points", "placement", "seat"]
