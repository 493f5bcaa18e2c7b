"""Benchmark of seating individuals at tables of three (three-handed and cutthroat club nights):
time per round and how often opponents meet again, against the counting lower bound.

Run from the project root:  python bench/threes.py [--seed S] [--sizes 3 | 3,4]

For every N in {6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 20, 23, 24, 30, 40, 64, 128, 512} and R in
{4, 6, 8} it seats R rounds one at a time with ``pairing.threes.threes_round`` (what the club
night does) and prints the seconds per round, the repeat meetings, their lower bound (a player
seated at a table of k meets k − 1 others among the N − 1 there are), the excess, and how evenly
byes and seats at tables of four went round (most − fewest per player).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing.rotation import RoundPlan  # noqa: E402
from pairing.threes import measure, threes_round  # noqa: E402

PLAYERS = (6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 20, 23, 24, 30, 40, 64, 128, 512)
ROUNDS = (4, 6, 8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--sizes", default="3,4", help="table sizes: 3 or 3,4 (default)")
    args = parser.parse_args()
    sizes = tuple(int(x) for x in args.sizes.split(","))
    print(f"tables of {' and '.join(map(str, sizes))}, seed {args.seed}")
    print(f"{'N':>4} {'R':>2} {'s/round':>8} {'repeats':>8} {'bound':>6} {'excess':>7} "
          f"{'byes':>5} {'fours':>6}")
    worst = 0
    for n in PLAYERS:
        for rounds in ROUNDS:
            players = list(range(1, n + 1))
            history: list[RoundPlan[int]] = []
            start = time.perf_counter()
            for _ in range(rounds):
                history.append(threes_round(players, history, table_sizes=sizes,
                                            seed=args.seed))
            per_round = (time.perf_counter() - start) / rounds
            q = measure(history)
            excess = q.repeat_opponents - q.opponents_lower_bound
            worst = max(worst, excess)
            print(f"{n:>4} {rounds:>2} {per_round:>8.3f} {q.repeat_opponents:>8} "
                  f"{q.opponents_lower_bound:>6} {excess:>7} {q.max_byes - q.min_byes:>5} "
                  f"{q.max_fours - q.min_fours:>6}")
    print(f"largest excess over the bound: {worst}")


if __name__ == "__main__":
    main()
