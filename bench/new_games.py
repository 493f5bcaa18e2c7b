"""Save speed of the new games: saving a hand at a six-handed triple-deck night and at a
two-handed night, at the load benchmark's sizes (16, 32, 64 and 96 tables).

Run it with ``BENCH_SCRIPT=bench/new_games.py bash bench/standings.sh`` (a throwaway PostgreSQL,
started and stopped around the run), or against an empty database of your own:
``DATABASE_URL=postgres://... python bench/new_games.py [--sizes 16,32] [--hands 2]``.

For each preset and table count it makes a club night through the services (a club, its
director, the players, the event with the preset, round 1 seated and started), then saves
``--hands`` hands at every table in turn with the score-entry service, as a scorer's desk does
(``scoring.services.hand_submit``: the rules engine checks and scores the hand, the hand and its
revision are stored, the game's seat results rebuilt), followed by the standings task
(``compute_standings``) that makes the save visible. Printed per preset and size: the tables,
players, saves, and p50/p95/max of the save, of the task and of both (milliseconds,
server-side work only, no network). Hands are real rules-engine hands: a pack dealt to the
seats, each player's meld counted by the engine, the counters split by chance.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from clubs.services import club_create, player_create  # noqa: E402
from common.rulesets import event_ruleset  # noqa: E402
from draw import services as draw  # noqa: E402
from rules_engine import Ruleset, count_meld  # noqa: E402
from rules_engine.cards import NINE  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Game  # noqa: E402
from standings.tasks import compute_standings  # noqa: E402
from tournaments import services as events  # noqa: E402

PRESETS = ("six_handed_triple_deck", "two_handed")
SIZES = (16, 32, 64, 96)  # the load benchmark's table counts (bench/load/run.py)


def legal_hand(rng: random.Random, rs: Ruleset, seats: list[str], number: int) -> dict[str, Any]:
    """A played hand the engine accepts: the pack dealt, meld counted per seat and added up per
    side, the counters split by chance in the units cards count in, the opening bid."""
    pack = rs.deck.cards() + [s * 6 + NINE for s in range(4) for _ in range(rs.nines_added // 4)]
    rng.shuffle(pack)
    size = rs.hand_size
    trump = rng.choice("SHDC")
    meld: dict[str, int] = {}
    for i, seat in enumerate(seats):
        side = str(rs.side_of(seat))
        meld[side] = meld.get(side, 0) + count_meld(pack[i * size:(i + 1) * size], trump,
                                                    rs).total
    unit = rs.counter_unit
    sides = [str(s) for s in rs.sides]
    cuts = sorted(rng.randrange(0, rs.counters_total // unit + 1) for _ in sides[1:])
    bounds = [0, *cuts, rs.counters_total // unit]
    counters = {s: (bounds[i + 1] - bounds[i]) * unit for i, s in enumerate(sides)}
    return {
        "dealer": seats[(number - 1) % len(seats)], "bidder": rng.choice(seats),
        "bid": rs.min_bid, "trump": trump, "meld": meld, "counters": counters,
        "outcome": "played",
    }


def night(preset: str, tables: int, seed: int) -> tuple[Any, list[Game]]:
    """A club night of ``tables`` tables of the preset, round 1 seated and playing."""
    users = get_user_model()
    owner, _ = users.objects.get_or_create(username="bench-owner")
    club = club_create(name=f"Bench {preset} {tables}", slug=f"bench-{preset[:20]}-{tables}",
                       owner=owner, ruleset_preset=preset)
    event = events.event_create(
        club=club, name=f"{preset}, {tables} tables", date=datetime.date.today(), actor=owner,
        rounds_planned=2, deals_per_round=8, ruleset_preset=preset,
        ruleset_overrides={"game_target": None, "max_deals": 8}, seed=seed,
    )
    per_table = event_ruleset(event).players
    players = [player_create(club=club, name=f"{preset} {tables} player {i + 1}")
               for i in range(tables * per_table)]
    events.entries_create_many(event=event, players=players, actor=owner)
    round_ = draw.round_create(event=event, actor=owner)
    draw.round_set_status(round_=round_, status="playing", actor=owner)
    games = list(Game.objects.filter(table__round=round_).select_related("table")
                 .order_by("table__number"))
    if len(games) != tables:
        raise SystemExit(f"expected {tables} tables, round 1 has {len(games)}")
    return event, games


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--hands", type=int, default=2, help="hands saved per table (2)")
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    call_command("migrate", verbosity=0)
    rng = random.Random(args.seed)
    print(f"PostgreSQL {getattr(connection, 'pg_version', 0) // 10000}; per save: hand_submit, then "
          "compute_standings (ms)")
    print(f"{'preset':<24}{'tables':>7}{'players':>8}{'saves':>6}  "
          f"{'save p50':>8}{'p95':>7}{'max':>7}  {'task p95':>8}  {'both p50':>8}{'p95':>7}")
    for preset in PRESETS:
        for tables in sizes:
            event, games = night(preset, tables, args.seed + tables)
            rs = event_ruleset(event)
            compute_standings(event.pk)  # a worker's first run reads everything once
            save_ms: list[float] = []
            task_ms: list[float] = []
            for number in range(1, args.hands + 1):
                for game in games:
                    seats = [s.position for s in game.table.seats.order_by("position")]
                    seats = [x for x in rs.seats if x in seats]
                    values = legal_hand(rng, rs, seats, number)
                    t0 = time.perf_counter()
                    services.hand_submit(game=game, number=number, values=values)
                    t1 = time.perf_counter()
                    compute_standings(event.pk)
                    t2 = time.perf_counter()
                    save_ms.append((t1 - t0) * 1000)
                    task_ms.append((t2 - t1) * 1000)
            both = [a + b for a, b in zip(save_ms, task_ms, strict=True)]
            print(f"{preset:<24}{tables:>7}{tables * rs.players:>8}{len(save_ms):>6}  "
                  f"{statistics.median(save_ms):>8.1f}{percentile(save_ms, 95):>7.1f}"
                  f"{max(save_ms):>7.1f}  {percentile(task_ms, 95):>8.1f}  "
                  f"{statistics.median(both):>8.1f}{percentile(both, 95):>7.1f}", flush=True)


if __name__ == "__main__":
    main()
