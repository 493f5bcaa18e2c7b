"""Every few seconds, in a thread beside the room: the memory of each process of the stack, the
open PostgreSQL connections (``pg_stat_activity``), Redis's clients and used memory, the CPU
ticks of each process group and the machine's CPU and steal (``/proc/stat``)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import redis

from bench.load.harness import cpu_times, read_all_stats
from bench.load.stack import DB, HOST, Stack
from bench.soak.procs import Slots, children_of, group_ticks, memory_mb

GROUPS = ("gunicorn", "push", "worker", "beat", "postgres", "redis", "generator")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            "utf-8", "replace")
    except OSError:
        return ""


def machine_idle(stat: Path = Path("/proc/stat")) -> int:
    """Idle and iowait ticks of the machine so far (the ``cpu`` line's 4th and 5th values)."""
    for line in stat.read_text().splitlines():
        if line.startswith("cpu "):
            values = [int(v) for v in line.split()[1:]]
            return values[3] + values[4]
    raise ValueError("no cpu line in /proc/stat")


class Sampler(threading.Thread):
    def __init__(self, stack: Stack, every: float) -> None:
        super().__init__(name="soak-sampler", daemon=True)
        self.stack, self.every = stack, every
        self.samples: list[dict[str, Any]] = []
        self.stopped = threading.Event()
        self.web_slots = Slots("gunicorn worker")
        self.pool_slots = Slots("celery pool")
        self.errors: list[str] = []

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=30)

    def run(self) -> None:
        pg: Any = None
        cache: Any = None
        try:
            while not self.stopped.is_set():
                begin = time.monotonic()
                try:
                    if pg is None:
                        pg = psycopg.connect(host=HOST, port=self.stack.pg_port, user="postgres",
                                             dbname=DB, autocommit=True, connect_timeout=5)
                    if cache is None:
                        cache = redis.Redis(host=HOST, port=self.stack.redis_port,
                                            socket_timeout=5)
                    self.samples.append(self.sample(pg, cache))
                except Exception as exc:  # noqa: BLE001 - a missed sample is reported, not fatal
                    self.errors.append(f"{type(exc).__name__}: {exc}"[:200])
                    with contextlib.suppress(Exception):
                        if pg is not None:
                            pg.close()
                    pg = None
                self.stopped.wait(max(0.0, begin + self.every - time.monotonic()))
        finally:
            with contextlib.suppress(Exception):
                if pg is not None:
                    pg.close()
            with contextlib.suppress(Exception):
                if cache is not None:
                    cache.close()

    def named_pids(self, stats: dict[int, Any]) -> dict[str, int]:
        stack = self.stack
        named: dict[str, int] = {}
        if "gunicorn" in stack.procs:
            master = stack.procs["gunicorn"].pid
            named["gunicorn master"] = master
            named |= self.web_slots.assign(children_of(stats, master))
        if "push" in stack.procs:
            named["push"] = stack.procs["push"].pid
        if "worker" in stack.procs:
            main = stack.procs["worker"].pid
            named["celery worker"] = main
            named |= self.pool_slots.assign(children_of(stats, main))
        if "beat" in stack.procs:
            named["celery beat"] = stack.procs["beat"].pid
        if "redis" in stack.procs:
            named["redis-server"] = stack.procs["redis"].pid
        named["generator"] = os.getpid()
        return named

    def sample(self, pg: Any, cache: Any) -> dict[str, Any]:
        stats = read_all_stats()
        rss: dict[str, float] = {}
        uss: dict[str, float] = {}
        for name, pid in self.named_pids(stats).items():
            got = memory_mb(pid)
            if got is not None:
                rss[name], uss[name] = got
        postmaster = self.stack.postgres_pid()
        if postmaster:
            backends = [0.0, 0.0]
            others = [0.0, 0.0]
            for pid in [postmaster, *children_of(stats, postmaster)]:
                got = memory_mb(pid)
                if got is None:
                    continue
                into = backends if f" {DB} {DB} " in _cmdline(pid) else others
                into[0] += got[0]
                into[1] += got[1]
            rss["postgres backends"], uss["postgres backends"] = backends
            rss["postgres server"], uss["postgres server"] = others
        by_state: dict[str, int] = {}
        with pg.cursor() as cursor:
            cursor.execute("SELECT coalesce(state, '?'), count(*) FROM pg_stat_activity "
                           "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() "
                           "GROUP BY 1")
            for state, count in cursor.fetchall():
                by_state[str(state)] = int(count)
        clients = cache.info("clients")
        memory = cache.info("memory")
        roots = {
            "gunicorn": [p.pid for n, p in self.stack.procs.items() if n == "gunicorn"],
            "push": [p.pid for n, p in self.stack.procs.items() if n == "push"],
            "worker": [p.pid for n, p in self.stack.procs.items() if n == "worker"],
            "beat": [p.pid for n, p in self.stack.procs.items() if n == "beat"],
            "redis": [p.pid for n, p in self.stack.procs.items() if n == "redis"],
            "postgres": [postmaster] if postmaster else [],
            "generator": [os.getpid()],
        }
        return {
            "t": time.monotonic(), "rss": rss, "uss": uss,
            "pg_connections": sum(by_state.values()), "pg_by_state": by_state,
            # our own connection is one of Redis's clients
            "redis_clients": int(clients["connected_clients"]) - 1,
            "redis_used_mb": int(memory["used_memory"]) / 1024 / 1024,
            "redis_keys": int(cache.dbsize()),
            "ticks": group_ticks(stats, roots),
            "cpu": list(cpu_times()),
            "cpu_idle": machine_idle(),
        }
