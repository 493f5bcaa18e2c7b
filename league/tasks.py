"""Celery tasks for ratings: thin, take ids, call one service, safe to run twice.

``rate_pending`` is queued by name (``common.tasks.ratings_request_update``, once per debounce
window for every game waiting) on commit when scoring confirms a game, and when a confirmed game
is changed (the change clears the confirmation); without Redis's shared set (the embedded
default runs it inline) ``rate_game`` is queued per round instead. ``rebuild_ratings`` is queued when a player merge folds two histories
into one.
"""

from __future__ import annotations

from celery import current_app, shared_task
from django.db import InterfaceError, OperationalError

from common.tasks import (
    RATE_GAME,
    db_task_retry,
    ratings_clear_pending,
    ratings_pending_return,
    ratings_pending_take,
    task_queue,
)

from .ratings import (
    ratings_event_update,
    ratings_game_update,
    ratings_games_update,
    ratings_rebuild,
)

# A run that finds another replay running asks again this much later.
BUSY_AGAIN_SECONDS = 1.0


@shared_task(**db_task_retry())
def rate_game(game_id: int, round_id: int | None = None) -> str:
    """Bring the ratings up to date with a game and the rest of its round
    (``ratings_game_update``); queued by ``common.tasks.ratings_request_update`` once per
    round and debounce window (``round_id``: whose pending mark this run clears as it starts).
    While another replay holds the ratings' lock it does not wait for it, which would hold a
    worker process the standings need: it is queued again a second later (or, the broker away,
    waits after all), and mostly finds its round rated by then. The embedded default runs
    tasks inline and waits."""
    if round_id is not None:
        ratings_clear_pending(round_id=round_id)
    eager = bool(current_app.conf.task_always_eager)
    done = ratings_game_update(game_id=game_id, wait=eager)
    if done == "busy" and not task_queue(RATE_GAME, args=(game_id,),
                                         countdown=BUSY_AGAIN_SECONDS, on_commit=False):
        done = ratings_game_update(game_id=game_id)  # the broker refused it: wait here
    return done


@shared_task(**db_task_retry())
def rate_pending() -> str:
    """Bring the ratings up to date with every game waiting (``common.tasks``: confirmed or
    changed since the last run, in any event), their rounds included, in one replay
    (``ratings_games_update``). While another replay holds the ratings' lock the games go back
    among those waiting, with a run a second later; the database away, they go back too and the
    task's retry takes them."""
    game_ids = ratings_pending_take()
    if not game_ids:
        return "nothing"
    try:
        done = ratings_games_update(game_ids=game_ids, wait=False)
    except (OperationalError, InterfaceError):
        ratings_pending_return(game_ids=game_ids, countdown=BUSY_AGAIN_SECONDS)
        raise
    if done == "busy" and not ratings_pending_return(game_ids=game_ids,
                                                     countdown=BUSY_AGAIN_SECONDS):
        done = ratings_games_update(game_ids=game_ids)  # the set refused them: wait here
    return done


@shared_task(**db_task_retry())
def rate_event(event_id: int) -> int:
    """Rate again from the event's first game on (``ratings_event_update``): queued by name
    (``common.tasks.RATE_EVENT``) when an event is imported, and when an event's or a club's
    visibility changes (``league.signals``)."""
    return ratings_event_update(event_id=event_id)


@shared_task(**db_task_retry())
def rebuild_ratings() -> int:
    """Every rating from scratch; returns the number of games rated."""
    return ratings_rebuild()
