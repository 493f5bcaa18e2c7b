"""Reads the club pages and the club API share."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from common.types import Actor

from .models import Club, Invitation, Membership
from .permissions import check_club_role, grantable_roles


def club_members(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("user__username")


def invitations_for(*, club: Club, user: Actor, active_only: bool = True) -> QuerySet[Invitation]:
    """The club's invitations ``user`` may see and revoke, newest first: those for a role they
    may give (a director never sees a director link, which would let them hand it on).
    ``active_only``: only links that still work."""
    rows = (Invitation.objects.filter(club=club, role__in=grantable_roles(user=user, club=club))
            .select_related("club", "created_by"))
    if active_only:
        rows = rows.filter(revoked_at__isnull=True, expires_at__gt=timezone.now()).filter(
            Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")))
    return rows.order_by("-created_at", "-id")


def managed_invitation(*, slug: str, pk: int, user: Actor) -> Invitation:
    """Invitation ``pk`` of club ``slug`` for someone who may manage it: the director role is
    checked (403, or 404 outside a private club), and an invitation the user may not see (a
    director asking for a director link included) is a 404."""
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=user, club=club, role="director")
    invitation = invitations_for(club=club, user=user, active_only=False).filter(pk=pk).first()
    if invitation is None:
        raise Http404(gettext("No such invitation"))
    return invitation


def invitation_by_token(*, token: str) -> Invitation | None:
    return Invitation.objects.select_related("club", "created_by").filter(token=token).first()
