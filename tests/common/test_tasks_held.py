"""``common.tasks.tasks_held``: the event generator's worker between the director's steps.

Tasks queued inside the block are kept until released, in the order queued; a task that a
kept task queues runs in the same release; the marks that stop a second run being queued hold
until the run starts, so many requests make one run; what is kept when the block ends runs then.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache

from common.tasks import _queue_once, task_queue, tasks_held
from config.celery import app

RECORD = "tests.common.test_tasks_held.record"
FOLLOW = "tests.common.test_tasks_held.follow"
MARK = "tests:held:mark"
ran: list[object] = []


@app.task(name=RECORD)
def record(value: object) -> None:
    cache.delete(MARK)  # as a pending run clears its mark as it starts
    ran.append(value)


@app.task(name=FOLLOW)
def follow(value: object) -> None:
    ran.append(value)
    task_queue(RECORD, args=(f"after {value}",), on_commit=False)


@pytest.fixture(autouse=True)
def _fresh() -> None:
    ran.clear()
    cache.delete(MARK)


def test_kept_tasks_run_when_released_in_the_order_queued() -> None:
    with tasks_held() as release:
        task_queue(RECORD, args=(1,), on_commit=False)
        task_queue(RECORD, args=(2,), on_commit=False)
        assert ran == []
        assert release() == 2
        assert ran == [1, 2]
        assert release() == 0


def test_a_task_queued_by_a_kept_task_runs_in_the_same_release() -> None:
    with tasks_held() as release:
        task_queue(FOLLOW, args=("a",), on_commit=False)
        assert release() == 2
    assert ran == ["a", "after a"]


def test_requests_behind_one_mark_make_one_run_until_it_starts() -> None:
    with tasks_held() as release:
        for value in range(5):
            _queue_once(MARK, RECORD, (value,), countdown=0, pending_for=30)
        release()
        assert ran == [0]
        _queue_once(MARK, RECORD, ("next",), countdown=0, pending_for=30)
    # the block's end runs what was still kept, and queueing is immediate again after it
    assert ran == [0, "next"]
    task_queue(RECORD, args=("inline",), on_commit=False)
    assert ran == [0, "next", "inline"]
