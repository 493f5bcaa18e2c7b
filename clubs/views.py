"""Club management pages: creating a club, its members and roles, its roster."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.forms import add_domain_error

from . import services
from .forms import ClubForm, MembershipForm, MergeForm, PlayerForm
from .models import Club, Membership, Player
from .permissions import check_club_role, club_role, has_club_role


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(owner=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, f"{club.name} is ready. Add your players next.")
            return redirect("club-manage", slug=club.slug)
    return render(request, "clubs/club_form.html", {"form": form})


def _manage_context(request: HttpRequest, club: Club, **forms: object) -> dict[str, object]:
    return {
        "club": club,
        "role": club_role(user=request.user, club=club),
        "is_owner": has_club_role(user=request.user, club=club, role="owner"),
        "members": Membership.objects.filter(club=club).select_related("user").order_by("user__username"),
        "roster": Player.objects.filter(club_links__club=club).order_by("name"),
        "player_form": forms.get("player_form") or PlayerForm(),
        "member_form": forms.get("member_form") or MembershipForm(),
        "merge_form": forms.get("merge_form") or MergeForm(club=club),
    }


@login_required
def club_manage(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    return render(request, "clubs/club_manage.html", _manage_context(request, club))


def _manage_action(
    request: HttpRequest, slug: str, *, role: str, form_key: str,
    make_form: Callable[[Club], forms.Form], act: Callable[[Club, dict[str, Any]], str],
) -> HttpResponse:
    """A management form post: check the role, validate, call the service, say what happened;
    errors are shown next to their fields on the management page."""
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role=role)
    form = make_form(club)
    if form.is_valid():
        try:
            message = act(club, form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, message)
            return redirect("club-manage", slug=slug)
    return render(request, "clubs/club_manage.html",
                  _manage_context(request, club, **{form_key: form}), status=400)


@login_required
@require_POST
def club_player_add(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        return f"{services.player_create(club=club, **data).name} added to the roster."

    return _manage_action(request, slug, role="director", form_key="player_form",
                          make_form=lambda club: PlayerForm(request.POST), act=act)


@login_required
@require_POST
def club_player_merge(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        return f"Merged into {services.player_merge(club=club, **data).name}."

    return _manage_action(request, slug, role="director", form_key="merge_form",
                          make_form=lambda club: MergeForm(request.POST, club=club), act=act)


@login_required
@require_POST
def club_member_set(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: dict[str, Any]) -> str:
        membership = services.membership_set(club=club, actor=request.user, **data)
        return f"{membership.user.get_username()} is now {membership.get_role_display().lower()}."

    return _manage_action(request, slug, role="owner", form_key="member_form",
                          make_form=lambda club: MembershipForm(request.POST), act=act)
