"""The production stack for the load benchmark, on free ports of 127.0.0.1, in one directory.

PostgreSQL (a throwaway cluster, **fsync and synchronous commit on**, as a real server runs; as
``scripts/testservers.py`` does, initdb and the server run as the ``postgres`` user when we are
root), Redis (no persistence: it is a cache and a broker here), gunicorn (``config.wsgi``,
shaped as ``gunicorn.conf.py`` says unless told otherwise), the push process (uvicorn serving
``config.asgi``; ``PUSH_URL`` points the pages at it, unless ``push`` is off), a Celery worker
and Celery beat, all under ``config.settings.production`` with the variables it requires.
Every process is our own child or has a pidfile in the directory, and :meth:`Stack.stop` stops
each by its pid (SIGTERM, then SIGKILL), whatever happened before.

With ``split`` the stack is laid out as the README's "Beyond one machine" recipe: the web
processes as two independent gunicorn groups and the push processes as two uvicorn processes,
each on its own port as if on its own machine, behind nginx (Debian's ``/usr/sbin/nginx``, its
configuration, logs, temporary files and pid file written into the directory) on one more port:
``/push/`` goes to the push group (unbuffered, for the streams), everything else to the web
group. The pages then open their streams on the proxy's own address (``PUSH_URL``), as behind a
real load balancer. One PostgreSQL, one Redis, one Celery worker and one beat, as before.

With ``microcache`` nginx stands in front of the web processes (with or without ``split``) and
keeps each answer the site marks ``Cache-Control: public`` for ``MICROCACHE_SECONDS``
(``public.caching``: public standings, brackets, walls, event pages and what they poll): one
request at a time goes to gunicorn for an address (``proxy_cache_lock``), the others wait for it
or get the copy being refreshed (``proxy_cache_use_stale updating``), and a refresh asks gunicorn
with the copy's ETag (``proxy_cache_revalidate``: a 304 from one query). Answers marked
``private``, ``no-store`` or ``no-cache``, anything with a cookie set, and every request with a
session cookie or an ``Authorization`` header pass through untouched. Each answer's cache status
goes to ``nginx/cache.log`` (:meth:`Stack.cache_counts`). The cache lives in the run's directory.

``also_listen`` and ``trusted`` let PostgreSQL and Redis be reached from other network
namespaces (``bench/load/twonodes.py``): they also listen on those addresses (the host side of
veth pairs the caller made), and PostgreSQL trusts connections from those networks.
"""

from __future__ import annotations

import contextlib
import os
import runpy
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from testservers import _alive, _as_postgres, free_port, pg_bindir  # noqa: E402

DB = "pinochle"
HOST = "127.0.0.1"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
MICROCACHE_SECONDS = 1


@dataclass
class Stack:
    dir: Path
    workers: int | None = None  # None: gunicorn.conf.py's (2 × CPUs + 1)
    threads: int | None = None  # None: gunicorn.conf.py's (1: sync workers)
    celery_concurrency: int = 2
    push: bool = True
    split: bool = False  # two web groups and two push processes behind nginx (see above)
    microcache: bool = False  # nginx's micro-cache in front of the web (see above)
    pg_port: int = field(default_factory=free_port)
    redis_port: int = field(default_factory=free_port)
    web_port: int = field(default_factory=free_port)
    push_port: int = field(default_factory=free_port)
    web2_port: int = field(default_factory=free_port)  # with split only, as the next two
    push2_port: int = field(default_factory=free_port)
    proxy_port: int = field(default_factory=free_port)
    also_listen: tuple[str, ...] = ()  # PostgreSQL and Redis listen here too (see above)
    trusted: tuple[str, ...] = ()  # networks (CIDR) PostgreSQL trusts, besides the loopback
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(48))

    # --- addresses and environment ------------------------------------------------------
    @property
    def proxied(self) -> bool:
        """Whether nginx stands in front of the web (``split`` or ``microcache``)."""
        return self.split or self.microcache

    @property
    def base_url(self) -> str:
        """Where the devices send their requests: gunicorn, or the proxy in front of it."""
        return f"http://{HOST}:{self.proxy_port if self.proxied else self.web_port}"

    @property
    def push_base(self) -> str:
        """The push process's ``PUSH_URL`` (the proxy's ``/push/`` with ``split``)."""
        return f"{self.base_url if self.split else f'http://{HOST}:{self.push_port}'}/push/"

    @property
    def pg_dir(self) -> Path:
        return self.dir / "pg"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "TEST_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.production",
            DJANGO_SECRET_KEY=self.secret,
            DJANGO_ALLOWED_HOSTS=f"{HOST},localhost",
            DATABASE_URL=f"postgres://{DB}@{HOST}:{self.pg_port}/{DB}",
            REDIS_URL=f"redis://{HOST}:{self.redis_port}/0",
            DJANGO_SECURE_SSL_REDIRECT="false",
            DJANGO_SECURE_COOKIES="false",
            DJANGO_STATIC_ROOT=str(self.dir / "static"),
            DJANGO_LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        if self.proxied:
            env["DJANGO_NUM_PROXIES"] = "1"  # X-Forwarded-For from nginx
        if self.push:
            # Without split, no proxy: the pages open their streams on the push process's own
            # port; with it, on the proxy's address, which passes /push/ to the push group.
            env["PUSH_URL"] = self.push_base
        return env

    def manage(self, *args: str, **extra_env: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT,
                       env={**self.env(), **extra_env}, check=True, stdout=subprocess.DEVNULL)

    # --- start ----------------------------------------------------------------------------
    def start(self, log: bool = True) -> None:
        say = print if log else (lambda *a, **k: None)
        web = (f"gunicorn :{self.web_port} and :{self.web2_port}" if self.split
               else f"gunicorn :{self.web_port}")
        if self.proxied:
            web += f", nginx :{self.proxy_port}" + (" (micro-cache)" if self.microcache else "")
        say(f"stack in {self.dir}: PostgreSQL :{self.pg_port}, Redis :{self.redis_port}, "
            f"{web}", flush=True)
        self.start_postgres()
        self.start_redis()
        # The schema's commits need not wait for the disk (this session only; the server
        # keeps fsync on for the run).
        self.manage("migrate", "--noinput", PGOPTIONS="-c synchronous_commit=off")
        # The pages under test use the project's own files; the API browser's and the admin's
        # (megabytes, compressed one by one) are left out to keep the start short.
        self.manage("collectstatic", "--noinput", "--ignore", "drf_spectacular_sidecar",
                    "--ignore", "rest_framework", "--ignore", "admin")
        self.start_gunicorn()
        if self.push:
            self.start_push()
        if self.proxied:
            self.start_proxy()
        self.start_celery()
        workers, threads = self.gunicorn_shape()
        shape = (f"{workers} sync workers" if threads == 1
                 else f"{workers} workers × {threads} threads")
        if self.split:
            first, second = self.split_workers(workers)
            shape = (f"two groups of {first} and {second} "
                     + ("sync workers" if threads == 1 else f"workers × {threads} threads")
                     + " behind nginx")
        if self.microcache:
            shape += f" behind nginx's {MICROCACHE_SECONDS} s micro-cache"
        pushes = "two push processes behind nginx, " if self.split else "a push process, "
        say(f"stack ready: gunicorn {shape}, "
            f"{pushes if self.push else 'no push (pages poll), '}"
            f"Celery worker (concurrency {self.celery_concurrency}) and beat", flush=True)

    def start_postgres(self) -> None:
        bindir = pg_bindir()
        data, sock = self.pg_dir / "data", self.pg_dir / "sock"
        for path in (self.pg_dir, data, sock):
            path.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(path, "postgres")
        data.chmod(0o700)
        subprocess.run(
            _as_postgres([str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
                          "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]),
            check=True, stdout=subprocess.DEVNULL,
        )
        if self.trusted:
            with (data / "pg_hba.conf").open("a") as hba:
                hba.writelines(f"host all all {network} trust\n" for network in self.trusted)
        listen = ",".join((HOST, *self.also_listen))
        # Durable like a real server: fsync, synchronous_commit and full_page_writes stay on.
        subprocess.run(
            _as_postgres([
                str(bindir / "pg_ctl"), "-D", str(data), "-l", str(self.pg_dir / "pg.log"),
                "-o", f"-p {self.pg_port} -k {sock} -c listen_addresses={listen} "
                "-c max_connections=200 -c fsync=on -c synchronous_commit=on",
                "-w", "start",
            ]),
            check=True, stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [str(bindir / "psql"), "-h", HOST, "-p", str(self.pg_port), "-U", "postgres", "-q",
             "-c", f"CREATE ROLE {DB} LOGIN CREATEDB SUPERUSER",
             "-c", f"CREATE DATABASE {DB} OWNER {DB}"],
            check=True,
        )

    def postgres_pid(self) -> int | None:
        try:
            return int((self.pg_dir / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def _spawn(self, name: str, args: list[str], env: dict[str, str] | None = None) -> None:
        log = open(self.dir / f"{name}.log", "ab")  # noqa: SIM115 - kept open for the child
        self.procs[name] = subprocess.Popen(args, cwd=ROOT, env=env or self.env(), stdout=log,
                                            stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL)
        log.close()

    def start_redis(self) -> None:
        # Without a password Redis's protected mode answers only the loopback: the further
        # addresses are the host ends of veths the caller made, reached from its namespaces only.
        reach = ("--protected-mode", "no") if self.also_listen else ()
        self._spawn("redis", ["redis-server", "--port", str(self.redis_port),
                              "--bind", HOST, *self.also_listen, *reach,
                              "--save", "", "--appendonly", "no", "--dir", str(self.dir)])
        self._wait(lambda: _redis_ping(self.redis_port), "redis", 10)

    def start_gunicorn(self) -> None:
        # gunicorn.conf.py (the production settings) unless --workers/--threads say otherwise;
        # with split, the same number of workers in all, shared by the two groups.
        workers, threads = self.gunicorn_shape()
        if not self.split:
            self._start_web("gunicorn", self.web_port, workers, threads)
            return
        first, second = self.split_workers(workers)
        self._start_web("gunicorn", self.web_port, first, threads)
        self._start_web("gunicorn2", self.web2_port, second, threads)

    @staticmethod
    def split_workers(workers: int) -> tuple[int, int]:
        """The two web groups' workers with split: ``workers`` shared, at least one each."""
        first = max(1, (workers + 1) // 2)
        return first, max(1, workers - first)

    def _start_web(self, name: str, port: int, workers: int, threads: int) -> None:
        bin_dir = Path(sys.executable).parent
        self._spawn(name, [str(bin_dir / "gunicorn"), "config.wsgi",
                           "--bind", f"{HOST}:{port}",
                           "--workers", str(workers), "--threads", str(threads),
                           "--worker-class",
                           "gthread" if threads > 1 else "config.gunicorn_worker.SyncWorker",
                           "--timeout", "60"])
        self._wait(lambda: _http_ok(f"http://{HOST}:{port}/health/"), name, 60)

    def gunicorn_shape(self) -> tuple[int, int]:
        """(workers, threads per worker): as given, else what gunicorn.conf.py derives here."""
        config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
        return (self.workers or config["workers"], self.threads or config["threads"])

    def start_push(self) -> None:
        ports = {"push": self.push_port, **({"push2": self.push2_port} if self.split else {})}
        for name, port in ports.items():
            self._spawn(name, [sys.executable, "-m", "uvicorn", "config.asgi:application",
                               "--host", HOST, "--port", str(port), "--no-access-log",
                               "--log-level", "warning", "--timeout-graceful-shutdown", "2"])
            self._wait(lambda port=port: _http_ok(f"http://{HOST}:{port}/push/health/"),
                       name, 60)

    def proxy_config(self) -> str:
        """nginx's configuration: the web group (one gunicorn, or both with split) and, with
        split, the push group as upstreams; with microcache, the cache in front of the web."""
        run = self.dir / "nginx"
        webs = f"server {HOST}:{self.web_port};" + (
            f" server {HOST}:{self.web2_port};" if self.split else "")
        pushes = (f"server {HOST}:{self.push_port}; server {HOST}:{self.push2_port};"
                  if self.push else f"server {HOST}:{self.push_port} down;")
        push_location = """
        location /push/ {
            proxy_pass http://push;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 1h;
        }""" if self.split else ""
        push_upstream = (f"\n    upstream push {{ least_conn; {pushes} keepalive 32; }}"
                         if self.split else "")
        cache_http = cache_location = ""
        # "off" would cancel every access_log of its level, the cache's own log included
        access = "" if self.microcache else "    access_log off;"
        if self.microcache:
            # Only what the site calls public is kept: the first matching line of the map wins.
            cache_http = f"""
    proxy_cache_path {run / "cache"} levels=1:2 keys_zone=micro:16m max_size=256m
                     inactive=60s use_temp_path=off;
    map $upstream_http_cache_control $not_shared {{
        ~*(private|no-store|no-cache) 1;
        ~*public 0;
        default 1;
    }}
    log_format cache '$upstream_cache_status $request_method $uri $status';
    access_log {run / "cache.log"} cache;"""
            cache_location = f"""
            proxy_cache micro;
            proxy_cache_valid 200 {MICROCACHE_SECONDS}s;
            # the site's own max-age is for browsers; here every public answer is kept
            # MICROCACHE_SECONDS, and what is not public is never kept ($not_shared)
            proxy_ignore_headers Cache-Control Expires;
            proxy_no_cache $not_shared $cookie_sessionid $http_authorization;
            proxy_cache_bypass $cookie_sessionid $http_authorization;
            proxy_cache_lock on;
            proxy_cache_lock_timeout 5s;
            proxy_cache_use_stale updating error timeout;
            proxy_cache_background_update on;
            proxy_cache_revalidate on;
            add_header X-Cache-Status $upstream_cache_status always;"""
        return f"""{nginx_head(run, "bench/load/stack.py")}
{access}
    client_max_body_size 20m;{cache_http}
    upstream web {{ least_conn; {webs} }}{push_upstream}
    server {{
        listen {HOST}:{self.proxy_port} backlog=4096;{push_location}
        location / {{
            proxy_pass http://web;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;{cache_location}
        }}
    }}
}}
"""

    def cache_counts(self, offset: int = 0) -> tuple[dict[str, dict[str, int]], int]:
        """The micro-cache's answers since ``offset`` of its log: per kind of address (its
        path with the numbers taken out), per cache status (HIT, MISS, EXPIRED, UPDATING,
        STALE, REVALIDATED, BYPASS, or "-": not cacheable); and the log's new offset."""
        log = self.dir / "nginx" / "cache.log"
        if not log.exists():
            return {}, offset
        data = log.read_bytes()
        counts: dict[str, dict[str, int]] = {}
        for line in data[offset:].decode(errors="replace").splitlines():
            parts = line.split(" ")
            if len(parts) < 4:
                continue
            kind = "/".join(_path_word(part) for part in parts[2].split("/"))
            by_status = counts.setdefault(kind, {})
            by_status[parts[0]] = by_status.get(parts[0], 0) + 1
        return counts, len(data)

    def start_proxy(self) -> None:
        """nginx in front of the web (split, microcache): our child, stopped by its pid."""
        run = self.dir / "nginx"
        run.mkdir(exist_ok=True)
        conf = run / "nginx.conf"
        conf.write_text(self.proxy_config())
        self._spawn("nginx", [NGINX, "-p", str(run), "-c", str(conf), "-e",
                              str(run / "error.log")])
        self._wait(lambda: _http_ok(f"{self.base_url}/health/"), "nginx", 30)

    def start_celery(self) -> None:
        self.start_worker()
        celery = str(Path(sys.executable).parent / "celery")
        self._spawn("beat", [celery, "-A", "config", "beat", "--loglevel", "WARNING",
                             "--schedule", str(self.dir / "beat-schedule"),
                             "--pidfile", str(self.dir / "beat.pid")])

    def start_worker(self) -> None:
        log = self.dir / "worker.log"
        offset = log.stat().st_size if log.exists() else 0
        celery = str(Path(sys.executable).parent / "celery")
        self._spawn("worker", [celery, "-A", "config", "worker", "--loglevel", "INFO",
                               "--concurrency", str(self.celery_concurrency),
                               "--hostname", f"bench-{self.web_port}@%h", "--without-gossip",
                               "--without-mingle"])
        self._wait(lambda: " ready." in log.read_bytes()[offset:].decode(errors="replace"),
                   "worker", 60)

    def stop_process(self, name: str) -> None:
        """Stop one of our processes by its pid (SIGTERM, then SIGKILL); never raises."""
        proc = self.procs.get(name)
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        except OSError:
            pass

    def _wait(self, ready: Callable[[], bool], name: str, timeout: float) -> None:
        """Until ``ready()``; fails at once when the process ``name`` has exited."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = self.procs.get(name)
            if proc is not None and proc.poll() is not None:
                break
            try:
                if ready():
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{name} did not start; see the logs in {self.dir}")

    # --- process groups (for CPU accounting) ----------------------------------------------
    def roots(self, name: str) -> list[int]:
        """The root pids of a group: ``postgres``, ``gunicorn`` (both web groups with split),
        ``push`` (both push processes), ``nginx``, ``redis``, ``worker``, ``beat``."""
        if name == "postgres":
            pid = self.postgres_pid()
            return [pid] if pid else []
        names = {"gunicorn": ("gunicorn", "gunicorn2"), "push": ("push", "push2")}.get(
            name, (name,))
        return [proc.pid for n in names if (proc := self.procs.get(n)) is not None]

    # --- stop -----------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop everything by pid, the web and the workers first; never raises."""
        for name in ("nginx", "gunicorn", "gunicorn2", "push", "push2", "beat", "worker",
                     "redis"):
            self.stop_process(name)
        self.stop_postgres()

    def stop_postgres(self) -> None:
        data = self.pg_dir / "data"
        if not (data / "postmaster.pid").exists():
            return
        pid = self.postgres_pid()
        subprocess.run(_as_postgres([str(pg_bindir() / "pg_ctl"), "-D", str(data), "-m", "fast",
                                     "-w", "-t", "30", "stop"]),
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if pid is not None and _alive(pid):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _path_word(part: str) -> str:
    """A path segment as its kind: a number is N, a table's token TOKEN, a word itself."""
    if part.isdigit():
        return "N"
    if len(part) >= 16 and any(c.isdigit() or c.isupper() for c in part):
        return "TOKEN"
    return part


def _redis_ping(port: int) -> bool:
    with socket.create_connection((HOST, port), timeout=0.5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(16).startswith(b"+PONG")


def nginx_head(run: Path, writer: str) -> str:
    """The start of a bench's nginx configuration, up to the opening of its ``http`` block and
    the temporary paths in it: one worker, its pid and error log in ``run`` (the run's own
    directory, removed with it), in the foreground; ``writer`` names the bench that wrote it."""
    temp = "\n".join(f"    {kind}_temp_path {run / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""# Written by {writer} for one run; removed with its directory.
worker_processes 1;
pid {run / "nginx.pid"};
error_log {run / "error.log"} warn;
daemon off;
events {{ worker_connections 8192; }}
http {{
{temp}"""


def _http_ok(url: str) -> bool:
    with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - loopback only
        return bool(response.status == 200)
