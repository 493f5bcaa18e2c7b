"""One hand → updated standings snapshot, on PostgreSQL: 250 players, 12 rounds of 4 deals.

Run it with ``make bench-snapshot`` (or ``BENCH_SCRIPT=bench/snapshot.py bash bench/standings.sh``:
a throwaway PostgreSQL, stopped and deleted afterwards), or against a database of your own:
``DATABASE_URL=postgres://... python bench/snapshot.py`` (it migrates and adds one event; use an
empty database). ``--hands N`` sets how many hands are entered and measured (default 200).

The event is bench/standings.py's (the same builder and seed): 62 tables a round, 2 byes, every
game's seat results derived from its hands, the last round's games one deal short. Each measured
hand is a real ``hand_submit`` (the last deal of an open game) or, once those are entered, a
director's ``hand_correct`` of a random hand of the last round. Right after it, exactly one of
these runs and is timed, in turn (so all of them see the same mix of hands and machine load):

* task, full (before): the standings task's work as it was: clear the pending mark, then
  ``standings_rebuild`` re-aggregating every seat result (one GROUP BY, the ranking, the write);
* task, incremental (after): ``standings.tasks.compute_standings`` as it runs on the worker:
  ``standings.incremental`` keeps the per-entry totals current from the changed game (the state
  kept by this process from its previous runs, as in a worker process), the ranking, the write;
* rows only, full / incremental: the same two computations without the lock and the write.

After every incremental run the stored snapshot is compared with a full recompute (not timed):
its rows, their text as PostgreSQL holds it and its digest; the bench fails if they ever
differ. Exit status 1 also when the incremental task's median is not under the 20 ms target.
Times are wall time of server-side work (Python and the queries); on a loaded machine both
paths slow down alike: compare them within one run. The CPU column is less sensitive to other
work on the machine: this process's CPU time plus that of its PostgreSQL backend (from /proc,
in clock ticks: a mean over the runs), what one run costs on an idle machine apart from the
round trips.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench/standings.py sets up Django and holds the event builder; loaded by path because the
# name ``standings`` is the app.
_spec = importlib.util.spec_from_file_location("bench_standings", ROOT / "bench" / "standings.py")
assert _spec is not None and _spec.loader is not None
bench_standings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_standings)

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from common.tasks import standings_clear_pending  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Game, HandRevision  # noqa: E402
from scoring.services import hands as scoring_hands  # noqa: E402
from standings.incremental import standings_rows_incremental  # noqa: E402
from standings.models import StandingsSnapshot  # noqa: E402
from standings.selectors import standings_compute  # noqa: E402
from standings.services import games_recompute, standings_rebuild  # noqa: E402
from standings.tasks import compute_standings  # noqa: E402

TARGET_MS = 20.0


def backend_cpu_ms(pid: int) -> float:
    """CPU time used so far by a process (user + system), from /proc (0 when unreadable)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("bench/snapshot.py measures PostgreSQL: set DATABASE_URL (or make bench-snapshot)")
        return 2
    call_command("migrate", verbosity=0)
    rng = random.Random(20261120)
    event, open_games = bench_standings.build(rng)
    games_recompute(event=event)
    scoring_hands.standings_request_update = lambda **kwargs: None  # type: ignore[assignment]
    standings_rebuild(event_id=event.pk)
    compute_standings(event.pk)  # the worker's first run reads everything once
    snapshot = StandingsSnapshot.objects.get(event=event)

    def task_full() -> None:
        standings_clear_pending(event_id=event.pk)
        standings_rebuild(event_id=event.pk)

    def task_incremental() -> None:
        compute_standings(event.pk)

    def rows_full() -> None:
        standings_compute(event=event)

    def rows_incremental() -> None:
        standings_rows_incremental(event=event, snapshot_id=snapshot.pk)

    measures: list[tuple[str, Callable[[], None]]] = [
        ("task, full re-aggregation (before)", task_full),
        ("task, incremental (after)", task_incremental),
        ("  rows only, full", rows_full),
        ("  rows only, incremental", rows_incremental),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in measures}
    cpu: dict[str, float] = dict.fromkeys(times, 0.0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    submit_ms: list[float] = []
    waiting = list(open_games)
    last_round = [g.pk for g in open_games]
    for number in range(args.hands):
        started = time.perf_counter()
        if waiting:
            game = waiting.pop()
            services.hand_submit(game=game, number=bench_standings.DEALS,
                                 values=bench_standings.random_hand(rng, bench_standings.DEALS))
        else:
            live = HandRevision.objects.filter(
                hand__game_id=rng.choice(last_round), is_live=True).select_related("hand")
            revision = rng.choice(list(live))
            services.hand_correct(
                hand=revision.hand, expected_revision=revision.revision, as_director=True,
                values=bench_standings.random_hand(rng, revision.hand.number),
                note="bench correction")
        submit_ms.append((time.perf_counter() - started) * 1000)
        name, run = measures[number % len(measures)]
        cpu_before = time.process_time() * 1000 + backend_cpu_ms(backend)
        started = time.perf_counter()
        run()
        times[name].append((time.perf_counter() - started) * 1000)
        cpu[name] += time.process_time() * 1000 + backend_cpu_ms(backend) - cpu_before
        if run is task_incremental:
            snapshot.refresh_from_db()
            full = standings_compute(event=event)
            text = json.dumps(full.rows, separators=(",", ":"), sort_keys=True)
            labels = json.dumps(full.tie_breaks, separators=(",", ":"), sort_keys=True)
            with connection.cursor() as cursor:
                cursor.execute("SELECT rows::text FROM scoring_standingssnapshot WHERE id = %s",
                               [snapshot.pk])
                stored = cursor.fetchone()[0]
            if ((snapshot.rows, snapshot.tie_breaks) != (full.rows, full.tie_breaks)
                    or stored != text or snapshot.digest != hashlib.sha256(
                        f"[{text},{labels}]".encode()).hexdigest()):
                print(f"hand {number}: the incremental snapshot differs from a full recompute")
                return 1
    games = Game.objects.filter(table__round__event=event).count()
    print(f"\nOne hand → snapshot on PostgreSQL {connection.pg_version // 10000}: "
          f"{bench_standings.PLAYERS} players, {bench_standings.ROUNDS} rounds, {games} games, "
          f"{args.hands} hands entered or corrected, each followed by one measure in turn; "
          "every incremental snapshot (rows, stored text, digest) equal to a full recompute\n")
    print(f"{'measure':40} {'runs':>5} {'median ms':>10} {'p95 ms':>8} {'CPU ms':>8}")
    print("-" * 75)
    print(f"{'hand_submit / hand_correct (service)':40} {len(submit_ms):5} "
          f"{statistics.median(submit_ms):10.1f} {bench_standings.p95(submit_ms):8.1f}")
    for name, values in times.items():
        print(f"{name:40} {len(values):5} {statistics.median(values):10.1f} {bench_standings.p95(values):8.1f} "
              f"{cpu[name] / len(values):8.1f}")
    median = statistics.median(times["task, incremental (after)"])
    print(f"\ntarget: the incremental task under {TARGET_MS:.0f} ms (median): "
          f"{'ok' if median < TARGET_MS else 'SLOW'}\n")
    return 0 if median < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(main())
