"""The standings poll, answered before the session, the user and the URL resolver are touched.

Every phone and wall screen in the room asks ``/events/<id>/standings/version/`` every few
seconds: 95 % of the requests of a live event. For a public event whose status is in the cache
(``common.standings_status``) this middleware answers at once: no database query, no session
read, no URL resolution. Anything else (a private event, a cache miss, the cache away, and
the wall screens' ``?round=1``, whose state of play changes with every table that finishes)
goes on to the view, which reads the database, checks the permission and fills the cache.

It sits after ``SecurityMiddleware`` (HTTPS redirect, security headers) and WhiteNoise, before
the session middleware (``config/settings/base.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags

from common.standings_status import status_cached

# standings/urls.py: "events/<int:event_id>/standings/version/" (a test checks they agree).
VERSION_PATH = re.compile(r"^/events/(?P<event_id>[0-9]+)/standings/version/$")


def status_response(request: HttpRequest, answer: dict[str, Any], *,
                    public: bool) -> HttpResponse:
    """The poll's JSON with an ETag of its content; 304 when the browser has it already.
    ``Cache-Control: no-cache``: browsers keep the answer but ask again every time."""
    body = json.dumps(answer, separators=(",", ":")).encode()
    etag = f'W/"{hashlib.sha256(body).hexdigest()[:20]}"'
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=not public)
    return response


class StandingsVersionMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and "round" not in request.GET:
            match = VERSION_PATH.match(request.path_info)
            if match is not None:
                answer = status_cached(event_id=int(match["event_id"]))
                if answer is not None:
                    return status_response(request, answer, public=True)
        return self.get_response(request)
