"""Registering for a series (``/series/<id>/register/``): each event's registration in one list
(open or why not, places left, fee, deadline, the visitor's own registration), and one tap that
registers a signed-in player for every open event taking players one by one. A pair event asks
for a partner, so it keeps its own form (linked). Each event's registration is its own: one
event's refusal (full waitlist aside, a deadline passed) leaves the others registered.

It lives here, above both ``series`` and ``registrations``, which sit on one layer and so never
import each other."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache

from common.errors import DomainError
from common.throttles import page_allowed
from registrations.models import Registration
from registrations.selectors import (
    places_left,
    registration_refusal,
    registration_settings,
    registrations_of_user,
)
from registrations.services import registration_create
from registrations.views import SCOPE, site
from series.selectors import series_events, series_get

WORDS: dict[str, str] = {
    Registration.Status.UNCONFIRMED: "waiting for your address to be confirmed",
    Registration.Status.PENDING: "waiting for the director's approval",
    Registration.Status.REGISTERED: "registered",
    Registration.Status.WAITLISTED: "on the waitlist",
}


def _rows(series: Any, user: Any) -> list[dict[str, Any]]:
    events, _hidden = series_events(series=series, user=user)
    now = timezone.now()
    rows = []
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


@never_cache
def series_register(request: HttpRequest, pk: int) -> HttpResponse:
    series = series_get(pk=pk, user=request.user)
    user: Any = request.user
    if request.method == "POST":
        if not user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        if not page_allowed(request, SCOPE):
            return HttpResponse("Too many requests from this network just now: wait a minute "
                                "and try again.", status=429,
                                content_type="text/plain; charset=utf-8")
        done = 0
        for row in _rows(series, user):
            if not row["one_tap"]:
                continue
            try:
                with transaction.atomic():
                    registration_create(event=row["event"], user=user, site=site(request))
            except DomainError as exc:
                messages.error(request, f"{row['event'].name}: {exc.message}")
            else:
                done += 1
        if done:
            messages.success(request, f"Registered for {done} event{'s' if done != 1 else ''} "
                                      "of the series: each event's line says where you stand.")
        return redirect("series-register", pk=series.pk)
    rows = _rows(series, user)
    return render(request, "public/series_register.html", {
        "series": series, "rows": rows, "one_tap": sum(1 for r in rows if r["one_tap"]),
        "signed_in": bool(user.is_authenticated),
    })
