"""The pure parts of the load benchmark: no Django, no locust, no network.

* :func:`percentile` — linear interpolation between closest ranks (numpy's default);
* :func:`parse_proc_stat`, :class:`CpuGroup` — CPU seconds of a process tree from
  ``/proc/<pid>/stat`` (utime + stime + cutime + cstime of every live member, so a child that
  exits during the run is still counted through its parent's cutime/cstime), turned into
  "cores busy" over the measured wall time;
* :class:`Sample`, :func:`summarise` — per request kind: p50/p95/p99, bytes, rate, errors and
  the statuses a kind expects (a 409 for a hand already entered, a 400 for the check of a
  half-typed hand) counted apart;
* :class:`Poll`, :func:`visibility` — the end-to-end time from a hand's 201 to the moment each
  phone and wall shows standings that include it (see the function for the exact rule);
* :func:`report_text` — the table printed per run.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OK_STATUSES = range(200, 300)


# --- percentiles ----------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0–100) of ``values`` by linear interpolation between closest
    ranks; None for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} is not between 0 and 100")
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = math.ceil(rank)
    if low == high:
        return float(ordered[low])
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


# --- CPU from /proc -------------------------------------------------------------------------
@dataclass(frozen=True)
class ProcStat:
    pid: int
    ppid: int
    ticks: int  # utime + stime + cutime + cstime, in clock ticks


def parse_proc_stat(line: str) -> ProcStat:
    """One ``/proc/<pid>/stat`` line. The command name (field 2) is in parentheses and may hold
    spaces and parentheses itself, so the fields are counted from the last ``)``."""
    head, _, tail = line.rpartition(")")
    if not head or "(" not in head:
        raise ValueError(f"not a /proc/<pid>/stat line: {line[:80]!r}")
    pid = int(head.split("(", 1)[0])
    rest = tail.split()
    # rest[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
    ppid = int(rest[1])
    utime, stime, cutime, cstime = (int(x) for x in rest[11:15])
    return ProcStat(pid=pid, ppid=ppid, ticks=utime + stime + cutime + cstime)


def read_all_stats(proc: Path = Path("/proc")) -> dict[int, ProcStat]:
    """Every process's stat line that can still be read (processes come and go meanwhile)."""
    stats: dict[int, ProcStat] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stats[int(entry.name)] = parse_proc_stat((entry / "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue
    return stats


def tree_ticks(stats: dict[int, ProcStat], roots: Iterable[int]) -> int:
    """Clock ticks of the roots and all their live descendants."""
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    seen: set[int] = set()
    todo = [pid for pid in roots if pid in stats]
    total = 0
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += stats[pid].ticks
        todo.extend(children.get(pid, []))
    return total


@dataclass
class CpuGroup:
    """A named group of process trees (e.g. gunicorn: its master, whose workers are children)."""

    name: str
    roots: Callable[[], list[int]]
    before: int = 0
    after: int = 0

    def start(self, stats: dict[int, ProcStat]) -> None:
        self.before = tree_ticks(stats, self.roots())

    def stop(self, stats: dict[int, ProcStat]) -> None:
        self.after = tree_ticks(stats, self.roots())

    def seconds(self, hz: int) -> float:
        return max(0, self.after - self.before) / hz


def cpu_times(stat: Path = Path("/proc/stat")) -> tuple[int, int]:
    """(all CPU ticks, stolen ticks) of the machine so far, from the ``cpu`` line of
    /proc/stat: steal is time a virtual machine's CPUs waited for the host."""
    for line in stat.read_text().splitlines():
        if line.startswith("cpu "):
            values = [int(v) for v in line.split()[1:]]
            return sum(values[:8]), values[7] if len(values) > 7 else 0
    raise ValueError("no cpu line in /proc/stat")


def steal_profile(samples: list[tuple[int, int]]) -> dict[str, float | int] | None:
    """From ``cpu_times()`` read about once a second: the worst interval's share of CPU time
    the host stole (percent) and how many intervals lost more than a fifth. A run's average
    hides a host that takes the machine away for a second or two, which is enough to put
    every request of those seconds in the p95; these two say whether that happened."""
    shares = [100 * (s1 - s0) / (t1 - t0)
              for (t0, s0), (t1, s1) in zip(samples, samples[1:], strict=False) if t1 > t0]
    if not shares:
        return None
    return {"worst_percent": round(max(shares), 1),
            "seconds_over_20": sum(1 for share in shares if share > 20)}


def _steal_seconds(profile: dict[str, Any] | None) -> str:
    if not profile:
        return ""
    return (f"; worst second {profile['worst_percent']:.0f} %, "
            f"{profile['seconds_over_20']} seconds over 20 %")


def clock_ticks() -> int:
    return int(os.sysconf("SC_CLK_TCK"))


def cores_busy(cpu_seconds: float, wall_seconds: float) -> float:
    return cpu_seconds / wall_seconds if wall_seconds > 0 else 0.0


# --- requests -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sample:
    kind: str
    started: float  # monotonic seconds
    ms: float
    status: int  # 0: no answer (connection refused, reset, timeout)
    bytes: int


@dataclass
class KindSummary:
    kind: str
    count: int
    ok: int
    expected: int
    errors: int
    p50_ms: float | None
    p95_ms: float | None
    p99_ms: float | None
    bytes_mean: float
    rate: float
    statuses: dict[str, int] = field(default_factory=dict)


def classify(kind: str, status: int, expected: dict[str, set[int]]) -> str:
    """``ok`` (2xx, 304), ``expected`` (a status this kind expects, e.g. 409 for a submission
    of a hand already entered) or ``error`` (anything else, and no answer at all)."""
    if status in OK_STATUSES or status == 304:
        return "ok"
    if status in expected.get(kind, set()):
        return "expected"
    return "error"


def summarise(samples: Sequence[Sample], seconds: float,
              expected: dict[str, set[int]]) -> list[KindSummary]:
    by_kind: dict[str, list[Sample]] = {}
    for sample in samples:
        by_kind.setdefault(sample.kind, []).append(sample)
    out = []
    for kind in sorted(by_kind):
        rows = by_kind[kind]
        times = [s.ms for s in rows]
        verdicts = [classify(kind, s.status, expected) for s in rows]
        statuses: dict[str, int] = {}
        for s in rows:
            statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
        out.append(KindSummary(
            kind=kind, count=len(rows), ok=verdicts.count("ok"),
            expected=verdicts.count("expected"), errors=verdicts.count("error"),
            p50_ms=percentile(times, 50), p95_ms=percentile(times, 95),
            p99_ms=percentile(times, 99),
            bytes_mean=sum(s.bytes for s in rows) / len(rows),
            rate=len(rows) / seconds if seconds > 0 else 0.0, statuses=statuses,
        ))
    return out


# --- end-to-end visibility ------------------------------------------------------------------
@dataclass(frozen=True)
class Poll:
    """One look at the standings by one device: a version answer (polling), or a pushed status
    and the fragment fetched after it, with the versions it said."""

    who: str  # "phone:N", "wall:N" (one device each) or "probe"
    started: float
    ended: float  # when the device showed it (the fragment in hand, if it moved)
    hands_version: int
    source_version: int
    pushed: bool = False  # a pushed status: its hands_version was read before it arrived

    @property
    def group(self) -> str:
        return self.who.split(":", 1)[0]


def visibility(submitted: Sequence[float], polls: Sequence[Poll],
               group: str) -> tuple[list[float], int]:
    """Seconds from each hand's 201 (``submitted``: response times) until *each* device of
    ``group`` ("phone" or "wall") showed standings that include it, one figure per hand and
    device; and how many of those were never seen before the run ended.

    The event's ``hands_version`` that a hand's commit reached is not in its answer, so it is
    bounded from above: the first version answer (of any device, the probe polling every half
    second included; not a pushed status, composed earlier) that *started* after the 201 was
    answered reports a ``hands_version`` H
    that already counts the hand. A device shows the hand from its first look (ended after the
    201) whose ``source_version`` ≥ H; since the snapshot's ``source_version`` never overstates
    what its rows contain, those rows hold the hand. H may count a few later hands too, so the
    figure errs on the slow side, never fast.
    """
    all_polls = sorted((p for p in polls if not p.pushed), key=lambda p: p.started)
    starts = [p.started for p in all_polls]
    devices: dict[str, list[Poll]] = {}
    for poll in polls:
        if poll.group == group:
            devices.setdefault(poll.who, []).append(poll)
    looks = [sorted(v, key=lambda p: p.ended) for v in devices.values()]
    ends = [[p.ended for p in v] for v in looks]
    latencies: list[float] = []
    unseen = 0
    for t in submitted:
        i = bisect.bisect_right(starts, t)
        if i >= len(all_polls):
            unseen += len(looks)
            continue
        needed = all_polls[i].hands_version
        for mine, mine_ends in zip(looks, ends, strict=True):
            j = bisect.bisect_right(mine_ends, t)
            seen = next((mine[k].ended for k in range(j, len(mine))
                         if mine[k].source_version >= needed), None)
            if seen is None:
                unseen += 1
            else:
                latencies.append(seen - t)
    return latencies, unseen


# --- the report -----------------------------------------------------------------------------
def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def report_text(result: dict[str, Any]) -> str:
    """The human-readable table of one table count's result (the JSON's ``runs[i]``)."""
    revalidating = ", ".join(k for k, v in result.get("revalidate", {}).items() if v) or "none"
    lines = [
        f"== {result['tables']} tables, {result['seconds']:.0f} s "
        f"({result['users']} simulated devices, after a save: {result['after_save']}, "
        f"revalidating with ETags: {revalidating}) ==",
        *([f"layout: {result['layout']}"] if result.get("layout") else []),
        f"{'request':<18}{'count':>7}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}"
        f"{'bytes':>8}{'errors':>7}{'expected':>9}",
    ]
    total = 0
    for row in result["requests"]:
        total += row["count"]
        lines.append(
            f"{row['kind']:<18}{row['count']:>7}{row['rate']:>8.1f}{_ms(row['p50_ms']):>8}"
            f"{_ms(row['p95_ms']):>8}{_ms(row['p99_ms']):>8}{row['bytes_mean']:>8.0f}"
            f"{row['errors']:>7}{row['expected']:>9}"
        )
    lines.append(f"{'all':<18}{total:>7}{total / result['seconds']:>8.1f}")
    errors = {row["kind"]: row["statuses"] for row in result["requests"] if row["errors"]}
    if errors:
        lines.append(f"statuses of kinds with errors: {errors}")
    cpu = "  ".join(f"{name} {v['cores']:.2f}" for name, v in result["cpu"].items())
    lines.append(f"cores busy: {cpu}  (total {result['cpu_total_cores']:.2f} of "
                 f"{result['machine_cores']})")
    if result.get("steal_percent") is not None:
        lines.append(f"CPU stolen by the host (a virtual machine's CPUs waiting): "
                     f"{result['steal_percent']:.1f} % of the machine's CPU time"
                     + _steal_seconds(result.get("steal_seconds")))
    if "load_average_before" in result:
        lines.append(
            f"machine load (1-min average): {result['load_average_before'][0]:.1f} before, "
            f"{result['load_average_after'][0]:.1f} after; well above the cores busy here "
            "means other work shared the machine and the times above include its waits"
        )
    push = result.get("push")
    if push is not None:
        lines.append(
            f"push: {'on' if push['on'] else 'off (pages poll)'}; streams open "
            f"{push['streams']} of {push['readers']} readers, {push['messages']} messages, "
            f"{push['reconnects']} reconnects"
            + (f"; {push['regions']} carried the page's region (inline, "
               f"{push['region_bytes'] / max(1, push['regions']) / 1024:.1f} KB each as base64)"
               if push.get("regions") else "; regions not inline" if push.get("inline") is False
               else ""))
    cached = result.get("microcache")
    if cached is not None:
        overall = cached["all"]
        lines.append(
            f"micro-cache: {overall['requests']} answers, served from the cache "
            f"{_share(overall['hit_rate'])} (of the cacheable {_share(overall['hit_rate_cacheable'])})"
            f"; {overall['statuses']}")
        for kind, row in list(cached["kinds"].items())[:8]:
            lines.append(f"  {kind:<44}{row['requests']:>7}  from cache "
                         f"{_share(row['hit_rate']):>6}  {row['statuses']}")
    for who, label in (("phone", "every standings phone"), ("wall", "the wall")):
        vis = result["visibility"][who]
        lines.append(
            f"201 -> {label} shows it: p50 {_s(vis['p50_s'])}  p95 {_s(vis['p95_s'])}  "
            f"p99 {_s(vis.get('p99_s'))}  (seen {vis['seen']}, not before the end "
            f"{vis['unseen']})"
        )
        for phase, words in (("bunch", "stored in the round-end bunch"),
                             ("outside", "stored outside it")):
            part = vis.get(phase)
            if part:
                span = f", {part['seen']} looks over {part['seconds']} s" if "seen" in part else ""
                lines.append(f"   {words}: p50 {_s(part['p50_s'])}  p95 {_s(part['p95_s'])}  "
                             f"p99 {_s(part['p99_s'])}{span}")
    crowd = result.get("spectators")
    if crowd:
        vis, rss = crowd["visibility"], crowd["push_rss_mb"]
        lines.append(
            f"spectators: {crowd['opened']} of {crowd['streams']} streams opened in "
            f"{crowd['open_seconds']:.0f} s, {crowd['open_at_end']} open at the end, "
            f"{crowd['drops']} drops; a message every {crowd['gap_s']['p50']} s (p50, "
            f"shortest {crowd['gap_s']['p0']} s), {crowd['messages_per_stream_per_s']} a "
            f"second each, {crowd['mb_received_per_s']} MB/s received in all; one message "
            f"reached all of them within {crowd['fan_out_s']['p50']} s (p50, p95 "
            f"{crowd['fan_out_s']['p95']} s)")
        lines.append(
            f"201 -> every spectator shows it: p50 {_s(vis['p50_s'])}  p95 {_s(vis['p95_s'])}"
            f"  p99 {_s(vis['p99_s'])}  (seen {vis['seen']}, not before the end "
            f"{vis['unseen']})")
        lines.append(
            f"push process RSS {rss['before']} MB before, {rss['open']} MB with the streams "
            f"open, {rss['end']} MB at the end: {crowd['kb_per_stream']} KB a stream "
            f"({crowd['kb_per_stream_end']} KB at the end)")
    if result.get("chaos"):
        lines.append("chaos: " + ", ".join(f"{c['what']} at {c['at_s']:.0f} s"
                                           for c in result["chaos"]))
    check = result.get("checksum")
    if check:
        lines.append(
            f"checksum: {'OK' if check['ok'] else 'FAILED'} — hands answered 2xx "
            f"{check['answered']}, stored {check['stored_hands']} with {check['revisions']} "
            f"revisions; standings snapshot equals recomputation: {check['standings_equal']}"
            + (f"; problems: {check['problems']}" if check["problems"] else "")
        )
    return "\n".join(lines)


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f} %"


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


# --- pages --------------------------------------------------------------------------------
def tag_attribute(html: str, element_id: str, attribute: str) -> str | None:
    """An attribute of the element with ``id=element_id`` in a page (what the page's script
    reads from the DOM, e.g. the version a live region shows)."""
    tag = re.search(r'<[a-zA-Z][^>]*\bid="' + re.escape(element_id) + r'"[^>]*>', html)
    if tag is None:
        return None
    found = re.search(r'\b' + re.escape(attribute) + r'="([^"]*)"', tag.group(0))
    return found.group(1) if found else None


def work_done(work: Path, *, keep: bool) -> None:
    """A bench run's working directory: kept (and said where) with ``--keep``, else removed."""
    if keep:
        print(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


def run_summary(command: str, started: float, json_path: Path | None,
                **results: object) -> dict[str, object]:
    """What a bench run ends with: its command, its seconds since ``started`` (monotonic) and
    its ``results``, written to ``json_path`` when one was given; prints where and the time."""
    summary: dict[str, object] = {"command": command,
                                  "total_seconds": round(time.monotonic() - started, 1),
                                  **results}
    if json_path:
        json_path.write_text(json.dumps(summary, indent=2))
        print(f"results written to {json_path}")
    print(f"done in {summary['total_seconds']:.0f} s")
    return summary
