"""Pages about a club show its times in the club's time zone (``Club.time_zone``), and, for a
reader who chose no language of their own, in the club's language (``Club.language``).

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
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from clubs.models import Club
from clubs.signals import SESSION_LANGUAGE_KEY
from scoring.models import Hand
from tournaments.models import Event, Table, TableCard

# (path kind, URL argument) -> ((zone, language), when looked up): a zone or a language changes
# rarely (a club sets it once), a table's phone asks for its page after every hand. Each web
# worker keeps its own copy, so with a minute's memory a room of 128 tables missed it on most of
# its phones' requests (at 5 workers a table's page reaches a given worker about once a minute):
# ten minutes' staleness in the other workers after a club changes its zone is acceptable (the
# worker that saved the club forgets at once).
Place = tuple[str, str]  # the club's time zone and language ("" when it has none of its own)
_CACHE: dict[tuple[str, str], tuple[Place | None, float]] = {}
_CACHE_SECONDS = 600.0
_CACHE_MAX = 4096


@receiver(post_save, sender=Club, dispatch_uid="club-time-zone-cache")
def _club_saved(**_: object) -> None:
    _CACHE.clear()  # this process at once; the others within the minute


def _cached_place(path: str, kwargs: Mapping[str, int | str], *, look_up: bool = True) -> Place | None:
    """The club's place for this URL from the cache; looked up (one query) on a miss unless
    ``look_up`` is off (then None)."""
    key = (path.split("/", 2)[1] if path.count("/") > 1 else path,
           str(sorted(kwargs.items())))
    now = time.monotonic()
    hit = _CACHE.get(key)
    if hit is not None and now - hit[1] < _CACHE_SECONDS:
        return hit[0]
    if not look_up:
        return None
    place = _place(path, kwargs)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = (place, now)
    return place


def _cached_zone_name(path: str, kwargs: Mapping[str, int | str]) -> str | None:
    place = _cached_place(path, kwargs)
    return place[0] if place else None


def _place(path: str, kwargs: Mapping[str, int | str]) -> Place | None:
    """The time zone and language of the club whose page ``path`` is, found from the URL's
    arguments (one query), or None for a page of no club."""
    if "slug" in kwargs and path.startswith("/clubs/"):
        return Club.objects.filter(slug=kwargs["slug"]).values_list(
            "time_zone", "language").first()
    event_id = kwargs.get("event_id") or (kwargs.get("pk") if path.startswith("/events/") else None)
    if event_id is not None:
        return (Event.objects.filter(pk=event_id)
                .values_list("club__time_zone", "club__language").first())
    if "token" in kwargs and path.startswith("/t/"):
        return (Table.objects.filter(token=kwargs["token"])
                .values_list("round__event__club__time_zone",
                             "round__event__club__language").first())
    if "token" in kwargs and path.startswith("/c/"):
        return (TableCard.objects.filter(token=kwargs["token"])
                .values_list("event__club__time_zone", "event__club__language").first())
    if "hand_id" in kwargs:
        return (Hand.objects.filter(pk=kwargs["hand_id"])
                .values_list("game__table__round__event__club__time_zone",
                             "game__table__round__event__club__language").first())
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


class ReaderLanguageMiddleware:
    """The language a page is written in, after ``LocaleMiddleware`` found the reader's (the
    language cookie the switcher sets, else the browser's Accept-Language, else English):

    1. the signed-in account's own choice (kept in its session) beats everything;
    2. a reader who chose with the switcher (the cookie) keeps their choice;
    3. on a club's pages, walls, table phones and day cards (found from the URL as the club's
       time zone is, one cached query), the club's language, when it has one;
    4. otherwise what ``LocaleMiddleware`` found from Accept-Language, or English.

    The API follows 1, 2 and 4: a script asks for its language with Accept-Language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = _account_language(request)
        if chosen:
            _activate(request, chosen)
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func: Callable[..., Any],
                     view_args: tuple[Any, ...], view_kwargs: dict[str, Any]) -> None:
        if _account_language(request) or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
            return
        path = request.path
        if path.startswith(("/api/", "/admin/")):
            return
        # A page read (GET) looks its club up; a form's post (a table's hand, saved and
        # redirected) costs no query: it uses the club's language when the page's read left it
        # in the cache (it nearly always did: the form came from that page).
        place = _cached_place(path, view_kwargs, look_up=request.method in ("GET", "HEAD"))
        if place and place[1]:
            _activate(request, place[1])


def _account_language(request: HttpRequest) -> str:
    """The signed-in account's choice, from its session (never the user row: no query; a
    request without a session cookie reads no session either)."""
    session = getattr(request, "session", None)
    if session is None or settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return ""
    language = session.get(SESSION_LANGUAGE_KEY, "")
    return language if language in dict(settings.LANGUAGES) else ""


def _activate(request: HttpRequest, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = translation.get_language()
