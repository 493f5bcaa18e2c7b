"""Benchmark of the partner rotation: time per round and quality of planned schedules.

Run from the project root:  python bench/rotation.py [--seed S] [--mode plan|next|both]

For every N in {8, 12, 13, 16, 20, 24, 40, 64, 100, 250} and R in {4, 8, 12} it plans R rounds
(``plan_schedule``) and, separately, builds them one at a time with ``next_round`` (what the club
night does), and prints seconds per round, repeat partners, repeat opponents (lower bound), repeat
tablemates (lower bound) and the most byes any player had. Rows where R exceeds the rounds that
N players can play without a repeat partnership are marked "refused" (plan) — that is the
module's documented answer for them.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.rotation import (  # noqa: E402
    RotationError,
    RoundPlan,
    max_partner_free_rounds,
    measure,
    next_round,
    plan_schedule,
)

SIZES = (8, 12, 13, 16, 20, 24, 40, 64, 100, 250)
ROUNDS = (4, 8, 12)


def row(mode: str, n: int, r: int, seed: int) -> str:
    players = list(range(1, n + 1))
    start = time.perf_counter()
    if mode == "plan":
        try:
            q = plan_schedule(players, r, seed=seed).quality
        except RotationError as exc:
            return f"{mode:5} {n:4} {r:3}  refused: {exc.message}"
    else:
        history: list[RoundPlan[int]] = []
        for _ in range(r):
            history.append(next_round(players, history, seed=seed))
        q = measure(history)
    per_round = (time.perf_counter() - start) / r
    return (
        f"{mode:5} {n:4} {r:3} {per_round:9.3f} {q.repeat_partners:8} "
        f"{q.repeat_opponents:6} ({q.opponents_lower_bound:4}) "
        f"{q.repeat_tablemates:6} ({q.tablemates_lower_bound:4}) {q.max_byes:5}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mode", choices=("plan", "next", "both"), default="both")
    args = parser.parse_args()
    modes = ("plan", "next") if args.mode == "both" else (args.mode,)
    print("mode     N   R  s/round  partners  opponents (bound)  tablemates (bound)  max byes")
    worst = 0.0
    for mode in modes:
        for n in SIZES:
            for r in ROUNDS:
                if mode == "next" and r > max_partner_free_rounds(n):
                    print(f"{mode:5} {n:4} {r:3}  skipped: more rounds than partner-free")
                    continue
                line = row(mode, n, r, args.seed)
                print(line, flush=True)
                if "refused" not in line:
                    worst = max(worst, float(line.split()[3]))
    print(f"slowest: {worst:.3f} s per round")


if __name__ == "__main__":
    main()
