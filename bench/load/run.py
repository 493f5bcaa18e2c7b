"""Load benchmark of the production stack: ``make bench-load`` (extra arguments through
``BENCH_ARGS``), or ``.venv/bin/python -m bench.load.run --help``.

It starts, in a temporary directory and on free ports of 127.0.0.1 only, a throwaway PostgreSQL
(fsync on), Redis, gunicorn (``config.wsgi``, shaped by ``gunicorn.conf.py``:
``2 × CPUs + 1`` sync workers), the push process (uvicorn,
``config.asgi``; ``--push off`` leaves it out and the pages poll), a Celery worker and Celery
beat under ``config.settings.production`` (``bench/load/stack.py``). For each table count of
``--tables`` it creates a club night with that many tables seated and started
(``bench/load/data.py``, through the services), runs the devices of a busy room against it
for ``--seconds`` (``bench/load/generate.py``: locust in library mode; a scorer phone per
table saving a hand every 10 s, three standings phones per table, two wall screens; every
device opens its page before the measured window, which then catches a room already playing),
then checks that every hand answered 2xx is stored exactly once and that the standings snapshot
equals a recomputation. Everything it started is stopped by pid, whatever happens.

Printed per table count (and written with ``--json FILE``): per request kind p50/p95/p99,
mean body bytes as sent (compressed when the server compressed), rate, errors (anything but
2xx/304 and the statuses the kind expects, counted apart: 409 for a save, 400 for the check of
a half-typed hand), the CPU of each process group as cores busy (from /proc/<pid>/stat before
and after), the push streams and messages, and how long after a save's 201 every standings
phone, and the wall, showed standings that include it (p50/p95/p99 over every hand and device).

``--spectators N`` also holds N spectators' standings streams open on the push process
(``bench/load/spectators.py``) and reports their delay, how often each got a message, the time
one message took to reach them all, and the push process's memory per stream. Many events at
once: ``bench/load/night.py``. Two application nodes in network namespaces, one killed
mid-round: ``bench/load/twonodes.py``.

The default (``--tables 16 --seconds 30``) takes under two minutes on an idle machine; the
full run is ``make bench-load BENCH_ARGS="--tables 16,32,64,96 --seconds 60 --json
load.json"``. Figures from a machine that is busy with other work are a smoke test only.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.load.harness import (  # noqa: E402
    CpuGroup,
    Poll,
    Sample,
    clock_ticks,
    cores_busy,
    cpu_times,
    percentile,
    read_all_stats,
    report_text,
    run_summary,
    steal_profile,
    summarise,
    tag_attribute,
    visibility,
    work_done,
)
from bench.load.stack import MICROCACHE_SECONDS, Stack  # noqa: E402

LOAD_PYTHON = ROOT / "bench" / "load" / ".venv" / "bin" / "python"
EXPECTED = {"submit": {409}, "check": {400}}
GROUPS = ("gunicorn", "push", "postgres", "redis", "worker", "beat", "generator")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="make bench-load BENCH_ARGS=...",
        description="Load benchmark of the production stack on 127.0.0.1 (see bench/load/run.py).",
    )
    p.add_argument("--tables", default="16",
                   help="table counts, comma-separated, one run each (default 16; the full "
                        "run: 16,32,64,96)")
    p.add_argument("--seconds", type=float, default=30.0,
                   help="measured seconds per table count (default 30; the full run: 60)")
    p.add_argument("--workers", type=int, default=None,
                   help="gunicorn workers (default: gunicorn.conf.py's, 2 × CPUs + 1)")
    p.add_argument("--threads", type=int, default=None,
                   help="threads per gunicorn worker (default: gunicorn.conf.py's, 1: sync "
                        "workers; more: gthread)")
    p.add_argument("--celery-concurrency", type=int, default=2, help="Celery worker processes (2)")
    p.add_argument("--push", choices=("on", "off"), default="on",
                   help="run the push process and point the pages at it (on), or leave the "
                        "pages polling every 3 s as the embedded default does (off)")
    p.add_argument("--inline", choices=("on", "off"), default="on",
                   help="the standings pages open their push stream for the region they show "
                        "and redraw from the message (on: a browser with DecompressionStream, "
                        "what standings.js does), or fetch the region after each push (off: a "
                        "browser that cannot inflate)")
    p.add_argument("--after-save", choices=("live", "reload", "none"), default="live",
                   help="what the table's phone fetches after a save: the live fragment "
                        "/t/<token>/live/ (what the page does now), the whole page, or nothing")
    p.add_argument("--conditional", choices=("auto", "on", "off"), default="auto",
                   help="devices keep ETags and revalidate with If-None-Match (auto: as each "
                        "page's script fetches: standings.js, seating_board.js, table_live.js "
                        "revalidate unless they fetch with cache: \"no-store\")")
    p.add_argument("--checks-per-hand", type=int, default=0,
                   help="check calls while a hand is typed (0: the form checks a typed hand in "
                        "the browser, static/js/hand_preview.js; 3 replays the page before it)")
    p.add_argument("--standings-phones", type=int, default=3, help="per table (3)")
    p.add_argument("--submit-every", type=float, default=10.0, help="seconds between saves (10)")
    p.add_argument("--state-every", type=float, default=5.0,
                   help="seconds between table status polls (5), as table_live.js")
    p.add_argument("--standings-every", type=float, default=3.0,
                   help="seconds between standings version polls (3)")
    p.add_argument("--seating-every", type=float, default=5.0,
                   help="seconds between seating board version polls (5)")
    p.add_argument("--split", action="store_true",
                   help="run the web processes as two gunicorn groups and the push processes as "
                        "two uvicorn processes, each on its own port, behind nginx on 127.0.0.1 "
                        "(the README's several-machine recipe; the same workers in all)")
    p.add_argument("--microcache", action="store_true",
                   help="nginx in front of the web with a micro-cache of what the site marks "
                        "public (bench/load/stack.py); the report adds its hit rates")
    p.add_argument("--chaos", action="store_true",
                   help="a quarter into the window stop the Celery worker and Redis (SIGTERM), "
                        "start Redis again at half and the worker at 60 %%; every hand answered "
                        "2xx must still be stored once and the standings end exactly right (the "
                        "CPU figures of the restarted processes mean nothing then)")
    p.add_argument("--spectators", type=int, default=0,
                   help="also hold this many spectators' standings streams open on the push "
                        "process (bench/load/spectators.py, opened before the window as a "
                        "phone opens its stream with &view=phone); reports how soon each saw "
                        "every hand, how often they got a message, and the push process's "
                        "memory per stream")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--keep", action="store_true",
                   help="keep the temporary directory (logs of every server) for inspection")
    args = p.parse_args(argv)
    try:
        args.table_counts = [int(x) for x in str(args.tables).split(",") if x.strip()]
    except ValueError:
        p.error("--tables: whole numbers separated by commas, e.g. 16,32,64")
    if not args.table_counts or any(n < 1 or n > 2000 for n in args.table_counts):
        p.error("--tables: each count from 1 to 2000")
    if not 5 <= args.seconds <= 3600:
        p.error("--seconds: from 5 to 3600")
    if not 2 <= args.submit_every <= 600 or args.state_every <= 0 or args.standings_every <= 0 \
            or args.seating_every <= 0:
        p.error("--submit-every from 2 s; the poll intervals must be positive")
    # Enough deals that no game ends during the run (the event's deal limit is at most 60).
    args.deals = int(args.seconds // args.submit_every) + 3
    if args.deals > 60:
        p.error(f"--seconds {args.seconds:.0f} at a save every {args.submit_every:.0f} s needs "
                f"{args.deals} deals; a game has at most 60: shorten the run")
    return args


SCRIPTS = {"standings": "standings.js", "seating": "seating_board.js", "table": "table_live.js"}


def revalidating(setting: str) -> dict[str, bool]:
    """Which devices revalidate their GETs (``If-None-Match``), as their page's script does."""
    if setting != "auto":
        return dict.fromkeys(SCRIPTS, setting == "on")
    return {device: 'cache: "no-store"' not in (ROOT / "static" / "js" / name).read_text()
            for device, name in SCRIPTS.items()}


def data_script(stack: Stack, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "load" / "data.py"), *args],
                          cwd=ROOT, env=stack.env(), capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"bench/load/data.py {args[0]} failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run_count(stack: Stack, args: argparse.Namespace, tables: int, work: Path) -> dict[str, Any]:
    event = data_script(stack, "setup", "--tables", str(tables), "--deals", str(args.deals))
    time.sleep(2)  # the seating's own tasks settle
    plan = {
        "base_url": stack.base_url, "event": event["event"], "tokens": event["tokens"],
        "preset": event["preset"], "overrides": event["overrides"], "seconds": args.seconds,
        "submit_every": args.submit_every, "state_every": args.state_every,
        "standings_every": args.standings_every, "seating_every": args.seating_every,
        "standings_phones": args.standings_phones, "checks_per_hand": args.checks_per_hand,
        "after_save": args.after_save, "revalidate": revalidating(args.conditional),
        "inline": args.inline == "on", "seed": args.seed,
    }
    plan_file, out_file = work / f"plan-{tables}.json", work / f"out-{tables}.json"
    plan_file.write_text(json.dumps(plan))
    crowd = Crowd(stack, event["event"], args.spectators, work) if args.spectators else None
    load_before = os.getloadavg()
    generator = subprocess.Popen(
        [str(LOAD_PYTHON), str(ROOT / "bench" / "load" / "generate.py"), str(plan_file),
         str(out_file)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    names = (*GROUPS, "nginx") if stack.proxied else GROUPS
    _, cache_offset = stack.cache_counts()
    roots = {name: (lambda n=name: stack.roots(n)) for name in names if name != "generator"}
    roots["generator"] = lambda: [generator.pid]
    if crowd is not None:
        names = (*names, "spectators")
        roots["spectators"] = lambda: [crowd.proc.pid]
    groups = [CpuGroup(name, roots[name]) for name in names]
    chaos: list[dict[str, Any]] = []
    steal: list[tuple[int, int]] = []
    try:
        wall = _measure(generator, groups, steal,
                        lambda: _chaos(stack, args.seconds, chaos) if args.chaos else None)
        generator.wait(timeout=120)
    finally:
        if generator.poll() is None:
            generator.kill()
            generator.wait()
        crowd_out = crowd.finish() if crowd is not None else None
    if generator.returncode != 0:
        raise RuntimeError(f"the load generator exited with status {generator.returncode}")
    out = json.loads(out_file.read_text())
    (work / f"sent-{tables}.json").write_text(json.dumps(
        {"answered": out["answered"], "unanswered": out["unanswered"]}))
    # After an outage the standings catch up through the reconcile task on beat (every 30 s).
    checksum = data_script(stack, "check", "--event", str(event["event"]), "--answered",
                           str(work / f"sent-{tables}.json"), "--wait",
                           "120" if args.chaos else "45")
    result = result_of(args, tables, out, groups, wall, checksum, plan)
    result["layout"] = stack_layout(stack)
    if stack.microcache:
        result["microcache"] = microcache_summary(stack.cache_counts(cache_offset)[0])
    if args.chaos:
        result["chaos"] = chaos
    if crowd is not None and crowd_out is not None:
        result["spectators"] = crowd.result(crowd_out, out)
    (total0, stolen0), (total1, stolen1) = steal[0], steal[-1]
    result["steal_percent"] = round(100 * (stolen1 - stolen0) / max(total1 - total0, 1), 1)
    result["steal_seconds"] = steal_profile(steal)
    result["load_average_before"] = load_before
    return result


def rss_kb(pid: int) -> int:
    """A process's resident set (``VmRSS``), KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Crowd:
    """``--spectators N``: the spectators' process (``bench/load/spectators.py``), started
    before the room opens; the push process's memory before and after their streams open."""

    def __init__(self, stack: Stack, event: int, count: int, work: Path) -> None:
        if not stack.push or stack.split:
            raise SystemExit("--spectators needs the push process on one machine")
        with urllib.request.urlopen(f"{stack.base_url}/events/{event}/standings/",  # noqa: S310
                                    timeout=30) as answer:
            page = answer.read().decode()
        url = tag_attribute(page, "standings-live", "data-push-url")
        if not url:
            raise RuntimeError("the standings page offers no push stream")
        self.count, self.out = count, work / f"spectators-{event}.json"
        self.push_pid = stack.procs["push"].pid
        self.rss_before = rss_kb(self.push_pid)
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "load" / "spectators.py"),
             html.unescape(url), str(count), "3600", str(self.out)],
            cwd=ROOT, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline().split()
        if not ready or ready[0] != "READY":
            self.proc.kill()
            raise RuntimeError("the spectators did not open their streams")
        self.opened, self.open_seconds = int(ready[1]), float(ready[2])
        time.sleep(2)  # the push process settles (its buffers, the collector)
        self.rss_open = rss_kb(self.push_pid)
        self.rss_end = 0

    def finish(self) -> dict[str, Any] | None:
        self.rss_end = rss_kb(self.push_pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None
        return dict(json.loads(self.out.read_text()))

    def result(self, crowd: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
        window = (out["started"], out["stopped"])
        polls = [Poll(who=w, started=s, ended=e, hands_version=h, source_version=v, pushed=pu)
                 for w, s, e, h, v, pu, *_ in out["polls"] if not pu]
        gaps: list[float] = []
        messages = 0
        for i, looks in enumerate(crowd["looks"]):
            inside = [t for t, _ in looks if window[0] <= t <= window[1]]
            messages += len(inside)
            gaps += [b - a for a, b in zip(inside, inside[1:], strict=False)]
            polls += [Poll(who=f"spectator:{i}", started=t, ended=t, hands_version=0,
                           source_version=v, pushed=True) for t, v in looks
                      if t <= window[1]]
        latencies, unseen = visibility(out["submits"], polls, "spectator")
        # The push process's own share: how long one message took to reach every stream
        # (first arrival to last, per snapshot source version seen by all).
        arrivals: dict[int, list[float]] = {}
        for looks in crowd["looks"]:
            for t, v in looks:
                if window[0] <= t <= window[1]:
                    arrivals.setdefault(v, []).append(t)
        spreads = [max(ts) - min(ts) for ts in arrivals.values() if len(ts) == self.count]
        seconds = window[1] - window[0]
        return {
            "streams": self.count, "opened": self.opened, "open_seconds": self.open_seconds,
            "open_at_end": crowd["open_at_end"], "drops": crowd["drops"],
            "failed_opens": crowd["failed_opens"],
            "push_rss_mb": {"before": round(self.rss_before / 1024, 1),
                            "open": round(self.rss_open / 1024, 1),
                            "end": round(self.rss_end / 1024, 1)},
            "kb_per_stream": round((self.rss_open - self.rss_before) / max(1, self.opened), 1),
            "kb_per_stream_end": round((self.rss_end - self.rss_before) / max(1, self.opened),
                                       1),
            "messages_per_stream_per_s": round(messages / max(1, self.count) / seconds, 3),
            "gap_s": {f"p{q}": None if (v := percentile(gaps, q)) is None else round(v, 2)
                      for q in (0, 5, 50)},
            "mb_received_per_s": round(crowd["bytes"] / seconds / 2**20, 1),
            "fan_out_s": {f"p{q}": None if (v := percentile(spreads, q)) is None else round(v, 2)
                          for q in (50, 95)},
            "visibility": {
                **{f"p{q}_s": None if (v := percentile(latencies, q)) is None else round(v, 3)
                   for q in (50, 95, 99)},
                "seen": len(latencies), "unseen": unseen},
        }


def stack_layout(stack: Stack) -> str:
    """How the stack was laid out, for the report."""
    workers, threads = stack.gunicorn_shape()
    per = "sync workers" if threads == 1 else f"workers × {threads} threads"
    cached = (f", nginx's {MICROCACHE_SECONDS} s micro-cache in front" if stack.microcache
              else "")
    if not stack.split:
        return (f"one machine: gunicorn {workers} {per}"
                + (", one push process" if stack.push else "") + cached)
    first, second = stack.split_workers(workers)
    return (f"split behind nginx: web groups of {first} and {second} {per}"
            + (", two push processes" if stack.push else "") + cached)


# What nginx answered from its cache without asking gunicorn (UPDATING and STALE: the copy
# being refreshed; REVALIDATED: gunicorn said 304 to the copy's ETag).
SERVED_FROM_CACHE = ("HIT", "UPDATING", "STALE", "REVALIDATED")


def microcache_summary(counts: dict[str, dict[str, int]]) -> dict[str, Any]:
    """The micro-cache's answers of one run: per kind of address and in all, how many, by
    cache status, and the share served from the cache (of all, and of the cacheable ones:
    those with a cache status, "-" being what nginx never keeps)."""
    def share(by_status: dict[str, int]) -> dict[str, Any]:
        total = sum(by_status.values())
        cacheable = total - by_status.get("-", 0) - by_status.get("BYPASS", 0)
        served = sum(by_status.get(status, 0) for status in SERVED_FROM_CACHE)
        return {"requests": total, "statuses": dict(sorted(by_status.items())),
                "hit_rate": round(served / total, 3) if total else None,
                "hit_rate_cacheable": round(served / cacheable, 3) if cacheable else None}

    overall: dict[str, int] = {}
    for by_status in counts.values():
        for status, n in by_status.items():
            overall[status] = overall.get(status, 0) + n
    kinds = {kind: share(by_status) for kind, by_status in
             sorted(counts.items(), key=lambda item: -sum(item[1].values()))}
    return {"all": share(overall), "kinds": kinds}


def _chaos(stack: Stack, seconds: float, log: list[dict[str, Any]]) -> None:
    """In a thread from the window's start: the worker and Redis away, then back."""

    def at(fraction: float, what: str, action: Callable[[], None]) -> None:
        time.sleep(max(0.0, began + fraction * seconds - time.monotonic()))
        action()
        log.append({"at_s": round(time.monotonic() - began, 1), "what": what})

    def run() -> None:
        at(0.25, "worker stopped", lambda: stack.stop_process("worker"))
        at(0.25, "Redis stopped", lambda: stack.stop_process("redis"))
        at(0.5, "Redis started", stack.start_redis)
        at(0.6, "worker started", stack.start_worker)

    began = time.monotonic()
    threading.Thread(target=run, name="chaos", daemon=True).start()


def _measure(generator: subprocess.Popen[str], groups: list[CpuGroup],
             steal: list[tuple[int, int]], on_start: Callable[[], None] = lambda: None,
             on_stop: Callable[[], None] = lambda: None) -> float:
    """CPU of every group between the generator's START and STOP lines; the wall time. The
    machine's CPU times go into ``steal`` at the start, every second and at the end;
    ``on_start`` and ``on_stop`` run at the two lines."""
    assert generator.stdout is not None
    began = None
    stopped = threading.Event()

    def sample() -> None:
        while not stopped.wait(1.0):
            steal.append(cpu_times())

    sampler = threading.Thread(target=sample, name="steal", daemon=True)

    try:
        for line in generator.stdout:
            if line.strip() == "START":
                stats = read_all_stats()
                for group in groups:
                    group.start(stats)
                began = time.monotonic()
                steal.append(cpu_times())
                sampler.start()
                on_start()
            elif line.strip() == "STOP" and began is not None:
                stats = read_all_stats()
                for group in groups:
                    group.stop(stats)
                stopped.set()
                sampler.join()
                steal.append(cpu_times())
                took = time.monotonic() - began
                on_stop()
                return took
    finally:
        stopped.set()
    raise RuntimeError("the load generator ended before its run did")


def result_of(args: argparse.Namespace, tables: int, out: dict[str, Any],
              groups: list[CpuGroup], wall: float, checksum: dict[str, Any],
              plan: dict[str, Any]) -> dict[str, Any]:
    samples = [Sample(kind=k, started=s, ms=ms, status=st, bytes=b)
               for k, s, ms, st, b in out["samples"]]
    polls = [Poll(who=w, started=s, ended=e, hands_version=h, source_version=v, pushed=pu)
             for w, s, e, h, v, pu, *_ in out["polls"]]
    hz = clock_ticks()
    cpu = {g.name: {"seconds": round(g.seconds(hz), 2),
                    "cores": round(cores_busy(g.seconds(hz), wall), 3)} for g in groups}
    vis: dict[str, Any] = {}
    for who in ("phone", "wall"):
        latencies, unseen = visibility(out["submits"], polls, who)
        vis[who] = {f"p{q}_s": None if (v := percentile(latencies, q)) is None else round(v, 3)
                    for q in (50, 95, 99)}
        vis[who].update(seen=len(latencies), unseen=unseen)
    return {
        "tables": tables, "seconds": args.seconds, "wall_seconds": round(wall, 2),
        "users": out["users"], "after_save": args.after_save,
        "revalidate": plan["revalidate"],
        "requests": [asdict(row) for row in summarise(samples, args.seconds, EXPECTED)],
        "cpu": cpu, "cpu_total_cores": round(sum(v["cores"] for v in cpu.values()), 3),
        "machine_cores": os.cpu_count(), "load_average_after": os.getloadavg(),
        "saves_201": len(out["submits"]), "visibility": vis, "checksum": checksum,
        "push": {"on": args.push == "on", "streams": out["push"]["streams_at_stop"],
                 "readers": out["push"]["readers"], "messages": out["push"]["messages"],
                 "reconnects": out["push"]["reconnects"], "inline": args.inline == "on",
                 "regions": out["push"]["regions"],
                 "region_bytes": out["push"]["region_bytes"]},
        "phones_stopped": out["phones_stopped"], "saves_in_flight_at_end": out["in_flight_at_end"],
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not LOAD_PYTHON.exists():
        print("The load generator's environment is missing: `make bench-load` builds "
              "bench/load/.venv from bench/load/requirements.lock.", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="pinochle-load."))
    work.chmod(0o755)  # the postgres user reaches its cluster below
    stack = Stack(work / "stack", workers=args.workers, threads=args.threads,
                  celery_concurrency=args.celery_concurrency, push=args.push == "on",
                  split=args.split, microcache=args.microcache)
    stack.dir.mkdir()
    stack.dir.chmod(0o755)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    results: list[dict[str, Any]] = []
    started = time.monotonic()
    try:
        stack.start()
        for tables in args.table_counts:
            result = run_count(stack, args, tables, work)
            results.append(result)
            print(report_text(result), flush=True)
    finally:
        stack.stop()
        work_done(work, keep=args.keep)
    run_summary("make bench-load BENCH_ARGS=" + json.dumps(" ".join(argv or sys.argv[1:])),
                started, args.json, runs=results)
    return 0 if all(r["checksum"]["ok"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
