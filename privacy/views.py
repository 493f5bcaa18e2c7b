"""A person's data pages (audience: the signed-in person; a club's directors for the export of
one of its players)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs.models import Club, Membership, Player
from clubs.permissions import check_club_role
from common.errors import DomainError
from common.forms import add_domain_error
from common.types import JSONValue

from .selectors import account_export, player_known_to_club
from .services import ERASED_NAME, account_erase, club_player_export

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class EraseForm(forms.Form):
    confirm = forms.CharField(label="Your user name", max_length=150, strip=False,
                              widget=forms.TextInput(attrs={"autocomplete": "off",
                                                            "autocapitalize": "none",
                                                            "spellcheck": "false"}))


def _download(document: Mapping[str, JSONValue], name: str) -> HttpResponse:
    response = HttpResponse(json.dumps(document, cls=DjangoJSONEncoder, indent=2),
                            content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


def _items(value: JSONValue) -> list[JSONValue]:
    return value if isinstance(value, list) else []


def _fields(value: JSONValue) -> dict[str, JSONValue]:
    return value if isinstance(value, dict) else {}


def _summary(document: Mapping[str, JSONValue]) -> dict[str, int]:
    """How much the export holds, for the page (an export as ``privacy.selectors`` writes it)."""
    events = [_fields(e) for e in _items(document["events"])]
    games = [_fields(g) for e in events for g in _items(e["games"])]
    return {
        "events": len(events),
        "games": len(games),
        "hands": sum(len(_items(g["hands"])) for g in games),
        "clubs": len(_items(_fields(document["player"])["clubs"])) if document["player"] else 0,
        "penalties": sum(len(_items(e["penalties"])) for e in events),
        "models": sum(1 for rows in _fields(document["records"]).values() if rows),
    }


@login_required
@require_GET
def data_page(request: HttpRequest) -> HttpResponse:
    document = account_export(user=cast("User", request.user))
    return render(request, "privacy/data.html", {
        "document": document, "summary": _summary(document), "erased_name": ERASED_NAME,
    })


@login_required
@require_GET
def data_download(request: HttpRequest) -> HttpResponse:
    stamp = timezone.now().strftime("%Y-%m-%d")
    return _download(account_export(user=cast("User", request.user)),
                     f"pinochle-data-{request.user.get_username()}-{stamp}.json")


@login_required
@require_http_methods(["GET", "POST"])
def erase_page(request: HttpRequest) -> HttpResponse:
    form = EraseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            account_erase(user=cast("User", request.user), confirm=form.cleaned_data["confirm"])
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            logout(request)
            messages.success(request, "Your account is erased. Your results stay with the "
                             f"clubs under the name \u201c{ERASED_NAME}\u201d.")
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(request, "privacy/erase.html", {"form": form, "erased_name": ERASED_NAME},
                  status=status)


@login_required
@require_POST
def club_player_data(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A director's download of what the club holds about a player who asked in person."""
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role=Membership.Role.DIRECTOR)
    player = get_object_or_404(Player, pk=player_id)
    if not player_known_to_club(player=player, club=club):
        raise Http404(gettext("No such player"))
    stamp = timezone.now().strftime("%Y-%m-%d")
    return _download(club_player_export(club=club, player=player, actor=request.user),
                     f"pinochle-data-{club.slug}-player-{player.pk}-{stamp}.json")
