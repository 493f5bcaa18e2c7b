"""The public site: the home page, a club's page, the health endpoint, the site's icon, and a
signed-in user's API token page."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError, connection, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404
from django.utils import translation
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_http_methods
from rest_framework.authtoken.models import Token

from clubs.models import Club, Membership
from clubs.permissions import check_view_club, has_club_role
from common.api import DATABASE_RETRY_AFTER_SECONDS, database_unavailable_errors
from common.labels import translated
from common.rulesets import ruleset_for
from league.models import Season
from league.selectors import (
    club_seasons,
    current_season,
    event_years,
    season_leaderboard,
    year_season,
)
from series.selectors import club_series

from .selectors import club_events, home_overview


def home(request: HttpRequest) -> HttpResponse:
    """The clubs, with "Create a club" for the signed in (a "Manage" link on the clubs they
    direct or own) and "Sign up" / "Sign in" for visitors."""
    managed: set[int] = set()
    if request.user.is_authenticated:
        managed = set(Membership.objects.filter(
            user=request.user, role__in=[Membership.Role.OWNER, Membership.Role.DIRECTOR],
        ).values_list("club_id", flat=True))
    return render(request, "public/home.html", {**home_overview(user=request.user),
                                                "managed_club_ids": managed})


@cache
def _favicon() -> bytes:
    return (Path(settings.BASE_DIR) / "static" / "favicon.ico").read_bytes()


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever the page links: the spade of
    ``static/favicon.ico`` (pages link ``static/favicon.svg``)."""
    return HttpResponse(_favicon(), content_type="image/x-icon")


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


def season_shown(club: Club, raw: str | None) -> tuple[Season | None, list[tuple[str, str]]]:
    """The season the club page shows and the choices of its season selector.

    With seasons defined: ``?season=<id>`` of one of the club's seasons, else the current one
    (today in the club's time zone; else the latest past). Without: the calendar years in which
    the club finished events (``?season=<year>``, else the latest). Anything else asked for is
    ignored."""
    text = (raw or "").strip()
    wanted = int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else None
    seasons = club_seasons(club=club)
    if seasons:
        chosen = next((s for s in seasons if s.pk == wanted), None)
        chosen = chosen or current_season(club=club, seasons=seasons)
        return chosen, [(str(s.pk), s.name) for s in seasons]
    years = event_years(club=club)
    if not years:
        return None, []
    year = wanted if wanted in years else years[0]
    return year_season(club=club, year=year), [(str(y), str(y)) for y in years]


def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_view_club(user=request.user, club=club)
    season, choices = season_shown(club, request.GET.get("season"))
    return render(request, "public/club_detail.html", {
        "club": club,
        "ruleset_title": translated(ruleset_for(preset=club.ruleset_preset,
                                               overrides=club.ruleset_overrides).title),
        **club_events(club=club, user=request.user),
        "season": season,
        "season_choices": choices,
        "season_value": (str(season.pk) if season.pk else season.name) if season else "",
        "board": season_leaderboard(season=season) if season else None,
        "series_list": club_series(club=club),
        "is_director": has_club_role(user=request.user, club=club, role="director"),
    })


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The signed-in user's API token: shown here, created or replaced by a POST (the old key
    stops working at once). Scripts send it as ``Authorization: Token <key>``."""
    user = request.user
    assert isinstance(user, User)  # login_required: never anonymous here
    if request.method == "POST":
        with transaction.atomic():
            replaced = Token.objects.filter(user=user).delete()[0] > 0
            Token.objects.create(user=user)
        messages.success(request, "New API token created; the old one no longer works."
                         if replaced else "API token created.")
        return redirect("api-token")
    return render(request, "public/api_token.html", {
        "token": Token.objects.filter(user=user).first(),
    })


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 answer (``handler500``), for what failed outside the API's own handler
    (``common.api``): a database that does not answer is a 503 with ``Retry-After`` (a page
    saying so, or the API's JSON), anything else on an API path the API's JSON 500. Said in
    the reader's language, also when the failure came before the language was chosen (a
    session that needs the database): then the browser's, which needs none."""
    language = (getattr(request, "LANGUAGE_CODE", "")
                or translation.get_language_from_request(request))
    with translation.override(language):
        return _server_error(request)


def _server_error(request: HttpRequest) -> HttpResponse:
    down = isinstance(sys.exc_info()[1], (OperationalError, InterfaceError))
    if request.path.startswith("/api/"):
        if down:
            response: HttpResponse = JsonResponse({"errors": database_unavailable_errors()},
                                                  status=503)
            response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
            return response
        return JsonResponse({"errors": [{"field": "__all__", "code": "server_error",
                                         "message": gettext("Something went wrong on the server.")}]},
                            status=500)
    if down:
        response = HttpResponse(gettext("The database is not answering just now: nothing was "
                                        "saved. Try again in a few seconds."), status=503,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)


_PROJECT_DIR = Path(settings.BASE_DIR).resolve()


def _raised_by_the_project(exception: BaseException) -> bool:
    """Whether the innermost frame that raised ``exception`` is one of the project's own modules
    (not Django's ``get_object_or_404``, not a library's): only those messages were written for
    the reader."""
    trace = exception.__traceback__
    if trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    source = Path(trace.tb_frame.f_code.co_filename).resolve()
    return (source.is_relative_to(_PROJECT_DIR) and "site-packages" not in source.parts
            and ".venv" not in source.parts)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page (``handler404``). It shows the reason the code gave on purpose, in the
    reader's language (``Http404(gettext("No such club"))``, raised in one of the project's
    modules), and nothing Django wrote itself: not the URL patterns tried, not the model's name
    ``get_object_or_404`` puts in its message, not a file's path."""
    message = ""
    if (isinstance(exception, Http404) and not isinstance(exception, Resolver404)
            and _raised_by_the_project(exception)):
        text = exception.args[0] if exception.args else ""
        if isinstance(text, str):
            message = text
    if request.path.startswith("/api/"):
        # an API path no route takes (a malformed id: /api/events/abc/): the API's error shape
        return JsonResponse({"errors": [{"field": "__all__", "code": "not_found",
                                         "message": message or gettext("Not found.")}]},
                            status=404)
    return render(request, "404.html", {"message": message.rstrip(".")}, status=404)
