"""Site-wide pages: the home page and the health endpoint."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from tournaments.selectors import home_overview


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", home_overview(user=request.user))


def health(request: HttpRequest) -> JsonResponse:
    """Answers 200 when the web process can reach its database."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database = "ok"
    except Exception:  # pragma: no cover - exercised only when the database is down
        database = "unavailable"
    status = 200 if database == "ok" else 503
    return JsonResponse(
        {"status": "ok" if status == 200 else "degraded", "database": database,
         "engine": connection.vendor},
        status=status,
    )
