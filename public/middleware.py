"""Pages about a club show its times in the club's time zone (``Club.time_zone``).

Times are stored in UTC. A page under a club, an event, a table, a day card or a hand activates
that club's zone for the request, so ``{{ value|time }}`` and ``|date`` print the clock on the
club's wall (a hand's history at an evening in Chicago reads 19:42, not 01:42 UTC). Other pages,
and the API (which answers ISO 8601 with the offset), keep UTC. The zone is found from the URL's
own arguments (one small query, remembered for ten minutes per URL argument) for pages read with
GET, and is reset after every request so a worker thread never carries one club's zone into the
next request.
"""

from __future__ import annotations

import time
import zoneinfo
from collections.abc import Callable
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from clubs.models import Club
from scoring.models import Hand
from tournaments.models import Event, Table, TableCard

# (path kind, URL argument) -> (zone, when looked up): a zone changes rarely (a club sets it once),
# a table's phone asks for its page after every hand. Each web worker keeps its own copy, so with a
# minute's memory a room of 128 tables missed it on most of its phones' requests (at 5 workers a
# table's page reaches a given worker about once a minute): ten minutes' staleness in the other
# workers after a club changes its zone is acceptable (the worker that saved the club forgets at
# once).
_CACHE: dict[tuple[str, str], tuple[str | None, float]] = {}
_CACHE_SECONDS = 600.0
_CACHE_MAX = 4096


@receiver(post_save, sender=Club, dispatch_uid="club-time-zone-cache")
def _club_saved(**_: object) -> None:
    _CACHE.clear()  # this process at once; the others within the minute


def _cached_zone_name(path: str, kwargs: dict[str, Any]) -> str | None:
    key = (path.split("/", 2)[1] if path.count("/") > 1 else path,
           str(sorted(kwargs.items())))
    now = time.monotonic()
    hit = _CACHE.get(key)
    if hit is not None and now - hit[1] < _CACHE_SECONDS:
        return hit[0]
    zone = _zone_name(path, kwargs)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = (zone, now)
    return zone


def _zone_name(path: str, kwargs: dict[str, Any]) -> str | None:
    if "slug" in kwargs and path.startswith("/clubs/"):
        return Club.objects.filter(slug=kwargs["slug"]).values_list("time_zone", flat=True).first()
    event_id = kwargs.get("event_id") or (kwargs.get("pk") if path.startswith("/events/") else None)
    if event_id is not None:
        return (Event.objects.filter(pk=event_id)
                .values_list("club__time_zone", flat=True).first())
    if "token" in kwargs and path.startswith("/t/"):
        return (Table.objects.filter(token=kwargs["token"])
                .values_list("round__event__club__time_zone", flat=True).first())
    if "token" in kwargs and path.startswith("/c/"):
        return (TableCard.objects.filter(token=kwargs["token"])
                .values_list("event__club__time_zone", flat=True).first())
    if "hand_id" in kwargs:
        return (Hand.objects.filter(pk=kwargs["hand_id"])
                .values_list("game__table__round__event__club__time_zone", flat=True).first())
    return None


class ClubTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request: HttpRequest, view_func: Callable[..., Any],
                     view_args: tuple[Any, ...], view_kwargs: dict[str, Any]) -> None:
        path = request.path
        # Only pages print times: writes redirect, the API answers ISO 8601 with its offset.
        if request.method not in ("GET", "HEAD") or path.startswith(("/api/", "/admin/")):
            return
        name = _cached_zone_name(path, view_kwargs)
        if name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()  # a zone the validator let through earlier: stay in UTC
