"""Entry-point guard: configuration errors become one line on stderr and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from config.env import ConfigError

T = TypeVar("T")


def guarded(load: Callable[[], T]) -> T:
    try:
        return load()
    except ConfigError as exc:
        sys.stderr.write(f"configuration error: {exc}\n")
        raise SystemExit(2) from None
