"""Who may do what in a club. Every view and API endpoint asks here; nothing trusts the UI.

Roles are ordered: owner > director > scorer > member. A *scorer* may enter and correct hands of
open rounds; a *director* runs events (check-in, seating, closing rounds, corrections after close);
an *owner* also manages memberships and roles. Public clubs and events can be read by anyone.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404

from .models import Club, Membership

RANK = {
    Membership.Role.MEMBER: 1,
    Membership.Role.SCORER: 2,
    Membership.Role.DIRECTOR: 3,
    Membership.Role.OWNER: 4,
}


def club_role(*, user: Any, club: Club) -> str | None:
    """The user's role in the club (superusers act as owners), or None."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.OWNER
    # Asked afresh each time (one indexed query): a role cached on the user object went stale
    # when a membership changed while the object lived on.
    return (
        Membership.objects.filter(user=user, club_id=club.pk).values_list("role", flat=True).first()
    )


def has_club_role(*, user: Any, club: Club, role: str) -> bool:
    actual = club_role(user=user, club=club)
    return actual is not None and RANK[Membership.Role(actual)] >= RANK[Membership.Role(role)]


def check_club_role(*, user: Any, club: Club, role: str) -> None:
    """Raise 404 for people outside a private club, 403 for members without the role."""
    if has_club_role(user=user, club=club, role=role):
        return
    if not club.is_public and club_role(user=user, club=club) is None:
        raise Http404("No such club")
    raise PermissionDenied(f"This needs the {role} role in {club.name}.")


def can_view_club(*, user: Any, club: Club) -> bool:
    return club.is_public or club_role(user=user, club=club) is not None


def check_view_club(*, user: Any, club: Club) -> None:
    if not can_view_club(user=user, club=club):
        raise Http404("No such club")


def visible_clubs(*, user: Any) -> QuerySet[Club]:
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Club.objects.all()
        return Club.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return Club.objects.filter(is_public=True)


def can_view_event(*, user: Any, event: Any) -> bool:
    """Public events of public clubs are open to all; anything else needs a membership."""
    if event.is_public and event.club.is_public:
        return True
    return club_role(user=user, club=event.club) is not None


def check_view_event(*, user: Any, event: Any) -> None:
    if not can_view_event(user=user, event=event):
        raise Http404("No such event")
