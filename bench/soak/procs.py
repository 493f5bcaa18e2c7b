"""Memory of the stack's processes from /proc, and stable names for processes that come and go.

* :func:`parse_smaps_rollup` — ``/proc/<pid>/smaps_rollup`` (kB fields): RSS counts the pages
  a process shares (PostgreSQL's shared buffers in every backend that touched them), so the
  private pages (``Private_Clean + Private_Dirty``, the USS) are what a leak grows;
* :func:`memory_mb` — (RSS, USS) in MB of one process, None when it is gone or unreadable;
* :func:`group_ticks` — the CPU of each group of processes;
* :class:`Slots` — gunicorn recycles a worker after ``max_requests`` (``gunicorn.conf.py``) and
  its replacement has a new pid: a slot keeps the name ("gunicorn worker 2") and counts the
  restarts, so each worker's series stays one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bench.load.harness import ProcStat, tree_ticks


def group_ticks(stats: dict[int, ProcStat], roots: dict[str, list[int]]) -> dict[str, int]:
    """Clock ticks per group: each server's process tree; the generator's own process alone
    (the stack's servers are its children, counted in their own groups)."""
    return {group: sum(stats[pid].ticks for pid in pids if pid in stats)
            if group == "generator" else tree_ticks(stats, pids)
            for group, pids in roots.items()}


def parse_smaps_rollup(text: str) -> dict[str, int]:
    """The ``Name: value kB`` lines of smaps_rollup (or status) as {name: kB}."""
    fields: dict[str, int] = {}
    for line in text.splitlines():
        name, sep, rest = line.partition(":")
        parts = rest.split()
        if sep and len(parts) == 2 and parts[1] == "kB" and parts[0].isdigit():
            fields[name.strip()] = int(parts[0])
    return fields


def memory_mb(pid: int, proc: Path = Path("/proc")) -> tuple[float, float] | None:
    """(RSS, USS) of a process in MB, from smaps_rollup (else RSS from status, USS = RSS)."""
    try:
        rollup = parse_smaps_rollup((proc / str(pid) / "smaps_rollup").read_text())
    except OSError:
        rollup = {}
    if "Rss" in rollup:
        private = rollup.get("Private_Clean", 0) + rollup.get("Private_Dirty", 0)
        return rollup["Rss"] / 1024, private / 1024
    try:
        status = parse_smaps_rollup((proc / str(pid) / "status").read_text())
    except OSError:
        return None
    if "VmRSS" not in status:
        return None
    return status["VmRSS"] / 1024, status["VmRSS"] / 1024


def children_of(stats: dict[int, ProcStat], pid: int) -> list[int]:
    return sorted(s.pid for s in stats.values() if s.ppid == pid)


@dataclass
class Slots:
    """Stable names for a changing set of pids: a new pid takes the lowest free slot (one whose
    pid is gone); each slot counts how many times its pid changed."""

    prefix: str
    pids: dict[int, int | None] = field(default_factory=dict)  # slot -> pid (None: free)
    restarts: dict[int, int] = field(default_factory=dict)

    def assign(self, live: Iterable[int]) -> dict[str, int]:
        """{name: pid} for the live pids, keeping each known pid in its slot."""
        live = sorted(set(live))
        for slot, pid in self.pids.items():
            if pid is not None and pid not in live:
                self.pids[slot] = None
        known = {pid for pid in self.pids.values() if pid is not None}
        for pid in live:
            if pid in known:
                continue
            free = sorted(slot for slot, held in self.pids.items() if held is None)
            if free:
                slot = free[0]
                self.restarts[slot] = self.restarts.get(slot, 0) + 1
            else:
                slot = len(self.pids) + 1
                self.restarts.setdefault(slot, 0)
            self.pids[slot] = pid
        return {f"{self.prefix} {slot}": pid for slot, pid in sorted(self.pids.items())
                if pid is not None}

    def restarted(self) -> dict[str, int]:
        return {f"{self.prefix} {slot}": n for slot, n in sorted(self.restarts.items())}
