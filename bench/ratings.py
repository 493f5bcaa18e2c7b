"""Benchmark of the skill ratings: how well does each method recover known skills?

Run from the project root:  python bench/ratings.py [--players 48] [--seeds 20] [--seed S]
[--games 8,16,32] [--luck 2.0] [--margins 0.1,0.3,0.5] [--models]

A simulated league: ``--players`` players with a true skill drawn from N(0, 1). Each round
every player sits at a table of four with random partner and opponents (N-S v E-W, the
``ranking.ratings`` input the app builds from a game). A side's performance is its players'
skills summed plus luck N(0, ``--luck``) (pinochle is a game of cards: luck is large); the better
performance wins and the difference sets the point margin: the winners reach 500, the losers
``500 - 120 x difference`` (at least -200), rounded to tens.

After 8, 16 and 32 games per player (``--games``), the Spearman rank correlation between the true
skills and:

* openskill — ``ranking.ratings.rate_game`` (Plackett-Luce, win/loss only), ranked by the
  ordinal the leaderboards show (mu - 3 sigma);
* openskill + margin m — the same with point margins (``RatingSettings.margin``: a win by more
  than m x 500 points moves ratings further), for each ``--margins`` value; the app runs
  margin 0.3 (``league.ratings.SETTINGS``);
* win rate — games won / games played;
* average points — the mean of the player's side's points.

Each figure is the mean over ``--seeds`` leagues (20) with its standard deviation, then each
method's paired difference from plain openskill on the same leagues (mean ± standard error). ``--models``
adds the other Weng-Lin models (Bradley-Terry, Thurstone-Mosteller). Bounded: about 10 s with the
defaults; exits 1 when a run takes over 60 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ranking.ratings import (  # noqa: E402
    GameResult,
    Rating,
    RatingSettings,
    Side,
    rate_game,
)

LIMIT_S = 60.0
TARGET = 500


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return result


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    ra, rb = ranks(a), ranks(b)
    if len(set(ra)) < 2 or len(set(rb)) < 2:
        return 0.0
    return statistics.correlation(ra, rb)


def league(players: int, rounds: int, luck: float, rng: random.Random
           ) -> tuple[list[float], list[GameResult]]:
    """True skills and the games of ``rounds`` rounds (every player once a round)."""
    skills = [rng.gauss(0.0, 1.0) for _ in range(players)]
    games: list[GameResult] = []
    ids = list(range(players))
    for _ in range(rounds):
        rng.shuffle(ids)
        for t in range(0, players - players % 4, 4):
            n, e, s, w = ids[t:t + 4]
            ns = skills[n] + skills[s] + rng.gauss(0.0, luck)
            ew = skills[e] + skills[w] + rng.gauss(0.0, luck)
            loser = max(-200, round((TARGET - 120 * abs(ns - ew)) / 10) * 10)
            points = (TARGET, loser) if ns >= ew else (loser, TARGET)
            games.append(GameResult(sides=(Side((n, s), points[0]), Side((e, w), points[1])),
                                    winner=0 if ns >= ew else 1, scale=TARGET))
    return skills, games


def openskill_rank(settings: RatingSettings) -> Callable[[int, list[GameResult]], list[float]]:
    def estimate(players: int, games: list[GameResult]) -> list[float]:
        current: dict[int, Rating] = {}
        for game in games:
            current.update(rate_game(current, game, settings))
        initial = settings.initial()
        return [current.get(p, initial).ordinal for p in range(players)]
    return estimate


def win_rate(players: int, games: list[GameResult]) -> list[float]:
    won = [0] * players
    played = [0] * players
    for game in games:
        for index, side in enumerate(game.sides):
            for p in side.players:
                played[p] += 1
                won[p] += index == game.winner
    return [w / n if n else 0.0 for w, n in zip(won, played, strict=True)]


def average_points(players: int, games: list[GameResult]) -> list[float]:
    total = [0] * players
    played = [0] * players
    for game in games:
        for side in game.sides:
            for p in side.players:
                played[p] += 1
                total[p] += side.points
    return [t / n if n else 0.0 for t, n in zip(total, played, strict=True)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=48)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="8,16,32")
    parser.add_argument("--luck", type=float, default=2.0)
    parser.add_argument("--margins", default="0.1,0.3,0.5")
    parser.add_argument("--models", action="store_true", help="also Bradley-Terry, Thurstone-Mosteller")
    args = parser.parse_args(argv)
    checkpoints = sorted({int(g) for g in args.games.split(",")})
    methods: dict[str, Callable[[int, list[GameResult]], list[float]]] = {
        "openskill": openskill_rank(RatingSettings()),
    }
    for margin in (float(m) for m in args.margins.split(",") if m):
        methods[f"openskill + margin {margin:g}"] = openskill_rank(RatingSettings(margin=margin))
    if args.models:
        for model in ("bradley_terry", "thurstone_mosteller"):
            methods[f"openskill {model}"] = openskill_rank(RatingSettings(model=model))
    methods["win rate"] = win_rate
    methods["average points"] = average_points

    started = time.perf_counter()
    results: dict[str, dict[int, list[float]]] = {m: {g: [] for g in checkpoints} for m in methods}
    for seed in range(args.seed, args.seed + args.seeds):
        rng = random.Random(seed)
        skills, games = league(args.players, checkpoints[-1], args.luck, rng)
        per_round = args.players // 4
        for g in checkpoints:
            played = games[:g * per_round]
            for name, method in methods.items():
                results[name][g].append(spearman(skills, method(args.players, played)))
    elapsed = time.perf_counter() - started

    print(f"Spearman rank correlation with the true skill: {args.players} players, tables of 4 "
          f"with random partners, luck sd {args.luck:g}, mean ± sd over {args.seeds} seeds")
    width = max(len(m) for m in methods)
    print(f"{'method':<{width}}  " + "  ".join(f"{f'{g} games':>13}" for g in checkpoints))
    for name in methods:
        cells = []
        for g in checkpoints:
            values = results[name][g]
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.fmean(values):6.3f} ± {spread:4.3f}")
        print(f"{name:<{width}}  " + "  ".join(cells))
    print()
    print("paired difference from openskill (same leagues): mean ± standard error")
    for name in methods:
        if name == "openskill":
            continue
        cells = []
        for g in checkpoints:
            diffs = [a - b for a, b in zip(results[name][g], results["openskill"][g], strict=True)]
            error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
            cells.append(f"{statistics.fmean(diffs):+6.3f} ± {error:4.3f}")
        print(f"{name:<{width}}  " + "  ".join(cells))
    print(f"{elapsed:.1f} s")
    if elapsed > LIMIT_S:
        print(f"over the {LIMIT_S:.0f} s bound", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
