"""HTTP caching: what anyone may read is shared by every cache on the way, what one viewer may
read is kept by that viewer's browser only.

Words:

* a **public answer** is the same for everyone who asks without credentials (a public event's
  standings, brackets, walls and pages): ``Cache-Control: public, max-age=…,
  stale-while-revalidate=…``, a weak ETag and ``Vary: Cookie`` (a signed-in viewer's page of the
  same address differs). Shared caches (the micro-cache in front of gunicorn, a CDN) answer the
  room's requests for a few seconds; browsers revalidate with ``If-None-Match`` and get a 304;
* a **private answer** is anything else: a signed-in viewer's page, a private club's event, a
  table's phone page, a follower's page. ``Cache-Control: private`` (``no-store`` for the
  live pages), never ``public``, and never the ETag of a public answer;
* **credentials**: a session cookie, a messages cookie (the page may show them), or an
  ``Authorization`` header (the API's token). A request with none of them is anonymous without
  asking the session, so a 304 costs no session read.

No models here (``common`` sits below every app): the pages' keys are built by the apps that know
what a page shows (``public.caching``, ``standings.views``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

# A page anyone may read: fresh for this long in any cache, then served stale for up to
# PUBLIC_STALE_SECONDS while one request revalidates it.
PUBLIC_MAX_AGE = 5
PUBLIC_STALE_SECONDS = 30
# What the live pages poll (a snapshot's version, a region): fresh for a second only, so a cache
# in front never holds a room's news back for longer than a poll's interval.
POLL_MAX_AGE = 1
POLL_STALE_SECONDS = 5

PRIVATE_LIVE = "private, no-store"


def has_credentials(request: HttpRequest) -> bool:
    """Whether the request may be from someone the answer could differ for (see above)."""
    cookies = request.COOKIES
    return (settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies
            or "HTTP_AUTHORIZATION" in request.META)


def etag_for(*parts: object) -> str:
    """A weak ETag naming ``parts`` (weak: the gzipped and the plain body share it)."""
    digest = hashlib.sha256(repr(parts).encode(), usedforsecurity=False).hexdigest()[:24]
    return f'W/"{digest}"'


def private_etag(etag: str) -> str:
    """The ETag a private answer of the same content carries: never a public answer's."""
    tag = etag.removeprefix("W/").strip('"')
    return f'W/"{tag}-private"'


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """Whether the browser holds the answer ``etag`` names (``If-None-Match``, weak comparison)."""
    wanted = request.headers.get("If-None-Match", "")
    if not wanted:
        return False
    tags = parse_etags(wanted)
    bare = etag.removeprefix("W/")
    return "*" in tags or any(tag.removeprefix("W/") == bare for tag in tags)


def cache_public(response: HttpResponseBase, *, max_age: int = PUBLIC_MAX_AGE,
                 stale: int = PUBLIC_STALE_SECONDS) -> None:
    """Mark an answer anyone may read (replacing what the view said)."""
    response["Cache-Control"] = (f"public, max-age={max_age}, "
                                 f"stale-while-revalidate={stale}")
    patch_vary_headers(response, ("Cookie",))


def cache_private(response: HttpResponseBase, *, value: str = PRIVATE_LIVE) -> None:
    """Mark an answer for one viewer only (replacing what the view said)."""
    response["Cache-Control"] = value
    patch_vary_headers(response, ("Cookie",))


def not_modified(etag: str, *, max_age: int = PUBLIC_MAX_AGE, stale: int = PUBLIC_STALE_SECONDS,
                 vary: Iterable[str] = ("Cookie",)) -> HttpResponse:
    """The 304 of a public answer: no body, the validators and the caching it would carry."""
    response = HttpResponseNotModified()
    response["ETag"] = etag
    cache_public(response, max_age=max_age, stale=stale)
    patch_vary_headers(response, tuple(vary))
    return response


def shareable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether an answer may be shared: asked without credentials, a 200, and holding nothing
    of this one request (a cookie set, a CSRF token rendered, a CSP nonce)."""
    if request.method not in ("GET", "HEAD") or has_credentials(request):
        return False
    if response.status_code != 200 or response.cookies:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # get_token(): a token is in the page
        return False
    return "'nonce-" not in response.get("Content-Security-Policy", "")
