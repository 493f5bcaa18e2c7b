"""Command line for the Swiss pairing of pair events; prints one JSON object.

    python -m pairing.swiss next [--seed S] [--shuffle-first] < request.json
    python -m pairing.swiss simulate --pairs N --rounds R [--seed S]

``next`` reads the standings before the round (pair ids are integers; only "pair" and "wins"
are required):

    {"standings": [{"pair": 1, "wins": 2, "points": 1234, "opponents": [5, 7], "byes": 0}, ...]}

in registration (seed) order, which breaks ties, and prints

    {"matches": [[a, b], ...], "bye": id | null,
     "quality": {"rematches": n, "spread": n, "cross_group": n, "bye": id | null}}

with the top match (table 1) first and the better-placed pair first in each match.
``--shuffle-first`` shuffles the order with the seed when every pair has 0 wins (a first round
drawn rather than seeded).

``simulate`` plays R rounds for pairs 1..N with random winners and prints
{"pairs": N, "rounds": [{"round": i, "seconds": t, "quality": {...}}, ...], "slowest_seconds": t}.

Input is JSON of at most 2,000,000 characters with no duplicate keys and no unknown keys. Bad
input prints {"errors": [{"field": ..., "code": ..., "message": ...}]} and exits 2 (field is a
path such as "standings", "standings[2].wins"); never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import NoReturn, TextIO

from ..cli import command_parser, read_json, serve
from . import MAX_PAIRS, Standing, SwissError, simulation, swiss_round

MAX_INPUT_CHARS = 2_000_000
MAX_ROUNDS = 100

_STANDING_KEYS = ("pair", "wins", "points", "opponents", "byes")


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "python -m pairing.swiss",
        "Pair the next round of a Swiss event for pairs (partnerships): equal wins meet, "
        "no rematches, a fair bye. Prints one JSON object; bad input prints "
        '{"errors": [{"field", "code", "message"}]} and exits 2.',
        __doc__,
    )
    nxt = sub.add_parser(
        "next",
        help="the next round, from the standings on stdin",
        description='Reads {"standings": [...]} on stdin; prints {"matches", "bye", "quality"}.',
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    nxt.add_argument("--seed", type=int, default=0, help="seed for --shuffle-first (0)")
    nxt.add_argument(
        "--shuffle-first",
        action="store_true",
        help="when every pair has 0 wins, shuffle the given order with the seed",
    )
    sim = sub.add_parser(
        "simulate",
        help="play rounds with random winners and time each pairing",
        description="Prints each round's quality and the seconds its pairing took.",
    )
    sim.add_argument("--pairs", type=int, required=True, help=f"pairs (2 to {MAX_PAIRS})")
    sim.add_argument("--rounds", type=int, required=True, help=f"rounds (1 to {MAX_ROUNDS})")
    sim.add_argument("--seed", type=int, default=0, help="seed for the results (0)")
    return parser


def _whole(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SwissError(f"{value!r:.40} is not a whole number.", field=field, code="bad_number")
    return value


def _standing(item: object, i: int) -> Standing:
    field = f"standings[{i}]"
    if not isinstance(item, dict):
        raise SwissError(
            'Each standing is an object {"pair", "wins", "points", "opponents", "byes"}.',
            field=field,
            code="bad_standing",
        )
    for key in item:
        if key not in _STANDING_KEYS:
            raise SwissError(
                f"Unknown field; a standing reads {', '.join(_STANDING_KEYS)}.",
                field=f"{field}.{key[:40]}",
                code="unknown_field",
            )
    for key in ("pair", "wins"):
        if key not in item:
            raise SwissError(f"{key} is required.", field=f"{field}.{key}", code="missing")
    opponents = item.get("opponents", [])
    if not isinstance(opponents, list):
        raise SwissError(
            "opponents is a list of pair ids.", field=f"{field}.opponents", code="bad_id"
        )
    return Standing(
        pair=_whole(item["pair"], f"{field}.pair"),
        wins=_whole(item["wins"], f"{field}.wins"),
        points=_whole(item.get("points", 0), f"{field}.points"),
        opponents=frozenset(_whole(o, f"{field}.opponents[{k}]") for k, o in enumerate(opponents)),
        byes=_whole(item.get("byes", 0), f"{field}.byes"),
    )


def _next(data: object, seed: int, shuffle_first: bool) -> dict[str, object]:
    if not isinstance(data, dict):
        raise SwissError(
            'Expected a JSON object {"standings": [...]}.', field="input", code="bad_json"
        )
    for key in data:
        if key != "standings":
            raise SwissError(
                "Unknown field; the request reads standings.",
                field=key[:40],
                code="unknown_field",
            )
    if "standings" not in data:
        raise SwissError("standings is required.", field="standings", code="missing")
    items = data["standings"]
    if not isinstance(items, list):
        raise SwissError("standings is a list.", field="standings", code="bad_standing")
    if len(items) > MAX_PAIRS:
        raise SwissError(
            f"At most {MAX_PAIRS} pairs can be paired.", field="standings", code="too_many"
        )
    standings = [_standing(item, i) for i, item in enumerate(items)]
    try:
        return swiss_round(standings, seed=seed, shuffle_first=shuffle_first).to_dict()
    except SwissError as exc:  # the request calls the pairs "standings"
        if exc.field.startswith("pairs"):
            exc.field = "standings" + exc.field.removeprefix("pairs")
        raise


def _simulate(pairs: int, rounds: int, seed: int) -> dict[str, object]:
    if not 2 <= pairs <= MAX_PAIRS:
        raise SwissError(f"--pairs is 2 to {MAX_PAIRS}.", field="pairs", code="out_of_range")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SwissError(f"--rounds is 1 to {MAX_ROUNDS}.", field="rounds", code="out_of_range")
    out: list[dict[str, object]] = []
    slowest = 0.0
    played = simulation(pairs, rounds, seed=seed)
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        result = next(played)
        seconds = time.perf_counter() - started
        slowest = max(slowest, seconds)
        out.append(
            {"round": number, "seconds": round(seconds, 4), "quality": result.quality.to_dict()}
        )
    return {
        "pairs": pairs,
        "rounds": out,
        "slowest_seconds": round(slowest, 4),
    }


def _answer(args: argparse.Namespace, stdin: TextIO) -> dict[str, object]:
    if args.command == "next":
        return _next(read_json(stdin, max_chars=MAX_INPUT_CHARS), args.seed, args.shuffle_first)
    return _simulate(args.pairs, args.rounds, args.seed)


def run(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    return serve(_parser(), argv, stdin, (SwissError,), _answer)


def main() -> NoReturn:
    sys.exit(run())


if __name__ == "__main__":
    main()
