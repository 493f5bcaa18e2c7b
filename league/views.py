"""League pages: a club's seasons (directors create, change and delete them), a season's full
leaderboard, and the club's ratings. Anyone who may see the club reads; directors write."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.permissions import check_club_role, check_view_club, has_club_role
from common.errors import DomainError
from common.forms import add_domain_error

from . import selectors, services
from .forms import SeasonForm
from .models import Season


def _club(request: HttpRequest, slug: str, *, role: str | None = None) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if role is None:
        check_view_club(user=request.user, club=club)
    else:
        check_club_role(user=request.user, club=club, role=role)
    return club


def _season(club: Club, pk: int) -> Season:
    season = Season.objects.filter(club=club, pk=pk).select_related("club").first()
    if season is None:
        raise Http404(gettext("No such season"))
    return season


def season_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    seasons = selectors.club_seasons(club=club)
    return render(request, "league/season_list.html", {
        "club": club, "seasons": seasons,
        "current": selectors.current_season(club=club, seasons=seasons),
        "is_director": has_club_role(user=request.user, club=club, role="director"),
    })


def season_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(request, slug)
    season = _season(club, pk)
    return render(request, "league/season_detail.html", {
        "club": club, "season": season,
        "board": selectors.season_leaderboard(season=season),
        "seasons": selectors.club_seasons(club=club),
        "is_director": has_club_role(user=request.user, club=club, role="director"),
    })


def _season_form(request: HttpRequest, club: Club, form: SeasonForm,
                 save: Callable[[dict[str, object]], Season], *,
                 season: Season | None) -> HttpResponse:
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, gettext("Season %(name)s saved.") % {"name": saved.name})
            return redirect("season-detail", slug=club.slug, pk=saved.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "league/season_form.html",
                  {"club": club, "form": form, "season": season}, status=status)


@login_required
def season_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug, role="director")
    form = SeasonForm(request.POST or None)
    return _season_form(
        request, club, form, season=None,
        save=lambda data: services.season_create(club=club, actor=request.user, **data))


@login_required
def season_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(request, slug, role="director")
    season = _season(club, pk)
    initial = {f: getattr(season, f) for f in services.FIELDS}
    form = SeasonForm(request.POST or None, initial=initial)
    return _season_form(
        request, club, form, season=season,
        save=lambda data: services.season_update(season=season, actor=request.user, **data))


@login_required
@require_POST
def season_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(request, slug, role="director")
    season = _season(club, pk)
    services.season_delete(season=season, actor=request.user)
    messages.success(request, gettext("Season %(name)s deleted; the events' results stay.")
                     % {"name": season.name})
    return redirect("season-list", slug=club.slug)


def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(request, slug)
    return render(request, "league/club_ratings.html", {
        "club": club, "ratings": selectors.club_ratings(club=club),
    })
