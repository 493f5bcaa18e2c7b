"""The directors' side of the calls for a director: the event's calls page (for a director's
phone: the open calls, how long each has waited, "On my way" and the ruling), its live region
(also on the director screen), and taking and closing a call.

A table calls from its phone (``conduct.views.table_call``); every step of a call goes out on
the event's push stream as ``event: calls`` (``draw.signals``), and each director's page then
asks for its region again (``static/js/director_calls.js``; polled now and then as a safety
net, and every few seconds without push). Only directors (and owners) of the event's club see
these pages; the push says only that the calls moved.
"""

from __future__ import annotations

from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.forms import refusal_message
from conduct import services as conduct
from conduct.models import DirectorCall
from conduct.selectors import CallPayload, call_payload, event_calls
from standings.push import push_stream_url
from tournaments.models import Event
from tournaments.selectors import event_get

# Without push the calls are asked for this often; with it, only as a safety net.
CALLS_POLL_SECONDS = 8
CALLS_PUSH_POLL_SECONDS = 60
# The calls page lists this many closed calls under the open ones.
CLOSED_SHOWN = 20


class CallRow(CallPayload):
    """A call as the calls region draws it: with when it was raised, for the page's clock."""

    raised_ms: int


class CallsRegion(TypedDict):
    """What the calls region draws (:func:`calls_region`)."""

    event: Event
    calls: list[CallRow]
    closed: list[CallRow]
    waiting_count: int
    called_tables: dict[tuple[int, int], str]
    where: str
    now_ms: int
    calls_push_url: str
    calls_poll_seconds: int
    calls_push_poll_seconds: int


def calls_region(event: Event, *, where: str) -> CallsRegion:
    """What the calls region draws: the open calls (longest waiting first) and, on the calls
    page (``where="calls"``), the latest closed ones; ``where="director"`` for the director
    screen (the forms come back there)."""
    now = timezone.now()
    calls = event_calls(event, state=None if where == "calls" else "open")
    rows: list[CallRow] = [
        {**call_payload(c, now=now), "raised_ms": int(c.raised_at.timestamp() * 1000)}
        for c in calls]
    open_rows = [r for r in rows if r["open"]]
    return {
        "event": event, "calls": open_rows,
        "closed": [r for r in rows if not r["open"]][:CLOSED_SHOWN],
        "waiting_count": sum(1 for r in open_rows if r["state"] == DirectorCall.State.WAITING),
        "called_tables": {(r["round"], r["table"]): r["state"] for r in open_rows},
        "where": where, "now_ms": int(now.timestamp() * 1000),
        "calls_push_url": push_stream_url(event.pk),
        "calls_poll_seconds": CALLS_POLL_SECONDS,
        "calls_push_poll_seconds": CALLS_PUSH_POLL_SECONDS,
    }


@login_required
@never_cache
def event_calls_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's calls for a director, for a director's phone: it updates by itself."""
    event = event_get(pk=pk, user=request.user, role="director")
    return render(request, "events/calls.html", calls_region(event, where="calls"))


@login_required
@never_cache
@require_GET
def event_calls_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The calls region alone (``?where=director`` as the director screen shows it)."""
    event = event_get(pk=pk, user=request.user, role="director")
    where = "director" if request.GET.get("where") == "director" else "calls"
    return render(request, "events/partials/calls_live.html", calls_region(event, where=where))


def _back(request: HttpRequest, event: Event) -> HttpResponse:
    where = "event-director" if request.POST.get("where") == "director" else "event-calls"
    return redirect(where, pk=event.pk)


@login_required
@require_POST
def event_call_take(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    """"On my way": the director takes the call; the table's phone shows who is coming."""
    event = event_get(pk=pk, user=request.user, role="director")
    call = get_object_or_404(DirectorCall.objects.select_related("table"), event=event,
                             pk=call_id)
    with refusal_message(request, prefix=gettext("Table %(table)s: ") % {"table": call.table.number}):
        conduct.director_call_take(call=call, actor=request.user)
        messages.success(request, gettext("Table %(table)s: they see you are on the way.")
                         % {"table": call.table.number})
    return _back(request, event)


@login_required
@require_POST
def event_call_close(request: HttpRequest, pk: int, call_id: int) -> HttpResponse:
    """Close the call with the ruling (required), which the table's phone shows."""
    event = event_get(pk=pk, user=request.user, role="director")
    call = get_object_or_404(DirectorCall.objects.select_related("table"), event=event,
                             pk=call_id)
    with refusal_message(request, prefix=gettext("Table %(table)s: the call stays open. ")
                         % {"table": call.table.number}):
        conduct.director_call_close(call=call, note=request.POST.get("note", ""),
                                    actor=request.user)
        messages.success(request, gettext("Table %(table)s: call closed; the table sees the "
                                          "ruling.") % {"table": call.table.number})
    return _back(request, event)
