"""Registering for a series (``/series/<id>/register/``): each event's registration in one list
(open or why not, places left, fee, deadline, the visitor's own registration), and one tap that
registers a signed-in user for every open event taking players one by one (asking once for a
name when the account has no player yet, and for an address when it has none). A pair event asks
for a partner, so it keeps its own form (linked). Each event's registration is its own: one
event's refusal (full waitlist aside, a deadline passed) leaves the others registered.

It lives here, above both ``series`` and ``registrations``, which sit on one layer and so never
import each other."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import TypedDict

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from common.errors import DomainError
from common.throttles import page_allowed
from common.types import Actor
from registrations.models import Registration
from registrations.selectors import (
    account_player,
    places_left,
    registration_refusal,
    registration_settings,
    registrations_of_user,
)
from registrations.services import registration_create
from registrations.views import SCOPE, site
from series.models import Series
from series.selectors import series_events, series_get
from tournaments.models import Event

WORDS: dict[str, str] = {
    Registration.Status.UNCONFIRMED: "waiting for your address to be confirmed",
    Registration.Status.PENDING: "waiting for the director's approval",
    Registration.Status.REGISTERED: "registered",
    Registration.Status.WAITLISTED: "on the waitlist",
}


class SeriesEventRow(TypedDict):
    """An event of the series on its registration page."""

    event: Event
    refusal: str
    pairs: bool
    places_left: int | None
    fee: Decimal
    deadline: datetime.datetime | None
    mine: Registration | None
    mine_words: str
    one_tap: bool


def _rows(series: Series, user: Actor) -> list[SeriesEventRow]:
    events, _hidden = series_events(series=series, user=user)
    now = timezone.now()
    rows: list[SeriesEventRow] = []
    for event in events:
        settings = registration_settings(event)
        refusal = registration_refusal(settings, now=now)
        mine = registrations_of_user(event=event, user=user)
        live = next((r for r in mine if r.status in WORDS), None)
        rows.append({
            "event": event, "refusal": refusal, "pairs": event.spec.pairs,
            "places_left": None if refusal else places_left(settings),
            "fee": settings.fee, "deadline": settings.deadline,
            "mine": live, "mine_words": WORDS.get(live.status, "") if live else "",
            "one_tap": not refusal and not event.spec.pairs and live is None,
        })
    return rows


def _asks(rows: list[SeriesEventRow], user: Actor) -> dict[str, bool]:
    """What the one tap must ask a signed-in user once: a name when an event has no player for
    the account (none linked, none on its club's roster with the account's address) and the
    account has no full name, an
    address when the account has none (then each registration is confirmed by mail)."""
    if not user.is_authenticated:
        return {"name": False, "email": False}
    return {
        "name": not user.get_full_name().strip() and any(
            account_player(user=user, event=row["event"])[0] is None
            for row in rows if row["one_tap"]),
        "email": not str(user.email or ""),
    }


def _page(request: HttpRequest, series: Series, *, errors: dict[str, str] | None = None,
          status: int = 200) -> HttpResponse:
    user = request.user
    rows = _rows(series, user)
    return render(request, "public/series_register.html", {
        "series": series, "rows": rows, "one_tap": sum(1 for r in rows if r["one_tap"]),
        "signed_in": bool(user.is_authenticated), "asks": _asks(rows, user),
        "errors": errors or {}, "given": request.POST if request.method == "POST" else {},
    }, status=status)


@never_cache
def series_register(request: HttpRequest, pk: int) -> HttpResponse:
    series = series_get(pk=pk, user=request.user)
    user = request.user
    if request.method != "POST":
        return _page(request, series)
    if not user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    if not page_allowed(request, SCOPE):
        return HttpResponse("Too many requests from this network just now: wait a minute "
                            "and try again.", status=429,
                            content_type="text/plain; charset=utf-8")
    rows = _rows(series, user)
    asks = _asks(rows, user)
    given = {"name": " ".join(request.POST.get("name", "").split()),
             "email": request.POST.get("email", "").strip()}
    missing = {field: ("Enter your name." if field == "name" else "Enter your e-mail address.")
               for field, asked in asks.items() if asked and not given[field]}
    if missing:
        return _page(request, series, errors=missing, status=400)
    done = 0
    for row in rows:
        if not row["one_tap"]:
            continue
        try:
            with transaction.atomic():
                # the name and address count only where the account has none
                registration_create(event=row["event"], user=user, site=site(request),
                                    name=given["name"], email=given["email"])
        except DomainError as exc:
            if exc.field in ("name", "email") and not done:
                return _page(request, series, errors={exc.field: exc.message}, status=400)
            messages.error(request, f"{row['event'].name}: {exc.message}")
        else:
            done += 1
    if done:
        messages.success(request, f"Registered for {done} event{'s' if done != 1 else ''} "
                                  "of the series: each event's line says where you stand.")
    return redirect("series-register", pk=series.pk)
