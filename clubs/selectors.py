"""Reads the club pages and the club API share."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone

from .models import Club, Invitation, Membership
from .permissions import grantable_roles


def club_members(*, club: Club) -> QuerySet[Membership]:
    return Membership.objects.filter(club=club).select_related("user").order_by("user__username")


def invitations_for(*, club: Club, user: Any, active_only: bool = True) -> QuerySet[Invitation]:
    """The club's invitations ``user`` may see and revoke, newest first: those for a role they
    may give (a director never sees a director link, which would let them hand it on).
    ``active_only``: only links that still work."""
    rows = (Invitation.objects.filter(club=club, role__in=grantable_roles(user=user, club=club))
            .select_related("club", "created_by"))
    if active_only:
        rows = rows.filter(revoked_at__isnull=True, expires_at__gt=timezone.now()).filter(
            Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")))
    return rows.order_by("-created_at", "-id")


def invitation_by_token(*, token: str) -> Invitation | None:
    return Invitation.objects.select_related("club", "created_by").filter(token=token).first()
