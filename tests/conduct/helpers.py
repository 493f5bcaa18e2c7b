"""Events for the conduct tests: a progressive day and a Swiss pair event, played through the
services as the tables would, and the standings read back from the snapshot."""

from __future__ import annotations

import datetime
from typing import Any

from draw.services import round_create, round_set_status
from scoring.models import Game, SeatResult
from scoring.services import game_confirm, hand_submit
from standings.models import StandingsSnapshot
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import values
from tournaments.models import Event, Pair, Round, Seat
from tournaments.services import entry_check_in, event_create, pair_register

DAY = datetime.date(2026, 11, 28)
# One deal decides a game: N-S 67 to 33, or E-W 55 to 51.
WINS = {"NS": values(meld={"NS": 40, "EW": 10}), "EW": values()}


def progressive_day(slug: str = "npa-club", *, cut: int = 4, **kwargs: Any) -> dict[str, Any]:
    """An 8-player progressive day: 2 qualifying games of one deal at 2 tables, then a one-game
    final table of ``cut`` players."""
    club, director = club_with_director(slug=slug)
    event = event_create(club=club, name="Saturday", date=DAY,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=2,
                         deals_per_round=1, format_settings={"cut": cut,
                                                             "final_rule": "single_game"},
                         **kwargs)
    for i in range(8):
        entry_check_in(event=event, player=PlayerFactory(club=club, name=f"Player {i + 1}"))
    return {"club": club, "director": director, "event": event}


def pair_event(slug: str = "pairs-club", pairs: int = 4, **kwargs: Any) -> dict[str, Any]:
    club, director = club_with_director(slug=slug)
    event = event_create(club=club, name="Swiss pairs", date=DAY, format="swiss",
                         deals_per_round=1, rounds_planned=3, actor=director, **kwargs)
    made = [pair_register(event=event, players=[PlayerFactory(club=club),
                                                PlayerFactory(club=club)],
                          seed=n + 1, actor=director) for n in range(pairs)]
    return {"club": club, "director": director, "event": event, "pairs": made}


def play(round_: Round, capture: Any, *, winner: str = "EW", skip: int | None = None) -> None:
    """Every table of the round (but table ``skip``) plays its one hand and is confirmed."""
    if round_.status == Round.Status.SEATED:
        round_set_status(round_=round_, status="playing")
    with capture(execute=True):
        for table in round_.tables.order_by("number"):
            if table.number == skip:
                continue
            hand_submit(game=table.game, number=1, values=WINS[winner])
            game_confirm(game=table.game, position="N" if winner == "EW" else "E")


def seat_first(event: Event, director: Any, capture: Any) -> Round:
    with capture(execute=True):
        return round_create(event=event, actor=director)


def snapshot_rows(event: Event) -> list[dict[str, Any]]:
    return list(StandingsSnapshot.objects.get(event=event).rows)


def game_points(event: Event) -> dict[int, int]:
    """Each entry's game points, summed from its seat results (the hands' truth)."""
    sums: dict[int, int] = {}
    for entry_id, points in SeatResult.objects.filter(event=event).values_list("entry_id",
                                                                              "points"):
        sums[entry_id] = sums.get(entry_id, 0) + points
    return sums


def seat_of(event: Event, number: int, position: str, table: int = 1) -> Seat:
    return Seat.objects.select_related("entry__pair", "table").get(
        round__event=event, round__number=number, table__number=table, position=position)


def pair_at(event: Event, number: int, table: int, side: str) -> Pair:
    seat = seat_of(event, number, "N" if side == "NS" else "E", table)
    assert seat.entry.pair is not None
    return seat.entry.pair


def game(event: Event, number: int, table: int) -> Game:
    return Game.objects.select_related("table__round__event").get(
        table__round__event=event, table__round__number=number, table__number=table)
