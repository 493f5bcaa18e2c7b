"""Every page a director or player opens during a big day costs the same few queries whatever
the size of the room: a progressive day of 16 and of 64 players (a game played, the next seated
and half entered), a bracket of 8 and of 32 pairs (round 1 played, round 2 seated). Each page
is asked with the cache emptied first (the first view after the event moved). The times at 512
players are ``make bench-pages``'s (bench/README.md)."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, ClubPlayer, Player
from draw.services import event_status_set, round_create, round_set_status
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from standings.services import standings_rebuild
from tests.clubs.factories import club_with_director
from tests.events.test_api_progressive import _random_hand
from tournaments.models import Event, Round
from tournaments.services import entries_check_in, event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
WON = {"counters": {"NS": 30, "EW": 20}}  # with the random bid: a winner, never a level game

# page -> (url tail, as the director?, the most queries it may send)
DAY_PAGES: dict[str, tuple[str, bool, int]] = {
    "standings page": ("standings/", False, 16),
    "standings wall": ("standings/wall/", False, 18),
    "standings CSV": ("standings.csv", False, 14),
    "director screen": ("director/", True, 24),
    "seating board": ("wall/seating/", False, 9),
    "movement board": ("wall/movement/", False, 8),
    "round page": ("rounds/2/", True, 16),
    # 22: the draw's re-draws (for anyone checking the seed) and the count of the event's
    # corrections ("Corrections (N)") are one query each
    "event page": ("", True, 22),
    "hands CSV": ("hands.csv", True, 6),
    "event archive": ("archive.json", True, 26),  # + penalties, appeals (v2)
}
# The public pages' first view after the event moved includes the event's key for caches
# (public.caching, one query; a browser or cache holding the page then gets a 304 from it alone).
BRACKET_PAGES: dict[str, tuple[str, bool, int]] = {
    "bracket": ("bracket/", False, 9),
    # 11: "Last corrected" (the event's latest correction) is one query of its own
    "bracket standings": ("standings/", False, 11),
    # 27: the open calls for a director above the tiles are one query of their own
    "bracket director screen": ("director/", True, 27),
}


def _roster(club: Club, count: int) -> list[Player]:
    players = Player.objects.bulk_create(Player(name=f"Player {club.slug} {i:03d}")
                                         for i in range(count))
    ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in players)
    return players


def _hand(rng: random.Random, number: int, **extra: object) -> dict[str, object]:
    return {**_random_hand(rng), "dealer": "NESW"[(number - 1) % 4], **extra}


def _room(players: int) -> tuple[Event, object]:
    """A progressive day of ``players``: game 1 played and confirmed, game 2 seated and every
    other table's deal entered."""
    rng = random.Random(players)
    club, director = club_with_director(slug=f"room-{players}")
    event = event_create(club=club, name="NPA day", date=DAY, deals_per_round=1,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=4)
    entries_check_in(event=event, players=_roster(club, players))
    event = event_status_set(event=event, status=Event.Status.RUNNING)
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    for game in Game.objects.filter(table__round=first):
        hand_submit(game=game, number=1, values=_hand(rng, 1))
        game_confirm(game=game, position="E")
    round_set_status(round_=first, status=Round.Status.CLOSED, close_unfinished=True)
    second = round_create(event=event)
    round_set_status(round_=second, status=Round.Status.PLAYING)
    for game in Game.objects.filter(table__round=second, table__number__gt=1)[::2]:
        hand_submit(game=game, number=1, values=_hand(rng, 1))
    standings_rebuild(event_id=event.pk)
    return event, director


def _bracket(pairs: int) -> tuple[Event, object]:
    """A single-elimination bracket of ``pairs``: round 1 played and confirmed, round 2 seated."""
    rng = random.Random(pairs)
    club, director = club_with_director(slug=f"bracket-{pairs}")
    event = event_create(club=club, name="Pairs cup", date=DAY, deals_per_round=1,
                         format="single_elimination")
    roster = _roster(club, 2 * pairs)
    for i in range(pairs):
        pair_register(event=event, players=roster[2 * i:2 * i + 2], seed=i + 1)
    event = event_status_set(event=event, status=Event.Status.RUNNING)
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    for game in Game.objects.filter(table__round=first):
        hand_submit(game=game, number=1, values=_hand(rng, 1, **WON))
        game_confirm(game=game, position="E")
    round_set_status(round_=first, status=Round.Status.CLOSED)
    second = round_create(event=event)
    round_set_status(round_=second, status=Round.Status.PLAYING)
    standings_rebuild(event_id=event.pk)
    return event, director


def _counts(build: Callable[[int], tuple[Event, object]], sizes: tuple[int, int],
            pages: dict[str, tuple[str, bool, int]]) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {name: [] for name in pages}
    for size in sizes:
        event, director = build(size)
        guest, desk = Client(), Client()
        desk.force_login(director)
        for name, (tail, as_director, _) in pages.items():
            client = desk if as_director else guest
            url = f"/events/{event.pk}/{tail}"
            cache.clear()
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (name, url, response.status_code)
            counts[name].append(len(queries))
    return counts


def test_the_pages_of_a_big_day_cost_the_same_queries_for_16_and_64_players() -> None:
    counts = _counts(_room, (16, 64), DAY_PAGES)
    grew = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert not grew, f"queries grew with the room: {grew}"
    over = {name: c[1] for name, c in counts.items() if c[1] > DAY_PAGES[name][2]}
    assert not over, f"over the stated limits {({n: DAY_PAGES[n][2] for n in over})}: {over}"


def test_the_bracket_pages_cost_the_same_queries_for_8_and_32_pairs() -> None:
    counts = _counts(_bracket, (8, 32), BRACKET_PAGES)
    grew = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert not grew, f"queries grew with the bracket: {grew}"
    over = {name: c[1] for name, c in counts.items() if c[1] > BRACKET_PAGES[name][2]}
    assert not over, f"over the stated limits: {over}"
