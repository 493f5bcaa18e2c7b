"""Celery tasks for standings: thin, take ids, call one service, safe to run twice.

``compute_standings`` is queued on commit by :func:`common.tasks.standings_request_update`
(and may be queued by hand for a full rebuild with ``full=True``); ``reconcile_standings`` runs
on Celery beat (``CELERY_BEAT_SCHEDULE`` in ``config/settings/base.py``);
``publish_standings`` is queued when a snapshot with a new version is stored and push is on
(``standings.status``).
"""

from __future__ import annotations

from celery import shared_task
from django.utils.text import compress_string

from common.tasks import db_task_retry, standings_clear_pending
from tournaments.models import Event

from .fragments import bodies_warm, body_cached, room_language
from .push import push_fragments_store, push_publish, push_regions
from .selectors import push_status
from .services import standings_rebuild, standings_reconcile


@shared_task(**db_task_retry())
def compute_standings(event_id: int, full: bool = False) -> int | None:
    """Bring one event's standings snapshot up to date; returns its version.

    The rows are kept current from the games that changed (``standings.incremental``);
    ``full`` recomputes every game's seat results from the hands and re-aggregates everything
    (on demand only).
    """
    # Clear the pending mark first: a hand stored while we compute queues another run.
    standings_clear_pending(event_id=event_id)
    try:
        return standings_rebuild(event_id=event_id, from_hands=full,
                                 incremental=not full).version
    except Event.DoesNotExist:
        return None  # the event was deleted after the update was queued


@shared_task(**db_task_retry())
def reconcile_standings() -> list[int]:
    """Periodic (beat): rebuild every snapshot that is behind its hands."""
    return standings_reconcile()


@shared_task(ignore_result=True, **db_task_retry())
def publish_standings(event_id: int, version: int, regions: bool = True) -> bool:
    """Tell the event's open pages that snapshot ``version`` is there (``standings.push``): first,
    for a public event, render its fragments into the cache and keep them gzipped where the
    push process serves them (the message then says ``"fragment": true``, and carries them:
    ``"regions"``, for the pages whose stream asked for one), so the room redraws without a
    render, a web worker or, mostly, a request; then publish. Without ``regions`` (a version
    the pages have, now current with newer hands) the status alone. A version already
    superseded is left to its successor's run. Returns whether a message was published."""
    status = push_status(event_id=event_id)
    if status is None or status["version"] != version:
        return False  # the event is gone, or a newer snapshot has its own run
    if status.pop("public") and regions:
        # In the room's language (its club's): a page in another one fetches its own region.
        language = room_language(event_id)
        status["lang"] = language
        bodies = bodies_warm(event_id=event_id, version=version, language=language)
        # Gzipped once: the same bytes the site's middleware keeps for fetches it answers.
        packed = {view: body_cached(event_id=event_id, version=version, view=view, gzip=True,
                                    language=language)
                  or compress_string(html.encode()) for view, html in bodies.items()}
        status["fragment"] = push_fragments_store(event_id, version, packed)
        if status["fragment"]:  # and sent along: the pages showing them need not fetch
            status["regions"] = push_regions(packed)
    return push_publish(event_id, status)
