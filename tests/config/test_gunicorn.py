"""gunicorn.conf.py: workers from the CPU count, threads, timeouts and the access log's format
from the environment, and a real gunicorn logging each request with the time it took."""

from __future__ import annotations

import gc
import os
import re
import runpy
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from config.gunicorn_worker import close_after_answer

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
    assert config["worker_class"] == "config.gunicorn_worker.SyncWorker"
    assert config["threads"] == "1"
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


def test_a_worker_freezes_what_it_loaded_out_of_the_collector_s_reach() -> None:
    """Once a worker has loaded the application, its objects are frozen (``gc.freeze``): a
    full collection during a request no longer scans them."""
    assert "post_worker_init" in _config().get("post_worker_init", "")
    hooks = runpy.run_path(str(Path(ROOT) / "gunicorn.conf.py"))
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        hooks["post_worker_init"](None)
        assert gc.get_freeze_count() > 1000
    finally:
        gc.unfreeze()


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


def _connected() -> tuple[socket.socket, socket.socket]:
    """A client and the server's side of one TCP connection on the loopback."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        client = socket.create_connection(listener.getsockname())
        server, _ = listener.accept()
    return client, server


def _closed_in_thread(server: socket.socket, timeout: float) -> threading.Thread:
    closing = threading.Thread(target=close_after_answer, args=(server,),
                               kwargs={"timeout": timeout}, daemon=True)
    closing.start()
    return closing


def test_a_worker_closes_without_waiting_for_the_client_to_hang_up() -> None:
    """The client sent its request and is reading: the worker closes at once (gunicorn's own
    close would wait up to its timeout for the client to close first), and the client still
    gets the whole answer, then the end of the connection."""
    client, server = _connected()
    with client:
        client.sendall(b"GET /health/ HTTP/1.1\r\nHost: x\r\n\r\n")
        assert server.recv(4096).startswith(b"GET /health/")
        answer = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + b"x" * 200_000
        server.sendall(answer)
        closing = _closed_in_thread(server, timeout=60)
        closing.join(10)
        assert not closing.is_alive()  # did not wait for the client
        received = b""
        while chunk := client.recv(65536):
            received += chunk
        assert received == answer


def test_a_worker_drains_a_client_still_sending_before_it_closes() -> None:
    """Bytes the view never read (a body sent after the answer began) are drained until the
    client closes, so the kernel never resets the connection under the answer."""
    client, server = _connected()
    with client:
        answer = b"HTTP/1.1 413 Content Too Large\r\nConnection: close\r\n\r\n"
        server.sendall(answer)
        client.sendall(b"y" * 30_000)  # the rest of a body nobody reads
        closing = _closed_in_thread(server, timeout=60)
        received = b""
        while chunk := client.recv(65536):  # a reset would raise ConnectionResetError here
            received += chunk
        assert received == answer
        assert closing.is_alive()  # still draining: it waits for the client to close
        client.shutdown(socket.SHUT_WR)
        closing.join(10)
        assert not closing.is_alive()
