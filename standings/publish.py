"""A stored snapshot told to its event's open pages: rendered, kept where the push process
serves it, published (``standings.push``).

Done where the snapshot was stored when that is the worker (the standings runs: one task both
computes and publishes, :func:`snapshot_publish` called on commit by ``standings.status``), or
by the ``publish_standings`` task when a web process stored it (a placement, a later stage
seated), so no request waits on the rendering.
"""

from __future__ import annotations

from django.utils.text import compress_string

from .fragments import bodies_warm, body_cached, room_language
from .push import push_fragments_store, push_publish, push_regions
from .selectors import push_status


def snapshot_publish(*, event_id: int, version: int, regions: bool = True) -> bool:
    """Tell the event's open pages that snapshot ``version`` is there: first, for a public
    event, render its fragments into the cache and keep them gzipped where the push process
    serves them (the message then says ``"fragment": true``, and carries them: ``"regions"``,
    for the pages whose stream asked for one), so the room redraws without a render, a web
    worker or, mostly, a request; then publish. Without ``regions`` (a version the pages have,
    now current with newer hands) the status alone. A version already superseded is left to
    its successor's publication. Returns whether a message was published."""
    status = push_status(event_id=event_id)
    if status is None or status["version"] != version:
        return False  # the event is gone, or a newer snapshot has its own publication
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
