"""Reads shared by pages and the API. Each selector owns its select_related/prefetch_related."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch

from clubs.permissions import can_view_event, visible_clubs

from .models import Event


def home_overview(*, user: Any) -> dict[str, Any]:
    """The clubs a visitor may see, each with its five most recent events."""
    events = Event.objects.annotate(entry_count=Count("entries")).order_by("-date", "-id")
    clubs = list(
        visible_clubs(user=user)
        .annotate(
            player_count=Count("roster", distinct=True),
            event_count=Count("events", distinct=True),
        )
        .prefetch_related(Prefetch("events", queryset=events, to_attr="all_events"))
    )
    for club in clubs:
        for event in club.all_events:
            event.club = club  # already loaded; avoids a query per event
        club.recent_events = [e for e in club.all_events if can_view_event(user=user, event=e)][:5]
    return {"clubs": clubs}
