"""A worker's log shows each task's outcome and duration; the web processes (and the embedded
default, where every task runs inline) do not log a line per task."""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

import pytest

from config.celery import ping


def test_inline_tasks_log_no_line_each(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    assert ping.delay("inline").get() == "inline"  # eager in the test settings
    assert logging.getLogger("celery.app.trace").getEffectiveLevel() == logging.WARNING
    assert not [r for r in caplog.records if r.name == "celery.app.trace"]


@pytest.mark.integration
def test_the_worker_logs_each_task_with_its_duration(servers, celery_app_live) -> None:
    log = servers.worker_logfile
    start = log.stat().st_size
    result = ping.delay("timed")
    assert result.get(timeout=30) == "timed"
    task_id = result.id
    deadline = time.monotonic() + 30  # the worker writes the line after answering
    text = ""
    while time.monotonic() < deadline:
        with log.open() as fh:
            fh.seek(start)
            text = fh.read()
        if f"[{task_id}] succeeded in" in text:
            break
        time.sleep(0.2)
    assert f"Task config.ping[{task_id}] succeeded in" in text, text[-2000:]


def _niceness(pid: int) -> int:
    # /proc/<pid>/stat: the command name is in parentheses and may hold spaces; the niceness
    # is the 17th field after it.
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


def _children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines()
                          if ":\t" in line)
        except OSError:  # the process ended while we looked
            continue
        if fields.get("PPid", "").strip() == str(pid):
            found.append(int(status.parent.name))
    return found


@pytest.mark.integration
def test_the_worker_and_its_children_run_below_the_web_processes(servers) -> None:
    """WORKER_NICENESS (10 by default): background tasks yield the CPU to people's requests."""
    pid = int(servers.worker_pidfile.read_text().split()[0])
    assert _niceness(pid) == 10 > os.nice(0)  # this test process runs at the default
    children = _children(pid)
    assert children, "the worker has no pool processes"
    assert {_niceness(child) for child in children} == {10}


@pytest.mark.integration
def test_the_worker_replaces_a_child_after_its_share_of_tasks(servers, celery_app_live) -> None:
    """CELERY_MAX_TASKS_PER_CHILD (1000 by default): the real worker's pool says it replaces a
    child process after that many tasks, so a long day's leftovers are given back."""
    stats = celery_app_live.control.inspect(timeout=10).stats() or {}
    assert stats, "the worker did not answer"
    pools = [worker["pool"] for worker in stats.values()]
    assert {pool.get("max-tasks-per-child") for pool in pools} == {1000}
