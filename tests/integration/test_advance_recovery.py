"""The automatic advance survives the faults of a real evening (the real worker, Redis and beat):
a worker killed while it holds the job of the last confirmation, or Redis away at that moment,
loses the job; once the worker is back (or beat's next tick after Redis returns) the next game is
seated, exactly once. The director screen shows an advance that is overdue, with "seat now"."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.core.cache import cache

from draw.services import round_create
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from tests.integration.test_standings_live import wait_until
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, EventLog, Round

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
RECOVERY_SECONDS = 30  # after the worker is back, or beat's first tick after Redis is back


@pytest.fixture(autouse=True)
def _fresh_cache(servers):
    cache.clear()
    yield


def _event() -> Event:
    return progressive_event(8, deals_per_round=1, format_settings={"cut": 4})


def _play_all_but_last_confirmation(round_: Round) -> Game:
    """Every game played and confirmed but the last table's, which is left finished."""
    tables = list(round_.tables.order_by("number"))
    for table in tables:
        hand_submit(game=table.game, number=1, values=values())
    for table in tables[:-1]:
        game_confirm(game=table.game, position="N")
    last = tables[-1].game
    last.refresh_from_db()
    assert last.status == Game.Status.FINISHED
    return last


def _seated_once(event: Event) -> bool:
    return event.rounds.filter(number=2).count() == 1


def _assert_exactly_once(event: Event) -> None:
    time.sleep(2)  # a duplicate job, if any, would land now
    assert event.rounds.filter(number=2).count() == 1
    assert EventLog.objects.filter(event=event, action="round_seated",
                                   details__round=2).count() == 1
    assert event.rounds.get(number=1).status == Round.Status.CLOSED


def _held(broker: redis.Redis, task: str) -> bool:
    """Whether the worker holds a job of ``task``, taken off the queue and not acknowledged."""
    return any(f'"task": "{task}"'.encode() in message
               for message in broker.hvals("unacked"))


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_a_worker_killed_holding_the_advance_seats_the_next_game_once_it_is_back(
    servers, celery_app_live
) -> None:
    event = _event()
    first = round_create(event=event)
    last = _play_all_but_last_confirmation(first)
    broker = redis.Redis.from_url(servers.redis_url)
    # The worker is idle first (the earlier confirmations' jobs done), so it takes the advance.
    assert wait_until(lambda: not broker.llen("celery") and not broker.hlen("unacked"),
                      timeout=30)
    main = int(servers.worker_pidfile.read_text().split()[0])
    pool = _children(main)
    assert pool, "the worker has no pool processes"
    # The pool stops working: the main process still takes the job off the queue (unacknowledged,
    # redelivered only after the broker's visibility timeout of minutes) and then dies with it.
    for pid in pool:
        os.kill(pid, signal.SIGSTOP)
    try:
        game_confirm(game=last, position="E")
        assert wait_until(lambda: _held(broker, "draw.tasks.round_confirmed"), timeout=10), (
            "the worker did not take the advance's job")
        assert not event.rounds.filter(number=2).exists()
    finally:
        for pid in [main, *pool]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        servers.worker_pidfile.unlink(missing_ok=True)
        servers.start_worker()
    assert wait_until(lambda: _seated_once(event), timeout=RECOVERY_SECONDS), (
        "game 2 was not seated after the worker came back")
    _assert_exactly_once(event)


def test_redis_away_at_the_last_confirmation_is_caught_up_by_beat(servers, celery_app_live,
                                                                  tmp_path) -> None:
    event = _event()
    first = round_create(event=event)
    last = _play_all_but_last_confirmation(first)
    servers.stop_redis()
    try:
        game_confirm(game=last, position="E")  # stored; the advance cannot be queued
    finally:
        servers.start_redis()
    last.refresh_from_db()
    assert last.status == Game.Status.CONFIRMED
    time.sleep(2)
    assert not event.rounds.filter(number=2).exists(), "the advance was not lost after all"
    env = servers.worker_env() | {"ADVANCE_RECONCILE_SECONDS": "2"}
    pidfile = tmp_path / "beat.pid"
    beat = subprocess.Popen(
        [str(Path(sys.executable).parent / "celery"), "-A", "config", "beat",
         "--pidfile", str(pidfile), "--schedule", str(tmp_path / "beat-schedule"),
         "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert wait_until(lambda: _seated_once(event), timeout=RECOVERY_SECONDS), (
            "beat's reconcile did not seat game 2")
    finally:
        beat.terminate()
        try:
            beat.wait(timeout=10)
        except subprocess.TimeoutExpired:
            beat.kill()
    _assert_exactly_once(event)
