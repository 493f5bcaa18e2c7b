"""Factories for score entry: a seated table with players, hand values, form data, and games
with their derived seat results.

Tables are built with the models directly (as ``tournaments.services._write_round`` writes them:
one game per table, four seats) so these tests do not depend on the rotation algorithm.
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club, Membership
from scoring.models import Game
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Entry, Event, Round, Seat, Table


def seated_table(
    *, event: Event | None = None, club: Club | None = None, round_status: str = "playing",
    round_number: int = 1, table_number: int = 1, keeper: str = "N", **event_kwargs: Any,
) -> Table:
    """A table of ``event`` (a new one of ``club`` when omitted) with four players seated, whose
    phone named ``keeper`` as the player keeping score (``keeper=""``: not named yet, the table's
    phone then enters no hand)."""
    if event is None:
        event = EventFactory(club=club or ClubFactory(), status="running", **event_kwargs)
    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": round_status}
    )
    table = Table.objects.create(round=round_, number=table_number)
    Game.objects.create(table=table, scorer_position=keeper)
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


def game_with_results(
    *, event: Event, round_number: int, table_number: int, seats: list[object],
    ns: int, ew: int, finished: bool = True, declared: dict[str, tuple[int, int, int]] | None = None,
    round_status: str = "closed",
) -> object:
    """A game of ``event`` with seats N, E, S, W and its SeatResults as ``game_recompute`` would
    write them (``declared``: position -> hands declared, made, set). Rounds are created closed."""
    from scoring.models import Game, SeatResult
    from tournaments.models import Round, Seat, Table

    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": round_status}
    )
    table = Table.objects.create(round=round_, number=table_number)
    winner = ("NS" if ns > ew else "EW" if ew > ns else "") if finished else ""
    game = Game.objects.create(
        table=table, totals={"NS": ns, "EW": ew}, winner=winner, hands_count=4,
        status="finished" if finished else "playing",
    )
    for position, entry in zip("NESW", seats, strict=True):
        side = "NS" if position in "NS" else "EW"
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
        d, m, s = (declared or {}).get(position, (0, 0, 0))
        SeatResult.objects.create(
            game=game, event=event, entry=entry, round_number=round_number, position=position,
            side=side, points=ns if side == "NS" else ew, opponents_points=ew if side == "NS" else ns,
            won=finished and winner == side, finished=finished,
            hands_declared=d, hands_made=m, hands_set=s,
        )
    return game
