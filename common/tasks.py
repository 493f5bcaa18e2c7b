"""Queueing work by task name, so a low app never imports the higher app that does the work.

Scoring stores a hand and asks for the standings to catch up; the director's "Seat round N" asks
for a round to be built. The apps that define those tasks (``standings``, ``draw``) sit above the
apps that ask, so the request goes by the task's registered name. Celery's ``send_task`` would do
that too, but it bypasses eager mode; looking the task up in the app's registry keeps the embedded
default (``CELERY_TASK_ALWAYS_EAGER``) running the work inline.

Queueing never raises: a broker outage must not fail the write that asked for the work (the
standings reconcile task, or the director asking again, catches up).

:func:`tasks_held` keeps the tasks queued inside it until released, as a worker behind its
debounce would take them: the event generator (``archive.generate``) plays hundreds of hands
between two of the director's steps, and running the standings after each one inline would cost
more than the hands.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, TypedDict

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, transaction

logger = logging.getLogger(__name__)

# Names of the tasks other apps ask for (each defined in the named module).
STANDINGS_UPDATE = "standings.tasks.compute_standings"
STANDINGS_UPDATE_PENDING = "standings.tasks.compute_pending_standings"
STANDINGS_PUSH = "standings.tasks.publish_standings"
ROUND_SEAT = "draw.tasks.seat_round"
ROUND_CONFIRMED = "draw.tasks.round_confirmed"
RATE_GAME = "league.tasks.rate_game"
RATE_PENDING = "league.tasks.rate_pending"
RATE_EVENT = "league.tasks.rate_event"

STANDINGS_PENDING_KEY = "standings:pending:{event_id}"
# The events waiting for their standings (a sorted set, oldest first) and the mark of the one
# run queued for all of them.
STANDINGS_PENDING_EVENTS_KEY = "standings:pending:events"
STANDINGS_PENDING_RUN_KEY = "standings:pending:run"
RATINGS_PENDING_KEY = "ratings:pending:{round_id}"
# The games waiting to be rated (a sorted set) and the mark of the one run queued for all of them.
RATINGS_PENDING_GAMES_KEY = "ratings:pending:games"
RATINGS_PENDING_RUN_KEY = "ratings:pending:run"


class TaskRetry(TypedDict):
    """Celery's retry options of a task (:func:`db_task_retry`)."""

    autoretry_for: tuple[type[Exception], ...]
    retry_backoff: int
    retry_backoff_max: int
    max_retries: int


def db_task_retry() -> TaskRetry:
    """Celery options of a task that works on the database: transient database trouble
    (a dropped connection, a failover) is retried with backoff up to a minute apart, as
    ``TASK_RETRY_POLICY`` says; anything else is a bug to see in the logs."""
    return {
        "autoretry_for": (OperationalError, InterfaceError),
        "retry_backoff": settings.TASK_RETRY_POLICY["countdown"],
        "retry_backoff_max": 60,
        "max_retries": settings.TASK_RETRY_POLICY["max_retries"],
    }


def task_by_name(name: str) -> Any:
    """The registered task called ``name`` (importing the apps' task modules on first use).

    The modules are found through the apps here and now, not through the loader's
    ``import_default_modules``: its Django fix-up runs ``django.setup()`` again, which
    configures logging anew (every handler of the root logger replaced) in the middle of the
    first request of a web process that queues a task."""
    tasks = current_app.tasks
    if name not in tasks:
        current_app.autodiscover_tasks(force=True)
    return tasks[name]


# The tasks queued while held (:func:`tasks_held`), in the order queued; None: not held.
_HELD: ContextVar[list[tuple[str, tuple[object, ...]]] | None] = ContextVar("tasks_held",
                                                                            default=None)


@contextlib.contextmanager
def tasks_held() -> Iterator[Callable[[], int]]:
    """Within: a task queued is kept, not sent. The ``release`` yielded runs every task kept so
    far in the order queued (and those they queue in turn), as a worker would after its
    debounce, and returns how many ran; the marks that keep a second run from being queued
    (``_queue_once``) stay set until the run starts, so a hundred hands of one event kept
    between two releases make one standings run, as on a live night. Whatever is still kept
    when the block ends is run then. Call ``release`` outside any transaction."""
    held: list[tuple[str, tuple[object, ...]]] = []
    token = _HELD.set(held)

    def release() -> int:
        ran = 0
        while held:
            name, args = held.pop(0)
            task_by_name(name).apply(args, throw=True)
            ran += 1
        return ran

    try:
        yield release
        release()
    finally:
        _HELD.reset(token)


def _publish(name: str, args: Sequence[object], countdown: float | None) -> bool:
    """Send task ``name`` now; False (logged) when the broker is unreachable. Never raises.
    Held (:func:`tasks_held`): kept until released."""
    held = _HELD.get()
    if held is not None:
        held.append((name, tuple(args)))
        return True
    try:
        # ignore_result: publishing must not touch the result store (it retries for long).
        task_by_name(name).apply_async(tuple(args), countdown=countdown, retry=False,
                                       ignore_result=True)
    except Exception:  # noqa: BLE001 - broker down: the caller's write stands
        logger.warning("could not queue %s%r", name, tuple(args), exc_info=True)
        return False
    return True


def task_queue(name: str, *, args: Sequence[object] = (), countdown: float | None = None,
               on_commit: bool = True) -> bool:
    """Queue task ``name`` with ``args`` once the current transaction commits. Never raises.
    Queued at once (``on_commit=False``), returns whether the broker took it (else True)."""

    def queue() -> None:
        _publish(name, args, countdown)

    if on_commit:
        transaction.on_commit(queue, robust=True)
        return True
    return _publish(name, args, countdown)


def standings_request_update(*, event_id: int) -> None:
    """Ask for the event's standings to be brought up to date once the transaction commits.

    The event is put among the events waiting (``STANDINGS_PENDING_EVENTS_KEY``, a sorted set in
    Redis), and at most one run for *all* of them is queued per debounce window
    (``STANDINGS_DEBOUNCE_SECONDS``, the countdown the task waits before running): that run,
    ``standings.tasks.compute_pending_standings``, serves every event waiting when it starts,
    oldest first, each with every hand committed before then. So the worker's runs follow the
    room's clock, not its number of events: a night of sixty small events costs the runs of
    one big one (the work per event, its snapshot and its push, stays one per window it moved
    in). A hand committed after the run started queues the next (the run clears its mark as it
    starts: :func:`standings_pending_take`). Without a shared Redis cache (the embedded default,
    tasks inline) or with Redis away, one run per event is queued as before
    (``compute_standings``, its own pending mark).
    """

    def queue() -> None:
        debounce = float(getattr(settings, "STANDINGS_DEBOUNCE_SECONDS", 1.0))
        pending_for = max(int(getattr(settings, "STANDINGS_PENDING_SECONDS", 30)), 1)
        if _pending_add(event_id, keep_for=pending_for):
            _queue_once(STANDINGS_PENDING_RUN_KEY, STANDINGS_UPDATE_PENDING, (),
                        countdown=debounce, pending_for=pending_for)
            return
        _queue_once(STANDINGS_PENDING_KEY.format(event_id=event_id), STANDINGS_UPDATE,
                    (event_id,), countdown=debounce, pending_for=pending_for)

    transaction.on_commit(queue, robust=True)


def _pending_add(event_id: int, *, keep_for: int) -> bool:
    """Put the event among those waiting for the next run; False when there is no shared set
    (a cache without one, or Redis away)."""
    # Kept well past the run's countdown: a set lost with its run is found by the reconcile.
    return _set_add(STANDINGS_PENDING_EVENTS_KEY, event_id, keep_for=keep_for * 10)


def _set_add(key: str, member: int, *, keep_for: int) -> bool:
    """Put ``member`` in the shared sorted set ``key`` (oldest first, kept ``keep_for``
    seconds after the last addition); False when there is no shared set (a cache without one,
    or Redis away): the caller then queues a run of its own."""
    add = getattr(cache, "pending_add", None)
    if add is None:
        return False
    try:
        add(key, member, seconds=keep_for)
    except Exception:  # noqa: BLE001 - Redis away: the broker likely is too
        logger.warning("cache unavailable; %s %s queued on its own", key, member)
        return False
    return True


def _set_take(key: str) -> list[int]:
    """Every member of the shared sorted set ``key``, taken out (oldest first); none without
    the set."""
    take = getattr(cache, "pending_take", None)
    if take is None:
        return []
    try:
        return list(take(key))
    except Exception:  # noqa: BLE001 - Redis away
        logger.warning("cache unavailable; %s was not read", key)
        return []


def standings_pending_take() -> list[int]:
    """Called by the pending run as it starts: clears its mark (a hand committed from now on
    queues the next run), then takes every event waiting, oldest first."""
    _clear_mark(STANDINGS_PENDING_RUN_KEY)
    return _set_take(STANDINGS_PENDING_EVENTS_KEY)  # Redis away: the reconcile catches up


def standings_pending_return(*, event_ids: Sequence[int], queue: bool = True) -> bool:
    """Events a run took and did not serve (or the reconcile found behind): put back among
    those waiting, with a run queued for them at once (out of time), or without (the database
    away: the run's own retry takes them, after its backoff). Returns whether the shared set
    took them all (False: no shared set, or Redis away; the caller serves them itself)."""
    if not event_ids:
        return True
    pending_for = max(int(getattr(settings, "STANDINGS_PENDING_SECONDS", 30)), 1)
    taken = all([_pending_add(event_id, keep_for=pending_for) for event_id in event_ids])
    if taken and queue:
        _queue_once(STANDINGS_PENDING_RUN_KEY, STANDINGS_UPDATE_PENDING, (), countdown=0,
                    pending_for=pending_for)
    return taken


def _queue_once(key: str, name: str, args: Sequence[object], *, countdown: float,
                pending_for: int) -> None:
    """Queue task ``name`` to run after ``countdown`` unless the mark ``key`` says one is queued
    and has not started (the task deletes the mark as it starts); the mark lasts at most
    ``pending_for`` seconds. Cache down: queued anyway. Broker down: the mark is released, so
    the next request tries again."""
    try:
        if not cache.add(key, 1, timeout=pending_for):
            return  # a run is queued and has not started: it will see this change
    except Exception:  # noqa: BLE001 - cache down: queue anyway (the broker likely is too)
        logger.warning("cache unavailable; queueing %s%r", name, tuple(args))
    if not _publish(name, args, countdown):
        with contextlib.suppress(Exception):
            cache.delete(key)


def _clear_mark(key: str) -> None:
    with contextlib.suppress(Exception):  # the mark is an optimisation only
        cache.delete(key)


def standings_clear_pending(*, event_id: int) -> None:
    """Called by the standings task as it starts: entries from now on queue a new update."""
    _clear_mark(STANDINGS_PENDING_KEY.format(event_id=event_id))


def ratings_request_update(*, game_id: int, round_id: int) -> None:
    """Ask for the ratings to take in a game of round ``round_id`` (confirmed, or changed after
    it was) once the transaction commits.

    The game is put among those waiting (``RATINGS_PENDING_GAMES_KEY``, a sorted set in Redis)
    and at most one run for *all* of them is queued per debounce window
    (``RATINGS_DEBOUNCE_SECONDS``, the countdown the task waits): ``league.tasks.rate_pending``
    brings the rounds of every game waiting up to date in one replay. The ratings are one
    history, replayed under one lock, so runs side by side only wait for each other: at a
    night's round end (sixty events confirming within seconds) a run per round kept both worker
    processes busy for seconds, mostly finding the lock taken, while the standings the rooms
    were watching waited behind them. A confirmation committed after the run starts queues the
    next (the run clears its mark as it starts: :func:`ratings_pending_take`). Without the
    shared set (the embedded default, or Redis away) one run per round is queued, as
    ``league.tasks.rate_game`` (its own mark, cleared by :func:`ratings_clear_pending`).
    """

    def queue() -> None:
        debounce, pending_for = _ratings_timing()
        if _set_add(RATINGS_PENDING_GAMES_KEY, game_id, keep_for=pending_for * 10):
            _queue_once(RATINGS_PENDING_RUN_KEY, RATE_PENDING, (), countdown=debounce,
                        pending_for=pending_for)
            return
        _queue_once(RATINGS_PENDING_KEY.format(round_id=round_id), RATE_GAME, (game_id, round_id),
                    countdown=debounce, pending_for=pending_for)

    transaction.on_commit(queue, robust=True)


def _ratings_timing() -> tuple[float, int]:
    """The ratings run's debounce (``RATINGS_DEBOUNCE_SECONDS``) and how long its mark lasts."""
    debounce = float(getattr(settings, "RATINGS_DEBOUNCE_SECONDS", 2.0))
    return debounce, max(int(debounce * 10), 30)


def ratings_pending_take() -> list[int]:
    """Called by the pending ratings run as it starts: clears its mark (a confirmation from
    now on queues the next run), then takes every game waiting."""
    _clear_mark(RATINGS_PENDING_RUN_KEY)
    return _set_take(RATINGS_PENDING_GAMES_KEY)


def ratings_pending_return(*, game_ids: Sequence[int], countdown: float) -> bool:
    """Games a run took and did not rate (another replay held the lock, or the database was
    away): put back among those waiting, with a run queued after ``countdown``. False when
    the set did not take them (the caller rates them itself)."""
    if not game_ids:
        return True
    _, pending_for = _ratings_timing()
    if not all([_set_add(RATINGS_PENDING_GAMES_KEY, game_id, keep_for=pending_for * 10)
                for game_id in game_ids]):
        return False
    _queue_once(RATINGS_PENDING_RUN_KEY, RATE_PENDING, (), countdown=countdown,
                pending_for=pending_for)
    return True


def ratings_clear_pending(*, round_id: int) -> None:
    """Called by the ratings task as it starts: confirmations from now on queue a new run."""
    _clear_mark(RATINGS_PENDING_KEY.format(round_id=round_id))
