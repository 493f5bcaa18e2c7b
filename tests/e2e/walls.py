"""Events for the wall screens' browser tests: a 200-player progressive day and a pairs Swiss
with a playoff bracket, played through the services to the state a test asks for, with names
as long as a room's real ones (a wall must show them whole)."""

from __future__ import annotations

import datetime
from typing import Any

from clubs.models import Club, Player
from common.errors import DomainError
from draw.services import event_status_set, round_create
from scoring.services import game_confirm, game_set_scorer, hand_submit
from tests.clubs.factories import ClubFactory, PlayerFactory
from tournaments.models import Event, Round
from tournaments.services import entry_check_in, event_create, pair_register

DAY = datetime.date(2026, 11, 21)
FIRST = ["Margaret", "Bartholomew", "Irene", "Jack", "Wilhelmina", "Theodore", "Rosalind",
         "Maximilian", "Dorothy", "Frederick", "Genevieve", "Cornelius", "Ann", "Bob", "Evangeline",
         "Leopold", "Josephine", "Sebastian", "Florence", "Nathaniel"]
LAST = ["Jones", "Kowalczyk-Henderson", "Abernathy", "Li", "Vanderbilt", "O'Sullivan",
        "Richardson", "Nakamura", "Montgomery", "Fitzgerald"]


def name(n: int) -> str:
    """The n-th player's name (200 different ones), some of them long: neighbours differ in
    both their first and their last name."""
    return f"{FIRST[n % len(FIRST)]} {LAST[(n + n // len(FIRST)) % len(LAST)]}"


def players(club: Club, count: int) -> list[Player]:
    return [PlayerFactory(club=club, name=name(n)) for n in range(count)]


def hand_won_by(won_by: str, table: int) -> dict[str, Any]:
    """A hand the ``won_by`` side wins clearly, by a margin that differs from table to table."""
    margin = 2 * (table % 13)
    us, them = ("NS", "EW") if won_by == "NS" else ("EW", "NS")
    return {"dealer": "S", "bidder": us[0], "bid": 50, "trump": "H", "outcome": "played",
            "meld": {us: 22 + margin, them: 20}, "counters": {us: 30, them: 20}}


def play_round(round_: Round) -> None:
    """Every table of the round plays its deals (North keeps score) and East or North confirms
    for the side that lost: odd tables won by N-S, even tables by E-W."""
    deals = round_.event.deals_per_round or 1
    for table in round_.tables.order_by("number"):
        game = table.game
        won_by = "NS" if table.number % 2 else "EW"
        game_set_scorer(game=game, position="N")
        for number in range(1, deals + 1):
            hand_submit(game=game, number=number, values=hand_won_by(won_by, table.number))
        game.refresh_from_db()
        game_confirm(game=game, position="E")


def next_round(event: Event) -> Round:
    """The round the format seated by itself after the last one, or the first one."""
    latest = event.rounds.order_by("-number").first()
    return latest if latest is not None and latest.status != Round.Status.CLOSED \
        else round_create(event=event)


def progressive_day(count: int = 200, *, cut: int = 8, qualifying: int = 2,
                    club: Club | None = None) -> Event:
    """A public progressive day of ``count`` players, one deal a game, nothing seated yet."""
    club = club or ClubFactory(name="Harbour Pinochle", slug="harbour")
    event = event_create(club=club, name="Harbour championship", date=DAY, deals_per_round=1,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=qualifying,
                         format_settings={"cut": cut, "final_rule": "single_game"})
    for player in players(club, count):
        entry_check_in(event=event, player=player)
    return event


def play_until(event: Event, stage: str, *, finish: bool = False) -> Round:
    """Play rounds until a round of ``stage`` is seated (returned, not played); with ``finish``
    play it too and finish the event."""
    while True:
        current = next_round(event)
        if current.stage == stage:
            break
        play_round(current)
    if finish:
        play_round(current)
        event_status_set(event=Event.objects.get(pk=event.pk), status=Event.Status.FINISHED)
    return current


def pairs_swiss(count: int = 16, *, cut: int = 8, rounds: int = 3,
                club: Club | None = None) -> Event:
    """A public pairs Swiss of ``count`` pairs (named after their two players) with a single
    elimination playoff of the best ``cut`` and a match for third place."""
    club = club or ClubFactory(name="Harbour Pinochle", slug="harbour-pairs")
    event = event_create(club=club, name="Harbour pairs", date=DAY, deals_per_round=1,
                         format=Event.Format.SWISS, rounds_planned=rounds,
                         format_settings={"playoff": {"kind": "single", "cut": cut,
                                                      "third_place": True}})
    people = players(club, 2 * count)
    for n in range(count):
        pair_register(event=event, players=[people[2 * n], people[2 * n + 1]], seed=n + 1)
    return event


def pairs(event: Event, count: int, club: Club) -> None:
    """``count`` pairs of long-named players, seeded in order."""
    people = players(club, 2 * count)
    for n in range(count):
        pair_register(event=event, players=[people[2 * n], people[2 * n + 1]], seed=n + 1)


def double_elimination(count: int = 16, *, club: Club | None = None) -> Event:
    """A public double elimination of ``count`` pairs with a reset and a consolation bracket
    for the first round's losers, nothing played yet (every pair is already in the draw)."""
    club = club or ClubFactory(name="Harbour Pinochle", slug="harbour-double")
    event = event_create(club=club, name="Harbour doubles", date=DAY, deals_per_round=1,
                         format=Event.Format.DOUBLE_ELIMINATION,
                         format_settings={"reset": True, "consolation": [1]})
    pairs(event, count, club)
    return event


def split_final(count: int = 20, *, cut: int = 8, lower: int = 8, rounds: int = 3,
                club: Club | None = None) -> Event:
    """A public pairs Swiss whose best ``cut`` pairs play the upper bracket and the next
    ``lower`` pairs a lower one (both single elimination with a third-place match): the
    split final, as the Ohio clubs play it."""
    club = club or ClubFactory(name="Harbour Pinochle", slug="harbour-split")
    event = event_create(club=club, name="Harbour split final", date=DAY, deals_per_round=1,
                         format=Event.Format.SWISS, rounds_planned=rounds,
                         format_settings={"playoff": {"kind": "single", "cut": cut,
                                                      "lower": lower, "third_place": True}})
    pairs(event, count, club)
    return event


def play_out(event: Event, *, limit: int = 40) -> None:
    """Play every round the format seats until it seats no more, then finish the event."""
    for _ in range(limit):
        latest = event.rounds.order_by("-number").first()
        if latest is None or latest.status == Round.Status.CLOSED:
            try:
                latest = round_create(event=event)
            except DomainError:  # the format has nothing more to seat
                break
        if latest.status == Round.Status.CLOSED:
            break
        play_round(latest)
    event_status_set(event=Event.objects.get(pk=event.pk), status=Event.Status.FINISHED)
