"""The follow pages: a player picks their name, then their phone shows (and is told) where they
sit, without an account.

* ``/events/<id>/follow/`` (``follow-pick``): find your name, tap it: this phone follows you
  (a cookie ``follow-<event id>`` holds the follower's token);
* ``/events/<id>/follow/<entry id>/`` (``follow-entry``): the seat line, redrawn by itself on
  the event's push stream (``static/js/seating_board.js``, as the walls) with a poll as a
  safety net; "Notify me" (Web Push, ``static/js/follow.js``), e-mails, "Stop notifications";
* ``/sw.js``: the service worker, served from the site's root so its scope is the whole site;
* ``/manifest.webmanifest``: the web app manifest (linked from every page; on the follow pages
  ``?event=<id>``, whose follow page it then opens): a phone can install the site on its Home
  Screen, which iOS (16.4 and later) requires before it lets a page receive Web Push.

Who may read a follow page: whoever may see the event (a public event of a public club, or a
member), the phone following that very entry (its cookie), or the holder of the entry's
personal link (``?k=``, ``following.services.entry_key``). A follower's token never opens
another entry's page.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, TypedDict

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework import serializers
from rest_framework.exceptions import ParseError

from clubs.permissions import can_view_event
from common.errors import DomainError
from common.http import client_ip, public_address
from common.parsers import MAX_DEPTH, check_json_value
from common.throttles import key_allowed
from common.types import JSONValue
from events.screens import wall_live
from events.where import Seating, SeatingRow, seating, seating_version
from tournaments.models import Entry, Event

from . import services
from .models import Follower
from .texts import seat_text
from .vapid import public_key

COOKIE = "follow-{event_id}"
COOKIE_SECONDS = 60 * 24 * 3600
PICK_MAX = 30  # names listed for one search
SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


def _event(pk: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=pk)


def _follower(request: HttpRequest, event: Event) -> Follower | None:
    return services.follower_for_token(
        event=event, token=request.COOKIES.get(COOKIE.format(event_id=event.pk), ""))


def _readable(request: HttpRequest, event: Event, entry: Entry,
              follower: Follower | None) -> bool:
    if follower is not None and follower.entry_id == entry.pk:
        return True
    if can_view_event(user=request.user, event=event):
        return True
    return services.entry_key_valid(entry, request.GET.get("k", ""))


def _entry(request: HttpRequest, pk: int, entry_id: int) -> tuple[Event, Entry, Follower | None]:
    event = _event(pk)
    entry = get_object_or_404(Entry.objects.select_related("player"), pk=entry_id, event=event)
    follower = _follower(request, event)
    if not _readable(request, event, entry, follower):
        raise Http404(gettext("No such player"))
    if follower is not None and follower.entry_id != entry.pk:
        follower = None
    return event, entry, follower


def _site(request: HttpRequest) -> str:
    return public_address(request).base


def _start(request: HttpRequest, event: Event, entry: Entry) -> HttpResponse:
    follower, token = services.follower_start(event=event, entry=entry, site=_site(request))
    response = redirect("follow-entry", pk=event.pk, entry_id=entry.pk)
    response.set_cookie(COOKIE.format(event_id=event.pk), token, max_age=COOKIE_SECONDS,
                        httponly=True, samesite="Lax", secure=request.is_secure())
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def follow_pick(request: HttpRequest, pk: int) -> HttpResponse:
    """Find your name and tap it: this phone follows you."""
    event = _event(pk)
    if not can_view_event(user=request.user, event=event):
        raise Http404(gettext("No such event"))
    if request.method == "POST":
        picked = str(request.POST.get("entry", ""))
        entry = Entry.objects.filter(event=event, pk=int(picked)).first() \
            if picked.isdigit() else None
        if entry is None:
            messages.error(request, gettext("entry: pick your name from the list."))
            return redirect("follow-pick", pk=event.pk)
        return _start(request, event, entry)
    name = request.GET.get("name", "").strip()[:100]
    entries = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE).select_related(
        "player").order_by("player__name", "pk")
    for word in name.split():
        entries = entries.filter(player__name__icontains=word)
    everyone = not name and entries.count() <= PICK_MAX
    found = list(entries[:PICK_MAX]) if name or everyone else []
    return render(request, "following/pick.html", {
        "event": event, "name": name, "found": found, "listed": bool(name) or everyone,
        "following": _follower(request, event)})


class FollowBoard(TypedDict):
    """A follower's seat (:func:`_board`): the board, their row (None: not in the event) and
    the line the page shows."""

    board: Seating
    row: SeatingRow | None
    line: str


def _board(event: Event, entry: Entry) -> FollowBoard:
    board = seating(event, withdrawn=True)
    row = next((r for r in board["rows"] if r["entry_id"] == entry.pk), None)
    line = seat_text(board, row) if row is not None else "You are not in this event."
    return {"board": board, "row": row, "line": line}


def _version(event: Event, entry: Entry) -> str:
    return hashlib.sha1(f"{seating_version(event)}:{entry.status}".encode(),
                        usedforsecurity=False).hexdigest()[:16]


@require_http_methods(["GET", "HEAD", "POST"])
def follow_entry(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """The seat of one player, live; "Follow on this phone" (POST) when not yet followed."""
    event, entry, follower = _entry(request, pk, entry_id)
    if request.method == "POST":
        return _start(request, event, entry)
    context = {
        "event": event, "entry": entry, "follower": follower, **_board(event, entry),
        "version": _version(event, entry), **wall_live(event),
        "vapid_public_key": public_key(), "key": request.GET.get("k", ""),
        "stop_path": services.stop_path(follower) if follower else "",
    }
    response = render(request, "following/entry.html", context)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def follow_version(request: HttpRequest, pk: int, entry_id: int) -> JsonResponse:
    """``{"version"}`` of a follow page: polled (and asked after each push) by the page."""
    event, entry, _ = _entry(request, pk, entry_id)
    return JsonResponse({"version": _version(event, entry)})


def _own_follower(request: HttpRequest, pk: int, entry_id: int) -> tuple[Event, Follower]:
    event, _, follower = _entry(request, pk, entry_id)
    if follower is None:
        raise Http404(gettext("This phone does not follow this player"))
    return event, follower


def _json_body(request: HttpRequest) -> JSONValue:
    """The request's JSON body, or None when it is not JSON; a refusal naming the field for a
    body no stored subscription could hold (nested too deep, a lone surrogate, a NUL:
    ``common.parsers``), which crashed the request before."""
    try:
        body = json.loads(request.body or b"null")
    except RecursionError:
        raise DomainError(gettext("The subscription is nested deeper than %(max_depth)s levels.") % {"max_depth": MAX_DEPTH},
                          field="subscription") from None
    except (ValueError, UnicodeDecodeError):
        return None
    try:
        check_json_value(body)
    except ParseError:
        raise DomainError(gettext("The subscription is nested deeper than %(max_depth)s levels.") % {"max_depth": MAX_DEPTH},
                          field="subscription") from None
    except serializers.ValidationError as exc:
        detail: dict[str, Any] = dict(exc.detail) if isinstance(exc.detail, dict) else {}
        name, problems = next(iter(detail.items()), ("subscription", ["Invalid text."]))
        field = "subscription" if name == "__all__" else str(name)
        raise DomainError(str(list(problems)[0]), field=field) from None
    return body


@require_POST
def follow_subscribe(request: HttpRequest, pk: int, entry_id: int) -> JsonResponse:
    """"Notify me": the page posts the browser's push subscription (JSON)."""
    _, follower = _own_follower(request, pk, entry_id)
    try:
        body = _json_body(request)
        services.follower_subscribe(
            follower=follower, subscription=body.get("subscription") if isinstance(body, dict)
            else body)
    except DomainError as exc:
        return JsonResponse({"errors": [{"field": exc.field, "code": exc.code,
                                         "message": exc.message}]}, status=400)
    return JsonResponse({"ok": True})


@require_POST
def follow_email(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Ask for e-mails too (a confirmation link goes to the address first). Each request mails
    a stranger's address, so it is limited per address (``FOLLOW_EMAIL_RATE_ADDRESS``) and per
    client (``FOLLOW_EMAIL_RATE_CLIENT``: its network address): a 429 past either."""
    event, follower = _own_follower(request, pk, entry_id)
    email = str(request.POST.get("email", "")).strip()[:254]
    if not _email_allowed(request, email):
        response = HttpResponse("email: too many confirmation mails asked for, from here or "
                                "to this address: try again later.", status=429,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = "3600"
        return response
    try:
        services.follower_email_request(follower=follower, email=email, site=_site(request))
    except DomainError as exc:
        messages.error(request, f"{exc.field}: {exc.message}")
    else:
        messages.success(request, gettext("We sent a link to that address: open it to confirm."))
    return redirect("follow-entry", pk=event.pk, entry_id=follower.entry_id)


def _email_allowed(request: HttpRequest, email: str) -> bool:
    """May this client ask for one more confirmation mail, to this address? Both counted
    (the client first, so a client past its limit does not use up the address's)."""
    client = hashlib.sha256(client_ip(request).encode()).hexdigest()[:32]
    if not key_allowed(f"follow-email-client:{client}", str(settings.FOLLOW_EMAIL_RATE_CLIENT)):
        return False
    if not email:
        return True
    address = hashlib.sha256(email.lower().encode("utf-8", "replace")).hexdigest()[:32]
    return key_allowed(f"follow-email-address:{address}",
                       str(settings.FOLLOW_EMAIL_RATE_ADDRESS))


@require_POST
def follow_stop(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """"Stop notifications": one tap on the follow page."""
    event, follower = _own_follower(request, pk, entry_id)
    services.follower_stop(follower=follower)
    if request.headers.get("Accept", "").startswith("application/json"):
        return JsonResponse({"stopped": True})
    messages.success(request, gettext("Notifications stopped. This page still shows your seat."))
    return redirect("follow-entry", pk=event.pk, entry_id=follower.entry_id)


@csrf_exempt  # the signed token in the address is the credential (a notification's Stop button)
@require_http_methods(["GET", "HEAD", "POST"])
def follow_stop_link(request: HttpRequest, token: str) -> HttpResponse:
    """The "Stop notifications" link of every push and mail: one tap stops them."""
    if request.method == "POST":
        try:
            follower = services.follower_stop_signed(token=token)
        except DomainError as exc:
            if request.headers.get("Accept", "").startswith("application/json"):
                return JsonResponse({"errors": [{"field": exc.field, "message": exc.message}]},
                                    status=400)
            return render(request, "following/stop.html", {"error": exc.message}, status=400)
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse({"stopped": True})
        return render(request, "following/stop.html", {"follower": follower, "done": True})
    return render(request, "following/stop.html", {"token": token})


@require_http_methods(["GET", "HEAD", "POST"])
def follow_email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The confirmation link of an e-mail address: one tap confirms it."""
    if request.method != "POST":
        return render(request, "following/email_confirm.html", {"token": token})
    try:
        follower = services.follower_email_confirm(token=token)
    except DomainError as exc:
        return render(request, "following/email_confirm.html", {"error": exc.message},
                      status=400)
    return render(request, "following/email_confirm.html", {"follower": follower, "done": True})


# The web app manifest: what a phone's "Add to Home Screen" installs. Its scope is the whole site,
# like the service worker's (/sw.js, scope "/"), so the follow pages open inside the installed app
# and their pushes reach it. The icons: static/icons/, drawn by scripts/make_icons.py.
MANIFEST_ICONS = [
    {"src": "icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png",
     "purpose": "maskable"},
]
THEME_COLOUR = "#0b6e4f"  # static/css/site.css --accent
BACKGROUND_COLOUR = "#f5f6f8"  # --bg


@require_GET
def web_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest. ``?event=<id>``: installed from that event's follow page, the app
    opens on it (``start_url``); without, on the home page. Anyone may read it (it names no
    more than the address of a page that checks its own readers)."""
    raw = request.GET.get("event")
    start = reverse("home")
    if raw is not None:
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 12):
            return JsonResponse({"errors": [{
                "field": "event", "code": "invalid",
                "message": gettext("event: the number of an event, or nothing.")}]}, status=400)
        start = reverse("follow-pick", args=[int(raw)])
    manifest = {
        "id": "/",
        "name": "Pinochle scoring",
        "short_name": "Pinochle",
        "description": "Your seat and the standings of your pinochle event, and a "
                       "notification when a round is seated.",
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{**icon, "src": static(icon["src"])} for icon in MANIFEST_ICONS],
    }
    response = HttpResponse(json.dumps(manifest, indent=1),
                            content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root (its scope may then be the whole site)."""
    response = HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response

