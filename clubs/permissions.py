"""Who may do what in a club. Every view and API endpoint asks here; nothing trusts the UI.

Roles are ordered: owner > director > scorer > member. A *scorer* may enter and correct hands of
open rounds; a *director* runs events (check-in, seating, closing rounds, corrections after close)
and manages members and scorers (invites them, moves people between member and scorer, removes
them); an *owner* also invites and manages directors and owners. A club always keeps an owner.
Public clubs and events can be read by anyone.
"""

from __future__ import annotations

from typing import Protocol

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from common.types import Actor

from .models import Club, Membership

RANK = {
    Membership.Role.MEMBER: 1,
    Membership.Role.SCORER: 2,
    Membership.Role.DIRECTOR: 3,
    Membership.Role.OWNER: 4,
}


def club_role(*, user: Actor, club: Club) -> str | None:
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


def has_club_role(*, user: Actor, club: Club, role: str) -> bool:
    actual = club_role(user=user, club=club)
    return actual is not None and RANK[Membership.Role(actual)] >= RANK[Membership.Role(role)]


def check_club_role(*, user: Actor, club: Club, role: str) -> None:
    """Raise 404 for people outside a private club, 403 for members without the role."""
    if has_club_role(user=user, club=club, role=role):
        return
    if not club.is_public and club_role(user=user, club=club) is None:
        raise Http404(gettext("No such club"))
    raise PermissionDenied(gettext("This needs the %(role)s role in %(name)s.") % {"role": role, "name": club.name})


def grantable_roles(*, user: Actor, club: Club) -> list[str]:
    """The roles ``user`` may give (by invitation or by name) or take away in ``club``, lowest
    first: owners every role, directors member and scorer, anyone else none."""
    actual = club_role(user=user, club=club)
    if actual == Membership.Role.OWNER:
        return [Membership.Role.MEMBER, Membership.Role.SCORER, Membership.Role.DIRECTOR,
                Membership.Role.OWNER]
    if actual == Membership.Role.DIRECTOR:
        return [Membership.Role.MEMBER, Membership.Role.SCORER]
    return []


def check_grant_role(*, user: Actor, club: Club, role: str, current: str | None = None) -> None:
    """Raise 403 unless ``user`` may give ``role`` to someone whose role is ``current`` (None:
    not a member yet), or take ``current`` away (``role`` empty). Directors manage members and
    scorers only; directors and owners are the owners' business."""
    check_club_role(user=user, club=club, role=Membership.Role.DIRECTOR)
    allowed = grantable_roles(user=user, club=club)
    for wanted in (role, current):
        if wanted and wanted not in allowed:
            raise PermissionDenied(
                gettext("Only an owner of %(name)s can give or take away the %(wanted)s role.") % {"name": club.name, "wanted": wanted})


def directs_any_club(*, user: Actor | None) -> bool:
    """Whether the user directs (or owns) at least one club: the navigation offers the API and
    an API token to them only (superusers act as owners)."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(
        user=user, role__in=[Membership.Role.DIRECTOR, Membership.Role.OWNER]).exists()


def can_view_club(*, user: Actor, club: Club) -> bool:
    return club.is_public or club_role(user=user, club=club) is not None


def check_view_club(*, user: Actor, club: Club) -> None:
    if not can_view_club(user=user, club=club):
        raise Http404(gettext("No such club"))


def visible_clubs(*, user: Actor) -> QuerySet[Club]:
    if user is not None and user.is_authenticated:
        if user.is_superuser:
            return Club.objects.all()
        return Club.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return Club.objects.filter(is_public=True)


class ClubEvent(Protocol):
    """An event as its club's permissions see it (the tournaments' ``Event``, a layer above)."""

    @property
    def is_public(self) -> bool: ...

    @property
    def club(self) -> Club: ...


def can_view_event(*, user: Actor, event: ClubEvent) -> bool:
    """Public events of public clubs are open to all; anything else needs a membership."""
    if event.is_public and event.club.is_public:
        return True
    return club_role(user=user, club=event.club) is not None


def check_view_event(*, user: Actor, event: ClubEvent) -> None:
    if not can_view_event(user=user, event=event):
        raise Http404(gettext("No such event"))
