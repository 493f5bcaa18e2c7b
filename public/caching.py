"""What a room of spectators reads, cacheable: public standings, brackets, walls and event pages
answer with an ETag and ``Cache-Control: public`` (``common.conditional``), and a browser or
cache that holds the current answer gets a 304 from one small query, before the session, the
permission check or any rendering.

A page's **key** names everything it shows: the event's ``hands_version`` (every hand entered,
corrected or deleted, every seat, bye, setting and confirmation: ``hands_version_bump``), its
standings snapshot (version, the hands it was built from, when), the event's last log entry
(every director action: status, check-in, rounds started and closed, penalties, withdrawals),
its status and visibility, the club's time zone; the page's own inputs (the URL's arguments and
its query string); and the time, in steps of ``PAGE_STEP_SECONDS``: what no key names (a
player renamed, a new release's templates) shows within that, and a page's push token never
grows old in a browser's cache. The movement wall's countdown corrects the screen's clock from
the time the page was drawn, so its step is two seconds.

An answer is public only when the event is public (a public event of a public club), the request
carries no credentials (``common.conditional.has_credentials``) and the answer holds nothing of
its request (``common.conditional.shareable``); the same pages are otherwise
``private, no-store`` with no ETag, so a director's page and a spectator's never share one.
Every other answer that says nothing of its own caching is ``private``: only what is named here
is ever shared.

The standings poll and region (``standings.middleware``, ``standings.views``) keep their own
ETags, which name the snapshot version exactly.

It sits after the standings poll's middleware and before the CSP, session, CSRF and messages
middleware, so it sees every cookie they set (``config/settings/base.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from common.conditional import (
    POLL_MAX_AGE,
    cache_private,
    cache_public,
    etag_for,
    etag_matches,
    has_credentials,
    not_modified,
    shareable,
)
from tournaments.models import Event, EventLog

PAGE_STEP_SECONDS = 60


@dataclass(frozen=True)
class Kind:
    """A page anyone may read when its event is public: the URL argument naming the event, how
    long caches keep it (``max_age``, then ``stale`` while revalidating) and its time step."""

    event_arg: str
    max_age: int = 5
    stale: int = 30
    step: int = PAGE_STEP_SECONDS


PAGE = Kind("pk")
STANDINGS = Kind("event_id")
POLL = Kind("pk", max_age=POLL_MAX_AGE, stale=5)
# The movement wall's countdown corrects the screen's clock by the page's own time.
CLOCKED = Kind("pk", max_age=POLL_MAX_AGE, stale=1, step=2)

# By URL name (a test checks each resolves, and each is a GET page of one event).
KINDS: dict[str, Kind] = {
    # the event's public pages
    "event-detail": PAGE,
    "round-detail": PAGE,
    "event-rules": PAGE,
    "event-bracket": PAGE,  # also its ?fragment=1 and ?wall=1
    # the walls and what they poll
    "event-wall-seating": PAGE,
    "event-wall-movement": CLOCKED,
    "event-wall-seating-version": POLL,
    # the standings: the page (?view=, ?stage=), the wall, a player's and a pair's card, the
    # spreadsheet and the API (the poll and the region: standings.views)
    "event-standings": STANDINGS,
    "event-standings-wall": STANDINGS,
    "event-player": STANDINGS,
    "event-pair": STANDINGS,
    "event-standings-csv": STANDINGS,
    "api-event-standings": STANDINGS,
    "api-event-standings-version": Kind("event_id", max_age=POLL_MAX_AGE, stale=5),
}


def event_key(event_id: int) -> dict[str, object] | None:
    """What an event's pages show that moves, in one query; None when there is no such event."""
    last_log = EventLog.objects.filter(event=OuterRef("pk")).order_by("-id").values("id")[:1]
    return (Event.objects.filter(pk=event_id)
            .values("hands_version", "status", "is_public", "club__is_public",
                    "club__time_zone", "club__language", "standings__version", "standings__source_version",
                    "standings__computed_at")
            .annotate(last_log=Subquery(last_log))
            .first())


def page_etag(request: HttpRequest, name: str, kwargs: Mapping[str, int | str], kind: Kind,
              key: Mapping[str, object], *, now: float | None = None) -> str:
    """The ETag of a public page: its name, arguments and query, the event's key (with the
    club's language), the reader's languages (a page without credentials is in the club's
    language or the browser's: ``public.middleware.ReaderLanguageMiddleware``) and the step."""
    step = int((time.time() if now is None else now) // kind.step)
    query = sorted(request.GET.lists())
    return etag_for(name, sorted(kwargs.items()), query, sorted(key.items()),
                    request.headers.get("Accept-Language", ""), step)


def _kind_of(request: HttpRequest) -> tuple[str, Kind, dict[str, int | str]] | None:
    path = request.path_info
    if not path.startswith(("/events/", "/api/events/")):
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    kind = KINDS.get(match.url_name or "")
    if kind is None or kind.event_arg not in match.kwargs:
        return None
    return str(match.url_name), kind, dict(match.kwargs)


class PublicCacheMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        found = _kind_of(request)
        etag = None
        if found is not None and not has_credentials(request):
            name, kind, kwargs = found
            key = event_key(int(kwargs[kind.event_arg]))
            if key is not None and key["is_public"] and key["club__is_public"]:
                etag = page_etag(request, name, kwargs, kind, key)
                if etag_matches(request, etag):
                    return not_modified(etag, max_age=kind.max_age, stale=kind.stale,
                                        vary=("Cookie", "Accept-Encoding", "Accept-Language"))
        response = self.get_response(request)
        if found is None:
            if not response.has_header("Cache-Control"):
                response["Cache-Control"] = "private"
            return response
        kind = found[1]
        if etag is not None and shareable(request, response):
            response["ETag"] = etag
            cache_public(response, max_age=kind.max_age, stale=kind.stale)
        else:
            if response.has_header("ETag"):
                del response["ETag"]
            cache_private(response)
        return response
