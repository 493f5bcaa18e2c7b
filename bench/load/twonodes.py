"""Two application nodes behind nginx, and one of them killed in the middle of a round: the
README's "Beyond one machine" recipe played for real on this machine. As root:
``.venv/bin/python -m bench.load.twonodes`` (``--help`` for the knobs).

The layout (every address below is one the bench made; nothing binds anything else)::

    phones (bench/load/generate.py) ─ nginx 127.0.0.1:P ─┬─ node 1 (netns pinochle-<pid>-1)
                                                          │    gunicorn 10.213.X.2, push 10.213.X.2
                                                          └─ node 2 (netns pinochle-<pid>-2)
                                                               gunicorn 10.213.Y.2, push 10.213.Y.2
    PostgreSQL, Redis: 127.0.0.1 and the veths' host ends 10.213.X.1, 10.213.Y.1
    Celery worker and beat: on the host (127.0.0.1), as worker machines would be

* Two network namespaces (``ip netns add``), each joined to the host by a veth pair in a /24 of
  10.213.0.0/16 that no address or route of the machine uses yet (``bench/load/netns.py``): the
  host end is ``.1``, the node's end ``.2``. Each node is one application machine: gunicorn
  (``config.wsgi``) and the push process (uvicorn, ``config.asgi``), both bound to the node's
  own address, started with ``ip netns exec`` (which execs: the pid we hold is the server's).
  Each node reaches PostgreSQL and Redis at its veth's host end, as a machine reaches a
  database server.
* nginx on the host in front of both (:func:`proxy_config`): the web upstream and the push
  upstream list both nodes with passive health checks (``max_fails=1 fail_timeout``), a short
  ``proxy_connect_timeout`` and ``proxy_next_upstream error timeout http_502 http_504``: a GET
  that meets a dead node is tried on the other at once, and so is a POST that could not be
  sent (its connection refused or timed out). A POST already sent is not (nginx never sends a
  non-idempotent request twice unless told ``non_idempotent``): the phone gets a 502 and its
  queue sends the same hand with the same ``Idempotency-Key`` at its next turn, which is what
  is being proved. ``/push/`` is unbuffered, its read timeout two heartbeats of the push process
  (``--push-read-timeout``, 30 s: a stream that stays silent longer has lost its process, and
  the page reopens it on the other node). Its access log records each
  answer's upstream, so the report counts what each node served before and after the kill.
* The room (``data.py advancing``): a club night of ``--tables`` tables playing on through the
  window and a progressive day of ``--ending`` tables whose game ends part-way; its last hands
  in, the other side of every table confirms around ``--round-end`` of the window, and the
  Celery worker's automatic advance closes the round and seats the next one. The devices are
  the load bench's (``bench/load/generate.py``): a scorer phone per table, three standings
  phones per table holding their push stream, a standings wall and a seating wall per event.
* At ``--kill-at`` of the window node 1 goes: its gunicorn master, its workers and its push
  process, SIGKILL by pid, all at once (a machine that dies, not one that drains). With
  ``--death kill`` (the default) the kernel still closes their connections, as after a crash:
  nginx and PostgreSQL see them go at once. With ``--death vanish`` the node's end of its veth
  goes down first, then the processes are killed: nothing they held is closed on the wire, as
  when a machine loses its power or its network; nginx finds out by its timeouts
  (``proxy_connect_timeout``, ``proxy_read_timeout``: ``--push-read-timeout`` for the streams)
  and PostgreSQL keeps the node's sessions until its own keepalives give up (the report counts
  them).
* Afterwards: every hand the phones were answered 2xx for stored exactly once with one revision
  and the standings equal to a recomputation (``data.py check-night``, PostgreSQL counted
  against the phones' answers; a save whose answer was lost and was sent again with its key
  counts once), the progressive day's next round seated by the worker after the kill, and
  what the phones saw: per scorer phone the longest time without a save answered 2xx, per
  standings reader the longest time without a pushed message and how long its stream took to
  come back, p50/p95/max across them; the request kinds' errors by status; the requests each
  node served before and after the kill.

Everything it made is undone in ``finally``, even after a failure or a SIGTERM/SIGINT: its
processes by pid (then any process left in its namespaces, ``ip netns pids``), its namespaces
by the names it gave them (``ip netns del``, which takes the veths with them) and any host end
still present, and its temporary directory (``--keep`` keeps the logs).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.load.harness import (  # noqa: E402
    CpuGroup,
    read_all_stats,
    report_text,
    run_summary,
    work_done,
)
from bench.load.netns import IP, Network, Node, ip_command  # noqa: E402
from bench.load.night import _visibility_by_event  # noqa: E402
from bench.load.outage import (  # noqa: E402
    gaps_across,
    longest_gaps,
    reconnect_times,
    served_by,
    spread,
)
from bench.load.run import (  # noqa: E402
    GROUPS,
    LOAD_PYTHON,
    _measure,
    data_script,
    result_of,
    revalidating,
)
from bench.load.stack import DB, HOST, Stack, _http_ok, nginx_head  # noqa: E402

FAIL_TIMEOUT_S = 10  # nginx leaves a node alone this long after it failed a request


# --- the stack on two nodes -------------------------------------------------------------------
def proxy_config(run: Path, port: int, nodes: list[Node], push_read_timeout: int = 30
                 ) -> str:
    """nginx in front of the nodes: both in each upstream with passive health checks; a GET
    that fails on one is tried on the next; ``/push/`` unbuffered; each answer's upstream
    logged (``upstream.log``: msec, upstream address, status, method, path)."""
    health = f"max_fails=1 fail_timeout={FAIL_TIMEOUT_S}s"
    webs = " ".join(f"server {n.address}:{n.web_port} {health};" for n in nodes)
    pushes = " ".join(f"server {n.address}:{n.push_port} {health};" for n in nodes)
    return f"""{nginx_head(run, "bench/load/twonodes.py")}
    client_max_body_size 20m;
    log_format upstream '$msec|$upstream_addr|$status|$request_method|$uri';
    access_log {run / "upstream.log"} upstream;
    upstream web {{ least_conn; {webs} }}
    upstream push {{ least_conn; {pushes} keepalive 32; }}
    # A node that refuses or does not answer: the next one (a POST only if it was not sent yet;
    # once sent, it gets the 502 and the phone's queue sends it again with its Idempotency-Key).
    proxy_connect_timeout 2s;
    proxy_next_upstream error timeout http_502 http_504;
    proxy_next_upstream_tries 2;
    server {{
        listen {HOST}:{port} backlog=4096;
        location /push/ {{
            proxy_pass http://push;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout {push_read_timeout}s;
        }}
        location / {{
            proxy_pass http://web;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
        }}
    }}
}}
"""


@dataclass
class TwoNodeStack(Stack):
    """:class:`Stack` with its web and push processes on the nodes (``gunicorn``/``push`` on
    node 1, ``gunicorn2``/``push2`` on node 2) and nginx in front; PostgreSQL, Redis, the
    Celery worker and beat on the host."""

    nodes: list[Node] = field(default_factory=list)
    node_workers: int = 2
    push_read_timeout: int = 30

    def node_env(self, node: Node) -> dict[str, str]:
        env = self.env()
        env["DATABASE_URL"] = f"postgres://{DB}@{node.host_address}:{self.pg_port}/{DB}"
        env["REDIS_URL"] = f"redis://{node.host_address}:{self.redis_port}/0"
        return env

    def env(self) -> dict[str, str]:
        env = super().env()
        # the nodes' own addresses too: the bench asks each node's /health/ directly
        env["DJANGO_ALLOWED_HOSTS"] += "".join(f",{n.address}" for n in self.nodes)
        return env

    def names(self, node: Node) -> tuple[str, str]:
        """The names of the node's gunicorn and push process in :attr:`procs`."""
        suffix = "" if node.number == 1 else str(node.number)
        return f"gunicorn{suffix}", f"push{suffix}"

    def start_gunicorn(self) -> None:
        bin_dir = Path(sys.executable).parent
        for node in self.nodes:
            name, _ = self.names(node)
            self._spawn(name, [IP, "netns", "exec", node.netns, str(bin_dir / "gunicorn"),
                               "config.wsgi", "--bind", f"{node.address}:{node.web_port}",
                               "--workers", str(self.node_workers), "--threads", "1",
                               "--worker-class", "config.gunicorn_worker.SyncWorker",
                               "--timeout", "60"], env=self.node_env(node))
        for node in self.nodes:
            name, _ = self.names(node)
            url = f"http://{node.address}:{node.web_port}/health/"
            self._wait(functools.partial(_http_ok, url), name, 90)

    def start_push(self) -> None:
        for node in self.nodes:
            _, name = self.names(node)
            self._spawn(name, [IP, "netns", "exec", node.netns, sys.executable, "-m",
                               "uvicorn", "config.asgi:application", "--host", node.address,
                               "--port", str(node.push_port), "--no-access-log",
                               "--log-level", "warning", "--timeout-graceful-shutdown", "2"],
                        env=self.node_env(node))
        for node in self.nodes:
            _, name = self.names(node)
            url = f"http://{node.address}:{node.push_port}/push/health/"
            self._wait(functools.partial(_http_ok, url), name, 60)

    def proxy_config(self) -> str:
        return proxy_config(self.dir / "nginx", self.proxy_port, self.nodes,
                            self.push_read_timeout)

    def gunicorn_shape(self) -> tuple[int, int]:
        return self.node_workers * len(self.nodes), 1

    def kill_node(self, node: Node, vanish: bool = False) -> list[int]:
        """The node dies: its servers and every worker they forked, SIGKILL by pid at once
        (``vanish``: its link down first, so nothing is closed on the wire); returns the pids
        killed."""
        if vanish:
            ip_command("netns", "exec", node.netns, IP, "link", "set", node.node_link, "down")
        stats = read_all_stats()
        roots = [proc.pid for name in self.names(node)
                 if (proc := self.procs.get(name)) is not None and proc.poll() is None]
        children: dict[int, list[int]] = {}
        for stat in stats.values():
            children.setdefault(stat.ppid, []).append(stat.pid)
        pids, todo = [], list(roots)
        while todo:
            pid = todo.pop()
            pids.append(pid)
            todo.extend(children.get(pid, []))
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for name in self.names(node):
            proc = self.procs.get(name)
            if proc is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=10)
        return pids


# --- one run ----------------------------------------------------------------------------------
def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.load.twonodes",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=16,
                   help="tables of the club night that plays on (16)")
    p.add_argument("--ending", type=int, default=4,
                   help="tables of the progressive day whose round ends and advances (4)")
    p.add_argument("--seconds", type=float, default=60.0, help="measured seconds (60)")
    p.add_argument("--kill-at", type=float, default=0.35,
                   help="where in the window node 1 is killed (0.35)")
    p.add_argument("--death", choices=("kill", "vanish"), default="kill",
                   help="kill: node 1's processes are killed and the kernel closes their "
                        "connections (a crash); vanish: its link goes down first (power or "
                        "network lost: peers find out by their timeouts)")
    p.add_argument("--push-read-timeout", type=int, default=30,
                   help="nginx's proxy_read_timeout for /push/, seconds (30: the push process "
                        "pings every 15 s, so only a stream whose process vanished is cut)")
    p.add_argument("--round-end", type=float, default=0.7,
                   help="where in the window the progressive day's round ends (0.7)")
    p.add_argument("--workers", type=int, default=2, help="gunicorn workers per node (2)")
    p.add_argument("--celery-concurrency", type=int, default=2)
    p.add_argument("--standings-phones", type=int, default=3, help="per table (3)")
    p.add_argument("--submit-every", type=float, default=10.0)
    p.add_argument("--json", type=Path)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--keep", action="store_true", help="keep the logs' directory")
    args = p.parse_args(argv)
    if not 1 <= args.tables <= 200 or not 2 <= args.ending <= 12:
        p.error("--tables from 1 to 200, --ending from 2 to 12")
    if not 30 <= args.seconds <= 600:
        p.error("--seconds: from 30 to 600")
    if not 0.1 <= args.kill_at < args.round_end <= 0.9:
        p.error("--kill-at and --round-end: 0.1 ≤ kill-at < round-end ≤ 0.9")
    if not 2 <= args.submit_every <= 60:
        p.error("--submit-every: from 2 to 60 seconds")
    # The ending game's deals fit before the round's end with a turn to spare (a save lost
    # with node 1 is sent again at the next turn).
    args.deals_end = int(args.seconds * args.round_end // args.submit_every) - 1
    if args.deals_end < 1:
        p.error("--seconds × --round-end leaves no deal before the round ends: lengthen the run")
    args.deals_long = int(args.seconds // args.submit_every) + 3
    if args.deals_long > 60:
        p.error("a game has at most 60 deals: shorten the run or save less often")
    return args


def run_event(stack: TwoNodeStack, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    room = data_script(stack, "advancing", "--tables", str(args.tables), "--ending",
                       str(args.ending), "--deals-end", str(args.deals_end), "--deals-long",
                       str(args.deals_long))
    time.sleep(2)  # the seatings' own tasks settle
    rooms = room["events"]
    event_ids = [r["event"] for r in rooms]
    ending = next(r["event"] for r in rooms if r["ends"])
    plan = {
        "base_url": stack.base_url, "events": rooms, "preset": room["preset"],
        "event": event_ids[0], "tokens": [], "overrides": rooms[0]["overrides"],
        "seconds": args.seconds, "submit_every": args.submit_every, "state_every": 5.0,
        "standings_every": 3.0, "seating_every": 5.0,
        "standings_phones": args.standings_phones, "checks_per_hand": 0,
        "after_save": "live", "revalidate": revalidating("auto"), "inline": True,
        "seed": args.seed, "round_end_at": args.seconds * args.round_end,
        "round_end_spread": 3.0, "redis": {"host": HOST, "port": stack.redis_port},
    }
    plan_file, out_file = work / "plan.json", work / "out.json"
    plan_file.write_text(json.dumps(plan))
    generator = subprocess.Popen(
        [str(LOAD_PYTHON), str(ROOT / "bench" / "load" / "generate.py"), str(plan_file),
         str(out_file)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    # Node 1's processes are gone at the end, so only node 2's web and push are measured.
    def node2(name: str) -> list[int]:
        return [stack.procs[name].pid]

    groups = [CpuGroup(name, (lambda: [generator.pid]) if name == "generator"
                       else functools.partial(node2, f"{name}2") if name in ("gunicorn", "push")
                       else functools.partial(stack.roots, name))
              for name in (*GROUPS, "nginx")]
    kill: dict[str, Any] = {}

    def kill_later() -> None:
        began = time.monotonic()

        def run() -> None:
            time.sleep(max(0.0, began + args.kill_at * args.seconds - time.monotonic()))
            kill["monotonic"], kill["wall"] = time.monotonic(), time.time()
            kill["pids"] = stack.kill_node(stack.nodes[0], vanish=args.death == "vanish")
            kill["sessions_at_kill"] = node_sessions(stack, stack.nodes[0])
            kill["at_s"] = round(kill["monotonic"] - began, 1)

        threading.Thread(target=run, name="kill", daemon=True).start()

    steal: list[tuple[int, int]] = []
    try:
        wall = _measure(generator, groups, steal, kill_later,
                        lambda: kill.update(sessions_at_end=node_sessions(stack,
                                                                          stack.nodes[0])))
        generator.wait(timeout=180)
    finally:
        if generator.poll() is None:
            generator.kill()
            generator.wait()
    if generator.returncode != 0:
        raise RuntimeError(f"the load generator exited with status {generator.returncode}")
    if "pids" not in kill:
        raise RuntimeError("the window ended before node 1 was killed")
    out = json.loads(out_file.read_text())
    sent = work / "sent.json"
    sent.write_text(json.dumps({"answered": out["answered"], "unanswered": out["unanswered"]}))
    checksum = data_script(stack, "check-night", "--events", ",".join(map(str, event_ids)),
                           "--answered", str(sent), "--wait", "90")
    advance = wait_for_advance(stack, ending, kill["wall"], 60.0)
    args.after_save, args.push, args.inline = "live", "on", "on"
    result = result_of(args, args.tables + args.ending, {**out, "submits": []}, groups, wall,
                       checksum, plan)
    result["saves_201"] = len(out["submits"])
    result["visibility"] = _visibility_by_event(out)
    namespaces = ", ".join(n.netns for n in stack.nodes)
    result["layout"] = (f"two nodes behind nginx (namespaces {namespaces}"
                        f"): gunicorn {args.workers} sync workers and a push process each")
    result["two_nodes"] = two_node_figures(stack, args, out, kill, advance, rooms)
    return result


def node_sessions(stack: TwoNodeStack, node: Node) -> dict[str, int]:
    """PostgreSQL's sessions from the node's address, by state (``idle``, ``idle in
    transaction``, ``active``...)."""
    import psycopg

    with psycopg.connect(host=HOST, port=stack.pg_port, user=DB, dbname=DB) as conn:
        rows = conn.execute("SELECT coalesce(state, '?'), count(*) FROM pg_stat_activity "
                            "WHERE client_addr = %s GROUP BY 1", (node.address,)).fetchall()
    return {str(state): int(n) for state, n in rows}


def wait_for_advance(stack: TwoNodeStack, event: int, kill_wall: float, wait: float
                     ) -> dict[str, Any]:
    """Until the progressive day has a round 2 (the worker's automatic advance), at most
    ``wait`` seconds; its rounds and whether the advance came after the kill."""
    deadline = time.monotonic() + wait
    while True:
        rounds = data_script(stack, "rounds", "--events", str(event))["events"].get(str(event),
                                                                                    [])
        second = next((r for r in rounds if r["number"] == 2), None)
        if second is not None or time.monotonic() > deadline:
            break
        time.sleep(2)
    import datetime

    created = (datetime.datetime.fromisoformat(second["created"]).timestamp()
               if second is not None else None)
    return {"event": event, "rounds": rounds, "advanced": second is not None,
            "after_kill_s": None if created is None else round(created - kill_wall, 1)}


def two_node_figures(stack: TwoNodeStack, args: argparse.Namespace, out: dict[str, Any],
                     kill: dict[str, Any], advance: dict[str, Any],
                     rooms: list[dict[str, Any]]) -> dict[str, Any]:
    start, stop = float(out["started"]), float(out["stopped"])
    killed = float(kill["monotonic"])
    timelines = out["timelines"]
    playing_on = next(r for r in rooms if not r["ends"])
    # The club night plays through the whole window (the progressive day's phones and readers
    # go quiet once its round ends): per scorer phone the longest gap between two saves
    # answered 2xx (a turn is --submit-every; a save lost with node 1 makes it two turns), per
    # standings reader between two pushed messages; before the kill, and from it to the end.
    saves = {t: v for t, v in timelines["saves"].items() if t in set(playing_on["tokens"])}
    messages = {d: v for d, v in timelines["messages"].items()
                if timelines["events"].get(d) == playing_on["event"]}
    save_gaps = longest_gaps(saves, start, stop)
    message_gaps = longest_gaps(messages, start, stop)
    reconnects, never = reconnect_times(timelines["streams"], start, stop)
    dropped = sum(1 for spans in timelines["streams"].values()
                  if any(c is not None and start <= c <= stop for _, c in spans))
    submits = [s for s in out["samples"] if s[0] == "submit"]
    failed: dict[str, int] = {}
    for s in submits:
        if not 200 <= s[3] < 300:
            failed[str(s[3])] = failed.get(str(s[3]), 0) + 1
    return {
        "kill": {"at_s": kill["at_s"], "pids": len(kill["pids"]),
                 "node": stack.nodes[0].netns, "death": args.death,
                 "push_read_timeout_s": args.push_read_timeout,
                 "node_sessions_at_kill": kill.get("sessions_at_kill", {}),
                 "node_sessions_at_end": kill.get("sessions_at_end", {})},
        "saves": {"answered_2xx": sum(len(v) for v in out["answered"].values()),
                  "not_2xx_in_window": failed,
                  "unanswered_at_end": sum(len(v) for v in out["unanswered"].values())},
        "longest_without_a_save_s": spread(list(save_gaps.values())),
        "longest_without_a_save_before_kill_s": spread(
            list(longest_gaps(saves, start, killed).values())),
        "without_a_save_across_kill_s": spread(
            list(gaps_across(saves, killed, stop).values())),
        "phones_over_one_turn": sum(1 for g in save_gaps.values()
                                    if g > 1.5 * args.submit_every),
        "longest_without_a_message_s": spread(list(message_gaps.values())),
        "longest_without_a_message_before_kill_s": spread(
            list(longest_gaps(messages, start, killed).values())),
        "without_a_message_across_kill_s": spread(
            list(gaps_across(messages, killed, stop).values())),
        "streams_dropped_in_window": dropped, "stream_back_s": spread(reconnects),
        "streams_never_back": never,
        "served": served_by(stack.dir / "nginx" / "upstream.log", stack.nodes, kill["wall"]),
        "advance": advance,
    }


def two_nodes_text(result: dict[str, Any]) -> str:
    t = result["two_nodes"]
    check = result["checksum"]

    def s(d: dict[str, Any]) -> str:
        return f"p50 {d['p50']} s, p95 {d['p95']} s, max {d['max']} s (of {d['of']})"

    served = ", ".join(f"{k}: {v['before']} before / {v['after']} after"
                       for k, v in t["served"].items())
    adv = t["advance"]
    second = next((r for r in adv["rounds"] if r["number"] == 2), None)
    return "\n".join([
        f"node 1 ({t['kill']['node']}) killed at {t['kill']['at_s']} s: "
        f"{t['kill']['pids']} processes (SIGKILL"
        + (", its link down first" if t["kill"]["death"] == "vanish" else "")
        + f"); its PostgreSQL sessions just after: {t['kill']['node_sessions_at_kill'] or 'none'}"
        f", at the window's end: {t['kill']['node_sessions_at_end'] or 'none'}",
        f"hands: answered 2xx {check['answered']}, stored {check['stored_hands']} with "
        f"{check['revisions']} revisions, stored without an answer "
        f"{check['stored_without_answer']}: {'OK' if check['ok'] else 'FAILED'}"
        + (f" ({check['problems']})" if check["problems"] else "")
        + f"; saves not 2xx in the window {t['saves']['not_2xx_in_window'] or 'none'} "
        f"(sent again with their key), unanswered at the end {t['saves']['unanswered_at_end']}",
        "without a save answered 2xx, per scorer phone of the club night: longest before the "
        f"kill {s(t['longest_without_a_save_before_kill_s'])}; across the kill "
        f"{s(t['without_a_save_across_kill_s'])}; in the window "
        f"{s(t['longest_without_a_save_s'])}; {t['phones_over_one_turn']} phones went more "
        "than 1.5 turns",
        "without a pushed message, per standings reader of the club night: longest before the "
        f"kill {s(t['longest_without_a_message_before_kill_s'])}; across the kill "
        f"{s(t['without_a_message_across_kill_s'])}; in the window "
        f"{s(t['longest_without_a_message_s'])}",
        f"streams dropped in the window {t['streams_dropped_in_window']}, back after "
        f"{s(t['stream_back_s'])}; never back {t['streams_never_back']}",
        f"answers by node (nginx): {served}",
        f"automatic advance of event {adv['event']}: "
        + (f"round 2 {second['status']}, created {adv['after_kill_s']} s after the kill"
           if second else "round 2 NOT seated"),
    ])


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if os.geteuid() != 0:
        print("twonodes makes network namespaces and veth pairs: run it as root.",
              file=sys.stderr)
        return 2
    if not LOAD_PYTHON.exists():
        print("The load generator's environment is missing: `make bench-load` builds "
              "bench/load/.venv from bench/load/requirements.lock.", file=sys.stderr)
        return 2
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, lambda n, _: sys.exit(128 + n))
    work = Path(tempfile.mkdtemp(prefix="pinochle-twonodes."))
    work.chmod(0o755)  # the postgres user reaches its cluster below
    network = Network()
    stack: TwoNodeStack | None = None
    result: dict[str, Any] | None = None
    started = time.monotonic()
    try:
        nodes = network.create(2)
        stack = TwoNodeStack(work / "stack", split=True, celery_concurrency=args.celery_concurrency,
                             nodes=nodes, node_workers=args.workers,
                             push_read_timeout=args.push_read_timeout,
                             also_listen=tuple(n.host_address for n in nodes),
                             trusted=tuple(str(n.network) for n in nodes))
        stack.dir.mkdir()
        stack.dir.chmod(0o755)
        print("nodes: " + "; ".join(f"{n.netns} at {n.address} (host end {n.host_address})"
                                    for n in nodes), flush=True)
        stack.start()
        result = run_event(stack, args, work)
        print(report_text(result), flush=True)
        print(two_nodes_text(result), flush=True)
    finally:
        if stack is not None:
            stack.stop()
        left = network.remove()
        if left:
            print("could not undo: " + "; ".join(left), file=sys.stderr)
        work_done(work, keep=args.keep)
    run_summary("python -m bench.load.twonodes " + " ".join(argv or sys.argv[1:]), started,
                args.json, run=result)
    ok = result is not None and result["checksum"]["ok"] \
        and result["two_nodes"]["advance"]["advanced"]
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
