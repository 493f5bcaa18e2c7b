"""Reads shared by pages and the API. Each selector owns its select_related/prefetch_related."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Prefetch
from django.shortcuts import get_object_or_404

from clubs.models import Player
from clubs.permissions import check_club_role, check_view_event
from common.errors import DomainError

from .models import Bye, Entry, Event, Pair, Round, Seat, Table


def results_final(event: Event) -> DomainError | None:
    """THE rule that a finished event's results are final: its hands, games, seats, entries and
    settings change only after a director reopens it, with a reason (its placements, prizes and
    ratings would otherwise disagree with its hands). Every writer asks; returns the refusal."""
    if event.status == Event.Status.FINISHED:
        return DomainError("This event is finished and its results are final; reopen it, "
                           "saying why, to change them.", field="event", code="event_final")
    if event.status == Event.Status.CANCELLED:
        return DomainError("This event was cancelled; its results can no longer change.",
                           field="event", code="event_final")
    return None


def results_final_check(event: Event) -> None:
    """Raise :func:`results_final`'s refusal, if any."""
    refusal = results_final(event)
    if refusal is not None:
        raise refusal


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


def event_entrants(event: Event) -> int:
    """What a format plans its rounds for: every pair registered (a pair event's schedule and
    bracket are fixed at the start, withdrawn pairs included), else the players playing."""
    if event.is_pairs:
        return event.pairs.count()
    return event.entries.filter(status=Entry.Status.ACTIVE).count()


def pairs_in_seed_order(event: Event) -> list[tuple[int, tuple[int, ...], bool]]:
    """(pair id, its entries, still playing) for every pair of the event, best seed first: the
    director's seeds, then the unseeded pairs in registration order."""
    members: dict[int, list[tuple[int, bool]]] = {}
    for pair_id, entry_id, status in Entry.objects.filter(
            event=event, pair__isnull=False).order_by("pk").values_list("pair_id", "pk", "status"):
        members.setdefault(pair_id, []).append((entry_id, status == Entry.Status.ACTIVE))
    order = event.pairs.order_by(F("seed").asc(nulls_last=True), "pk").values_list("pk", flat=True)
    return [(pk, tuple(e for e, _ in members.get(pk, [])),
             all(active for _, active in members.get(pk, [])) and bool(members.get(pk)))
            for pk in order]


def pair_payload(pair: Pair) -> dict[str, Any]:
    """A pair as the pages and the API show it: id, name, seed, status and its two players
    (prefetch ``members__player`` when listing many)."""
    members = sorted(pair.members.all(), key=lambda e: e.pk)
    left = any(m.status == Entry.Status.LEFT for m in members)
    return {"id": pair.pk, "name": str(pair), "seed": pair.seed,
            "status": Entry.Status.LEFT if left else Entry.Status.ACTIVE,
            "players": [{"entry_id": m.pk, "player_id": m.player_id, "name": m.player.name}
                        for m in members]}
