"""Soak benchmark: a whole progressive day on the production stack, without drift.
``make bench-soak`` (extra arguments through ``BENCH_ARGS``), or ``.venv/bin/python
bench/soak.py --help``.

It starts the production stack of the load benchmark (``bench/load/stack.py``: a throwaway
PostgreSQL with fsync on, Redis, gunicorn shaped by ``gunicorn.conf.py``, the push process,
a Celery worker and beat, all on free ports of 127.0.0.1 in a temporary directory), creates a
progressive day of ``--tables`` × 4 players and ``--games`` games of the format's deals (no cut:
every game seats every table) through the services (``bench/soak/data.py``), and plays it
from game 1 to the last at ``--pace`` times a real day's speed (``bench/soak/room.py``): the
director seats game 1 through the API; every hand is typed (checked on the phone, no request
unless ``--checks-per-hand``) and saved through the
table's phone API, the live fragment fetched after it, the table's status polled; each game
ends as the rules engine says, the other side confirms, and the Celery worker seats the next
game (the automatic advance); a standings phone per table and the walls hold their push
streams open all day and fetch the fragments they are told of.

Reported per hour of simulated play: latency percentiles (the save, the table's status poll,
the standings version poll, the push fragment, the check, the live fragment) and errors; a
hand's save → shown on every phone and wall (p50/p95/p99); the memory of every process (each
gunicorn worker, the push process, the Celery worker and its pool, beat, PostgreSQL's
backends together, Redis), RSS and private; PostgreSQL's connections (``pg_stat_activity``),
Redis's clients and used memory; cores busy per process group and the CPU the host stole.
Then the memory slope of every process (MB per simulated hour, least squares over the samples
after the first game) and the end-of-day checks:

* every hand answered 2xx is stored, with the values sent (a SHA-256 over all hands, and hand
  by hand), and nothing else is stored;
* ``bench/load/data.py check``: each hand stored once with one revision, the standings snapshot
  caught up and equal to ``standings_compute`` over the stored results and after re-deriving
  every game from its hands;
* the snapshot's rows equal the standings recomputed from the hands the generator sent and the
  seats the director's API showed, with the rules engine and the ranking code alone
  (``bench/soak/recompute.py``: independent of the live path).

Exit status 1 when a hand is lost or changed, the standings differ, the day could not be
played (a game not seated by the advance, a table that could not save), or a process's private
memory grows faster than ``--max-slope`` MB per simulated hour (when given). Everything it
started is stopped by pid, on Ctrl-C, on failure and at the hard ``--time-limit`` too.

The default is the room of 512 players: 128 tables × 10 games at 30× (about 12 minutes of
play); a quick one: ``make bench-soak BENCH_ARGS="--tables 16 --games 3"``.
"""

from __future__ import annotations

import _thread
import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Run as a script, its folder (bench/, whose scripts are named like modules: profile.py,
# rules_engine.py) would come first on the path: the project's root comes instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from bench.load.harness import clock_ticks, cpu_times  # noqa: E402
from bench.load.run import data_script, revalidating  # noqa: E402
from bench.load.stack import Stack  # noqa: E402
from bench.soak.recompute import (  # noqa: E402
    PlayedGame,
    hands_checksum,
    hands_differences,
    recompute_standings,
    rows_differences,
)
from bench.soak.report import (  # noqa: E402
    hour_of,
    hours_spanned,
    memory_slopes,
    per_hour_cpu,
    per_hour_gauges,
    per_hour_requests,
    per_hour_visibility,
    report_text,
)
from bench.soak.room import EXPECTED, Plan, Record, Room  # noqa: E402
from bench.soak.sampler import Sampler  # noqa: E402
from rules_engine import get_ruleset  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="make bench-soak BENCH_ARGS=...",
                                description="Soak benchmark: a whole progressive day on the "
                                            "production stack (see bench/soak.py).")
    p.add_argument("--tables", type=int, default=128, help="tables (4 players each; 128)")
    p.add_argument("--games", type=int, default=10, help="games of the day (10)")
    p.add_argument("--pace", type=float, default=30.0,
                   help="times faster than a real day (30: a 6-minute hand takes 12 s)")
    p.add_argument("--hand-minutes", type=float, default=6.0,
                   help="simulated minutes a hand takes at a table, ±30%% each (6)")
    p.add_argument("--move-minutes", type=float, default=3.0,
                   help="simulated minutes the players take to reach their next table, at "
                        "most (3)")
    p.add_argument("--confirm-minutes", type=float, default=1.0,
                   help="simulated minutes before the other side confirms a game, on average (1)")
    p.add_argument("--checks-per-hand", type=int, default=0,
                   help="check calls while a hand is typed (0: the entry form checks a typed "
                        "hand in the browser, hand_preview.js; 3 as the form once did)")
    p.add_argument("--state-every", type=float, default=5.0,
                   help="real seconds between a table's status polls (5, table_live.js)")
    p.add_argument("--walls", type=int, default=2,
                   help="standings walls (2), besides a standings phone per table and the "
                        "seating wall")
    p.add_argument("--sample-seconds", type=float, default=5.0,
                   help="real seconds between memory and connection samples (5)")
    p.add_argument("--workers", type=int, default=None,
                   help="gunicorn workers (default: gunicorn.conf.py's, 2 × CPUs + 1)")
    p.add_argument("--threads", type=int, default=None,
                   help="threads per gunicorn worker (default: gunicorn.conf.py's)")
    p.add_argument("--max-requests", type=int, default=None,
                   help="gunicorn's max_requests (default: gunicorn.conf.py's, 20000, give or "
                        "take half as many again: a worker is replaced after that many; 0 keeps "
                        "every worker all day, so a leak in one shows)")
    p.add_argument("--celery-concurrency", type=int, default=2, help="Celery worker processes (2)")
    p.add_argument("--max-slope", type=float, default=None,
                   help="fail when a process's private memory grows faster than this many MB "
                        "per simulated hour after the first game")
    p.add_argument("--time-limit", type=float, default=None,
                   help="hard limit in real minutes (default: three times the day's expected "
                        "length plus 15 minutes)")
    p.add_argument("--json", type=Path, help="also write the results to this file")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--keep", action="store_true",
                   help="keep the temporary directory (every server's log) for inspection")
    args = p.parse_args(argv)
    if not 1 <= args.tables <= 200:
        p.error("--tables: from 1 to 200")
    if not 1 <= args.games <= 40:
        p.error("--games: from 1 to 40")
    if not 1 <= args.pace <= 600:
        p.error("--pace: from 1 to 600")
    if args.hand_minutes <= 0 or args.move_minutes < 0 or args.confirm_minutes < 0:
        p.error("--hand-minutes must be positive; --move-minutes and --confirm-minutes not "
                "negative")
    if args.checks_per_hand < 0 or args.walls < 0 or args.state_every <= 0 \
            or args.sample_seconds <= 0:
        p.error("--checks-per-hand and --walls are 0 or more; --state-every and "
                "--sample-seconds are positive")
    if args.max_requests is not None and args.max_requests < 0:
        p.error("--max-requests: 0 or more")
    if args.time_limit is None:
        args.time_limit = 3 * expected_minutes(args) + 15
    if args.time_limit <= 0:
        p.error("--time-limit: positive minutes")
    return args


def expected_minutes(args: argparse.Namespace, deals: int = 4) -> float:
    """Real minutes the day should take: per game the slowest walk, the slowest table's deals
    and the slowest confirmation."""
    game = args.move_minutes + deals * args.hand_minutes * 1.3 + 1.5 * args.confirm_minutes
    return args.games * game / args.pace


def run_script(stack: Stack, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "soak" / "data.py"), *args],
                          cwd=ROOT, env=stack.env(), capture_output=True, text=True,
                          timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"bench/soak/data.py {args[0]} failed:\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


async def play(plan: Plan, seconds: float) -> Record:
    timeout = aiohttp.ClientTimeout(total=30, sock_connect=10)
    connector = aiohttp.TCPConnector(limit=0, ttl_dns_cache=None)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as session:
        room = Room(plan, session)
        await asyncio.wait_for(room.day(), seconds)
        return room.record


def checks(stack: Stack, work: Path, setup: dict[str, Any], record: Record,
           ruleset: Any) -> dict[str, Any]:
    """The end-of-day checks (see the module's docstring)."""
    sent_file = work / "sent.json"
    sent_file.write_text(json.dumps({"answered": record.answered_tokens,
                                     "unanswered": record.unanswered_tokens}))
    load_check = data_script(stack, "check", "--event", str(setup["event"]), "--answered",
                             str(sent_file), "--wait", "120")
    dump_file = work / "dump.json"
    run_script(stack, "dump", "--event", str(setup["event"]), "--out", str(dump_file))
    dump = json.loads(dump_file.read_text())
    stored = {(h["game"], h["table"], h["number"]): h["values"] for h in dump["hands"]}
    # A hand sent without an answer may have been stored: the phone resent it until answered,
    # so it is in ``sent`` too unless the day ended first.
    counts, notes = hands_differences(record.sent, stored)
    games = [PlayedGame(game=g, table=t, seats=record.seats[g][t],
                        hands=[record.sent[k] for k in sorted(record.sent)
                               if k[0] == g and k[1] == t])
             for g in sorted(record.seats) for t in sorted(record.seats[g])]
    entries = {int(k): v for k, v in setup["entries"].items()}
    recomputed = recompute_standings(entries=entries, games=games, ruleset=ruleset,
                                     deals=setup["deals"], tie_breaks=setup["tie_breaks"])
    snapshot = dump["snapshot"] or {"rows": [], "version": None, "source_version": None}
    standing_notes = rows_differences(recomputed, snapshot["rows"])
    seats_seen = {str(g): {str(t): s for t, s in tables.items()}
                  for g, tables in record.seats.items()}
    if seats_seen != dump["seats"]:
        standing_notes.append("the seats the director's API showed differ from those stored")
    hands_ok = not any(counts.values()) and dump["hands_with_more_revisions"] == 0
    return {
        "sent": len(record.sent), "stored": len(stored), "differences": counts,
        "hands_ok": hands_ok,
        "sent_sha256": hands_checksum(record.sent), "stored_sha256": hands_checksum(stored),
        "hands_with_more_revisions": dump["hands_with_more_revisions"],
        "standings_equal": not standing_notes, "standings_notes": standing_notes,
        "rows": len(recomputed), "snapshot_version": snapshot["version"],
        "snapshot_source_version": snapshot["source_version"],
        "hands_version": dump["hands_version"], "game_statuses": dump["game_statuses"],
        "rounds": dump["rounds"], "load_check": load_check, "notes": notes,
    }


def summarise_day(args: argparse.Namespace, record: Record, sampler: Sampler,
                  check: dict[str, Any], steal: tuple[tuple[int, int], tuple[int, int]],
                  load_before: tuple[float, float, float]) -> dict[str, Any]:
    t0, t1, pace = record.started, record.ended, args.pace
    hours = hours_spanned(t0, t1, pace)
    # The day's samples only: the checks after it run scripts whose CPU would count as ours.
    samples = [dict(s, hour=hour_of(s["t"], t0, pace)) for s in sampler.samples
               if t0 - 1 <= s["t"] <= t1 + 1]
    # Memory after the first game: from game 2's seating on (the whole day if one game).
    second = next((a["at"] for a in record.advances if a.get("game") == 2), None)
    after = hour_of(second, t0, pace) if second is not None else 0.0
    (total0, stolen0), (total1, stolen1) = steal
    visible = per_hour_visibility(record.submits, record.polls, t0, pace, hours)
    return {
        "command": "make bench-soak BENCH_ARGS=" + json.dumps(" ".join(sys.argv[1:])),
        "tables": args.tables, "games": args.games, "pace": pace,
        "hand_minutes": args.hand_minutes, "sim_hours": round(hour_of(t1, t0, pace), 3),
        "real_seconds": round(t1 - t0, 1),
        "devices": args.tables * 2 + args.walls + 1,
        "requests_per_hour": per_hour_requests(record.samples, t0, pace, hours, EXPECTED),
        "visibility_per_hour": visible,
        "gauges_per_hour": per_hour_gauges(samples, hours),
        "cpu_per_hour": per_hour_cpu(samples, hours, clock_ticks(), os.cpu_count() or 1),
        "memory_after_hour": round(after, 3),
        "memory_slopes": {"rss": memory_slopes(samples, after, "rss"),
                          "uss": memory_slopes(samples, after, "uss")},
        "worker_restarts": sampler.web_slots.restarted() | sampler.pool_slots.restarted(),
        "push": dict(record.push), "advances": record.advances,
        "steal_percent": round(100 * (stolen1 - stolen0) / max(total1 - total0, 1), 1),
        "proc_stat_cpu": {"before": steal[0], "after": steal[1],
                          "fields": "(all CPU ticks, stolen ticks) from the cpu line"},
        "load_average_before": load_before, "load_average_after": os.getloadavg(),
        "machine_cores": os.cpu_count(), "sampler_errors": sampler.errors[:10],
        "problems": record.problems[:30], "check": check,
    }


def slope_failures(result: dict[str, Any], limit: float | None) -> list[str]:
    if limit is None:
        return []
    return [f"{name}: private memory {v['slope_mb_per_h']:+.2f} MB/h"
            for name, v in result["memory_slopes"]["uss"].items()
            if v["slope_mb_per_h"] is not None and v["slope_mb_per_h"] > limit]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="pinochle-soak."))
    work.chmod(0o755)  # the postgres user reaches its cluster below
    if args.max_requests is not None:
        os.environ["GUNICORN_MAX_REQUESTS"] = str(args.max_requests)
    stack = Stack(work / "stack", workers=args.workers, threads=args.threads,
                  celery_concurrency=args.celery_concurrency, push=True)
    stack.dir.mkdir()
    stack.dir.chmod(0o755)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # The hard limit: the main thread is interrupted (as by Ctrl-C) and everything is stopped.
    limit = threading.Timer(args.time_limit * 60, _thread.interrupt_main)
    limit.daemon = True
    limit.start()
    started = time.monotonic()
    sampler = Sampler(stack, args.sample_seconds)
    result: dict[str, Any] | None = None
    failure = ""
    try:
        print(f"soak: {args.tables} tables × {args.games} games at {args.pace:g}×, about "
              f"{expected_minutes(args):.0f} minutes of play (hard limit "
              f"{args.time_limit:.0f} min)", flush=True)
        stack.start()
        sampler.start()
        setup = run_script(stack, "setup", "--tables", str(args.tables), "--games",
                           str(args.games))
        ruleset = get_ruleset(setup["preset"], setup["overrides"])
        plan = Plan(base_url=stack.base_url, event=setup["event"],
                    director_token=setup["director_token"], ruleset=ruleset,
                    deals=setup["deals"], games=args.games, tables=args.tables, pace=args.pace,
                    hand_minutes=args.hand_minutes, move_minutes=args.move_minutes,
                    confirm_minutes=args.confirm_minutes, checks_per_hand=args.checks_per_hand,
                    state_every=args.state_every, standings_walls=args.walls,
                    revalidate=revalidating("auto"), seed=args.seed)
        load_before = os.getloadavg()
        steal0 = cpu_times()
        print(f"event {setup['event']}: {args.tables * 4} players seated; playing", flush=True)
        remaining = args.time_limit * 60 - (time.monotonic() - started) - 120
        try:
            if os.environ.get("SOAK_PROFILE"):  # where the generator's own CPU goes
                import cProfile

                with cProfile.Profile() as profile:
                    record = asyncio.run(play(plan, max(60.0, remaining)))
                profile.dump_stats(os.environ["SOAK_PROFILE"])
            else:
                record = asyncio.run(play(plan, max(60.0, remaining)))
        except (TimeoutError, RuntimeError) as exc:
            failure = f"the day was not played to its end: {exc or type(exc).__name__}"
            raise
        steal1 = cpu_times()
        print(f"played in {record.ended - record.started:.0f} s; checking", flush=True)
        check = checks(stack, work, setup, record, ruleset)
        sampler.stop()
        result = summarise_day(args, record, sampler, check, (steal0, steal1), load_before)
        print(report_text(result), flush=True)
    except KeyboardInterrupt:
        failure = failure or "stopped (Ctrl-C or the hard time limit)"
    except Exception as exc:  # noqa: BLE001 - reported, then the stack is stopped
        failure = failure or f"{type(exc).__name__}: {exc}"
    finally:
        limit.cancel()
        sampler.stopped.set()
        stack.stop()
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    if failure:
        print(f"soak FAILED: {failure}", file=sys.stderr)
        return 1
    assert result is not None
    failures = slope_failures(result, args.max_slope)
    check = result["check"]
    if not check["hands_ok"]:
        failures.append("hands lost, changed or stored more than once")
    if not check["standings_equal"]:
        failures.append("the standings differ from the recomputation")
    if not check["load_check"]["ok"]:
        failures.append("bench/load/data.py check failed")
    if result["problems"]:
        failures.append(f"{len(result['problems'])} problems on the way: "
                        f"{result['problems'][:3]}")
    result["failures"] = failures
    result["total_seconds"] = round(time.monotonic() - started, 1)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
        print(f"results written to {args.json}")
    for line in failures:
        print(f"FAILED: {line}", file=sys.stderr)
    print(f"done in {result['total_seconds']:.0f} s: "
          f"{'OK' if not failures else 'FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
