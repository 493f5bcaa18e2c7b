"""The live region of the standings pages, rendered once per snapshot version and cached.

The live part of a page (table, chart, rules) depends only on the event's snapshot (its rows
and final places; the snapshot's version also moves when a round of a later stage is seated), so
it is rendered once per snapshot version, view and part and kept in the cache: a room full of phones
and wall screens fetching it costs a cache read each, not a render of 250 rows. With push on,
``standings.tasks.publish_standings`` renders the views a room fetches right after a snapshot is
stored, before the pages hear of it, so their fetches find it ready. With the cache unavailable
every fetch renders and the pages still work.
"""

from __future__ import annotations

import contextlib

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string

from common.types import Actor
from tournaments.models import Event

from .selectors import Standings, event_is_public, event_standings

BODY_CACHE_SECONDS = 15 * 60
# view -> (template, leaders in the chart, compact). "phone": the page's table as a phone shows
# it (rank, name, points, games, wins: static/css/site.css hides the other columns below 600px
# anyway), without the per-round cells; standings.js asks for it on narrow screens.
VIEWS = {
    "page": ("standings/partials/standings_body.html", 6, False),
    "phone": ("standings/partials/standings_body.html", 6, True),
    "wall": ("standings/partials/standings_wall_body.html", 8, False),
}


# Rendered before the room is told of a version: what phones (under 600 px) and walls fetch.
PUSHED_VIEWS = ("phone", "wall")


def fragment_language(value: str | None) -> str:
    """The language a region is asked in (the page's, carried by its fragment URL as
    ``lang``), one of ``settings.LANGUAGES``; anything else is the default (English)."""
    return value if value in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _key(event_id: int, version: int, view: str, part: str | None, language: str) -> str:
    # the default language's key as it always was; another language's beside it
    suffix = f":{language}" if language != settings.LANGUAGE_CODE else ""
    return f"standings:html:{event_id}:{version}:{view}:{part or 'all'}{suffix}"


def rows_link(standings: Standings) -> None:
    """Each row's ``href`` (its player's or pair's page), from one ``reverse`` instead of a
    ``{% url %}`` per row (a tenth of a 512-player region's render)."""
    pairs = standings.event.is_pairs
    name = "event-pair" if pairs else "event-player"
    pattern = reverse(name, args=[standings.event.pk, 0]).rsplit("/0/", 1)
    for board in standings.boards:
        for row in board.rows:
            ident = row.get("pair_id", 0) if pairs else row["entry_id"]
            row["href"] = f"{pattern[0]}/{ident}/{pattern[1]}"


def body_html(*, event_id: int, version: int, view: str, user: Actor,
              part: str | None = None, language: str | None = None) -> SafeString:
    """The rendered live region of ``view`` for this snapshot version (cached per version and
    language): the event's result as it stands, or another ``part``
    (``standings.boards.PARTS``: ``totals``, or one stage's standings, computed from its rounds
    when the version moves), in ``language`` (the active one when None).
    ``user`` must be allowed to see the event (the selector checks)."""
    language = fragment_language(language or translation.get_language())
    key = _key(event_id, version, view, part, language)
    html = None
    with contextlib.suppress(Exception):  # the cache is an optimisation only
        html = cache.get(key)
    if html is None:
        template, chart_top, compact = VIEWS[view]
        standings = event_standings(event_id=event_id, user=user, chart_top=chart_top,
                                    part=part, wall=view == "wall")
        rows_link(standings)
        # No request: the region must not depend on who asks (one copy serves everyone).
        with translation.override(language):
            html = render_to_string(template, {"standings": standings, "compact": compact})
        if standings.status.version == version:
            with contextlib.suppress(Exception):
                cache.set(key, html, timeout=BODY_CACHE_SECONDS)
    return mark_safe(html)  # noqa: S308 - rendered by our own template just above


def body_cached(*, event_id: int, version: int, view: str, gzip: bool,
                language: str | None = None) -> bytes | None:
    """The cached region of ``view`` (the default part: the result) in ``language`` as bytes,
    gzipped when asked (compressed once per version, view and language, then kept beside it);
    None when it is not in the cache."""
    key = _key(event_id, version, view, None, fragment_language(language))
    try:
        if gzip:
            packed = cache.get(key + ":gz")
            if packed is not None:
                return bytes(packed)
        html = cache.get(key)
        if html is None:
            return None
        body = str(html).encode()
        if not gzip:
            return body
        packed = compress_string(body)
        cache.set(key + ":gz", packed, timeout=BODY_CACHE_SECONDS)
        return packed
    except Exception:  # noqa: BLE001 - the cache is an optimisation only: the view answers
        return None


def room_language(event_id: int) -> str:
    """The language a room's walls and phones are most likely in: the event's club's, else
    the default. Regions rendered ahead of the room (``bodies_warm``, the push) are in it."""
    return fragment_language(Event.objects.filter(pk=event_id)
                             .values_list("club__language", flat=True).first())


def bodies_warm(*, event_id: int, version: int, language: str | None = None) -> dict[str, str]:
    """The views a room fetches right after a push (``PUSHED_VIEWS``: phones and walls) of a
    public event's snapshot ``version``, rendered into the cache if not there yet, in
    ``language`` (the room's, ``room_language``, when None); by view. The full page (desktops,
    a few) is rendered on its first fetch from the site."""
    language = language or room_language(event_id)
    return {view: str(body_html(event_id=event_id, version=version, view=view,
                                user=AnonymousUser(), language=language))
            for view in PUSHED_VIEWS}


def bodies_warm_before_announce(event_id: int, version: int) -> None:
    """Called by ``standings.status`` (``_snapshot_put``): once a new snapshot
    version has committed, and before the pages can see it, render what a public event's room
    fetches (``bodies_warm``) into the cache. Every poll that sees the version then finds its
    region ready: without this, each web worker that got a fetch of a version not rendered yet
    rendered it too, side by side, and the room's polls queued behind them (measured at 64
    tables: p95 of every request over a second). Done by the Celery worker that stored the
    snapshot; with tasks run inline (the embedded default) the first fetch renders, as before.
    A private event's regions render on their first fetch, each reader's permission checked."""
    if settings.CELERY_TASK_ALWAYS_EAGER or not event_is_public(event_id=event_id):
        return
    bodies_warm(event_id=event_id, version=version)
