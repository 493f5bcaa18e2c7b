"""Events for the series tests, played through the services until they finish."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from clubs.models import Club, Player
from draw.services import event_status_set, round_create, round_set_status
from tests.e2e.walls import play_round
from tests.league.builders import club_night, play, seat
from tournaments.models import Event, Round
from tournaments.services import entries_create_many, event_create, pair_register


def one_table_night(club: Club, line_up: Sequence[Player], *, ns_wins: bool = True,
                    date: datetime.date = datetime.date(2026, 6, 1), **kwargs: object) -> Event:
    """A finished club night of one table and one deal: ``line_up`` at N, E, S, W; the side
    that wins takes the first place (both partners), the other the third (NS 59 v EW 47, or
    NS 51 v EW 55)."""
    event = club_night(club, date=date, **kwargs)
    play(seat(event, line_up), ns_wins=ns_wins)
    Round.objects.filter(event=event).update(status="closed")
    event_status_set(event=event, status=Event.Status.FINISHED)
    return event


def played_night(club: Club, players: Sequence[Player], *, date: datetime.date,
                 rounds: int = 2, seed: int = 1) -> Event:
    """A finished club night of ``players`` (a multiple of four), ``rounds`` rounds of one deal,
    seated by the format and played to the end (``tests.e2e.walls.play_round``)."""
    event = event_create(club=club, name=f"Night {date}", date=date, deals_per_round=1,
                         rounds_planned=rounds, seed=seed)
    entries_create_many(event=event, players=list(players))
    for _ in range(rounds):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)
    return event


def played_pairs(club: Club, pairs: Sequence[Sequence[Player]], *, date: datetime.date,
                 rounds: int = 2) -> Event:
    """A finished pairs Swiss of ``pairs`` (an even number), ``rounds`` rounds of one deal."""
    event = event_create(club=club, name=f"Pairs {date}", date=date, deals_per_round=1,
                         format=Event.Format.SWISS, rounds_planned=rounds)
    for seed, pair in enumerate(pairs, start=1):
        pair_register(event=event, players=list(pair), seed=seed)
    for _ in range(rounds):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)
    return event
