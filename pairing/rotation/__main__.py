"""Command line for the rotation module; prints one JSON object.

    python -m pairing.rotation plan --players N --rounds R [--seed S] [--allow-repeats]
    python -m pairing.rotation next [--seed S] < request.json
    python -m pairing.rotation design --players N
    python -m pairing.rotation designs [--search V] [--limit L]

``plan`` prints ``{"rounds": [{"tables": [[N, E, S, W], ...], "byes": [...]}, ...],
"quality": {...}}`` for players numbered 1..N.

``next`` reads ``{"players": [ids present], "rounds": [{"tables": [[N, E, S, W], ...],
"byes": [...]}, ...], "fixed_tables": {"id": table_number}, "seed": S}`` (``rounds``,
``fixed_tables`` and ``seed`` optional; ids are integers or strings; ``--seed`` overrides) and
prints ``{"round": {"tables": ..., "byes": ...}, "quality": {...history + new round...},
"history_quality": {...}}``.

``design`` prints the verified whist design for N players (``{"players", "rounds"}``, players
1..N) or an error when none is known. ``designs`` lists the covered sizes; with ``--search V``
it runs the starter search for V players and prints the starter found.

Errors print ``{"errors": [{"field": ..., "code": ..., "message": ...}]}`` and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from ..cli import command_parser, serve
from .designs import design_sizes, develop, search_starter, verify_whist, whist_design
from .model import RotationError, RoundPlan, measure
from .planner import next_round, plan_schedule


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "python -m pairing.rotation",
        "Seat pinochle players at tables of four (N, E, S, W; partners N-S and E-W) with "
        "rotating partners. Prints one JSON object; bad input prints "
        '{"errors": [{"field", "code", "message"}]} and exits 2.',
        __doc__,
    )
    plan = sub.add_parser(
        "plan",
        help="plan a whole schedule for players 1..N",
        description='Prints {"rounds": [{"tables": [[N,E,S,W],...], "byes": [...]}], "quality": {...}}.',
    )
    plan.add_argument("--players", type=int, required=True, help="number of players (≥ 4)")
    plan.add_argument("--rounds", type=int, required=True, help="number of rounds (≥ 1)")
    plan.add_argument("--seed", type=int, default=0, help="seed (same seed, same schedule)")
    plan.add_argument(
        "--allow-repeats",
        action="store_true",
        help="allow more rounds than can be played without repeat partners",
    )
    nxt = sub.add_parser(
        "next",
        help="the next round, from a history on stdin",
        description=(
            'Reads {"players": [...], "rounds": [{"tables": [[N,E,S,W],...], "byes": [...]}], '
            '"fixed_tables": {"7": 2}, "seed": 0} on stdin; prints {"round": {...}, '
            '"quality": {...}, "history_quality": {...}}.'
        ),
    )
    nxt.add_argument("--seed", type=int, default=None, help="seed (overrides the input's)")
    design = sub.add_parser("design", help="the complete whist design for N players")
    design.add_argument("--players", type=int, required=True)
    designs = sub.add_parser("designs", help="list design sizes, or search a starter")
    designs.add_argument("--limit", type=int, default=200, help="list sizes up to this")
    designs.add_argument("--search", type=int, default=None, help="search a starter for V players")
    designs.add_argument("--seed", type=int, default=0)
    return parser


def _player_id(value: object, where: str) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return str(value)
    raise RotationError(where, f"Player ids must be integers or strings, not {value!r}.", "bad_id")


def _read_round(raw: object, where: str) -> RoundPlan[int | str]:
    if not isinstance(raw, dict):
        raise RotationError(
            where, "Each round must be an object with tables and byes.", "bad_round"
        )
    tables_raw = raw.get("tables", [])
    byes_raw = raw.get("byes", [])
    if not isinstance(tables_raw, list) or not isinstance(byes_raw, list):
        raise RotationError(where, "tables and byes must be lists.", "bad_round")
    tables = []
    for t, table in enumerate(tables_raw):
        if not isinstance(table, list) or len(table) != 4:
            raise RotationError(
                f"{where}.tables[{t}]", "A table lists exactly 4 players (N, E, S, W).", "bad_table"
            )
        ids = [_player_id(p, f"{where}.tables[{t}]") for p in table]
        tables.append((ids[0], ids[1], ids[2], ids[3]))
    byes = tuple(_player_id(p, f"{where}.byes") for p in byes_raw)
    return RoundPlan(tables=tuple(tables), byes=byes)


def _next(data: object, seed_arg: int | None) -> dict[str, object]:
    if not isinstance(data, dict):
        raise RotationError("input", "Expected a JSON object with players and rounds.", "bad_json")
    players_raw = data.get("players")
    if not isinstance(players_raw, list):
        raise RotationError("players", "players must be a list of ids.", "missing")
    players = [_player_id(p, "players") for p in players_raw]
    rounds_raw = data.get("rounds", [])
    if not isinstance(rounds_raw, list):
        raise RotationError("rounds", "rounds must be a list.", "bad_round")
    history = [_read_round(r, f"rounds[{i}]") for i, r in enumerate(rounds_raw)]
    fixed_raw = data.get("fixed_tables") or {}
    if not isinstance(fixed_raw, dict):
        raise RotationError(
            "fixed_tables", "fixed_tables maps a player id to a table.", "bad_fixed"
        )
    by_text = {str(p): p for p in players}
    fixed: dict[int | str, int] = {}
    for key, number in fixed_raw.items():
        if key not in by_text:
            raise RotationError(
                "fixed_tables",
                f"Player {key} is fixed to table {number} but is not present this round.",
                "not_present",
            )
        fixed[by_text[key]] = number
    seed = seed_arg if seed_arg is not None else data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RotationError("seed", "seed must be an integer.", "bad_seed")
    plan = next_round(players, history, seed=seed, fixed_tables=fixed)
    return {
        "round": plan.to_dict(),
        "quality": measure([*history, plan]).to_dict(),
        "history_quality": measure(history).to_dict(),
    }


def _answer(args: argparse.Namespace, stdin: TextIO) -> dict[str, object]:
    if args.command == "plan":
        schedule = plan_schedule(
            list(range(1, args.players + 1)) if args.players >= 0 else [],
            args.rounds,
            seed=args.seed,
            allow_repeat_partners=args.allow_repeats,
        )
        return schedule.to_dict()
    if args.command == "next":
        try:
            data = json.loads(stdin.read() or "null")
        except json.JSONDecodeError as exc:
            raise RotationError("input", f"Not valid JSON: {exc}.", "bad_json") from exc
        return _next(data, args.seed)
    if args.command == "design":
        rounds = whist_design(args.players)
        if rounds is None:
            raise RotationError(
                "players",
                f"No whist design is known here for {args.players} players.",
                "no_design",
            )
        return {
            "players": args.players,
            "rounds": [
                {
                    "tables": [[p + 1 for p in t] for t in tables],
                    "byes": [p + 1 for p in byes],
                }
                for tables, byes in rounds
            ],
        }
    if args.search is not None:
        starter = search_starter(args.search, seed=args.seed)
        if starter is None:
            raise RotationError("search", "No starter found within the budget.", "not_found")
        verify_whist(develop(args.search, starter), args.search)
        return {"players": args.search, "starter": [list(t) for t in starter]}
    return {"sizes": design_sizes(args.limit)}


def run(argv: Sequence[str] | None = None) -> int:
    return serve(_parser(), argv, None, (RotationError,), _answer)


def main() -> NoReturn:
    sys.exit(run())


if __name__ == "__main__":
    main()
