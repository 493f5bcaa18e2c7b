"""The soak's report, pure arithmetic over what the run recorded (no network, no /proc).

Times are real monotonic seconds; the day runs ``pace`` times faster than a real one, so a
moment ``t`` is ``(t - t0) × pace / 3600`` hours of simulated play after the first game was
seated (``t0``). Everything is grouped by those hours:

* :func:`hour_of`, :func:`per_hour_requests` — per request kind and simulated hour: count,
  p50/p95/p99, errors (``bench.load.harness.summarise``);
* :func:`per_hour_visibility` — a hand saved (its 201) until each phone and wall showed
  standings that include it (``bench.load.harness.visibility``), for the hands saved in each
  hour;
* :func:`slope` — the least-squares slope of a series; :func:`memory_slopes` — per process, MB
  per simulated hour over the samples taken after the first game (the first game warms the
  caches, loads the code paths and fills the pools, so growth before it is expected);
* :func:`per_hour_gauges` — per hour the last memory sample of each process, the most
  connections and Redis clients seen, Redis's memory;
* :func:`report_text` — the tables printed at the end.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from bench.load.harness import Poll, Sample, percentile, summarise, visibility

SECONDS_PER_HOUR = 3600.0


def hour_of(t: float, t0: float, pace: float) -> float:
    """Simulated hours after ``t0`` at real time ``t``."""
    return (t - t0) * pace / SECONDS_PER_HOUR


def hours_spanned(t0: float, t1: float, pace: float) -> int:
    """How many (started) simulated hours the day from t0 to t1 covers (at least 1)."""
    return max(1, math.ceil(hour_of(t1, t0, pace)))


def slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope dy/dx of (x, y) points; None under two distinct x."""
    if len(points) < 2:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx


def memory_slopes(samples: Sequence[Mapping[str, Any]], after_hour: float,
                  key: str = "rss") -> dict[str, dict[str, float | int | None]]:
    """Per process: the slope (MB per simulated hour) of ``key`` ("rss" or "uss") over the
    samples at or after ``after_hour``, with its first and last value and the sample count."""
    series: dict[str, list[tuple[float, float]]] = {}
    for sample in samples:
        if sample["hour"] < after_hour:
            continue
        for name, value in sample[key].items():
            series.setdefault(name, []).append((sample["hour"], value))
    out: dict[str, dict[str, float | int | None]] = {}
    for name, points in series.items():
        rate = slope(points)
        out[name] = {"slope_mb_per_h": None if rate is None else round(rate, 3),
                     "first_mb": round(points[0][1], 1), "last_mb": round(points[-1][1], 1),
                     "max_mb": round(max(v for _, v in points), 1), "samples": len(points)}
    return out


def per_hour_requests(samples: Sequence[Sample], t0: float, pace: float, hours: int,
                      expected: dict[str, set[int]]) -> list[list[dict[str, Any]]]:
    """Per simulated hour, ``summarise`` of the requests started in it (rates per real
    second)."""
    buckets: list[list[Sample]] = [[] for _ in range(hours)]
    for sample in samples:
        hour = math.floor(hour_of(sample.started, t0, pace))
        if 0 <= hour < hours:
            buckets[hour].append(sample)
    seconds = SECONDS_PER_HOUR / pace
    return [[asdict(row) for row in summarise(bucket, seconds, expected)] for bucket in buckets]


def per_hour_visibility(submits: Sequence[float], polls: Sequence[Poll], t0: float, pace: float,
                        hours: int) -> list[dict[str, dict[str, Any]]]:
    """Per simulated hour, for the hands saved in it: seconds until each phone and each wall
    showed them (p50/p95/p99, how many seen and not seen before the end)."""
    buckets: list[list[float]] = [[] for _ in range(hours)]
    for t in submits:
        hour = math.floor(hour_of(t, t0, pace))
        if 0 <= hour < hours:
            buckets[hour].append(t)
    out = []
    for bucket in buckets:
        row: dict[str, dict[str, Any]] = {}
        for who in ("phone", "wall"):
            latencies, unseen = visibility(bucket, polls, who)
            row[who] = {f"p{q}_s": None if (v := percentile(latencies, q)) is None
                        else round(v, 3) for q in (50, 95, 99)}
            row[who].update(seen=len(latencies), unseen=unseen)
        out.append(row)
    return out


def per_hour_gauges(samples: Sequence[Mapping[str, Any]], hours: int) -> list[dict[str, Any]]:
    """Per simulated hour: each process's memory at the hour's last sample (RSS and USS, MB),
    the most PostgreSQL connections and Redis clients seen, Redis's used memory at its end."""
    out: list[dict[str, Any]] = []
    for hour in range(hours):
        inside = [s for s in samples if hour <= s["hour"] < hour + 1]
        if not inside:
            out.append({"hour": hour, "samples": 0})
            continue
        last = inside[-1]
        out.append({
            "hour": hour, "samples": len(inside),
            "rss_mb": {k: round(v, 1) for k, v in last["rss"].items()},
            "uss_mb": {k: round(v, 1) for k, v in last["uss"].items()},
            "pg_connections_max": max(s["pg_connections"] for s in inside),
            "pg_by_state": last.get("pg_by_state", {}),
            "redis_clients_max": max(s["redis_clients"] for s in inside),
            "redis_used_mb": round(last["redis_used_mb"], 2),
            "redis_keys": last.get("redis_keys"),
        })
    return out


def per_hour_cpu(samples: Sequence[Mapping[str, Any]], hours: int, hz: int,
                 cores_of_machine: int = 1) -> list[dict[str, Any]]:
    """Per simulated hour, between its first and last sample: each group's cores busy (CPU
    seconds over real seconds) and the share of the machine's CPU time the host stole."""
    out: list[dict[str, Any]] = []
    for hour in range(hours):
        inside = [s for s in samples if hour <= s["hour"] < hour + 1]
        if len(inside) < 2 or inside[-1]["t"] <= inside[0]["t"]:
            out.append({"hour": hour, "cores": {}, "steal_percent": 0.0})
            continue
        first, last = inside[0], inside[-1]
        wall = last["t"] - first["t"]
        cores = {group: round((last["ticks"][group] - first["ticks"][group]) / hz / wall, 2)
                 for group in last["ticks"] if group in first["ticks"]}
        total = last["cpu"][0] - first["cpu"][0]
        stolen = last["cpu"][1] - first["cpu"][1]
        row = {"hour": hour, "cores": cores,
               "steal_percent": round(100 * stolen / total, 1) if total > 0 else 0.0}
        if "cpu_idle" in first and "cpu_idle" in last and total > 0:
            # Everything the machine ran (ours and other work), in cores: the machine's busy
            # share of its CPU time (not idle, not stolen) times its cores.
            idle = last["cpu_idle"] - first["cpu_idle"]
            row["machine_busy_cores"] = round(cores_of_machine * (total - idle - stolen) / total,
                                              2)
        out.append(row)
    return out


# --- the text -------------------------------------------------------------------------------
def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _kind(rows: Sequence[Mapping[str, Any]], kind: str) -> Mapping[str, Any] | None:
    return next((r for r in rows if r["kind"] == kind), None)


LATENCY_KINDS = ("submit", "table status", "standings version", "push fragment", "check",
                 "table live")


def report_text(result: Mapping[str, Any]) -> str:
    """The per-hour tables and the verdicts."""
    lines = [f"== soak: {result['tables']} tables × {result['games']} games at "
             f"{result['pace']:g}× pace: {result['sim_hours']:.2f} simulated hours in "
             f"{result['real_seconds']:.0f} s ({result['devices']} devices) =="]
    head = f"{'hour':>4} {'hands':>6} {'reqs':>7} {'errors':>6}"
    for kind in LATENCY_KINDS:
        head += f" | {kind[:13]:>13} p50/p95"
    lines += ["latencies (ms) per simulated hour", head]
    for hour, rows in enumerate(result["requests_per_hour"]):
        submit = _kind(rows, "submit")
        line = (f"{hour:>4} {submit['ok'] if submit else 0:>6} "
                f"{sum(r['count'] for r in rows):>7} {sum(r['errors'] for r in rows):>6}")
        for kind in LATENCY_KINDS:
            row = _kind(rows, kind)
            text = "-" if row is None else f"{_ms(row['p50_ms'])}/{_ms(row['p95_ms'])}"
            line += f" | {text:>21}"
        lines.append(line)
    errors: dict[str, dict[str, int]] = {}
    for rows in result["requests_per_hour"]:
        for row in rows:
            if row["errors"]:
                mine = errors.setdefault(row["kind"], {})
                for status, n in row["statuses"].items():
                    if status not in ("200", "201", "304"):
                        mine[status] = mine.get(status, 0) + n
    if errors:
        lines.append(f"statuses of kinds with errors (0: no answer): {errors}")
    lines.append("hand saved -> shown (s), per simulated hour: phones p50/p95/p99 (seen, "
                 "unseen) | walls p50/p95/p99")
    for hour, vis in enumerate(result["visibility_per_hour"]):
        p, w = vis["phone"], vis["wall"]
        lines.append(f"{hour:>4}  {_s(p['p50_s'])}/{_s(p['p95_s'])}/{_s(p['p99_s'])} "
                     f"({p['seen']}, {p['unseen']}) | {_s(w['p50_s'])}/{_s(w['p95_s'])}/"
                     f"{_s(w['p99_s'])}")
    gauges = result["gauges_per_hour"]
    names = sorted({k for g in gauges for k in g.get("rss_mb", {})})
    lines.append("memory at the end of each simulated hour, RSS MB (private MB)")
    lines.append(f"{'process':<22}" + "".join(f"{h:>14}" for h in range(len(gauges)))
                 + f"{'slope MB/h':>12}{'(private)':>10}")
    slopes, private = result["memory_slopes"]["rss"], result["memory_slopes"]["uss"]
    for name in names:
        cells = "".join(
            f"{g['rss_mb'][name]:>7.1f} ({g['uss_mb'][name]:>4.0f})" if name in g.get("rss_mb", {})
            else f"{'-':>14}" for g in gauges)
        rate = slopes.get(name, {}).get("slope_mb_per_h")
        rate_p = private.get(name, {}).get("slope_mb_per_h")
        lines.append(f"{name:<22}{cells}{_slope(rate):>12}{_slope(rate_p):>10}")
    lines.append(f"{'pg connections (max)':<22}" + "".join(
        f"{g.get('pg_connections_max', '-'):>14}" for g in gauges))
    lines.append(f"{'redis clients (max)':<22}" + "".join(
        f"{g.get('redis_clients_max', '-'):>14}" for g in gauges))
    lines.append(f"{'redis used MB':<22}" + "".join(
        f"{g.get('redis_used_mb', '-'):>14}" for g in gauges))
    lines.append(f"{'redis keys':<22}" + "".join(
        f"{g.get('redis_keys', '-'):>14}" for g in gauges))
    restarts = {k: v for k, v in result.get("worker_restarts", {}).items() if v}
    if restarts:
        lines.append(f"gunicorn workers recycled (max_requests): {restarts}")
    cpu = result.get("cpu_per_hour")
    if cpu:
        lines.append("cores busy per simulated hour: " + "; ".join(
            f"{h}: " + " ".join(f"{k} {v:.2f}" for k, v in row["cores"].items())
            + (f", the whole machine {row['machine_busy_cores']:.2f}"
               if "machine_busy_cores" in row else "")
            + f" (steal {row['steal_percent']:.0f} %)" for h, row in enumerate(cpu)))
    push = result["push"]
    lines.append(f"push: {push['streams_max']} streams open at most of {push['readers']} "
                 f"readers; {push['messages']} standings and {push['wall_messages']} wall "
                 f"messages; regions shown from the message: {push.get('regions', 0)}; "
                 f"fragments fetched: {push['fragments_push']} from push, "
                 f"{push['fragments_site']} from the site; {push['reconnects']} reconnects")
    adv = result["advances"]
    if adv:
        waits = [a["seconds"] for a in adv]
        lines.append(f"automatic advance (last confirmation -> next game seated, or the last game closed; real s): "
                     f"median {_s(percentile(waits, 50))}, max {_s(max(waits))} over "
                     f"{len(waits)} advances")
    if result.get("steal_percent") is not None:
        lines.append(f"CPU stolen by the host over the day: {result['steal_percent']:.1f} % "
                     f"(/proc/stat steal); load average {result['load_average_before'][0]:.1f}"
                     f" before, {result['load_average_after'][0]:.1f} after")
    check = result["check"]
    lines.append(
        f"checksum: {'OK' if check['hands_ok'] else 'FAILED'}: {check['sent']} hands answered "
        f"2xx, {check['stored']} stored ({check['differences']}); sha256 sent "
        f"{check['sent_sha256'][:16]}…, stored {check['stored_sha256'][:16]}…")
    lines.append(
        f"standings: {'EQUAL' if check['standings_equal'] else 'DIFFERENT'} to the "
        f"recomputation from the hands (rules engine + ranking), {check['rows']} rows"
        + (f"; {check['standings_notes']}" if check["standings_notes"] else ""))
    if check.get("load_check") is not None:
        lc = check["load_check"]
        lines.append(f"bench/load/data.py check: {'OK' if lc['ok'] else 'FAILED'} "
                     f"(stored once with one revision; snapshot = standings_compute = "
                     f"recomputed games: {lc['standings_equal']})"
                     + (f"; {lc['problems']}" if lc["problems"] else ""))
    for note in check.get("notes", []):
        lines.append(f"  {note}")
    return "\n".join(lines)


def _slope(value: float | None) -> str:
    return "-" if value is None else f"{value:+.2f}"
