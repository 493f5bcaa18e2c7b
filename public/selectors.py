"""Reads for the public site: the home page and a club's page (its nights and its season)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch

from clubs.models import Club, Player
from clubs.permissions import can_view_event, visible_clubs
from standings.models import StandingsSnapshot
from tournaments.models import Entry, Event


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
        visible = [e for e in club.all_events if can_view_event(user=user, event=e)]
        setattr(club, "recent_events", visible[:5])  # noqa: B010 (not a model field)
    return {"clubs": clubs}


def club_events(*, club: Club, user: Any) -> dict[str, Any]:
    events = [
        e for e in Event.objects.filter(club=club).annotate(entry_count=Count("entries"))
        if can_view_event(user=user, event=_with_club(e, club))
    ]
    upcoming = [e for e in events if e.status in (Event.Status.DRAFT, Event.Status.RUNNING)]
    past = [e for e in events if e.status == Event.Status.FINISHED]
    return {"upcoming": sorted(upcoming, key=lambda e: (e.date, e.pk)), "past": past}


def _with_club(event: Event, club: Club) -> Event:
    event.club = club
    return event


def season_leaderboard(*, club: Club, year: int) -> list[dict[str, Any]]:
    """Totals over the club's finished nights of one year, from their standings snapshots."""
    snapshots = StandingsSnapshot.objects.filter(
        event__club=club, event__status=Event.Status.FINISHED, event__date__year=year,
        event__is_public=True,
    ).select_related("event")
    entry_players = dict(
        Entry.objects.filter(event__club=club, event__date__year=year).values_list("pk", "player_id")
    )
    names = dict(Player.objects.filter(club_links__club=club).values_list("pk", "name"))
    table: dict[int, dict[str, Any]] = {}
    for snapshot in snapshots:
        for row in snapshot.rows:
            player_id = entry_players.get(int(row["entry_id"]))
            if player_id is None:
                continue
            line = table.setdefault(player_id, {
                "player_id": player_id, "name": names.get(player_id, row["name"]),
                "nights": 0, "points": 0, "wins": 0, "firsts": 0,
            })
            line["nights"] += 1
            line["points"] += int(row["points"])
            line["wins"] += int(row.get("wins", 0))
            line["firsts"] += int(row.get("rank") == 1)
    ordered = sorted(table.values(), key=lambda r: (-r["points"], -r["wins"], r["name"]))
    rank = 0
    previous: tuple[int, int] | None = None
    for position, line in enumerate(ordered, start=1):
        key = (line["points"], line["wins"])
        if key != previous:
            rank = position
            previous = key
        line["rank"] = rank
        line["average"] = round(line["points"] / line["nights"]) if line["nights"] else 0
    return ordered
