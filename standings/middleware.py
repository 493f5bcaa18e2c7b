"""The standings poll and fragment, answered before the session, the user and the URL resolver
are touched.

Every phone and wall screen in the room asks ``/events/<id>/standings/version/`` every few
seconds, and ``…/fragment/`` each time the version moves (with push, all of them within a
quarter of a second of each new snapshot): nearly every request of a live event. For a public
event whose status is in the cache (``standings.status``) this middleware answers at
once: no database query, no session read, no URL resolution; the fragment's body comes from the
cache too (``standings.fragments``, gzipped once per version and view). Anything else (a private
event, a cache miss, the cache away, a ``?stage=``, and the wall screens' ``?round=1``, whose
state of play changes with every table that finishes) goes on to the view, which reads the
database, checks the permission and fills the cache.

It sits after ``SecurityMiddleware`` (HTTPS redirect, security headers) and WhiteNoise, before
the session middleware (``config/settings/base.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from common.conditional import POLL_MAX_AGE, POLL_STALE_SECONDS, private_etag

from .fragments import VIEWS, body_cached, fragment_language
from .push import fragment_etag
from .status import status_cached
from .watchers import watching_polled

# standings/urls.py: "events/<int:event_id>/standings/version/" and ".../fragment/" (a test
# checks they agree).
VERSION_PATH = re.compile(r"^/events/(?P<event_id>[0-9]+)/standings/version/$")
FRAGMENT_PATH = re.compile(r"^/events/(?P<event_id>[0-9]+)/standings/fragment/$")


def status_response(request: HttpRequest, answer: Mapping[str, object], *,
                    public: bool) -> HttpResponse:
    """The poll's JSON with an ETag of its content; 304 when the browser has it already.
    Public: any cache keeps it for a second (the pages revalidate every time). Otherwise
    ``private, no-cache`` and an ETag no public answer carries."""
    body = json.dumps(answer, separators=(",", ":")).encode()
    etag = f'W/"{hashlib.sha256(body).hexdigest()[:20]}"'
    if not public:
        etag = private_etag(etag)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    region_caching(response, public=public)
    return response


def with_watching(request: HttpRequest, event_id: int,
                  answer: Mapping[str, object]) -> Mapping[str, object]:
    """The poll's answer with ``"watching"`` where the event's pages show it
    (``standings.watchers``; the polling tab is counted)."""
    watching = watching_polled(request, event_id)
    return answer if watching is None else {**answer, "watching": watching}


def region_caching(response: HttpResponse, *, public: bool, exact: bool = True) -> None:
    """The poll's and the region's ``Cache-Control``: public for a second; ``no-cache`` for a
    public region of another version than the one asked (``exact`` False); private otherwise."""
    if public and exact:
        response["Cache-Control"] = (f"public, max-age={POLL_MAX_AGE}, "
                                     f"stale-while-revalidate={POLL_STALE_SECONDS}")
    else:
        response["Cache-Control"] = "public, no-cache" if public else "private, no-cache"


def _fragment_cached(request: HttpRequest, event_id: int) -> HttpResponse | None:
    """A public event's fragment from the cache (304 when the browser has it), or None."""
    view = request.GET.get("view") or "page"
    if view not in VIEWS or set(request.GET) - {"view", "v", "lang"}:
        return None
    answer = status_cached(event_id=event_id)
    if answer is None:
        return None
    version = int(answer["version"])
    wanted = request.GET.get("v")
    language = fragment_language(request.GET.get("lang"))
    etag = fragment_etag(event_id, version, view, language=language)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        gzip = "gzip" in request.headers.get("Accept-Encoding", "")
        body = body_cached(event_id=event_id, version=version, view=view, gzip=gzip,
                           language=request.GET.get("lang"))
        if body is None:
            return None
        response = HttpResponse(body, content_type="text/html; charset=utf-8")
        response["Content-Length"] = str(len(body))
        if gzip:
            response["Content-Encoding"] = "gzip"
        patch_vary_headers(response, ("Accept-Encoding",))
    response["ETag"] = etag
    response["X-Standings-Version"] = str(version)
    region_caching(response, public=True, exact=wanted is None or wanted == str(version))
    return response


class StandingsVersionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD"):
            match = VERSION_PATH.match(request.path_info)
            if match is not None and "round" not in request.GET:
                event_id = int(match["event_id"])
                answer = status_cached(event_id=event_id)
                if answer is not None:
                    return status_response(request, with_watching(request, event_id, answer),
                                           public=True)
            match = FRAGMENT_PATH.match(request.path_info)
            if match is not None:
                response = _fragment_cached(request, int(match["event_id"]))
                if response is not None:
                    return response
        return self.get_response(request)
