"""What the devices saw through an outage (``bench/load/twonodes.py``), from the load
generator's timelines (``generate.py``: each phone's saves answered 2xx, each reader's pushed
messages and streams) and nginx's upstream log. Pure functions, tested in
``tests/bench/test_twonodes.py``."""

from __future__ import annotations

from pathlib import Path

from bench.load.harness import percentile
from bench.load.netns import Node


def spread(values: list[float]) -> dict[str, float | int | None]:
    """p50, p95 and max of ``values`` (seconds, two decimals), and how many."""
    def rounded(v: float | None) -> float | None:
        return None if v is None else round(v, 2)

    return {"p50": rounded(percentile(values, 50)), "p95": rounded(percentile(values, 95)),
            "max": rounded(max(values)) if values else None, "of": len(values)}


def longest_gaps(timelines: dict[str, list[float]], start: float, stop: float,
                 from_start: bool = True) -> dict[str, float]:
    """Per device, the longest time without an event within [start, stop]: between two events,
    and (``from_start``) from the window's start to the first; a device with no event in the
    window saw the whole window as its gap."""
    gaps = {}
    for device, times in timelines.items():
        inside = sorted(t for t in times if start <= t <= stop)
        if not inside:
            gaps[device] = stop - start
            continue
        points = [start, *inside] if from_start else inside
        gaps[device] = max((b - a for a, b in zip(points, points[1:], strict=False)),
                           default=0.0)
    return gaps


def gaps_across(timelines: dict[str, list[float]], at: float, stop: float) -> dict[str, float]:
    """Per device, the gap that spans the moment ``at``: from its last event before it to its
    first after it (``stop`` when none came); devices with no event before ``at`` are left
    out."""
    gaps = {}
    for device, times in timelines.items():
        before = [t for t in times if t < at]
        if not before:
            continue
        after = [t for t in times if at <= t <= stop]
        gaps[device] = (min(after) if after else stop) - max(before)
    return gaps


def reconnect_times(streams: dict[str, list[list[float | None]]], start: float, stop: float
                    ) -> tuple[list[float], int]:
    """Seconds from each stream that closed within the window until the same reader's next
    stream opened; and how many closed and never came back."""
    took: list[float] = []
    never = 0
    for spans in streams.values():
        ordered = sorted(spans, key=lambda span: float(span[0] or 0))
        for i, (_, closed) in enumerate(ordered):
            if closed is None or not start <= closed <= stop:
                continue
            later = [float(s[0]) for s in ordered[i + 1:] if s[0] is not None]
            if later:
                took.append(later[0] - closed)
            else:
                never += 1
    return took, never


def served_by(log: Path, nodes: list[Node], kill_wall: float) -> dict[str, dict[str, int]]:
    """From nginx's upstream log: answers per node before and after the kill (an answer that
    tried node 1 and then node 2 lists both: it counts for each, and once as tried on the
    other node), and 502s. A line is written when its answer ends, so the push streams (each
    one long answer) are counted apart, per node, as they ended."""
    out = {f"node {n.number}": {"before": 0, "after": 0} for n in nodes}
    out.update({f"streams ended on node {n.number}": {"before": 0, "after": 0} for n in nodes})
    out["tried on the other node"] = {"before": 0, "after": 0}
    out["502"] = {"before": 0, "after": 0}
    by_address = {n.address: f"node {n.number}" for n in nodes}
    if not log.exists():
        return out
    for line in log.read_text(errors="replace").splitlines():
        parts = line.split("|")
        if len(parts) < 3:
            continue
        try:
            when = "before" if float(parts[0]) < kill_wall else "after"
        except ValueError:
            continue
        stream = len(parts) > 4 and parts[4].startswith("/push/events/")
        for upstream in parts[1].replace(",", " ").split():
            node = by_address.get(upstream.rsplit(":", 1)[0])
            if node is not None:
                out[f"streams ended on {node}" if stream else node][when] += 1
        if "," in parts[1]:
            out["tried on the other node"][when] += 1
        if parts[2] == "502":
            out["502"][when] += 1
    return out
