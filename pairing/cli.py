"""What the pairing command lines share: an argument parser whose mistakes become field errors,
and the one way they print a refusal (``{"errors": [...]}`` on stdout, exit 2)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import NoReturn


class UsageError(Exception):
    """A malformed command line (argparse's complaint), reported as a ``usage`` field error."""


class Parser(argparse.ArgumentParser):
    """argparse, but a bad command line raises :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def fail(errors: Sequence[dict[str, str]], code: int = 2) -> int:
    """Print the refusal and return the exit status."""
    print(json.dumps({"errors": list(errors)}))
    return code


def usage_failure(exc: UsageError) -> int:
    return fail([{"field": "arguments", "code": "usage", "message": str(exc)}])
