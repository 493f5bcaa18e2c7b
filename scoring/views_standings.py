"""Public standings pages: the event's standings, the wall screen, and what they poll.

The pages render the last snapshot; ``static/js/standings.js`` polls the version endpoint every
few seconds and, when the version moves, fetches the fragment and swaps it in (no reload). When
the snapshot is behind the hands (worker down, queue lost) the last snapshot stays on screen with
an "updating…" note until the worker or the reconcile task catches up.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .selectors import event_standings, standings_status

POLL_SECONDS = 3


@require_GET
def standings_page(request: HttpRequest, event_id: int) -> HttpResponse:
    standings = event_standings(event_id=event_id, user=request.user)
    return render(request, "scoring/standings.html",
                  {"standings": standings, "poll_seconds": POLL_SECONDS, "view": "page"})


@require_GET
def standings_wall(request: HttpRequest, event_id: int) -> HttpResponse:
    standings = event_standings(event_id=event_id, user=request.user, chart_top=8)
    return render(request, "scoring/standings_wall.html",
                  {"standings": standings, "poll_seconds": POLL_SECONDS, "view": "wall"})


@never_cache
@require_GET
def standings_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The live part of either page (table, chart, status), for the poller to swap in."""
    wall = request.GET.get("view") == "wall"
    standings = event_standings(event_id=event_id, user=request.user, chart_top=8 if wall else 6)
    template = "scoring/partials/standings_wall_body.html" if wall else "scoring/partials/standings_body.html"
    response = render(request, template, {"standings": standings})
    response["X-Standings-Version"] = str(standings.status.version)
    return response


@never_cache
@require_GET
def standings_version(request: HttpRequest, event_id: int) -> JsonResponse:
    """``{"version", "behind", ...}``: polled by the pages; cheap (the rows are not loaded)."""
    return JsonResponse(standings_status(event_id=event_id, user=request.user).to_dict())
