"""Individual progressive benchmark on PostgreSQL: an NPA day of 256 players (64 tables).

Run it with ``BENCH_SCRIPT=bench/progressive.py bash bench/standings.sh`` or ``make
bench-progressive`` (a throwaway PostgreSQL on a free loopback port, stopped and deleted
afterwards), or against a database of your own: ``DATABASE_URL=postgres://...
python bench/progressive.py`` (it creates its tables with ``migrate`` and adds one club and one
event; use an empty database). ``--players N`` (a multiple of 4, at least 8) sizes the field,
``--games`` the qualifying games (6), ``--hands`` how many hands of each game are followed by a
timed standings rebuild (50).

The event is played through the services, as the tables and the director would: check-in,
then for each qualifying game the director's seating (``draw.services.round_create``: the seat
draw for game 1, then winners move and losers stay), every table entering its 4 deals
(``scoring.services.hand_submit``, random legal hands, deal 1 at every table, then deal 2, ...),
and the round closed; then the cut: the semi-final tables, their hands, and the final table
(each game of the final). What is timed (wall time, server-side work only, no HTTP):

* seating: ``round_create`` for each game (one sample per game; the target applies to the
  slowest);
* one hand: ``hand_submit`` (store the hand, re-derive its game and seat results);
* standings after a hand: ``standings.services.standings_rebuild(incremental=True)`` right
  after ``--hands`` of each game's hands (spread over the game), i.e. the standings task's work
  for that hand (its totals kept current from the games that changed, ``standings.incremental``).

The on-commit standings request is switched off so each measure is the work named (in
production it is a Celery task on a worker, timed here as "standings after a hand").
Exit status 1 when a target is missed: every seating under 1 s, every standings rebuild after a
hand under 0.5 s.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
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

from clubs.models import Club, ClubPlayer, Player  # noqa: E402
from common.errors import DomainError  # noqa: E402
from draw.services import event_status_set, round_create, round_set_status  # noqa: E402
from scoring import services as scoring_services  # noqa: E402
from scoring.models import Game, Hand  # noqa: E402
from scoring.services import hands as scoring_hands  # noqa: E402
from standings.services import standings_rebuild  # noqa: E402
from tournaments import services as event_services  # noqa: E402
from tournaments.models import Event, Round  # noqa: E402

DEALS = 4  # the NPA's game: each player deals once
TARGETS_MS = {"seating": 1000.0, "standings after a hand": 500.0}


def random_hand(rng: random.Random, number: int) -> dict[str, object]:
    """A legal hand (as in bench/standings.py): random bid, trump, meld and counters."""
    ns_counters = rng.randint(10, 40)
    return {
        "dealer": "NESW"[(number - 1) % 4], "bidder": rng.choice("NESW"),
        "bid": rng.choice([50, 51, 52, 53, 55, 57, 59, 60, 65]), "trump": rng.choice("SHDC"),
        "meld": {"NS": 2 * rng.randint(10, 40), "EW": 2 * rng.randint(10, 40)},
        "counters": {"NS": ns_counters, "EW": 50 - ns_counters}, "outcome": "played",
    }


def ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def setup(players: int, games: int, seed: int) -> Event:
    club = Club.objects.create(name="Bench club", slug=f"bench-{seed}-{random.randrange(10**9)}")
    roster = Player.objects.bulk_create(Player(name=f"Player {i:03d}") for i in range(players))
    ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in roster)
    event = event_services.event_create(
        club=club, name="Bench NPA day", date=datetime.date(2026, 11, 21),
        format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=games, seed=seed,
        prizes={"payouts": [{"place": 1, "amount": "300"}, {"place": 2, "amount": "150"}],
                "side": [{"kind": "high_game", "amount": "25"}]},
    )
    event_services.entries_check_in(event=event, players=roster)
    return event_status_set(event=event, status=Event.Status.RUNNING)


@dataclass
class Row:
    label: str
    tables: int
    seat: float
    submit: list[float]
    standings: list[float]


class Day:
    """Plays the event round by round, keeping the timings."""

    def __init__(self, event: Event, rng: random.Random, sampled_hands: int) -> None:
        self.event, self.rng, self.sampled_hands = event, rng, sampled_hands
        self.rows: list[Row] = []

    def seat(self, number: int) -> tuple[Round, float]:
        started = time.perf_counter()
        round_ = round_create(event=self.event, number=number)
        took = ms_since(started)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        return round_, took

    def play(self, round_: Round, *, sample: bool) -> tuple[list[float], list[float]]:
        """Every table enters its deals; after ``sampled_hands`` of them (spread over the game)
        the standings are rebuilt and timed. Returns (hand_submit ms, standings ms)."""
        games = list(Game.objects.filter(table__round=round_).order_by("table__number"))
        total = len(games) * DEALS
        every = max(1, total // self.sampled_hands) if sample and self.sampled_hands else 0
        submit_ms: list[float] = []
        standings_ms: list[float] = []
        count = 0
        for number in range(1, DEALS + 1):
            for game in games:
                values = random_hand(self.rng, number)
                started = time.perf_counter()
                scoring_services.hand_submit(game=game, number=number, values=values)
                submit_ms.append(ms_since(started))
                count += 1
                if every and count % every == 0 and len(standings_ms) < self.sampled_hands:
                    started = time.perf_counter()
                    # As the standings task runs it: totals kept from the changed games.
                    standings_rebuild(event_id=self.event.pk, incremental=True)
                    standings_ms.append(ms_since(started))
        round_set_status(round_=round_, status=Round.Status.CLOSED, close_unfinished=True)
        return submit_ms, standings_ms

    def record(self, label: str, round_: Round, seat_ms: float, submit_ms: list[float],
               standings_ms: list[float]) -> None:
        self.rows.append(Row(label, round_.tables.count(), seat_ms, submit_ms, standings_ms))
        print(f"  {label:18} seated in {seat_ms:7.1f} ms, {len(submit_ms)} hands", flush=True)


def played_day(players: int, games: int, seed: int = 7) -> Event:
    """A progressive day of ``players`` with its ``games`` qualifying games seated and played
    (no timings kept): the event the archive benches export and import."""
    event = setup(players, games, seed=seed)
    day = Day(event, random.Random(seed), 0)
    for number in range(1, games + 1):
        round_, _ = day.seat(number)
        day.play(round_, sample=False)
    return event


def stats(values: list[float]) -> str:
    if not values:
        return f"{'':>8} {'':>8} {'':>8}"
    return f"{statistics.median(values):8.1f} {p95(values):8.1f} {max(values):8.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256,
                        help="players (a multiple of 4, at least 8; default 256 = 64 tables)")
    parser.add_argument("--games", type=int, default=6, help="qualifying games (default 6)")
    parser.add_argument("--hands", type=int, default=50,
                        help="hands per game followed by a timed standings rebuild (default 50)")
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    if args.players < 8 or args.players % 4 or not 1 <= args.games <= 40 or args.hands < 0:
        parser.error("--players is a multiple of 4 and at least 8 (the cut is the top 8); "
                     "--games is 1 to 40; --hands is 0 or more")
    if connection.vendor != "postgresql":
        print("bench/progressive.py measures PostgreSQL: set DATABASE_URL "
              "(or run BENCH_SCRIPT=bench/progressive.py bash bench/standings.sh)")
        return 2
    call_command("migrate", verbosity=0)
    # The standings update a write asks for runs on a worker in production; here it is timed on
    # its own ("standings after a hand"), so the on-commit request is switched off.
    scoring_hands.standings_request_update = lambda **kwargs: None
    event_services.standings_request_update = lambda **kwargs: None

    rng = random.Random(args.seed)
    started = time.perf_counter()
    event = setup(args.players, args.games, args.seed)
    print(f"\nProgressive benchmark: {args.players} players ({args.players // 4} tables), "
          f"{args.games} qualifying games of {DEALS} deals, then the cut to 8 "
          f"(set up in {time.perf_counter() - started:.1f} s)", flush=True)
    day = Day(event, rng, args.hands)
    played = time.perf_counter()
    for number in range(1, args.games + 1):
        round_, seat_ms = day.seat(number)
        submit_ms, standings_ms = day.play(round_, sample=True)
        day.record(f"qualifying game {number}", round_, seat_ms, submit_ms, standings_ms)
    number = args.games + 1
    semi, seat_ms = day.seat(number)
    assert semi.stage == Round.Stage.SEMIFINAL, semi.stage
    submit_ms, standings_ms = day.play(semi, sample=False)
    day.record("semi-final", semi, seat_ms, submit_ms, standings_ms)
    game = 0
    while True:  # the final: three games with partners rotating, or one
        number += 1
        try:
            final, seat_ms = day.seat(number)
        except DomainError as exc:
            if exc.code == "no_more_rounds":
                break
            raise
        assert final.stage == Round.Stage.FINAL, final.stage
        game += 1
        submit_ms, standings_ms = day.play(final, sample=False)
        day.record(f"final game {game}", final, seat_ms, submit_ms, standings_ms)
    hands = Hand.objects.filter(game__table__round__event=event).count()
    print(f"  played in {time.perf_counter() - played:.1f} s, {hands} hands\n")

    qualifying = [r for r in day.rows if r.label.startswith("qualifying")]
    print(f"{'round':18} {'tables':>6} {'seat ms':>8} | {'hand_submit ms':^26} | "
          f"{'standings after a hand ms':^26}")
    print(f"{'':18} {'':>6} {'':>8} | {'median':>8} {'p95':>8} {'max':>8} | "
          f"{'median':>8} {'p95':>8} {'max':>8}")
    print("-" * 98)
    for row in day.rows:
        print(f"{row.label:18} {row.tables:>6} {row.seat:8.1f} | "
              f"{stats(row.submit)} | {stats(row.standings)}")
    print()

    seatings = [r.seat for r in day.rows]
    submits = [v for r in qualifying for v in r.submit]
    standings = [v for r in qualifying for v in r.standings]
    summary = [
        ("seating", seatings, f"round_create, {len(seatings)} rounds"),
        ("hand_submit", submits, f"{len(submits)} qualifying hands"),
        ("standings after a hand", standings, f"standings_rebuild after {len(standings)} hands"),
    ]
    print(f"{'measure':24} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'target ms':>10}  "
          "result  what")
    print("-" * 98)
    failed = False
    for name, values, what in summary:
        target = TARGETS_MS.get(name)
        verdict = ""
        if target is not None:
            ok = bool(values) and max(values) < target  # the target holds for every sample
            failed |= not ok
            verdict = "ok" if ok else "SLOW"
        med = statistics.median(values) if values else 0.0
        top = max(values) if values else 0.0
        low = p95(values) if values else 0.0
        print(f"{name:24} {med:10.1f} {low:8.1f} {top:8.1f} {target if target else '':>10}  "
              f"{verdict:6}  {what}")
    print()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
