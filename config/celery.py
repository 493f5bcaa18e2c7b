"""The Celery app. Configuration comes from Django settings (``CELERY_*``), tasks are autodiscovered."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, signals
from django.conf import settings
from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class _QoS(kombu_redis.QoS):
    """kombu's Redis QoS, surviving the loss of Redis while messages are held.

    When Redis goes away while the worker holds unacknowledged messages (a task running, or one
    waiting out its countdown: every standings update waits one), Celery closes the connection
    and kombu then tries to put those messages back through the connection it has just closed;
    the ``AttributeError`` that raises ends the worker ("Unrecoverable error"), and the standings
    would stop catching up until someone restarted it. Here the restore is given up instead:
    the messages are still in Redis's unacknowledged set if Redis kept its data (restored there
    after the visibility timeout), and otherwise the reconcile task rebuilds what they would
    have (every task here is safe to run twice or not at all). The worker then reconnects when
    Redis is back, as it does after any other broker outage.
    """

    def restore_unacked(self, client: Any = None) -> Any:
        try:
            return super().restore_unacked(client)
        except (AttributeError, OSError, RedisError):
            held = self._delivered
            logger.warning("Redis went away: %d unacknowledged message(s) left to the broker "
                           "and the standings reconcile", len(held) if held else 0)
            if held:
                held.clear()
            return None

    def ack(self, delivery_tag: str) -> None:
        if self._stale(delivery_tag):
            return
        super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        if self._stale(delivery_tag):
            return
        super().reject(delivery_tag, requeue=requeue)

    def _stale(self, delivery_tag: str) -> bool:
        """A task that finished while Redis was away is acknowledged (or rejected) only after
        the worker has reconnected, through the channel that the outage closed. That channel
        can no longer reach Redis, and kombu's attempt raises the ``AttributeError`` that ends
        the worker. The message is then left as :meth:`restore_unacked` left it."""
        if self.channel.connection is not None:
            return False
        logger.info("message %s was delivered on a channel a broker outage closed: "
                    "not acknowledged", delivery_tag)
        self._delivered.pop(delivery_tag, None)
        return True


class _Channel(kombu_redis.Channel):
    QoS = _QoS

    def _connparams(self, asynchronous: bool = False) -> Any:
        # After the connection was closed (Redis away) an acknowledgement or a restore asks for
        # a new client through it: say "connection error", which Celery logs and recovers from,
        # rather than the AttributeError kombu would raise, which ends the worker.
        if self.connection is None or self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed (Redis went away)")
        return super()._connparams(asynchronous)  # type: ignore[misc]


class RedisTransport(kombu_redis.Transport):
    """The Redis broker transport with :class:`_QoS` (``CELERY_BROKER_TRANSPORT``)."""

    Channel = _Channel


# The same default as config/wsgi.py: a worker started like the web server gets the same settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.after_setup_logger.connect
def show_task_durations(**_: object) -> None:
    """A worker (or beat) has set up its logging: log each task's outcome and duration
    ("Task standings.tasks.compute_standings[…] succeeded in 0.041s: 7"). The settings keep
    ``celery.app.trace`` at WARNING for the web processes, where the embedded default runs
    every task inline and a line per hand would flood the log."""
    logging.getLogger("celery.app.trace").setLevel(logging.INFO)


@signals.worker_init.connect
def lower_worker_priority(**_: object) -> None:
    """A worker runs at ``WORKER_NICENESS`` (10) before it forks its children, which inherit it.
    Its tasks are background work (standings, rounds, ratings); the web processes on the same
    machine answer people. When both want the CPU at once (a snapshot rendered as the room's
    phones poll), the kernel now lets the requests go first; alone, the worker runs as fast as
    before. On a machine of its own it changes nothing."""
    niceness = getattr(settings, "WORKER_NICENESS", 0)
    if niceness > 0:
        os.nice(niceness)


@signals.worker_ready.connect
def catch_up(sender: object = None, **_: object) -> None:
    """A worker has started (after a crash, perhaps one that lost what it held): it asks at
    once for the reconciles beat runs periodically, so an automatic advance lost with the last
    worker is done within seconds of the restart rather than at beat's next tick, or the
    broker's redelivery minutes later."""
    for name in ("draw.tasks.reconcile_advances", "standings.tasks.reconcile_standings"):
        try:
            app.send_task(name, ignore_result=True)
        except Exception:  # noqa: BLE001 - the broker away: beat catches up later
            logging.getLogger(__name__).warning("could not queue %s at start", name)


@app.task(name="config.ping")
def ping(value: str = "pong") -> str:
    """A trivial round trip used by health checks and the integration tests."""
    return value
