"""Player profile benchmark on PostgreSQL: one player with 100 events of 20 hands each.

Run it with ``BENCH_SCRIPT=bench/profile.py bash bench/standings.sh`` (a throwaway PostgreSQL on a
free loopback port, stopped and deleted afterwards), or against a database of your own:
``DATABASE_URL=postgres://... python bench/profile.py`` (it creates its tables with ``migrate``
and adds one club; use an empty database). ``--events N`` (100), ``--rounds R`` (5 games a
night, one table of the player's), ``--deals D`` (4 deals a game), ``--tables T`` (4 tables a
round: the other tables' hands are in the database but not the player's), ``--repeat`` (20).

The data is bulk-created (real rules-engine hands, random but legal), the games and standings
derived by the services (``games_recompute``, ``standings_rebuild``), every game confirmed and
rated (``league.ratings.ratings_rebuild``), so the profile shows a rating history too. Timed:
the selector (``profiles.selectors.player_profile``), the API and the page through Django's
full request stack with the test client (no network): the fastest, median and 95th percentile
of ``--repeat`` runs (the fastest is the one other load on the machine disturbed least), and the
queries each takes. Exit status 1 when the page's median is over 300 ms or a measure takes more
than 12 queries.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script; imported by a test, leave
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",  # the process alone
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench.standings import p95, random_hand, revision_row, timed  # noqa: E402
from clubs.models import Club, ClubPlayer, Player  # noqa: E402
from common.rulesets import event_ruleset  # noqa: E402
from league.ratings import ratings_rebuild  # noqa: E402
from profiles.selectors import player_profile  # noqa: E402
from scoring.models import Game, Hand, HandRevision  # noqa: E402
from standings.services import games_recompute, standings_rebuild  # noqa: E402
from tournaments.models import Entry, Event, Round, Seat, Table  # noqa: E402

PAGE_TARGET_MS = 300.0
QUERY_LIMIT = 12


def build(rng: random.Random, *, events: int, rounds: int, deals: int, tables: int) -> Player:
    club = Club.objects.create(name="Bench club", slug=f"bench-{rng.randrange(10**9)}",
                               time_zone="America/Chicago")
    players = Player.objects.bulk_create(
        Player(name=f"Player {i:03d}") for i in range(4 * tables + 4))
    ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in players)
    subject, others = players[0], players[1:]
    first = datetime.date(2024, 1, 4)
    for number in range(events):
        event = Event.objects.create(
            club=club, name=f"Night {number + 1}", date=first + datetime.timedelta(weeks=number),
            rounds_planned=rounds, deals_per_round=deals, status=Event.Status.FINISHED,
            tie_breaks=["points", "wins"],
        )
        field = [subject, *rng.sample(others, 4 * tables - 1)]
        entries = {e.player_id: e for e in Entry.objects.bulk_create(
            Entry(event=event, player=p) for p in field)}
        ruleset = event_ruleset(event)
        made_rounds = Round.objects.bulk_create(
            Round(event=event, number=n, status=Round.Status.CLOSED) for n in range(1, rounds + 1))
        made_tables = Table.objects.bulk_create(
            Table(round=r, number=t + 1) for r in made_rounds for t in range(tables))
        games = Game.objects.bulk_create(
            Game(table=t, status=Game.Status.CONFIRMED) for t in made_tables)
        seats = []
        for i, round_ in enumerate(made_rounds):
            order = field[1:]
            rng.shuffle(order)
            order.insert(rng.randrange(4), subject)  # the player sits at table 1
            for t in range(tables):
                table = made_tables[i * tables + t]
                seats += [Seat(table=table, round=round_, position=p, entry=entries[pl.pk])
                          for p, pl in zip("NESW", order[4 * t:4 * t + 4], strict=True)]
        Seat.objects.bulk_create(seats)
        hands, values = [], []
        for game in games:
            for deal in range(1, deals + 1):
                hands.append(Hand(game=game, number=deal))
                values.append(random_hand(rng, deal))
        hands = Hand.objects.bulk_create(hands)
        HandRevision.objects.bulk_create(
            revision_row(h, v, ruleset) for h, v in zip(hands, values, strict=True))
        games_recompute(event=event)
        Game.objects.filter(table__round__event=event).update(status=Game.Status.CONFIRMED)
        standings_rebuild(event_id=event.pk)
    ratings_rebuild()
    return subject


def counted_queries(fun: Callable[[], object]) -> int:
    """The queries ``fun`` sends, counted at the driver (a request clears Django's own query log
    when it starts)."""
    sent: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        fun()
    return len(sent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("bench/profile.py measures PostgreSQL: set DATABASE_URL (or run it through "
              "bench/standings.sh with BENCH_SCRIPT=bench/profile.py)")
        return 2
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    subject = build(random.Random(20261122), events=args.events, rounds=args.rounds,
                    deals=args.deals, tables=args.tables)
    build_s = time.perf_counter() - started

    client = Client()
    api = f"/api/players/{subject.pk}/profile/"
    page = f"/players/{subject.pk}/"
    measures: list[tuple[str, Callable[[], object]]] = [
        ("selector player_profile", lambda: player_profile(player_id=subject.pk,
                                                           user=AnonymousUser())),
        ("API " + api, lambda: client.get(api)),
        ("page " + page, lambda: client.get(page)),
    ]
    profile = player_profile(player_id=subject.pk, user=AnonymousUser())
    group = profile.analytics[0]
    print(f"\nPlayer profile benchmark on PostgreSQL {connection.pg_version // 10000}: "
          f"{len(profile.events)} events, {group['games']} games and {group['hands']} hands of "
          f"the player's, {len(profile.rating['history']) if profile.rating else 0} rating "
          f"steps (data built in {build_s:.1f} s)\n")
    print(f"{'measure':40} {'fastest ms':>10} {'median ms':>10} {'p95 ms':>9} {'queries':>8}")
    print("-" * 82)
    failed = False
    for name, fun in measures:
        fun()  # warm: templates, rulesets
        queries = counted_queries(fun)
        values = timed(fun, args.repeat)
        median = statistics.median(values)
        print(f"{name:40} {min(values):10.1f} {median:10.1f} {p95(values):9.1f} "
              f"{queries:8}")
        failed |= queries > QUERY_LIMIT
        if name.startswith("page"):
            failed |= median > PAGE_TARGET_MS
    print(f"\ntargets: the page under {PAGE_TARGET_MS:.0f} ms (median), at most {QUERY_LIMIT} "
          "queries each\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
