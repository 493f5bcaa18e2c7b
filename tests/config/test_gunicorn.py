"""gunicorn.conf.py: workers from the CPU count, threads, timeouts and the access log's format
from the environment, and a real gunicorn logging each request with the time it took."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def _env(**over: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GUNICORN_", "WEB_CONCURRENCY"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.base", DJANGO_DEBUG="false", **over)
    return env


def _config(**over: str) -> dict[str, str]:
    result = subprocess.run([GUNICORN, "config.wsgi", "--print-config"], cwd=ROOT,
                            env=_env(**over), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return {k.strip(): v.strip() for k, _, v in
            (line.partition("=") for line in result.stdout.splitlines()) if _}


def test_workers_come_from_the_cpu_count() -> None:
    config = _config()
    cpus = len(os.sched_getaffinity(0))
    assert int(config["workers"]) == min(2 * cpus + 1, 16)
    assert config["worker_class"] == "sync" and config["threads"] == "1"
    assert config["timeout"] == "30" and config["keepalive"] == "5"
    assert "%(M)sms" in config["access_log_format"]  # the request's time, in milliseconds


def test_the_environment_sets_workers_threads_and_timeouts() -> None:
    config = _config(WEB_CONCURRENCY="3", GUNICORN_THREADS="4", GUNICORN_TIMEOUT="45",
                     GUNICORN_KEEPALIVE="2")
    assert config["workers"] == "3"
    assert config["worker_class"] == "gthread" and config["threads"] == "4"
    assert config["timeout"] == "45" and config["keepalive"] == "2"
    assert _config(GUNICORN_MAX_WORKERS="2")["workers"] == "2"


def test_a_malformed_number_stops_start_up_naming_the_variable() -> None:
    result = subprocess.run([GUNICORN, "config.wsgi", "--print-config"], cwd=ROOT,
                            env=_env(GUNICORN_THREADS="lots"), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode != 0
    assert "GUNICORN_THREADS must be a whole number" in result.stdout + result.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_access_log_has_one_line_per_request_with_its_time(tmp_path: Path) -> None:
    port = _free_port()
    log = tmp_path / "access.log"
    server = subprocess.Popen(
        [GUNICORN, "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
         "--access-logfile", str(log)],
        cwd=ROOT, env=_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
                           DJANGO_ALLOWED_HOSTS="127.0.0.1"),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        body = None
        deadline = time.monotonic() + 60  # a wait for start-up, not a measurement
        while body is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/", timeout=5) as r:
                    body = r.read()
            except OSError:
                time.sleep(0.3)
        assert body is not None and b'"database": "ok"' in body
    finally:
        server.terminate()
        server.wait(timeout=30)
    lines = log.read_text().splitlines()
    assert any(re.search(r'"GET /health/ HTTP/1\.1" 200 \d+ \d+ms ', line) for line in lines), \
        lines
