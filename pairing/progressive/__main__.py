"""Command line for the progressive movement; prints one JSON object.

    python -m pairing.progressive next [--seed S] < request.json

The request (only "tables" is always required; ids are integers or strings):

    {
      "tables":  [{"N": id, "E": id, "S": id, "W": id}, ...],  last game, table 1 first
      "winners": ["NS" | "EW" | null, ...],   winning side per table (winners_move)
      "points":  [{"NS": n, "EW": m} | null, ...],   optional; decides a null winner,
                                              an exact tie is refused
      "history": [seating | [a, b], ...],     earlier games: seatings (lists of tables, or
                                              {"tables": [...]}) and/or partner pairs
      "settings": {
        "movement":  "winners_move" (default) | "fixed_seats",
        "direction": "up" (default: winners go t -> t-1, table 1 -> last) | "down",
        "draw":      "system" (default) | "table",
        "seed":      0,
        "steps":     {"N": 0, "S": 1, "E": -1, "W": -2},   fixed_seats; + = higher tables
        "games":     k                        fixed_seats: warn on repeats within k games
      },
      "table_draw": [[stayer, arrival], ...], draw "table": who partners whom, per table
      "entering": [id, ...], "leaving": [id, ...]   alternates: entering[i] takes the seat
                                              of leaving[i] before the move
    }

The answer:

    {"tables": [{"N": id, "E": id, "S": id, "W": id}, ...],
     "quality": {"repeat_partners":  [{"players": [a, b], "table": t, "times_before": n}],
                 "repeat_opponents": [{"players": [a, b], "table": t, "times_before": n}],
                 "moves": [{"player", "from_table", "from_seat", "to_table", "to_seat"}],
                 "warnings": [{"code", "message"}],
                 "draws": [{"table", "stayers", "arrivals", "partners", "mode", "reason",
                            "repeats": {"chosen", "other"}}],
                 "substitutions": [{"left", "entered", "table", "seat"}],
                 "settings": {...}}}

Input is JSON of at most 2,000,000 characters with no duplicate keys and no unknown keys. Bad
input prints {"errors": [{"field": ..., "code": ..., "message": ...}]} and exits 2 (field is a
path such as "tables[2].S", "winners[0]", "settings.direction"); never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from ..cli import command_parser, read_json, serve
from .model import ProgressiveError
from .movement import next_game

# A 100-game history of 250 tables is about a million characters.
MAX_INPUT_CHARS = 2_000_000
MAX_DEPTH = 8

_TOP_KEYS = (
    "tables",
    "winners",
    "points",
    "history",
    "settings",
    "table_draw",
    "entering",
    "leaving",
)
_SETTINGS_KEYS = ("movement", "direction", "draw", "seed", "steps", "games")
_ID_FIELDS = ("tables", "history", "table_draw", "entering", "leaving")


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "python -m pairing.progressive",
        "Seat the next game of an individual progressive tournament (tables of four, "
        "N, E, S, W; partners N-S and E-W): winners move a table, losers stay and split, "
        "or fixed seat steps. Prints one JSON object; bad input prints "
        '{"errors": [{"field", "code", "message"}]} and exits 2.',
        __doc__,
    )
    nxt = sub.add_parser(
        "next",
        help="the next game's seating, from the request on stdin",
        description=(
            'Reads {"tables", "winners", "points", "history", "settings", "table_draw", '
            '"entering", "leaving"} on stdin; prints {"tables": [...], "quality": {...}}.'
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    nxt.add_argument("--seed", type=int, default=None, help="seed (overrides settings.seed)")
    return parser


def _check_values(value: object, path: str, depth: int = 0) -> None:
    """Ids and numbers are integers or strings: refuse floats (and over-deep nesting) by path."""
    if depth > MAX_DEPTH:
        raise ProgressiveError(path, "Nested too deeply for a request.", "too_deep")
    if isinstance(value, float):
        is_id = path.split(".")[0].split("[")[0] in _ID_FIELDS
        raise ProgressiveError(
            path,
            f"{value!r} is not {'a player id (integer or string)' if is_id else 'a whole number'}.",
            "bad_id" if is_id else "bad_number",
        )
    if isinstance(value, dict):
        for key, item in value.items():
            _check_values(item, f"{path}.{key}" if path else key, depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_values(item, f"{path}[{i}]", depth + 1)


def _next(data: object, seed_arg: int | None) -> dict[str, object]:
    if not isinstance(data, dict):
        raise ProgressiveError(
            "input", "Expected a JSON object with tables and winners.", "bad_json"
        )
    for key in data:
        if key not in _TOP_KEYS:
            raise ProgressiveError(
                key[:40],
                f"Unknown field; the request reads {', '.join(_TOP_KEYS)}.",
                "unknown_field",
            )
    if "tables" not in data:
        raise ProgressiveError("tables", "tables (the last game's seating) is required.", "missing")
    settings = data.get("settings")
    if settings is None:
        settings = {}
    if not isinstance(settings, dict):
        raise ProgressiveError("settings", "settings is an object.", "bad_settings")
    for key in settings:
        if key not in _SETTINGS_KEYS:
            raise ProgressiveError(
                f"settings.{key[:40]}",
                f"Unknown setting; settings are {', '.join(_SETTINGS_KEYS)}.",
                "unknown_field",
            )
    _check_values(data, "")
    seed = seed_arg if seed_arg is not None else settings.get("seed", 0)
    try:
        result = next_game(
            data["tables"],
            data.get("winners"),
            data.get("history"),
            movement=settings.get("movement", "winners_move"),
            direction=settings.get("direction", "up"),
            draw=settings.get("draw", "system"),
            seed=seed,
            steps=settings.get("steps"),
            table_draw=data.get("table_draw"),
            points=data.get("points"),
            entering=data.get("entering"),
            leaving=data.get("leaving"),
            games=settings.get("games"),
        )
    except ProgressiveError as exc:
        head = exc.field.split(".")[0].split("[")[0]
        if head in _SETTINGS_KEYS:
            exc.field = f"settings.{exc.field}"
        raise
    return result.to_dict()


def _answer(args: argparse.Namespace, stdin: TextIO) -> dict[str, object]:
    return _next(read_json(stdin, max_chars=MAX_INPUT_CHARS), args.seed)


def run(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    return serve(_parser(), argv, stdin, (ProgressiveError,), _answer)


def main() -> NoReturn:
    sys.exit(run())


if __name__ == "__main__":
    main()
