"""Health checks of the background processes: beat's heartbeat (written on every tick of its
scheduler, checked by ``manage.py beat_health``) and a worker answering ``inspect ping``."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command

from config.celery import app
from standings.beat import HEARTBEAT_KEY, HEARTBEAT_SECONDS, HeartbeatScheduler

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).parent / "celery")


def _beat_health(*args: str) -> str:
    out = io.StringIO()
    call_command("beat_health", *args, stdout=out)
    return out.getvalue()


def test_no_heartbeat_is_unhealthy() -> None:
    with pytest.raises(CommandError, match="no heartbeat"):
        _beat_health()


def test_a_tick_of_the_scheduler_writes_the_heartbeat(tmp_path: Path) -> None:
    scheduler = HeartbeatScheduler(app=app, schedule_filename=str(tmp_path / "schedule"))
    try:
        delay = scheduler.tick()
    finally:
        scheduler.close()
    assert 0 <= delay <= HEARTBEAT_SECONDS  # the loop comes back in time for the next beat
    assert "beat: alive, last heartbeat 0 s ago" in _beat_health()


def test_an_old_heartbeat_is_unhealthy() -> None:
    cache.set(HEARTBEAT_KEY, {"at": time.time() - 600, "host": "beat-1", "pid": 42})
    with pytest.raises(CommandError, match="600 s ago from beat-1 pid 42, older than 60 s"):
        _beat_health()
    assert "alive" in _beat_health("--max-age", "900")


def test_beat_runs_with_the_heartbeat_scheduler() -> None:
    assert app.conf.beat_scheduler == "standings.beat:HeartbeatScheduler"


@pytest.mark.integration
def test_a_real_beat_process_passes_its_health_check(servers, tmp_path: Path) -> None:
    beat = subprocess.Popen(
        [CELERY, "-A", "config", "beat", "--loglevel", "INFO",
         "--schedule", str(tmp_path / "schedule"), "--pidfile", str(tmp_path / "beat.pid")],
        cwd=ROOT, env=servers.worker_env(), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        healthy = ""
        deadline = time.monotonic() + 60  # a wait for start-up, not a measurement
        while not healthy and time.monotonic() < deadline:
            try:
                healthy = _beat_health()
            except CommandError:
                time.sleep(0.5)
        assert "beat: alive" in healthy
    finally:
        beat.terminate()
        beat.wait(timeout=30)


@pytest.mark.integration
def test_the_worker_answers_its_health_check(servers) -> None:
    # README: `celery -A config inspect ping -d <worker name>`; the test worker's name is
    # test-<redis port>@<host>.
    node = f"test-{servers.redis_port}@{socket.gethostname()}"
    result = subprocess.run([CELERY, "-A", "config", "inspect", "ping", "-d", node,
                             "--timeout", "10"], cwd=ROOT, env=servers.worker_env(),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pong" in result.stdout
    missing = subprocess.run([CELERY, "-A", "config", "inspect", "ping", "-d",
                              "nobody@nowhere", "--timeout", "2"], cwd=ROOT,
                             env=servers.worker_env(), capture_output=True, text=True,
                             timeout=120)
    assert missing.returncode != 0  # no such worker: the check fails
