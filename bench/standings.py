"""Standings benchmark on PostgreSQL: 250 players, 12 rounds of 4 deals.

Run it with ``bash bench/standings.sh`` (starts a throwaway PostgreSQL, runs this, stops it), or
against a database of your own: ``DATABASE_URL=postgres://... python bench/standings.py``
(it creates its tables with ``migrate`` and adds one event; use an empty database).

What is measured (median and 95th percentile of repeated runs, server-side work only):

* full rebuild from the hands: every game's seat results recomputed (``game_recompute`` for each
  of the 744 games), then the snapshot; this is what ``manage.py rebuild_standings`` does;
* full snapshot rebuild: the standings task's work when it must recompute everything from the
  seat results (one GROUP BY, ranking, the snapshot write);
* one new hand: the score-entry service storing a hand (which rebuilds that game's seat results)
  plus the standings task (``compute_standings``: totals kept current from the changed game,
  ``standings.incremental``) updating the snapshot afterwards, timed separately and summed
  (``make bench-snapshot`` compares it with the full re-aggregation);
* the standings page, wall screen, version poll and API, through Django's full request stack
  (middleware, view, template) with the test client; no network.

Data is created with bulk_create; hands are real rules-engine hands (random but legal).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script; imported by a test, leave
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",  # the process alone
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from clubs.models import Club, ClubPlayer, Player  # noqa: E402
from common.rulesets import event_ruleset  # noqa: E402
from rules_engine import parse_hand, score_hand  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Game, Hand, HandRevision  # noqa: E402
from scoring.services import hands as scoring_hands  # noqa: E402
from standings.services import games_recompute, standings_rebuild  # noqa: E402
from standings.tasks import compute_standings  # noqa: E402
from tournaments.models import Bye, Entry, Event, Round, Seat, Table  # noqa: E402
from tournaments.services import hands_version_bump  # noqa: E402

PLAYERS, ROUNDS, DEALS = 250, 12, 4
TARGETS_MS = {"full rebuild (snapshot)": 500.0, "snapshot update after the hand": 20.0,
              "standings page": 50.0}


def random_hand(rng: random.Random, number: int) -> dict[str, object]:
    ns_counters = rng.randint(10, 40)
    return {
        "dealer": "NESW"[(number - 1) % 4], "bidder": rng.choice("NESW"),
        "bid": rng.choice([50, 51, 52, 53, 55, 57, 59, 60, 65]), "trump": rng.choice("SHDC"),
        "meld": {"NS": 2 * rng.randint(10, 40), "EW": 2 * rng.randint(10, 40)},
        "counters": {"NS": ns_counters, "EW": 50 - ns_counters}, "outcome": "played",
    }


def revision_row(hand: Hand, values: dict[str, object], ruleset: object) -> HandRevision:
    engine_hand = parse_hand(values, ruleset)  # type: ignore[arg-type]
    score = score_hand(engine_hand, ruleset)  # type: ignore[arg-type]
    data = engine_hand.to_dict()
    return HandRevision(
        hand=hand, revision=1, is_live=True, dealer=data["dealer"],
        bidder=data.get("bidder") or "", bid=data.get("bid"), trump=data.get("trump") or "",
        outcome=data["outcome"], renege_seat=data.get("renege_seat") or "",
        meld=dict(data.get("meld") or {}), counters=dict(data["counters"]),
        points=dict(score.points), result=score.result, made=score.made, reason=score.reason[:200],
        source=HandRevision.Source.IMPORT,
    )


def build(rng: random.Random) -> tuple[Event, list[Game]]:
    """The event: 12 rounds seated at random (62 tables, 2 byes each), every deal entered except
    the last deal of each game of the last round (left for the one-new-hand measurement)."""
    club = Club.objects.create(name="Bench club", slug=f"bench-{rng.randrange(10**9)}")
    players = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(PLAYERS))
    ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in players)
    event = Event.objects.create(
        club=club, name="Bench open", date="2026-11-20", rounds_planned=ROUNDS,
        deals_per_round=DEALS, status=Event.Status.RUNNING,
        tie_breaks=["points", "wins", "head_to_head", "highest_game"],
    )
    entries = Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    ruleset = event_ruleset(event)
    rounds = Round.objects.bulk_create(
        Round(event=event, number=n, status=Round.Status.CLOSED if n < ROUNDS else Round.Status.PLAYING)
        for n in range(1, ROUNDS + 1)
    )
    tables_per_round = PLAYERS // 4
    tables = Table.objects.bulk_create(
        Table(round=r, number=t + 1) for r in rounds for t in range(tables_per_round)
    )
    games = Game.objects.bulk_create(Game(table=t) for t in tables)
    seats, byes = [], []
    for i, round_ in enumerate(rounds):
        order = entries[:]
        rng.shuffle(order)
        for t in range(tables_per_round):
            table = tables[i * tables_per_round + t]
            seats += [Seat(table=table, round=round_, position=p, entry=e)
                      for p, e in zip("NESW", order[4 * t: 4 * t + 4], strict=True)]
        byes += [Bye(round=round_, entry=e) for e in order[4 * tables_per_round:]]
    Seat.objects.bulk_create(seats)
    Bye.objects.bulk_create(byes)
    last_round_games = games[-tables_per_round:]
    hands, values = [], []
    for game in games:
        deals = DEALS - 1 if game in last_round_games else DEALS
        for number in range(1, deals + 1):
            hands.append(Hand(game=game, number=number))
            values.append(random_hand(rng, number))
    hands = Hand.objects.bulk_create(hands)
    HandRevision.objects.bulk_create(
        revision_row(h, v, ruleset) for h, v in zip(hands, values, strict=True)
    )
    Game.objects.filter(pk__in=[g.pk for g in games]).update(hands_count=DEALS)
    hands_version_bump(event_id=event.pk, at_least=len(hands))
    event.refresh_from_db()
    return event, last_round_games


def timed(fun: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fun()
        out.append((time.perf_counter() - started) * 1000)
    return out


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    if connection.vendor != "postgresql":
        print("bench/standings.py measures PostgreSQL: set DATABASE_URL (or run bench/standings.sh)")
        return 2
    call_command("migrate", verbosity=0)
    rng = random.Random(20261120)
    started = time.perf_counter()
    event, open_games = build(rng)
    build_s = time.perf_counter() - started
    results: list[tuple[str, list[float], str]] = []

    from_hands = timed(lambda: games_recompute(event=event), 1)
    standings_rebuild(event_id=event.pk)
    results.append(("full rebuild from hands (744 games)", from_hands, "rebuild_standings"))

    def full_snapshot() -> None:
        # Force a real write each time: the snapshot is emptied, so every row differs.
        from standings.models import StandingsSnapshot

        StandingsSnapshot.objects.filter(event=event).update(rows=[], digest="", source_version=0)
        standings_rebuild(event_id=event.pk)

    results.append(("full rebuild (snapshot)", timed(full_snapshot, 15), "compute_standings"))

    # One new hand: the service (store + this game's seat results), then the task's work.
    scoring_hands.standings_request_update = lambda **kwargs: None  # type: ignore[assignment]
    compute_standings(event.pk)  # a worker's first run reads everything once
    service_ms, task_ms, total_ms = [], [], []
    for game in open_games[:40]:
        values = random_hand(rng, DEALS)
        t0 = time.perf_counter()
        services.hand_submit(game=game, number=DEALS, values=values)
        t1 = time.perf_counter()
        compute_standings(event.pk)
        t2 = time.perf_counter()
        service_ms.append((t1 - t0) * 1000)
        task_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
    results.append(("  hand_submit (store + game seat results)", service_ms, "service"))
    results.append(("  snapshot update after the hand", task_ms, "compute_standings"))
    results.append(("one new hand → snapshot", total_ms, "service + task"))

    client = Client()
    from django.core.cache import cache

    def cold(url: str) -> None:
        cache.clear()  # as on the first view after the snapshot moved: the live region renders
        client.get(url)

    if "--no-pages" not in sys.argv:
        page = f"/events/{event.pk}/standings/"
        client.get(page)
        results.append(("standings page", timed(lambda: cold(page), 30), page + " (first view of a version)"))
        results.append(("standings page, cached", timed(lambda: client.get(page), 30), "same version again"))
        wall = f"/events/{event.pk}/standings/wall/"
        results.append(("wall screen", timed(lambda: cold(wall), 30), wall + " (first view of a version)"))
    pages = [] if "--no-pages" in sys.argv else [
        ("version poll", f"/events/{event.pk}/standings/version/"),
        ("API standings", f"/api/events/{event.pk}/standings/"),
    ]
    for name, url in pages:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        results.append((name, timed(lambda url=url: client.get(url), 30), url))

    snapshot = event.standings
    snapshot.refresh_from_db()
    print(f"\nStandings benchmark on PostgreSQL {connection.pg_version // 10000}: {PLAYERS} players, "
          f"{ROUNDS} rounds of {DEALS} deals, {Hand.objects.filter(game__table__round__event=event).count()} "
          f"hands, {len(snapshot.rows)} standings rows (data built in {build_s:.1f} s)\n")
    print(f"{'measure':44} {'median ms':>10} {'p95 ms':>9} {'target ms':>10}  result  what")
    print("-" * 100)
    failed = False
    for name, values, what in results:
        target = TARGETS_MS.get(name.strip())
        med = statistics.median(values)
        verdict = ""
        if target is not None:
            ok = med < target
            failed |= not ok
            verdict = "ok" if ok else "SLOW"
        print(f"{name:44} {med:10.1f} {p95(values):9.1f} {target if target else '':>10}  {verdict:6}  {what}")
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
