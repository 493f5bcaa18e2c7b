"""Start and stop the throwaway servers the test suite runs against.

``python scripts/testservers.py start DIR`` starts, on free loopback ports, a PostgreSQL cluster,
a Redis, a Celery worker and the push process (uvicorn serving ``config.asgi``; the worker
publishes to it), all with pidfiles under DIR, and writes ``DIR/env`` (shell ``export`` lines)
for the test run. A second, quiet Redis (``TEST_QUIET_REDIS_URL``) serves the test lanes that run
beside the integration tests: those stop and restart the first one. ``stop DIR`` stops each by its pid. The integration tests import
:class:`Servers` to stop and restart Redis, the worker and the push process in the middle of a
test.
Everything started here is stopped by pid, never by name.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "pinochle"
# Migrated once by scripts/test.sh; every test runner's database is copied from it
# (config/settings/test.py, TEST_DATABASE_TEMPLATE).
TEMPLATE_DB_NAME = "pinochle_template"
DB_USER = "pinochle"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pg_bindir() -> Path:
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)
    )
    if not candidates:
        sys.exit("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin)")
    return candidates[-1]


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return not _alive(pid)


def _answers(port: int, request: bytes, expected: bytes) -> bool:
    """Whether a server on 127.0.0.1:``port`` answers ``request`` with ``expected`` first."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(request)
            return sock.recv(64).startswith(expected)
    except OSError:
        return False


def _stop_pid(path: Path, timeout: float = 20.0) -> None:
    pid = _read_pid(path)
    if pid is None or not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pid, timeout):
        os.kill(pid, signal.SIGKILL)
        _wait_gone(pid, 5)


@dataclass
class Servers:
    dir: Path
    pg_port: int
    redis_port: int
    push_port: int = 0  # 0: no push process (servers started before it existed)
    quiet_redis_port: int = 0  # 0: no quiet Redis

    @classmethod
    def from_env(cls) -> Servers:
        missing = [n for n in ("TEST_SERVERS_DIR", "TEST_PG_PORT", "TEST_REDIS_PORT") if n not in os.environ]
        if missing:
            raise RuntimeError(
                f"{', '.join(missing)} not set: integration tests run under `make test`, "
                "which starts PostgreSQL, Redis and a Celery worker"
            )
        return cls(
            dir=Path(os.environ["TEST_SERVERS_DIR"]),
            pg_port=int(os.environ["TEST_PG_PORT"]),
            redis_port=int(os.environ["TEST_REDIS_PORT"]),
            push_port=int(os.environ.get("TEST_PUSH_PORT", "0")),
            quiet_redis_port=int(os.environ.get("TEST_QUIET_REDIS_PORT", "0")),
        )

    # --- paths and URLs ---------------------------------------------------------------------
    @property
    def pgdata(self) -> Path:
        return self.dir / "pg"

    @property
    def redis_pidfile(self) -> Path:
        return self.dir / "redis.pid"

    @property
    def quiet_redis_pidfile(self) -> Path:
        return self.dir / "redis-quiet.pid"

    @property
    def worker_pidfile(self) -> Path:
        return self.dir / "worker.pid"

    @property
    def worker_logfile(self) -> Path:
        return self.dir / "worker.log"

    @property
    def push_pidfile(self) -> Path:
        return self.dir / "push.pid"

    @property
    def push_url(self) -> str:
        """``PUSH_URL`` of the push process ("" when there is none)."""
        return f"http://127.0.0.1:{self.push_port}/push/" if self.push_port else ""

    @property
    def database_url(self) -> str:
        return f"postgres://{DB_USER}@127.0.0.1:{self.pg_port}/{DB_NAME}"

    @property
    def worker_database_url(self) -> str:
        # pytest-django runs the suite in test_<name>; the worker must see the same rows.
        return f"postgres://{DB_USER}@127.0.0.1:{self.pg_port}/test_{DB_NAME}"

    @property
    def redis_url(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # --- PostgreSQL -------------------------------------------------------------------------
    def start_postgres(self) -> None:
        bindir = pg_bindir()
        self.pgdata.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
            shutil.chown(self.pgdata, "postgres")
        subprocess.run(
            _as_postgres([str(bindir / "initdb"), "-D", str(self.pgdata), "-U", "postgres",
                          "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]),
            check=True, stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            _as_postgres([
                str(bindir / "pg_ctl"), "-D", str(self.pgdata), "-l", str(self.dir / "pg.log"),
                "-o", f"-p {self.pg_port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                "-c max_connections=200",
                "-w", "start",
            ]),
            check=True, stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres",
             "-q", "-c", f"CREATE ROLE {DB_USER} LOGIN CREATEDB SUPERUSER",
             "-c", f"CREATE DATABASE {DB_NAME} OWNER {DB_USER}",
             "-c", f"CREATE DATABASE {TEMPLATE_DB_NAME} OWNER {DB_USER}"],
            check=True,
        )

    def stop_postgres(self) -> None:
        if (self.pgdata / "postmaster.pid").exists():
            subprocess.run(
                _as_postgres([str(pg_bindir() / "pg_ctl"), "-D", str(self.pgdata), "-m", "fast",
                              "-w", "stop"]),
                check=False, stdout=subprocess.DEVNULL,
            )

    # --- Redis ------------------------------------------------------------------------------
    def start_redis(self) -> None:
        self._start_redis(self.redis_port, self.redis_pidfile, "redis.log")

    def start_quiet_redis(self) -> None:
        if self.quiet_redis_port:
            self._start_redis(self.quiet_redis_port, self.quiet_redis_pidfile, "redis-quiet.log")

    def _start_redis(self, port: int, pidfile: Path, logname: str) -> None:
        subprocess.run(
            ["redis-server", "--daemonize", "yes", "--port", str(port),
             "--bind", "127.0.0.1", "--pidfile", str(pidfile), "--dir", str(self.dir),
             "--save", "", "--appendonly", "no", "--logfile", str(self.dir / logname)],
            check=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if _answers(port, b"PING\r\n", b"+PONG"):
                return
            time.sleep(0.1)
        raise RuntimeError(f"Redis did not answer on port {port}")

    def stop_redis(self) -> None:
        _stop_pid(self.redis_pidfile)

    def stop_quiet_redis(self) -> None:
        _stop_pid(self.quiet_redis_pidfile)

    # --- Celery worker ----------------------------------------------------------------------
    def worker_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.base",
            DATABASE_URL=self.worker_database_url,
            REDIS_URL=self.redis_url,
            DJANGO_DEBUG="false",
        )
        # The worker publishes each new snapshot to the push process (standings.push).
        if self.push_url:
            env["PUSH_URL"] = self.push_url
        return env

    def start_worker(self, timeout: float = 120.0) -> None:
        log = self.worker_logfile
        offset = log.stat().st_size if log.exists() else 0
        subprocess.run(
            [str(Path(sys.executable).parent / "celery"), "-A", "config", "worker",
             "--pidfile", str(self.worker_pidfile), "--logfile", str(log), "--loglevel", "INFO",
             "--concurrency", "2", "--hostname", f"test-{self.redis_port}@%h", "--detach"],
            check=True, cwd=ROOT, env=self.worker_env(),
        )
        deadline = time.monotonic() + timeout
        started = time.monotonic()
        while time.monotonic() < deadline:
            if log.exists():
                with log.open() as fh:
                    fh.seek(offset)
                    if " ready." in fh.read():
                        return
            pid = _read_pid(self.worker_pidfile)
            waited = time.monotonic() - started
            # The detached worker died (e.g. an import error): say why below. On a loaded
            # machine its pidfile can take a while to appear, so only a missing pidfile after
            # half the timeout counts as dead.
            if (pid is not None and not _alive(pid)) or (pid is None and waited > timeout / 2):
                break
            time.sleep(0.2)
        # Run the app import in the foreground to show the error the detached worker hid.
        check = subprocess.run(
            [sys.executable, "-c", "import django; django.setup(); import config.celery"],
            cwd=ROOT, env=self.worker_env(), capture_output=True, text=True,
        )
        raise RuntimeError(
            f"the Celery worker did not become ready; see {log}\n{check.stderr[-2000:]}"
        )

    def stop_worker(self) -> None:
        _stop_pid(self.worker_pidfile, timeout=30)

    # --- the push process (uvicorn) ---------------------------------------------------------
    def start_push(self, timeout: float = 60.0) -> None:
        """uvicorn serving ``config.asgi`` (the push streams) on ``push_port``, in its own
        session with a pidfile; waits until it answers (403 for a stream without a token)."""
        env = self.worker_env()
        log = (self.dir / "push.log").open("ab")
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.push_port), "--no-access-log", "--log-level", "warning",
             "--timeout-graceful-shutdown", "2"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        log.close()
        self.push_pidfile.write_text(f"{process.pid}\n")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the push process exited; see {self.dir / 'push.log'}")
            if _answers(self.push_port, b"GET /push/events/1/ HTTP/1.0\r\n\r\n",
                        b"HTTP/1.1 403"):
                return
            time.sleep(0.2)
        raise RuntimeError(f"the push process did not answer on port {self.push_port}")

    def stop_push(self) -> None:
        _stop_pid(self.push_pidfile, timeout=10)

    def write_env(self) -> None:
        lines = {
            "TEST_SERVERS_DIR": str(self.dir),
            "TEST_PG_PORT": str(self.pg_port),
            "TEST_REDIS_PORT": str(self.redis_port),
            "TEST_PUSH_PORT": str(self.push_port),
            "TEST_QUIET_REDIS_PORT": str(self.quiet_redis_port),
            "TEST_QUIET_REDIS_URL": f"redis://127.0.0.1:{self.quiet_redis_port}/0",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
        }
        (self.dir / "env").write_text("".join(f"export {k}={v}\n" for k, v in lines.items()))


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in {"start", "stop"}:
        print("usage: testservers.py start|stop DIR", file=sys.stderr)
        return 2
    directory = Path(argv[2]).resolve()
    if argv[1] == "start":
        directory.mkdir(parents=True, exist_ok=True)
        servers = Servers(directory, free_port(), free_port(), free_port(), free_port())
        servers.write_env()
        servers.start_postgres()
        servers.start_redis()
        servers.start_quiet_redis()
        servers.start_push()
        servers.start_worker()
        print(f"PostgreSQL on {servers.pg_port}, Redis on {servers.redis_port} (quiet one on "
              f"{servers.quiet_redis_port}), push on {servers.push_port}, worker ready")
        return 0
    env = dict(
        line.removeprefix("export ").split("=", 1)
        for line in (directory / "env").read_text().splitlines()
        if line
    )
    servers = Servers(directory, int(env["TEST_PG_PORT"]), int(env["TEST_REDIS_PORT"]),
                      int(env.get("TEST_PUSH_PORT", "0")), int(env.get("TEST_QUIET_REDIS_PORT", "0")))
    servers.stop_worker()
    servers.stop_push()
    servers.stop_redis()
    servers.stop_quiet_redis()
    servers.stop_postgres()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
