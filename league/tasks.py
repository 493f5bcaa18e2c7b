"""Celery tasks for ratings: thin, take ids, call one service, safe to run twice.

``rate_game`` is queued by name (``common.tasks.ratings_request_update``, once per round and
debounce window) on commit when scoring confirms a game, and when a confirmed game is changed
(the change clears the confirmation); the embedded default runs it inline. ``rebuild_ratings`` is queued when a player merge folds two histories
into one.
"""

from __future__ import annotations

from celery import current_app, shared_task

from common.tasks import RATE_GAME, db_task_retry, ratings_clear_pending, task_queue

from .ratings import ratings_event_update, ratings_game_update, ratings_rebuild

# A rate_game that finds another replay running asks again this much later.
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
def rate_event(event_id: int) -> int:
    """Rate again from the event's first game on (``ratings_event_update``): queued by name
    (``common.tasks.RATE_EVENT``) when an event is imported, and when an event's or a club's
    visibility changes (``league.signals``)."""
    return ratings_event_update(event_id=event_id)


@shared_task(**db_task_retry())
def rebuild_ratings() -> int:
    """Every rating from scratch; returns the number of games rated."""
    return ratings_rebuild()
