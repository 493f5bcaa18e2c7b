"""Command line for elimination brackets.

    python -m pairing.bracket plan --entrants N [--kind single|double] [--consolation 1,2]
                                   [--third-place] [--no-reset] [--json]
    python -m pairing.bracket state < request.json

``plan`` prints every match, bracket by bracket, one line each:

    W1-1   depth 1  seed 1 v seed 16  winner -> W2-1  loser -> L1-1

(a pair with no next match is placed: "place 2", or "out, place 9"); with ``--json`` it prints
{"kind", "entrants", "third_place", "reset", "consolation", "matches": [...], "count"}, each
match with its code, bracket, round, position, sides, winner_to, loser_to, depth, conditional
and the places its winner and loser take there (winner_place, loser_place, null if none).

``state`` reads the bracket and the results so far:

    {"entrants": 16, "kind": "double", "third_place": false, "reset": true,
     "consolation": [1, 2], "seeds": [id, ...], "results": {"W1-1": id, ...}}

(only "entrants" and "seeds" are required; ids are whole numbers, best seed first) and prints
the state: {"sides", "winners", "losers", "ready", "skipped", "complete", "champion",
"losses", "placements", "consolation_placements"}.

Bad input prints {"errors": [{"field": ..., "code": ..., "message": ...}]} and exits 2; never a
traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from ..cli import command_parser, read_json, serve
from .model import KINDS, BracketError, Match, Plan, Slot
from .plan import bracket_plan, elimination_places
from .state import bracket_state

# A 1024-pair bracket's seeds and results are well under 100,000 characters.
MAX_INPUT_CHARS = 1_000_000

_KEYS = ("entrants", "kind", "third_place", "reset", "consolation", "seeds", "results")
_TITLES = {
    "winners": "Winners bracket",
    "losers": "Losers bracket",
    "final": "Grand final",
    "third_place": "Third-place match",
    "consolation": "Consolation bracket",
}


def _parser() -> argparse.ArgumentParser:
    parser, sub = command_parser(
        "python -m pairing.bracket",
        "Single- and double-elimination brackets for pairs: the matches, where winners and "
        'losers go, and the state of play. Bad input prints {"errors": [{"field", "code", '
        '"message"}]} and exits 2.',
        __doc__,
    )
    plan = sub.add_parser(
        "plan",
        help="every match of a bracket",
        description="Prints every match of the bracket with where its winner and loser go.",
    )
    plan.add_argument("--entrants", type=int, required=True, help="number of pairs")
    plan.add_argument("--kind", default="single", help="single (default) or double")
    plan.add_argument(
        "--consolation",
        default="",
        help="rounds whose losers play the consolation bracket, e.g. 1,2",
    )
    plan.add_argument(
        "--third-place", action="store_true", help="single elimination: add a third-place match"
    )
    plan.add_argument(
        "--no-reset",
        action="store_true",
        help="double elimination: the grand final decides even if the losers-bracket side wins",
    )
    plan.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub.add_parser(
        "state",
        help="the state of play, from the request on stdin",
        description=(
            'Reads {"entrants", "kind", "third_place", "reset", "consolation", "seeds", '
            '"results"} on stdin and prints the state of the bracket as JSON.'
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    return parser


def _rounds(text: str) -> list[int]:
    rounds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or len(part) > 4:
            raise BracketError(
                f"--consolation takes round numbers separated by commas, like 1,2; "
                f"{part[:20]!r} is not one.",
                field="consolation",
                code="bad_consolation",
            )
        rounds.append(int(part))
    return rounds


def _slot(slot: Slot) -> str:
    return slot.label()


def _destination(
    to: str | None, place: int | None, *, winner: bool, match: Match, plan: Plan
) -> str:
    if match.code == "GF" and to == "GF2":
        return f"place {1 if winner else 2} or GF2"
    if to is not None:
        return to if place is None else f"{to} (place {place})"
    if place is None:
        return "out"
    deciding = winner or match.bracket in ("final", "third_place") or match.winner_to is None
    return f"place {place}" if deciding else f"out, place {place}"


def _text(plan: Plan) -> str:
    places = elimination_places(plan)
    main = sum(1 for m in plan.matches if m.bracket != "consolation" and not m.conditional)
    extra = sum(1 for m in plan.matches if m.bracket == "consolation")
    if plan.kind == "single":
        head = f"Single elimination, {plan.entrants} pairs: {main} matches"
        if plan.third_place:
            head += " (with the third-place match)"
    else:
        head = f"Double elimination, {plan.entrants} pairs: {main} matches"
        if plan.reset:
            head += f", {main + 1} if GF2 is needed"
    if extra:
        rounds = ", ".join(str(r) for r in plan.consolation)
        head += f"; consolation for the losers of round(s) {rounds}: {extra} matches"
    lines = [head + "."]
    width = max(len(m.code) for m in plan.matches)
    for bracket, title in _TITLES.items():
        matches = sorted(plan.in_bracket(bracket), key=lambda m: (m.round, m.position))
        if not matches:
            continue
        lines.append("")
        lines.append(title)
        for m in matches:
            won, lost = places[m.code]
            sides = f"{_slot(m.sides[0])} v {_slot(m.sides[1])}"
            if m.conditional:
                sides += " (only if the losers-bracket side wins GF)"
            lines.append(
                f"  {m.code:<{width}}  depth {m.depth}  {sides}"
                f"  winner -> {_destination(m.winner_to, won, winner=True, match=m, plan=plan)}"
                f"  loser -> {_destination(m.loser_to, lost, winner=False, match=m, plan=plan)}"
            )
    return "\n".join(lines)


def _plan_json(plan: Plan) -> dict[str, object]:
    places = elimination_places(plan)
    out = plan.to_dict()
    out["matches"] = [
        {**m.to_dict(), "winner_place": places[m.code][0], "loser_place": places[m.code][1]}
        for m in plan.matches
    ]
    return out


def _state(data: object) -> dict[str, object]:
    if not isinstance(data, dict):
        raise BracketError(
            "Expected a JSON object with entrants, seeds and results.",
            field="input",
            code="bad_json",
        )
    for key in data:
        if key not in _KEYS:
            raise BracketError(
                f"Unknown field; the request reads {', '.join(_KEYS)}.",
                field=key[:40],
                code="unknown_field",
            )
    for key in ("entrants", "seeds"):
        if key not in data:
            raise BracketError(f"{key} is required.", field=key, code="missing")
    kind = data.get("kind", "single")
    if not isinstance(kind, str):
        raise BracketError(f"kind is one of {', '.join(KINDS)}.", field="kind", code="bad_kind")
    consolation = data.get("consolation", [])
    if not isinstance(consolation, list):
        raise BracketError(
            "consolation is a list of round numbers.", field="consolation", code="bad_consolation"
        )
    results = data.get("results", {})
    if results is None:
        results = {}
    if not isinstance(results, dict):
        raise BracketError(
            'results is an object of match code -> winning pair id, like {"W1-1": 7}.',
            field="results",
            code="bad_results",
        )
    seeds = data["seeds"]
    if not isinstance(seeds, list):
        raise BracketError(
            "seeds is a list of pair ids, best first.", field="seeds", code="bad_seeds"
        )
    plan = bracket_plan(
        data["entrants"],
        kind=kind,
        third_place=data.get("third_place", False),
        reset=data.get("reset", True),
        consolation=consolation,
    )
    return bracket_state(plan, seeds, results).to_dict()


def _answer(args: argparse.Namespace, stdin: TextIO) -> str | dict[str, object]:
    if args.command == "plan":
        plan = bracket_plan(
            args.entrants,
            kind=args.kind,
            third_place=args.third_place,
            reset=not args.no_reset,
            consolation=_rounds(args.consolation),
        )
        return _plan_json(plan) if args.json else _text(plan)
    return _state(read_json(stdin, max_chars=MAX_INPUT_CHARS))


def run(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    return serve(_parser(), argv, stdin, (BracketError,), _answer)


def main() -> NoReturn:
    sys.exit(run())


if __name__ == "__main__":
    main()
