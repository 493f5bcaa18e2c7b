"""Builders for the score-entry tests: a seated table with players, hand values, form data.

Tables are built with the models directly (as ``tournaments.services._write_round`` writes them:
one game per table, four seats) so these tests do not depend on the rotation algorithm.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club, Membership
from scoring.models import Game
from tests.factories import ClubFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Event, Round, Seat, Table


def seated_table(
    *, event: Event | None = None, club: Club | None = None, round_status: str = "playing",
    round_number: int = 1, table_number: int = 1, **event_kwargs: Any,
) -> Table:
    """A table of ``event`` (a new one of ``club`` when omitted) with four players seated."""
    if event is None:
        event = EventFactory(club=club or ClubFactory(), status="running", **event_kwargs)
    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": round_status}
    )
    table = Table.objects.create(round=round_, number=table_number)
    Game.objects.create(table=table)
    for position in "NESW":
        entry = Entry.objects.create(event=event, player=PlayerFactory(club=event.club))
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return table


def close_round(table: Table) -> None:
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    table.round.refresh_from_db()


def member(club: Club, role: str, username: str) -> Any:
    user = UserFactory(username=username)
    Membership.objects.create(club=club, user=user, role=role)
    return user


def values(**over: Any) -> dict[str, Any]:
    """A hand NS bid 51 in hearts and made: NS 24 + 27 = 51, EW 32 + 23 = 55."""
    base: dict[str, Any] = {
        "dealer": "S", "bidder": "N", "bid": 51, "trump": "H", "outcome": "played",
        "meld": {"NS": 24, "EW": 32}, "counters": {"NS": 27, "EW": 23},
    }
    base.update(over)
    return base


def form_data(number: int = 1, key: str = "key-1", **over: Any) -> dict[str, str]:
    """The same hand as the no-JavaScript table form posts it."""
    data = {
        "number": str(number), "idempotency_key": key, "outcome": "played", "dealer": "S",
        "bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32",
        "counters_NS": "27", "counters_EW": "23",
    }
    data.update({k: str(v) for k, v in over.items()})
    return data


DEALERS = ["S", "W", "N", "E"]
