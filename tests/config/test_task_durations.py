"""A worker's log shows each task's outcome and duration; the web processes (and the embedded
default, where every task runs inline) do not log a line per task."""

from __future__ import annotations

import logging
import time

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
