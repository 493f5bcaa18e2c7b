"""Command line: ``python -m rules_engine <command> [--ruleset NAME] [--option KEY=VALUE ...]``.

Prints exactly one JSON object on stdout. Exit 0 on success; on bad input (bad JSON, unknown
command, ruleset or option, an illegal bid, counters that do not add up, ...) prints
``{"errors": [{"field", "code", "message"}, ...]}`` and exits 2. Never a traceback.

Input on stdin is read up to :data:`MAX_INPUT_CHARS`; more is refused (``input``/``too_large``)
before any of it is parsed. JSON must be strict: no duplicate keys, no NaN or Infinity, and an
object may hold only the keys its command reads (``ruleset`` and ``options`` besides). At most
20 errors are listed, and no message quotes more than a few dozen characters of the input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import NoReturn, TextIO

from .auction import validate_auction
from .errors import MAX_ERRORS, FieldError, RulesError
from .game import score_game
from .hands import Hand, parse_hand, table_of
from .inputs import key_text, read_int_literal, shown
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
from .scoring import score_hand

__all__ = ["main", "MAX_INPUT_CHARS"]

# A game of a hundred hands is about 25,000 characters; a megabyte leaves room for any real input
# and keeps a runaway pipe from costing seconds of parsing.
MAX_INPUT_CHARS = 1_000_000

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
"N", "E", "S". Keys are written exactly so (capital letters). Where a ruleset has
sit_out=dealer (three_handed, cutthroat) a table may seat four: give --seats N,E,S,W (or
"seats" in the JSON) to score and game; the dealer of each hand (required) sits it out, the
hand names the other three seats, and points and totals are keyed by all four.
Other tables: two_handed seats N, S (each its own side); six_handed_triple_deck seats
N NE SE S SW NW in teams NSESW (N, SE, SW) and NESNW (NE, S, NW); eight_handed_double_deck
seats N NE E SE S SW W NW in pairs NS, NESW, EW, SENW. A team's meld and counters may be
given per seat (e.g. "N": 10, "SE": 20, "SW": 0), each checked as one player's hand.
racehorse seats six like six_handed_triple_deck. five_handed seats N E SE SW W, each its own
side over the game; a hand names the called "partner" (the bidder's own seat when they hold
the called card) and gives meld and counters per player.

score/game: which fields a hand carries depends on its outcome; any other field is an error.
  played       dealer bidder bid trump meld counters (tricks where meld needs a trick)
  no_marriage  dealer bidder bid trump meld
  surrender    dealer bidder bid trump meld
  renege       dealer bidder bid trump meld counters renege_seat
  misdeal      dealer
  technical_misdeal  dealer misdeal_seat (a player's call on the cards dealt, misdeal_rule)
(quadruple_run too, under rulesets where a quadruple run wins; widow_seen on a surrender where
there is a widow: false is a concession at the opening minimum without looking at it, which
costs the bid only). Bids above the most a hand can be worth (all meld a side can show plus
every counter) are refused. Under three_handed, cutthroat and check_pinochle a declarer whose
meld plus every counter cannot reach the bid is forced to concede, so such a played hand
scores as a surrender (--option forced_concession=false plays it out; so does
all_tricks=wins_game, "pinochling", where a declarer may play for every trick).

check pinochle (--ruleset check_pinochle, or --option checks=true where each plays alone):
every hand with a contract may carry check_melds, per player a list of the melds that earn
checks: run, double_run, aces, double_aces, double_kings, double_queens, double_jacks,
roundtable, double_marriage (once per suit), double_pinochle, seven_nines, e.g.
  "check_melds": {{"N": ["run", "aces"], "S": ["roundtable"]}}
Each list must fit the player's meld (check_melds.N, codes meld_too_low, too_many_cards).
score prints "checks" per player beside "points"; game prints "check_totals" (the game's
checks included), "game_checks" and "check_settlement" (stakes won or owed per player).

input on stdin: JSON of at most {MAX_INPUT_CHARS:,} characters, with no duplicate keys.

presets: {", ".join(PRESET_NAMES)} (default {DEFAULT_RULESET}).
options: --option KEY=VALUE, repeatable; values as JSON or plain text, lists comma-separated
(--option meld.run=25,150,225,300 --option min_meld=20). See `rulesets` for every key.
"""


_SEATS_HELP = (
    "the table's seats, e.g. N,E,S,W for a three-player game at a table of four where the "
    "dealer sits out (default: the ruleset's own seats)"
)


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
    p = add("score", "score one hand (JSON on stdin)")
    p.add_argument("--seats", default=None, help=_SEATS_HELP)
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
    p.add_argument("--seats", default=None, help=_SEATS_HELP)
    return parser


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            # json.loads would silently keep the last one, e.g. the second of two "bid"s
            raise RulesError.single(
                "input", "duplicate_key", f"the key {shown(key)} appears twice in one object"
            )
        out[key] = value
    return out


def _no_constant(name: str) -> object:
    raise RulesError.single("input", "bad_json", f"{name} is not a JSON number")


def _read_json(stdin: TextIO) -> object:
    try:
        text = stdin.read(MAX_INPUT_CHARS + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError.single(
            "input", "unreadable", f"cannot read the input: {shown(str(exc))}"
        ) from exc
    if len(text) > MAX_INPUT_CHARS:
        raise RulesError.single(
            "input",
            "too_large",
            f"the input is longer than {MAX_INPUT_CHARS:,} characters; no real hand, deal or "
            "game is that long",
        )
    if not text.strip():
        raise RulesError.single("input", "empty", "no input: pipe the JSON on stdin")
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=read_int_literal,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as exc:
        raise RulesError.single(
            "input",
            "bad_json",
            f"the input is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
        ) from exc


# Keys of the JSON object each command reads from stdin, besides "ruleset" and "options".
_COMMAND_KEYS = {
    "meld": ("cards", "trump"),
    "auction": ("dealer", "calls"),
    "play": ("trump", "leader", "hands", "tricks"),
    "game": ("hands", "max_deals", "seats"),
}


def _unknown_keys(data: Mapping[str, object], command: str) -> None:
    allowed = ("ruleset", "options", *_COMMAND_KEYS[command])
    errors = [
        FieldError(
            key_text(k),
            "unknown_field",
            f"{command} reads no field called {shown(k)}; it reads {', '.join(allowed)}",
        )
        for k in data
        if k not in allowed
    ]
    if errors:
        raise RulesError(errors)


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
    """The ruleset named by ``--ruleset`` or the input's ``ruleset``, with every override.

    Only a ruleset that is not named at all is the default: an empty name is an error.
    """
    name: object = getattr(args, "ruleset", None)
    over: dict[str, object] = {}
    errors: list[FieldError] = []
    if isinstance(data, Mapping):
        if name is None and data.get("ruleset") is not None:
            name = data["ruleset"]
        options = data.get("options")
        if isinstance(options, Mapping):
            over.update(options)
        elif options is not None:
            errors.append(
                FieldError(
                    "options",
                    "bad_type",
                    f"options must be an object of option values, got {shown(options)}",
                )
            )
    given, bad = _overrides(args.option)
    errors.extend(bad)
    over.update(given)
    if name is None:
        name = DEFAULT_RULESET
    elif not isinstance(name, str):
        errors.append(
            FieldError("ruleset", "bad_type", f"ruleset must be a preset name, got {shown(name)}")
        )
        raise RulesError(errors)
    try:
        rs = get_ruleset(name, over)
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


def _cmd_rulesets(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    result: dict[str, object] = {
        "rulesets": [r.to_dict() for r in list_rulesets()],
        "default": DEFAULT_RULESET,
        "option_help": OPTION_HELP,
    }
    if getattr(args, "ruleset", None) is not None or args.option:
        result["ruleset"] = _ruleset(args).to_dict()
    return result


def _cmd_meld(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    cards: list[object] = list(_split_tokens(args.cards))
    trump: object = args.trump
    data: object = None
    if not cards:
        data = _read_json(stdin)
        if isinstance(data, Mapping):
            _unknown_keys(data, "meld")
            trump = data.get("trump", trump)
            raw = data.get("cards")
            if raw is not None and not isinstance(raw, list):
                raise RulesError.single("cards", "bad_type", "cards must be a list of cards")
            cards = list(raw or [])
        elif isinstance(data, list):
            cards = list(data)
        if not cards:
            raise RulesError.single("cards", "required", "give the cards to count")
    if trump is None:
        raise RulesError.single("trump", "required", "give the trump suit with --trump")
    if not isinstance(trump, str):
        raise RulesError.single("trump", "bad_suit", f"{shown(trump)} is not a suit")
    rs = _ruleset(args, data)
    # the engine also takes card indices (0-23); on the command line a card is always a token
    tokens = [c if isinstance(c, str) else f"<{type(c).__name__}>" for c in cards]
    return count_meld(tokens, trump, rs).to_dict()


def _cmd_score(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    data = _read_json(stdin)
    if not isinstance(data, Mapping):
        raise RulesError.single("input", "bad_type", "the hand must be a JSON object")
    rs = _ruleset(args, data)
    seats = _seats(args, data)
    # the ruleset and the table belong to the command line, not to the hand
    hand_data = {k: v for k, v in data.items() if k not in ("ruleset", "options", "seats")}
    return score_hand(parse_hand(hand_data, rs, seats), rs).to_dict()


def _seats(args: argparse.Namespace, data: object) -> list[str] | None:
    """The table's seats from ``--seats N,E,S,W`` or the input's ``seats`` (a list or a
    comma-separated string); None for the ruleset's own seats."""
    raw: object = getattr(args, "seats", None)
    if raw is None and isinstance(data, Mapping):
        raw = data.get("seats")
    if raw is None:
        return None
    if isinstance(raw, str):
        return _split_tokens([raw])
    if isinstance(raw, list) and len(raw) <= 8 and all(isinstance(x, str) for x in raw):
        return list(raw)
    raise RulesError.single(
        "seats", "bad_type", "seats must list the table's seats, e.g. N,E,S,W"
    )


def _cmd_auction(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    calls: list[object] = list(_split_tokens(args.calls))
    dealer: object = args.dealer
    data: object = None
    if not calls and dealer is None:
        data = _read_json(stdin)
        if isinstance(data, Mapping):
            _unknown_keys(data, "auction")
            dealer = data.get("dealer")
            raw = data.get("calls")
            if raw is not None and not isinstance(raw, list):
                raise RulesError.single("calls", "bad_type", "calls must be a list of calls")
            calls = list(raw or [])
    if dealer is None:
        raise RulesError.single("dealer", "required", "give the dealer with --dealer")
    rs = _ruleset(args, data)
    result = validate_auction(dealer, calls, rs)
    if not result.complete:
        raise RulesError.single(
            "calls",
            "incomplete",
            f"the auction is not over: it is {result.next_seat}'s turn to call",
        )
    return result.to_dict()


def _cmd_play(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    data = _read_json(stdin)
    if not isinstance(data, Mapping):
        raise RulesError.single("input", "bad_type", "the deal must be a JSON object")
    _unknown_keys(data, "play")
    rs = _ruleset(args, data)
    errors: list[FieldError] = []
    for key in ("trump", "leader", "hands", "tricks"):
        if data.get(key) is None:
            errors.append(FieldError(key, "required", f"{key} is missing"))
    if errors:
        raise RulesError(errors)
    trump = data["trump"]
    if not isinstance(trump, str):
        # check_play also takes a suit index; in JSON a suit is always written as a letter
        raise RulesError.single("trump", "bad_suit", f"{shown(trump)} is not a suit")
    hands = data["hands"]
    tricks = data["tricks"]
    if not isinstance(hands, Mapping):
        errors.append(FieldError("hands", "bad_type", "hands must map each seat to its cards"))
    if not isinstance(tricks, list):
        errors.append(FieldError("tricks", "bad_type", "tricks must be a list of tricks"))
    if errors:
        raise RulesError(errors)
    assert isinstance(hands, Mapping) and isinstance(tricks, list)
    return check_play(trump, data["leader"], hands, tricks, rs).to_dict()


def _cmd_game(args: argparse.Namespace, stdin: TextIO) -> Mapping[str, object]:
    data = _read_json(stdin)
    max_deals = args.max_deals
    raw_hands: object = data
    if isinstance(data, Mapping):
        _unknown_keys(data, "game")
        raw_hands = data.get("hands")
        if max_deals is None and data.get("max_deals") is not None:
            md = data["max_deals"]
            if not isinstance(md, int) or isinstance(md, bool):
                raise RulesError.single("max_deals", "bad_type", "max_deals must be a number")
            max_deals = md
    if not isinstance(raw_hands, list):
        raise RulesError.single("hands", "bad_type", "give the game as a JSON list of hands")
    rs = _ruleset(args, data)
    seats = _seats(args, data)
    table_of(rs, seats)  # a wrong table is one error, not one per hand
    hands: list[Hand] = []
    errors: list[FieldError] = []
    for i, raw in enumerate(raw_hands):
        try:
            if not isinstance(raw, Mapping):
                raise RulesError.single("", "bad_type", "each hand must be a JSON object")
            hands.append(parse_hand(raw, rs, seats))
        except RulesError as exc:
            errors.extend(exc.prefixed(f"hands[{i}].").errors)
            if len(errors) > MAX_ERRORS:
                break  # RulesError lists no more than this anyway
    if errors:
        raise RulesError(errors)
    return score_game(hands, rs, max_deals, seats).to_dict()


_COMMANDS = {
    "rulesets": _cmd_rulesets,
    "meld": _cmd_meld,
    "score": _cmd_score,
    "auction": _cmd_auction,
    "play": _cmd_play,
    "game": _cmd_game,
}


def _arg_error(raw_message: str) -> FieldError:
    # argparse quotes the offending arguments, which may be arbitrarily long
    message = raw_message if len(raw_message) <= 300 else raw_message[:300] + "…"
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
                    f"the input could not be processed ({type(exc).__name__}: {shown(str(exc))})",
                ).to_dict()
            ]
        }
        code = 2
    out.write(json.dumps(result) + "\n")
    out.flush()
    return code
