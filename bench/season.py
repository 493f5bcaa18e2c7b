"""Benchmark of partners across a season of club nights: how many partnerships repeat against
the best achievable (``pairing.season``).

Run from the project root::

    python bench/season.py [--seed S] [--absent K]          # the pure builders
    make bench-season                                        # + the real services, 16 x 4 x 3

The regulars (12, 16, 20 or 32 players) come to 4, 8 or 12 weekly nights of 3 rounds; each
night is seated round by round by the club-night builder (``pairing.club_night``) with the
season's earlier nights (``with season``) and, for comparison, as if it were the first night
(``alone``: what a club night did before seasons). ``--absent K`` leaves K random regulars at
home each night. For each row it prints the partnerships, the repeats with and without the
season, the best achievable (the counting bound, ``pairing.season``), repeats within a night
(always 0: the evening's rule comes first), the most times any two partnered and the seconds
per round.

``--services`` (needs ``DATABASE_URL``; ``make bench-season`` starts a throwaway PostgreSQL)
also plays 16 regulars over 4 weekly nights of 3 rounds through the real services (a club, a
series, check-in, ``round_create``, one hand per table, the night finished) inside a transaction
rolled back at the end, and counts the repeats from the seats.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pairing.club_night import club_night_round  # noqa: E402
from pairing.rotation import RoundPlan  # noqa: E402
from pairing.season import Night, plan_teams, season_history, season_repeats  # noqa: E402

SIZES = (12, 16, 20, 32)
NIGHTS = (4, 8, 12)
ROUNDS = 3


def season(players: int, nights: int, *, seed: int, absent: int,
           use_season: bool) -> tuple[list[Night], float]:
    """The nights' teams and the seconds per round."""
    rng = random.Random(f"absent:{seed}:{players}")
    regulars = list(range(1, players + 1))
    done: list[Night] = []
    rounds = 0
    start = time.perf_counter()
    for night in range(nights):
        here = sorted(rng.sample(regulars, players - absent)) if absent else regulars
        history = season_history(done) if use_season else {}
        tonight: list[RoundPlan[int]] = []
        for _ in range(ROUNDS):
            tonight.append(club_night_round(here, tonight, rounds_planned=ROUNDS,
                                            seed=seed * 1000 + night, season=history).plan)
            rounds += 1
        done.append([plan_teams(plan) for plan in tonight])
    return done, (time.perf_counter() - start) / rounds


def pure(args: argparse.Namespace) -> None:
    print(f"{'players':>7} {'nights':>6} {'partnerships':>12} {'with season':>12} "
          f"{'alone':>6} {'best':>5} {'within':>6} {'most':>4} {'s/round':>8}")
    for players in SIZES:
        for nights in NIGHTS:
            with_season, per_round = season(players, nights, seed=args.seed,
                                            absent=args.absent, use_season=True)
            alone, _ = season(players, nights, seed=args.seed, absent=args.absent,
                              use_season=False)
            q, a = season_repeats(with_season), season_repeats(alone)
            print(f"{players:7} {nights:6} {q.partnerships:12} "
                  f"{q.repeats:5} ({q.rate:5.1%}) {a.repeats:6} {q.best:5} "
                  f"{q.within_nights:6} {q.max_together:4} {per_round:8.3f}")


def services(args: argparse.Namespace) -> None:
    """16 regulars, 4 weekly nights of 3 rounds, through the services (rolled back)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DJANGO_DEBUG", "false")
    import datetime

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from clubs.models import Club, ClubPlayer, Player
    from draw.services import event_status_set, round_create, round_set_status
    from scoring.services import game_confirm, game_set_scorer, hand_submit
    from series.services import series_create
    from tournaments.models import Event, Round, Seat
    from tournaments.services import entry_check_in, event_create

    call_command("migrate", verbosity=0)
    hand = {"dealer": "S", "bidder": "N", "bid": 50, "trump": "H", "outcome": "played",
            "meld": {"NS": 22, "EW": 20}, "counters": {"NS": 30, "EW": 20}}
    with transaction.atomic():
        club = Club.objects.create(name="Bench season club", slug="bench-season")
        regulars = [Player.objects.create(name=f"Regular {n:02}") for n in range(16)]
        ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in regulars)
        nights = [event_create(club=club, name=f"Night {k + 1}", deals_per_round=1,
                               date=datetime.date(2026, 9, 3) + datetime.timedelta(weeks=k),
                               rounds_planned=ROUNDS, seed=args.seed * 100 + k)
                  for k in range(4)]
        series_create(club=club, name="Bench season", events=[n.pk for n in nights],
                      points=[3, 2, 1])
        start = time.perf_counter()
        seatings = 0
        for night in nights:
            for player in regulars:
                entry_check_in(event=night, player=player)
            for _ in range(ROUNDS):
                round_ = round_create(event=night)
                seatings += 1
                round_set_status(round_=round_, status=Round.Status.PLAYING)
                for table in round_.tables.all():
                    game_set_scorer(game=table.game, position="N")
                    hand_submit(game=table.game, number=1, values=hand)
                    table.game.refresh_from_db()
                    game_confirm(game=table.game, position="E")
                round_set_status(round_=round_, status=Round.Status.CLOSED)
            event_status_set(event=night, status=Event.Status.FINISHED)
        elapsed = time.perf_counter() - start
        done: list[Night] = []
        for night in nights:
            tables: dict[tuple[int, int], dict[str, int]] = {}
            for number, table_id, position, player_id in Seat.objects.filter(
                    round__event=night).values_list("round__number", "table_id", "position",
                                                    "entry__player_id"):
                tables.setdefault((number, table_id), {})[position] = player_id
            by_round: dict[int, list[frozenset[int]]] = {}
            for (number, _), t in sorted(tables.items()):
                by_round.setdefault(number, []).extend(
                    [frozenset((t["N"], t["S"])), frozenset((t["E"], t["W"]))])
            done.append([by_round[n] for n in sorted(by_round)])
        q = season_repeats(done)
        print(f"services: 16 regulars, 4 nights of {ROUNDS} rounds: partnerships repeated "
              f"{q.repeats} of {q.partnerships} ({q.rate:.1%}; best achievable {q.best}; "
              f"within a night {q.within_nights}); {elapsed:.1f} s for {seatings} rounds "
              "played (seating, one hand a table, closing)")
        transaction.set_rollback(True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--absent", type=int, default=0,
                        help="regulars missing each night, drawn at random (default 0)")
    parser.add_argument("--services", action="store_true",
                        help="also play 16 x 4 x 3 through the services (needs DATABASE_URL)")
    args = parser.parse_args()
    pure(args)
    if args.services:
        services(args)


if __name__ == "__main__":
    main()
