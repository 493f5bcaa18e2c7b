"""A Saturday night on one machine: many events at once against the production stack.

``.venv/bin/python -m bench.load.night --events 60 --tables 320`` starts the stack as
``bench/load/run.py`` does (``bench/load/stack.py``: PostgreSQL with fsync, Redis, gunicorn,
the push process, a Celery worker and beat, on 127.0.0.1 only) and, for each table count of
``--tables``, sets up a night (``bench/load/data.py night``): one championship (a fifth of
the tables) whose game goes on through the window, and club nights and progressive days (every
tenth) of 2–12 tables whose game ends after the deals that fill ``--round-end`` of the window;
their last hands in, the other side of every such table confirms within ``--round-end-spread``
seconds of the same moment (the rounds end on the hour: every event's round confirmations, the
ratings and the automatic advances land together). The room of each event is the bench's room
(``bench/load/generate.py``): a scorer phone per table, three standings phones per table
holding their push stream, a standings wall and a seating wall per event. Hands are dated by a
probe reading every event's hands counter from the site's Redis cache four times a second
(not one HTTP probe per event, which at 60 events would be a fifth of the requests).

Printed per table count (``--json FILE`` writes it too): what ``run.py`` prints (per request
kind p50/p95/p99 and errors, the CPU of every process group, the time from a save's 201 until
every standings phone and wall of its event showed it), and what grows with the number of
events, before and after the window and per table: standings runs and publications (the
worker's log), snapshots written (their versions), push streams, Redis keys and clients,
PostgreSQL connections. Then every event's hands and standings are checked as ``run.py`` checks
its one event (``data.py check-night``). Exit status 1 when a check fails.

Stepping the table count finds the knee: ``--tables 128,192,256,320`` with ``--events`` scaled
to the same mix (``--events 24,36,48,60``, or one number for every step).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.load.harness import (  # noqa: E402
    CpuGroup,
    percentile,
    report_text,
    run_summary,
    steal_profile,
    visibility,
    work_done,
)
from bench.load.run import (  # noqa: E402
    GROUPS,
    LOAD_PYTHON,
    _measure,
    data_script,
    result_of,
    revalidating,
    stack_layout,
)
from bench.load.stack import DB, HOST, Stack  # noqa: E402

TASKS = ("compute_standings", "compute_pending_standings", "publish_standings", "rate_game",
         "rate_pending", "round_confirmed", "seat_round")
# The standings tasks: one event's run, and one run for every event pending (it returns the ids
# it served, which the worker's log prints).
STANDINGS_TASKS = ("compute_standings", "compute_pending_standings")
# The site's cache key of an event's count of standings computations (standings.services,
# REBUILDS_KEY), as Django's cache writes it (no prefix, version 1).
REBUILDS_KEY = ":1:standings:rebuilds:{event_id}"
# The sizes the night's events are grouped by when the work per hand is reported.
SIZES = ((2, 4), (5, 8), (9, 12))
# Hands stored from the first confirmation of the round end to this many seconds after the
# last are reported apart (the bunch), beside the rest of the window.
BUNCH_TAIL = 5.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.load.night",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", default="320", help="table counts, comma-separated (320)")
    p.add_argument("--events", default="60",
                   help="events of each table count: one number, or one per count (60)")
    p.add_argument("--seconds", type=float, default=60.0, help="measured seconds (60)")
    p.add_argument("--round-end", type=float, default=0.8,
                   help="where in the window the ending events' rounds end (0.8)")
    p.add_argument("--round-end-spread", type=float, default=3.0,
                   help="seconds over which their confirmations come (3)")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument("--standings-phones", type=int, default=3)
    p.add_argument("--submit-every", type=float, default=10.0)
    p.add_argument("--http-probe", action="store_true",
                   help="date the hands with an HTTP version poll per event every 0.5 s (as "
                        "run.py does for its one event) instead of the Redis probe")
    p.add_argument("--json", type=Path)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--keep", action="store_true")
    args = p.parse_args(argv)
    try:
        args.table_counts = [int(x) for x in args.tables.split(",") if x.strip()]
        counts = [int(x) for x in args.events.split(",") if x.strip()]
    except ValueError:
        p.error("--tables and --events: whole numbers separated by commas")
    if len(counts) == 1:
        counts *= len(args.table_counts)
    if len(counts) != len(args.table_counts):
        p.error("--events: one number, or one per table count")
    args.event_counts = counts
    for tables, events in zip(args.table_counts, counts, strict=True):
        if events < 2 or tables < 8 + 2 * (events - 1):
            p.error(f"{events} events need at least {8 + 2 * (events - 1)} tables")
    if not 20 <= args.seconds <= 600:
        p.error("--seconds: from 20 to 600")
    args.deals_end = max(1, int(args.seconds * args.round_end // args.submit_every))
    args.deals_long = int(args.seconds // args.submit_every) + 3
    return args


# --- what grows with the events -------------------------------------------------------------
def sample_growth(stack: Stack, event_ids: list[int]) -> dict[str, Any]:
    """Snapshots, connections, keys and streams at one moment (PostgreSQL and Redis asked
    directly, the push process by its health answer)."""
    import psycopg
    import redis

    with psycopg.connect(host=HOST, port=stack.pg_port, user=DB, dbname=DB) as conn:
        connections = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> "
            "pg_backend_pid()", (DB,)).fetchone()
        snapshots = conn.execute(
            "SELECT count(*), coalesce(sum(version), 0) FROM scoring_standingssnapshot "
            "WHERE event_id = ANY(%s)", (event_ids,)).fetchone()
        versions = dict(conn.execute(
            "SELECT event_id, version FROM scoring_standingssnapshot WHERE event_id = ANY(%s)",
            (event_ids,)).fetchall())
    client = redis.Redis(host=HOST, port=stack.redis_port)
    try:
        info = client.info()
        keys = int(client.dbsize())
        standings_keys = sum(1 for _ in client.scan_iter(match="*standings*", count=1000))
        push_keys = sum(1 for _ in client.scan_iter(match="push:*", count=1000))
        counted = client.mget([REBUILDS_KEY.format(event_id=pk) for pk in event_ids])
    finally:
        client.close()
    streams = None
    if stack.push:
        try:
            with urllib.request.urlopen(f"{stack.push_base}health/", timeout=5) as answer:  # noqa: S310
                streams = json.loads(answer.read())["streams"]
        except OSError:
            pass
    assert connections is not None and snapshots is not None
    return {"pg_connections": int(connections[0]), "snapshots": int(snapshots[0]),
            "snapshot_versions": int(snapshots[1]), "redis_keys": keys,
            "redis_standings_keys": standings_keys, "redis_push_keys": push_keys,
            "redis_clients": int(info["connected_clients"]),
            "redis_memory_mb": round(int(info["used_memory"]) / 2**20, 1),
            "push_streams": streams,
            "per_event": {pk: {"version": int(versions.get(pk, 0)), "computed": int(n or 0)}
                          for pk, n in zip(event_ids, counted, strict=True)}}


def worker_tasks(log: bytes) -> dict[str, int]:
    """Task runs the worker logged as succeeded, by task name (``TASKS``)."""
    found = re.findall(rb"Task [a-z_.]+\.([a-z_]+)\[[^\]]*\] succeeded", log)
    return {name: sum(1 for f in found if f.decode() == name) for name in TASKS}


def task_shares(log: bytes) -> dict[int, float]:
    """Each event's share of the standings task runs the worker logged: a run of
    ``compute_pending_standings`` that served k events counts 1/k to each (its answer, the
    ids served, is in the log line); a ``compute_standings`` run is not attributed (its answer
    is a version), so it is counted from the events' own counters instead (``by_size``)."""
    shares: dict[int, float] = {}
    for served in re.findall(
            rb"Task [a-z_.]+\.compute_pending_standings\[[^\]]*\] succeeded in [0-9.]+s: "
            rb"\[([0-9, ]*)\]", log):
        ids = [int(x) for x in served.split(b",") if x.strip()]
        for pk in ids:
            shares[pk] = shares.get(pk, 0.0) + 1 / len(ids)
    return shares


def by_size(rooms: list[dict[str, Any]], start: dict[str, Any], stop: dict[str, Any],
            hands: dict[int, int], shares: dict[int, float], single_runs: int) -> list[dict[str, Any]]:
    """Per size of event (2–4, 5–8, 9–12 tables, and the championship): its hands in the window,
    and per hand the standings computations (the events' own counters), the snapshots written
    and the worker's standings task runs (a batch run shared between the events it served;
    with one run per event, every computation is one run)."""
    groups: list[tuple[str, list[dict[str, Any]]]] = [
        (f"{lo}–{hi} tables", [r for r in rooms if r["ends"] and lo <= r["tables"] <= hi])
        for lo, hi in SIZES]
    groups.append(("championship", [r for r in rooms if not r["ends"]]))
    out = []
    for label, members in groups:
        if not members:
            continue
        ids = [r["event"] for r in members]
        n = sum(hands.get(pk, 0) for pk in ids)
        computed = sum(stop["per_event"][pk]["computed"] - start["per_event"][pk]["computed"]
                       for pk in ids)
        written = sum(stop["per_event"][pk]["version"] - start["per_event"][pk]["version"]
                      for pk in ids)
        runs = sum(shares.get(pk, 0.0) for pk in ids) if not single_runs else computed
        out.append({"events": label, "count": len(ids), "tables": sum(r["tables"] for r in members),
                    "hands": n, "computations_per_hand": round(computed / max(n, 1), 3),
                    "snapshots_per_hand": round(written / max(n, 1), 3),
                    "task_runs_per_hand": round(runs / max(n, 1), 3)})
    return out


# --- one night ------------------------------------------------------------------------------
def run_night(stack: Stack, args: argparse.Namespace, tables: int, events: int,
              work: Path) -> dict[str, Any]:
    night = data_script(stack, "night", "--events", str(events), "--tables", str(tables),
                        "--deals-end", str(args.deals_end), "--deals-long",
                        str(args.deals_long), "--seed", str(args.seed))
    time.sleep(3)  # the seatings' own tasks settle
    rooms = night["events"]
    event_ids = [room["event"] for room in rooms]
    plan = {
        "base_url": stack.base_url, "events": rooms, "preset": night["preset"],
        "event": event_ids[0], "tokens": [], "overrides": rooms[0]["overrides"],
        "seconds": args.seconds, "submit_every": args.submit_every, "state_every": 5.0,
        "standings_every": 3.0, "seating_every": 5.0,
        "standings_phones": args.standings_phones, "checks_per_hand": 0,
        "after_save": "live", "revalidate": revalidating("auto"), "inline": True,
        "seed": args.seed, "round_end_at": args.seconds * args.round_end,
        "round_end_spread": args.round_end_spread,
        **({} if args.http_probe else {"redis": {"host": HOST, "port": stack.redis_port}}),
    }
    plan_file, out_file = work / f"plan-{tables}.json", work / f"out-{tables}.json"
    plan_file.write_text(json.dumps(plan))
    load_before = os.getloadavg()
    worker_log = stack.dir / "worker.log"
    marks: dict[str, Any] = {}

    def at(name: str) -> None:
        marks[name] = sample_growth(stack, event_ids)
        marks[name + "_log"] = worker_log.stat().st_size

    generator = subprocess.Popen(
        [str(LOAD_PYTHON), str(ROOT / "bench" / "load" / "generate.py"), str(plan_file),
         str(out_file)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    roots = {name: (lambda n=name: stack.roots(n)) for name in GROUPS if name != "generator"}
    roots["generator"] = lambda: [generator.pid]
    groups = [CpuGroup(name, roots[name]) for name in GROUPS]
    steal: list[tuple[int, int]] = []
    try:
        wall = _measure(generator, groups, steal, lambda: at("start"), lambda: at("stop"))
        generator.wait(timeout=180)
    finally:
        if generator.poll() is None:
            generator.kill()
            generator.wait()
    if generator.returncode != 0:
        raise RuntimeError(f"the load generator exited with status {generator.returncode}")
    out = json.loads(out_file.read_text())
    sent = work / f"sent-{tables}.json"
    sent.write_text(json.dumps({"answered": out["answered"], "unanswered": out["unanswered"]}))
    checksum = data_script(stack, "check-night", "--events", ",".join(map(str, event_ids)),
                           "--answered", str(sent), "--wait", "90")
    args.after_save, args.push, args.inline = "live", "on", "on"
    # (run.py's visibility pools the devices of one event: each night's event is done apart)
    result = result_of(args, tables, {**out, "submits": []}, groups, wall, checksum, plan)
    result["saves_201"] = len(out["submits"])
    # Each hand is seen by the devices of its own event: visibility per event, pooled.
    by_event = _visibility_by_event(out)
    result["visibility"] = by_event
    result["bunch_requests"] = _bunch_requests(out)
    result["layout"] = stack_layout(stack)
    (total0, stolen0), (total1, stolen1) = steal[0], steal[-1]
    result["steal_percent"] = round(100 * (stolen1 - stolen0) / max(total1 - total0, 1), 1)
    result["steal_seconds"] = steal_profile(steal)
    result["load_average_before"] = load_before
    with worker_log.open("rb") as log:
        log.seek(marks["start_log"])
        window = log.read(marks["stop_log"] - marks["start_log"])
    tasks = worker_tasks(window)
    result["growth"] = growth(marks["start"], marks["stop"], tasks, wall, tables,
                              len(out["submits"]))
    hands_of: dict[int, int] = {}
    for event in out["submit_events"]:
        hands_of[event] = hands_of.get(event, 0) + 1
    result["growth"]["by_size"] = by_size(rooms, marks["start"], marks["stop"], hands_of,
                                          task_shares(window), tasks["compute_standings"])
    result["growth"]["worker_cpu_ms_per_hand"] = round(
        1000 * result["cpu"]["worker"]["seconds"] / max(len(out["submits"]), 1), 2)
    result["night"] = {"events": events, "kinds": _kinds(rooms),
                       "confirmed": len(out["confirmed"]),
                       "confirm_spread_s": _spread(out["confirmed"]),
                       "ending_tables": sum(r["tables"] for r in rooms if r["ends"])}
    return result


def _visibility_by_event(out: dict[str, Any]) -> dict[str, Any]:
    from bench.load.harness import Poll

    polls: dict[int, list[Poll]] = {}
    for w, s, e, h, v, pu, event in out["polls"]:
        polls.setdefault(event, []).append(Poll(who=w, started=s, ended=e, hands_version=h,
                                                source_version=v, pushed=pu))
    submits: dict[int, list[float]] = {}
    for t, event in zip(out["submits"], out["submit_events"], strict=True):
        submits.setdefault(event, []).append(t)
    # The round-end bunch: from the first confirmation to BUNCH_TAIL seconds after the last.
    confirmed = out.get("confirmed") or []
    bunch = (min(confirmed), max(confirmed) + BUNCH_TAIL) if confirmed else None
    vis: dict[str, Any] = {}
    for who in ("phone", "wall"):
        phases: dict[str, list[float]] = {"bunch": [], "outside": []}
        unseen = 0
        for event, times in submits.items():
            for phase in phases:
                chosen = [t for t in times
                          if (bunch is not None and bunch[0] <= t < bunch[1]) == (phase == "bunch")]
                got, missed = visibility(chosen, polls.get(event, []), who)
                phases[phase] += got
                unseen += missed
        vis[who] = _percentiles(phases["bunch"] + phases["outside"])
        vis[who].update(seen=len(phases["bunch"]) + len(phases["outside"]), unseen=unseen)
        if bunch is not None:
            vis[who]["bunch"] = {**_percentiles(phases["bunch"]), "seen": len(phases["bunch"]),
                                 "seconds": round(bunch[1] - bunch[0], 1)}
            vis[who]["outside"] = _percentiles(phases["outside"])
    return vis


def _bunch_requests(out: dict[str, Any]) -> dict[str, Any]:
    """Each kind of request started in the round-end bunch: how many, p50 and p95 (ms)."""
    confirmed = out.get("confirmed") or []
    if not confirmed:
        return {}
    low, high = min(confirmed), max(confirmed) + BUNCH_TAIL
    kinds: dict[str, list[float]] = {}
    for kind, started, ms, *_ in out["samples"]:
        if low <= started < high:
            kinds.setdefault(kind, []).append(ms)
    return {kind: {"count": len(v), "p50_ms": round(percentile(v, 50) or 0),
                   "p95_ms": round(percentile(v, 95) or 0)} for kind, v in sorted(kinds.items())}


def _percentiles(values: list[float]) -> dict[str, Any]:
    return {f"p{q}_s": None if (v := percentile(values, q)) is None else round(v, 3)
            for q in (50, 95, 99)}


def growth(start: dict[str, Any], stop: dict[str, Any], tasks: dict[str, int], wall: float,
           tables: int, hands: int) -> dict[str, Any]:
    """What the window cost, in all and per table (per hand for the standings work)."""
    snapshots = stop["snapshot_versions"] - start["snapshot_versions"]
    return {
        "hands_201": hands, "snapshots_written": snapshots,
        "tasks": tasks,
        "per_second": {"hands": round(hands / wall, 2), "snapshots": round(snapshots / wall, 2),
                       **{name: round(n / wall, 2) for name, n in tasks.items()}},
        "per_hand": {"snapshots": round(snapshots / max(hands, 1), 3),
                     "standings_runs": round(sum(tasks[t] for t in STANDINGS_TASKS)
                                             / max(hands, 1), 3),
                     "publications": round(tasks["publish_standings"] / max(hands, 1), 3)},
        "at_stop": stop,
        "per_table_at_stop": {k: round(v / tables, 3) for k, v in stop.items()
                              if isinstance(v, int | float) and k != "snapshots"},
    }


def _kinds(rooms: list[dict[str, Any]]) -> dict[str, Any]:
    kinds: dict[str, list[int]] = {}
    for room in rooms:
        kinds.setdefault(room["kind"], []).append(room["tables"])
    return {k: {"events": len(v), "tables": sum(v), "sizes": f"{min(v)}–{max(v)}"}
            for k, v in kinds.items()}


def _spread(times: list[float]) -> float | None:
    if not times:
        return None
    ordered = sorted(times)
    lo, hi = percentile(ordered, 5), percentile(ordered, 95)
    return None if lo is None or hi is None else round(hi - lo, 2)


def night_text(result: dict[str, Any]) -> str:
    g, n = result["growth"], result["night"]
    kinds = ", ".join(f"{v['events']} {k} ({v['tables']} tables, {v['sizes']})"
                      for k, v in n["kinds"].items())
    stop = g["at_stop"]
    return "\n".join([
        f"night: {n['events']} events: {kinds}; {n['confirmed']} of {n['ending_tables']} "
        f"ending tables confirmed (5–95 % within {n['confirm_spread_s']} s)",
        f"window: {g['hands_201']} hands ({g['per_second']['hands']}/s), "
        f"{g['snapshots_written']} snapshots ({g['per_second']['snapshots']}/s, "
        f"{g['per_hand']['snapshots']} a hand); worker runs "
        + ", ".join(f"{k} {v}" for k, v in g["tasks"].items()),
        f"at the end: PostgreSQL connections {stop['pg_connections']}, Redis keys "
        f"{stop['redis_keys']} ({stop['redis_standings_keys']} standings, "
        f"{stop['redis_push_keys']} push) and clients {stop['redis_clients']} "
        f"({stop['redis_memory_mb']} MB), push streams {stop['push_streams']}",
        "requests started in the round-end bunch (count p50/p95 ms): "
        + ", ".join(f"{k} {v['count']} {v['p50_ms']}/{v['p95_ms']}"
                    for k, v in result.get("bunch_requests", {}).items()),
        f"worker CPU {g.get('worker_cpu_ms_per_hand')} ms a hand; "
        "standings work per hand, by size of event (computations / snapshots / worker runs):",
        *(f"  {row['events']} ({row['count']} events, {row['tables']} tables, {row['hands']} "
          f"hands): {row['computations_per_hand']} / {row['snapshots_per_hand']} / "
          f"{row['task_runs_per_hand']}" for row in g.get("by_size", [])),
    ])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not LOAD_PYTHON.exists():
        print("The load generator's environment is missing: `make bench-load` builds "
              "bench/load/.venv from bench/load/requirements.lock.", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="pinochle-night."))
    work.chmod(0o755)
    stack = Stack(work / "stack", workers=args.workers,
                  celery_concurrency=args.celery_concurrency)
    stack.dir.mkdir()
    stack.dir.chmod(0o755)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        stack.start()
        for tables, events in zip(args.table_counts, args.event_counts, strict=True):
            result = run_night(stack, args, tables, events, work)
            results.append(result)
            print(report_text(result), flush=True)
            print(night_text(result), flush=True)
    finally:
        stack.stop()
        work_done(work, keep=args.keep)
    run_summary("python -m bench.load.night " + " ".join(argv or sys.argv[1:]), started,
                args.json, runs=results)
    return 0 if all(r["checksum"]["ok"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
