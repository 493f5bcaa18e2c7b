"""Games for the league tests, played through the real scoring services: a table seated with
chosen players, hands entered, the game confirmed by the other side."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from clubs.models import Club, Player
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from tests.scoring.factories import values
from tests.tournaments.factories import EventFactory
from tournaments.models import Entry, Event, Round, Seat, Table

# One hand, NS bid 51 in hearts: NS_WINS gives NS 59 v EW 47, EW_WINS NS 51 v EW 55.
NS_WINS = {"meld": {"NS": 32, "EW": 24}, "counters": {"NS": 27, "EW": 23}}
EW_WINS: dict[str, Any] = {}


def club_night(club: Club, *, date: datetime.date = datetime.date(2026, 3, 5),
               **kwargs: Any) -> Event:
    """A running one-deal-a-game event of ``club`` on ``date``."""
    return EventFactory(club=club, date=date, status="running", deals_per_round=1, **kwargs)


def seat(event: Event, players: Sequence[Player], *, round_number: int = 1,
         table_number: int = 1) -> Game:
    """A table of ``event`` with ``players`` at N, E, S, W (N-S and E-W partners) and its game.
    Seating a new round closes the one before (an event has one open round)."""
    Round.objects.filter(event=event).exclude(number=round_number).update(status="closed")
    round_, _ = Round.objects.get_or_create(event=event, number=round_number,
                                            defaults={"status": "playing"})
    table = Table.objects.create(round=round_, number=table_number)
    game = Game.objects.create(table=table)
    for position, player in zip("NESW", players, strict=True):
        entry, _ = Entry.objects.get_or_create(event=event, player=player)
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return game


def play(game: Game, *, ns_wins: bool, confirm: bool = True) -> Game:
    """Enter the game's one hand (NS or EW winning) and have the other side confirm it."""
    hand_submit(game=game, number=1, values=values(**(NS_WINS if ns_wins else EW_WINS)))
    if confirm:
        game_confirm(game=game, position="E")
    game.refresh_from_db()
    return game
