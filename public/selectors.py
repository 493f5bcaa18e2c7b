"""Reads for the public site: the home page and a club's page (its nights; its seasons are
``league.selectors``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from django.db.models import Count, Prefetch

from clubs.models import Club
from clubs.permissions import can_view_event, visible_clubs
from common.types import Actor
from tournaments.models import Event


class HomeOverview(TypedDict):
    clubs: Sequence[Club]  # each with ``recent_events``


class ClubEvents(TypedDict):
    upcoming: Sequence[Event]  # soonest first
    past: Sequence[Event]  # the latest first


def home_overview(*, user: Actor) -> HomeOverview:
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
        visible = [e for e in club.all_events if can_view_event(user=user, event=e)]
        setattr(club, "recent_events", visible[:5])  # noqa: B010 (not a model field)
    return {"clubs": clubs}


def club_events(*, club: Club, user: Actor) -> ClubEvents:
    events = [
        e for e in Event.objects.filter(club=club).annotate(entry_count=Count("entries"))
        if can_view_event(user=user, event=_with_club(e, club))
    ]
    upcoming = [e for e in events if not e.is_over]
    past = sorted((e for e in events if e.status == Event.Status.FINISHED),
                  key=lambda e: (e.date, e.pk), reverse=True)  # the latest first
    return {"upcoming": sorted(upcoming, key=lambda e: (e.date, e.pk)), "past": past}


def _with_club(event: Event, club: Club) -> Event:
    event.club = club
    return event
