"""Command line: ``python -m rules_engine <command> [--ruleset NAME] [--option KEY=VALUE ...]``.

Prints exactly one JSON object on stdout. Exit 0 on success; on bad input (bad JSON, unknown
command, ruleset or option, an illegal bid, counters that do not add up, ...) prints
``{"errors": [{"field", "code", "message"}, ...]}`` and exits 2. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, TextIO

from .auction import validate_auction
from .errors import FieldError, RulesError
from .game import score_game
from .meld import count_meld
from .play import check_play
from .rulesets import (
    DEFAULT_RULESET,
    OPTION_HELP,
    PRESET_NAMES,
    Ruleset,
    get_ruleset,
    list_rulesets,
)
from .scoring import Hand, parse_hand, score_hand

__all__ = ["main"]

EPILOG = f"""\
commands:
  rulesets                 list the presets and every option value
  meld --trump H CARD...   count one hand's meld (cards like AS TS 10S KS QS JS 9S, or ♠♥♦♣)
  score                    score one hand read as JSON from stdin
  auction --dealer S CALL...   validate calls (numbers or pass) from the dealer's left
  play                     find the first renege; JSON on stdin:
                           {{"trump", "leader", "hands": {{seat: [cards]}}, "tricks": [[cards]]}}
  game [--max-deals N]     running totals and winner of a list of hands on stdin

seats: N E S W clockwise, sides NS and EW. Three-player presets (three_handed, cutthroat) use
the seats N, E, S (clockwise) and each seat is its own side, so meld and counters are keyed
"N", "E", "S".

presets: {", ".join(PRESET_NAMES)} (default {DEFAULT_RULESET}).
options: --option KEY=VALUE, repeatable; values as JSON or plain text, lists comma-separated
(--option meld.run=25,150,225,300 --option min_meld=20). See `rulesets` for every key.
"""


class _ArgError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _ArgError(message)


def _common(suppress: bool) -> _Parser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--ruleset",
        "-r",
        dest="ruleset",
        default=argparse.SUPPRESS if suppress else None,
        help=f"preset name (default {DEFAULT_RULESET})",
    )
    common.add_argument(
        "--option",
        "-o",
        dest="option",
        action="append",
        default=argparse.SUPPRESS if suppress else [],
        metavar="KEY=VALUE",
        help="override one option of the preset",
    )
    return common


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="python -m rules_engine",
        description="Pinochle rules engine: meld, scoring, auction, play and game checks.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[_common(False)],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    sub_common = _common(True)

    def add(name: str, help_text: str) -> argparse.ArgumentParser:
        p: argparse.ArgumentParser = sub.add_parser(
            name,
            help=help_text,
            parents=[sub_common],
            epilog=EPILOG,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        return p

    add("rulesets", "list the presets and their options")
    p = add("meld", "count one hand's meld")
    p.add_argument("--trump", "-t", default=None, help="trump suit: S H D C or ♠ ♥ ♦ ♣")
    p.add_argument("cards", nargs="*", help="the cards, e.g. AS TS KS QS JS")
    add("score", "score one hand (JSON on stdin)")
    p = add("auction", "validate an auction")
    p.add_argument("--dealer", "-d", default=None, help="the dealer's seat")
    p.add_argument("calls", nargs="*", help="calls in order from the dealer's left")
    add("play", "check the play of a deal for reneges (JSON on stdin)")
    p = add("game", "score a game (JSON list of hands on stdin)")
    p.add_argument(
        "--max-deals",
        dest="max_deals",
        type=int,
        default=None,
        help="the game is a fixed number of deals",
    )
    return parser


def _read_json(stdin: TextIO) -> object:
    try:
        text = stdin.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError.single("input", "unreadable", f"cannot read the input: {exc}") from exc
    if not text.strip():
        raise RulesError.single("input", "empty", "no input: pipe the JSON on stdin")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RulesError.single(
            "input",
            "bad_json",
            f"the input is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from exc


def _overrides(pairs: Sequence[str]) -> tuple[dict[str, object], list[FieldError]]:
    out: dict[str, object] = {}
    errors: list[FieldError] = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            errors.append(
                FieldError(
                    "options",
                    "bad_option",
                    f"{pair!r}: write options as KEY=VALUE, e.g. min_meld=20",
                )
            )
            continue
        out[key.strip()] = value
    return out, errors


def _ruleset(args: argparse.Namespace, data: object = None) -> Ruleset:
    name = getattr(args, "ruleset", None)
    over: dict[str, object] = {}
    if isinstance(data, Mapping):
        if name is None and isinstance(data.get("ruleset"), str):
            name = data["ruleset"]
        if isinstance(data.get("options"), Mapping):
            over.update({str(k): v for k, v in data["options"].items()})
    given, errors = _overrides(args.option)
    over.update(given)
    try:
        rs = get_ruleset(name or DEFAULT_RULESET, over)
    except RulesError as exc:
        raise RulesError(errors + exc.errors) from None
    if errors:
        raise RulesError(errors)
    return rs


def _split_tokens(items: Sequence[str]) -> list[str]:
    out: list[str] = []
    for item in items:
        out.extend(t for t in item.replace(",", " ").split() if t)
    return out


def _cmd_rulesets(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    result: dict[str, Any] = {
        "rulesets": [r.to_dict() for r in list_rulesets()],
        "default": DEFAULT_RULESET,
        "option_help": OPTION_HELP,
    }
    if getattr(args, "ruleset", None) is not None or args.option:
        result["ruleset"] = _ruleset(args).to_dict()
    return result


def _cmd_meld(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    cards: list[object] = list(_split_tokens(args.cards))
    trump: object = args.trump
    data: object = None
    if not cards:
        data = _read_json(stdin)
        if isinstance(data, Mapping):
            trump = data.get("trump", trump)
            raw = data.get("cards")
            cards = list(raw) if isinstance(raw, list) else []
        elif isinstance(data, list):
            cards = list(data)
        if not cards:
            raise RulesError.single("cards", "required", "give the cards to count")
    if trump is None:
        raise RulesError.single("trump", "required", "give the trump suit with --trump")
    rs = _ruleset(args, data)
    result = count_meld(
        [c if isinstance(c, str) else str(c) for c in cards],
        trump if isinstance(trump, str) else str(trump),
        rs,
    )
    return result.to_dict()


def _cmd_score(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    data = _read_json(stdin)
    if not isinstance(data, Mapping):
        raise RulesError.single("input", "bad_type", "the hand must be a JSON object")
    rs = _ruleset(args, data)
    hand = parse_hand(data, rs)
    return score_hand(hand, rs).to_dict()


def _cmd_auction(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    calls: list[object] = list(_split_tokens(args.calls))
    dealer: object = args.dealer
    data: object = None
    if not calls and dealer is None:
        data = _read_json(stdin)
        if isinstance(data, Mapping):
            dealer = data.get("dealer")
            raw = data.get("calls")
            calls = list(raw) if isinstance(raw, list) else []
    if dealer is None:
        raise RulesError.single("dealer", "required", "give the dealer with --dealer")
    rs = _ruleset(args, data)
    result = validate_auction(str(dealer), calls, rs)
    if not result.complete:
        raise RulesError.single(
            "calls",
            "incomplete",
            f"the auction is not over: it is {result.next_seat}'s turn to call",
        )
    return result.to_dict()


def _cmd_play(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    data = _read_json(stdin)
    if not isinstance(data, Mapping):
        raise RulesError.single("input", "bad_type", "the deal must be a JSON object")
    rs = _ruleset(args, data)
    errors: list[FieldError] = []
    for key in ("trump", "leader", "hands", "tricks"):
        if data.get(key) is None:
            errors.append(FieldError(key, "required", f"{key} is missing"))
    if errors:
        raise RulesError(errors)
    trump = data["trump"]
    leader = data["leader"]
    hands = data["hands"]
    tricks = data["tricks"]
    return check_play(
        trump if isinstance(trump, str) else str(trump),
        leader if isinstance(leader, str) else str(leader),
        hands if isinstance(hands, Mapping) else {},
        tricks if isinstance(tricks, list) else [],
        rs,
    ).to_dict()


def _cmd_game(args: argparse.Namespace, stdin: TextIO) -> dict[str, Any]:
    data = _read_json(stdin)
    max_deals = args.max_deals
    raw_hands: object = data
    if isinstance(data, Mapping):
        raw_hands = data.get("hands")
        if max_deals is None and data.get("max_deals") is not None:
            md = data["max_deals"]
            if not isinstance(md, int) or isinstance(md, bool):
                raise RulesError.single("max_deals", "bad_type", "max_deals must be a number")
            max_deals = md
    if not isinstance(raw_hands, list):
        raise RulesError.single("hands", "bad_type", "give the game as a JSON list of hands")
    rs = _ruleset(args, data)
    hands: list[Hand] = []
    errors: list[FieldError] = []
    for i, raw in enumerate(raw_hands):
        try:
            if not isinstance(raw, Mapping):
                raise RulesError.single("", "bad_type", "each hand must be a JSON object")
            hands.append(parse_hand(raw, rs))
        except RulesError as exc:
            errors.extend(exc.prefixed(f"hands[{i}].").errors)
    if errors:
        raise RulesError(errors)
    return score_game(hands, rs, max_deals).to_dict()


_COMMANDS = {
    "rulesets": _cmd_rulesets,
    "meld": _cmd_meld,
    "score": _cmd_score,
    "auction": _cmd_auction,
    "play": _cmd_play,
    "game": _cmd_game,
}


def _arg_error(message: str) -> FieldError:
    if "invalid choice" in message:
        return FieldError(
            "command", "unknown_command", f"{message}; commands: {', '.join(_COMMANDS)}"
        )
    if "required" in message and "COMMAND" in message:
        return FieldError("command", "required", f"give a command: {', '.join(_COMMANDS)}")
    if "unrecognized arguments" in message:
        return FieldError("arguments", "unknown_argument", message)
    if "--max-deals" in message:
        return FieldError("max_deals", "bad_type", message)
    return FieldError("arguments", "bad_arguments", message)


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    out = stdout if stdout is not None else sys.stdout
    inp = stdin if stdin is not None else sys.stdin
    try:
        args = _build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
        result = _COMMANDS[args.command](args, inp)
        code = 0
    except _ArgError as exc:
        result = {"errors": [_arg_error(exc.message).to_dict()]}
        code = 2
    except RulesError as exc:
        result = exc.to_dict()
        code = 2
    except RecursionError:
        result = {
            "errors": [FieldError("input", "too_deep", "the input is nested too deeply").to_dict()]
        }
        code = 2
    except Exception as exc:  # noqa: BLE001 - the contract is JSON out, never a traceback
        result = {
            "errors": [
                FieldError(
                    "input",
                    "internal_error",
                    f"the input could not be processed ({type(exc).__name__}: {exc})",
                ).to_dict()
            ]
        }
        code = 2
    out.write(json.dumps(result) + "\n")
    out.flush()
    return code
