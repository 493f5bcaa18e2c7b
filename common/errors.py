"""Domain errors raised by services and mapped to HTTP by views and the API exception handler."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pairing.errors import PairingError


class DomainError(Exception):
    """A request the product refuses, with the field it concerns and a sentence for the user."""

    code = "invalid"

    def __init__(self, message: str, *, field: str = "__all__", code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code


class ConflictError(DomainError):
    """Someone else changed the thing first; ``current`` holds what is stored now."""

    code = "conflict"

    def __init__(self, message: str, *, field: str = "__all__", current: Any = None) -> None:
        super().__init__(message, field=field)
        self.current = current


@contextmanager
def refused() -> Iterator[None]:
    """Inside: a refusal of a pure core (a format, a pairing, a schedule: ``PairingError``,
    with its message, field and code) becomes the :class:`DomainError` pages and the API show."""
    try:
        yield
    except PairingError as exc:
        raise DomainError(exc.message, field=exc.field, code=exc.code) from None
