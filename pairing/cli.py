"""What the pairing command lines share: an argument parser whose mistakes become field errors,
the strict reading of the request JSON on stdin, and the one way they answer: one JSON object
(or text) on stdout and exit 0, or a refusal (``{"errors": [...]}`` on stdout, exit 2; exit 1
for an internal error), never a traceback."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, Protocol, TextIO, cast

from .errors import PairingError


class UsageError(Exception):
    """A malformed command line (argparse's complaint), reported as a ``usage`` field error."""


class InputError(PairingError):
    """Request text on stdin that is not strict JSON (``field`` is ``input``)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message, field="input", code=code)


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line raises :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def command_parser(
    prog: str, description: str, doc: str | None
) -> tuple[Parser, argparse._SubParsersAction[Parser]]:
    """A :class:`Parser` with the module docstring ``doc`` as epilog, and its (required)
    subcommands."""
    parser = Parser(
        prog=prog,
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=doc,
    )
    return parser, parser.add_subparsers(dest="command", required=True, parser_class=Parser)


def fail(errors: Sequence[dict[str, str]], code: int = 2) -> int:
    """Print the refusal and return the exit status."""
    print(json.dumps({"errors": list(errors)}))
    return code


def usage_failure(exc: UsageError) -> int:
    return fail([{"field": "arguments", "code": "usage", "message": str(exc)}])


def read_json(stdin: TextIO, *, max_chars: int, max_digits: int = 30) -> object:
    """The request on ``stdin``: at most ``max_chars`` characters of JSON with no duplicate keys,
    no number longer than ``max_digits`` digits and no NaN or Infinity; else :class:`InputError`.
    """

    def no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
        out: dict[str, object] = {}
        for key, value in pairs:
            if key in out:
                raise InputError(
                    f"The key {key[:30]!r} appears twice in one object.", "duplicate_key"
                )
            out[key] = value
        return out

    def int_literal(text: str) -> int:
        if len(text.lstrip("-")) > max_digits:
            raise InputError(f"A number has more than {max_digits} digits.", "bad_number")
        return int(text)

    def no_constant(name: str) -> NoReturn:
        raise InputError(f"{name} is not a JSON number.", "bad_json")

    text = stdin.read(max_chars + 1)
    if len(text) > max_chars:
        raise InputError(f"The input is longer than {max_chars:,} characters.", "too_large")
    if not text.strip():
        raise InputError("No input: pipe the request JSON on stdin.", "empty")
    try:
        return json.loads(
            text,
            object_pairs_hook=no_duplicates,
            parse_int=int_literal,
            parse_constant=no_constant,
        )
    except json.JSONDecodeError as exc:
        raise InputError(
            f"Not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.", "bad_json"
        ) from exc
    except RecursionError:
        raise InputError("The input is nested too deeply.", "too_deep") from None


class _Refusal(Protocol):
    def to_dict(self) -> dict[str, str]: ...


def serve(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    stdin: TextIO | None,
    refusals: tuple[type[Exception], ...],
    answer: Callable[[argparse.Namespace, TextIO], object],
) -> int:
    """Run one command: ``answer(args, stdin)`` returns a JSON-ready object (printed as JSON) or
    text (printed as it is); a bad command line, an :class:`InputError` or one of ``refusals``
    (errors with ``to_dict()``) prints the refusal and exits 2, anything else exits 1."""
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        return usage_failure(exc)
    refused: tuple[type[Exception], ...] = (InputError, *refusals)
    try:
        out = answer(args, stdin if stdin is not None else sys.stdin)
    except refused as exc:
        return fail([cast(_Refusal, exc).to_dict()])
    except Exception as exc:  # never a traceback on the command line
        return fail(
            [{"field": "", "code": "internal", "message": f"{type(exc).__name__}: {exc}"}], 1
        )
    print(out if isinstance(out, str) else json.dumps(out))
    return 0
