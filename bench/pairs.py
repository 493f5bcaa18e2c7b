"""Benchmark of the pair events' builders: Swiss rounds, round robin schedules and brackets.

Run from the project root:  python bench/pairs.py [--pairs 128] [--rounds 7] [--seeds 3] [--seed S]
[--long-rounds 12] [--repeat 3]

* Swiss (``pairing.swiss``): an event of ``--pairs`` pairs (and one of ``--pairs - 1``, so one
  pair has the bye each round) over ``--rounds`` rounds with random winners, ``--seeds``
  events of each; per round the slowest pairing over the events, and the worst rematches,
  spread (largest difference in wins between two pairs that meet) and matches between score
  groups. Then, for information only, one event of ``--pairs`` over ``--long-rounds`` rounds,
  longer than a Swiss of that size usually runs: the score groups at the ends get small and
  their pairs have often met, so pairs float between groups and the search does more work.
* Round robin (``pairing.round_robin``): the whole schedule for 16 and 32 pairs (one group, and
  32 pairs in two groups).
* Brackets (``pairing.bracket``): the plan of a single-elimination bracket of 128 pairs and of
  a double-elimination one with a consolation bracket for losers rounds 1 and 2.

Each measure is the fastest of ``--repeat`` runs of the same work (3), so that other work on the
machine does not count; over the Swiss events the slowest round counts. Exit status 1 when a
target is missed: every Swiss round under 1 s, every bracket plan under 0.1 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.bracket import bracket_plan  # noqa: E402
from pairing.round_robin import round_robin  # noqa: E402
from pairing.swiss import SwissRound, simulation  # noqa: E402

TARGET_SWISS_S = 1.0
TARGET_BRACKET_S = 0.1


def best_of(build: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (other work on the machine does not count) and a result."""
    times = []
    result: Any = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = build()
        times.append(time.perf_counter() - started)
    return min(times), result


def timed_event(pairs: int, rounds: int, seed: int, repeat: int) -> list[tuple[float, SwissRound]]:
    """One event of pairs 1..``pairs`` with random winners and points (``pairing.swiss.simulation``,
    played ``repeat`` times): (fastest seconds, round) for each round's pairing."""
    best = [float("inf")] * rounds
    played: list[SwissRound] = []
    for _ in range(repeat):
        event = simulation(pairs, rounds, seed=seed)
        played = []
        for r in range(rounds):
            started = time.perf_counter()
            played.append(next(event))
            best[r] = min(best[r], time.perf_counter() - started)
    return list(zip(best, played, strict=True))


def swiss(
    pairs: int, rounds: int, seeds: int, seed: int, repeat: int, *, target: bool = True
) -> bool:
    """Prints the Swiss table for ``pairs``; True when every round is within the target (or
    when ``target`` is off: the table is then for information)."""
    events = [timed_event(pairs, rounds, seed + k, repeat) for k in range(seeds)]
    events_text = f"{seeds} event{'s' if seeds != 1 else ''}"
    print(f"\nSwiss, {pairs} pairs, {rounds} rounds, {events_text} with random winners"
          f"{'' if target else ' (for information, no target)'}")
    print(f"{'round':>5} {'median s':>9} {'max s':>7} {'rematches':>9} {'spread':>6} "
          f"{'cross':>5}  result")
    ok = True
    for r in range(rounds):
        seconds = [event[r][0] for event in events]
        quality = [event[r][1].quality for event in events]
        fine = max(seconds) < TARGET_SWISS_S or not target
        ok &= fine
        verdict = ("ok" if fine else "SLOW") if target else ""
        print(f"{r + 1:5} {statistics.median(seconds):9.3f} {max(seconds):7.3f} "
              f"{max(q.rematches for q in quality):9} {max(q.spread for q in quality):6} "
              f"{max(q.cross_group for q in quality):5}  {verdict}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=128, help="Swiss field (default 128)")
    parser.add_argument("--rounds", type=int, default=7, help="Swiss rounds (default 7)")
    parser.add_argument("--seeds", type=int, default=3, help="Swiss events of each size (3)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (0)")
    parser.add_argument("--long-rounds", type=int, default=12,
                        help="a longer Swiss event of --pairs, for information (12; 0: none)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each measure, the fastest counts (3)")
    args = parser.parse_args()
    if args.pairs < 3 or args.rounds < 1 or args.seeds < 1 or args.repeat < 1 or args.long_rounds < 0:
        parser.error("--pairs is at least 3; --rounds, --seeds and --repeat at least 1")

    ok = swiss(args.pairs, args.rounds, args.seeds, args.seed, args.repeat)
    ok &= swiss(args.pairs - 1, args.rounds, args.seeds, args.seed, args.repeat)
    if args.long_rounds:
        swiss(args.pairs, args.long_rounds, 1, args.seed, args.repeat, target=False)

    print(f"\n{'builder':54} {'best s':>7} {'target s':>8} {'size':>12}  result")
    rows: list[tuple[str, Callable[[], Any], float | None, Callable[[Any], str]]] = [
        ("round_robin(16 pairs)", lambda: round_robin(range(1, 17)), None,
         lambda r: f"{len(r)} rounds"),
        ("round_robin(32 pairs)", lambda: round_robin(range(1, 33)), None,
         lambda r: f"{len(r)} rounds"),
        ("round_robin(32 pairs, groups=2)", lambda: round_robin(range(1, 33), groups=2), None,
         lambda r: f"{len(r)} rounds"),
        ('bracket_plan(128, kind="single")', lambda: bracket_plan(128, kind="single"),
         TARGET_BRACKET_S, lambda p: f"{len(p.matches)} matches"),
        ('bracket_plan(128, kind="double", consolation=(1, 2))',
         lambda: bracket_plan(128, kind="double", consolation=(1, 2)), TARGET_BRACKET_S,
         lambda p: f"{len(p.matches)} matches"),
    ]
    for name, build, target, size in rows:
        took, result = best_of(build, args.repeat)
        verdict = ""
        if target is not None:
            fine = took < target
            ok &= fine
            verdict = "ok" if fine else "SLOW"
        print(f"{name:54} {took:7.4f} {target if target else '':>8} {size(result):>12}  "
              f"{verdict}")
    print()
    print("all targets met" if ok else "a target was missed")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
