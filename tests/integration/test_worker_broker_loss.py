"""The Celery worker outlives Redis going away while it holds messages (`make test`'s real
worker and Redis; config/celery.py, RedisTransport).

kombu 5 puts a worker's unacknowledged messages back through the connection it has just closed
and dies of the error ("Unrecoverable error: AttributeError"); every hand queues a standings
update that waits a moment in the worker, so on a live evening that was nearly every Redis
outage. The worker must stay, reconnect, and the standings must end exactly right."""

from __future__ import annotations

import os
import time

import pytest

from config.celery import app, ping
from standings.tasks import reconcile_standings
from tests.integration.test_standings_live import (
    assert_exactly_right,
    build_event,
    enter,
    publish,
)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def worker_pid(servers) -> int:
    return int(servers.worker_pidfile.read_text().split()[0])


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_the_worker_stays_when_redis_goes_away_while_it_holds_a_message(
    servers, celery_app_live
) -> None:
    pid = worker_pid(servers)
    # A task waiting out a countdown is held, unacknowledged, by the worker.
    reconcile_standings.apply_async(countdown=30, ignore_result=True)
    time.sleep(1.5)
    assert app.control.inspect(timeout=5).scheduled(), "the worker holds no message"
    servers.stop_redis()
    try:
        time.sleep(3)
        assert alive(pid), "the worker died when Redis went away"
    finally:
        servers.start_redis()
    # The same worker process reconnects and works again.
    assert publish(lambda: ping.apply_async(args=("back",)).get(timeout=30)) == "back"
    assert worker_pid(servers) == pid and alive(pid)


def test_standings_end_exactly_right_when_redis_goes_away_mid_update(
    servers, celery_app_live
) -> None:
    event, games = build_event(players=8)
    for game in games:
        enter(game, 1)
    # The update these hands queued waits out its debounce in the worker: Redis goes now.
    servers.stop_redis()
    try:
        for game in games:
            enter(game, 2)
    finally:
        servers.start_redis()
    publish(lambda: reconcile_standings.apply_async(ignore_result=True))
    assert_exactly_right(event)
    assert alive(worker_pid(servers))
