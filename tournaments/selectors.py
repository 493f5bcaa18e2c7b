"""Reads shared by pages and the API. Each selector owns its select_related/prefetch_related."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from clubs.models import Player
from clubs.permissions import check_club_role, check_view_event

from .models import Bye, Entry, Event, Round, Seat, Table


def event_get(*, pk: int, user: Any, role: str | None = None) -> Event:
    """The event if the user may see it (404 otherwise) and, with ``role``, act on it (403)."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    check_view_event(user=user, event=event)
    if role is not None:
        check_club_role(user=user, club=event.club, role=role)
    return event


def round_tables(*, round_: Round) -> list[dict[str, Any]]:
    """Tables of a round with their players by seat and their game, in table order."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("game")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))
        )
        .order_by("number")
    )
    out = []
    for table in tables:
        by_position = {seat.position: seat for seat in table.seats.all()}
        out.append({
            "table": table,
            "game": getattr(table, "game", None),
            "seats": [by_position.get(p) for p in ("N", "E", "S", "W")],
        })
    return out


def round_byes(*, round_: Round) -> list[Bye]:
    return list(Bye.objects.filter(round=round_).select_related("entry__player"))


def event_overview(*, event: Event) -> dict[str, Any]:
    rounds = list(event.rounds.order_by("number"))
    current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    entries = list(event.entries.select_related("player").order_by("player__name"))
    return {
        "rounds": rounds,
        "current_round": current,
        "entries": entries,
        "active_count": sum(1 for e in entries if e.status == Entry.Status.ACTIVE),
        "next_round_number": (rounds[-1].number + 1) if rounds else 1,
    }


def checkin_roster(*, event: Event) -> list[dict[str, Any]]:
    entries = {e.player_id: e for e in event.entries.all()}
    roster = Player.objects.filter(club_links__club=event.club).order_by("name")
    return [{"player": p, "entry": entries.get(p.pk)} for p in roster]
