"""Domain errors raised by services and mapped to HTTP by views and the API exception handler.

:class:`DomainError` is a :class:`rules_engine.errors.CoreError`, the one base of every refusal
(the pure cores' errors are too): ``message``, ``field`` and ``code``, and one translation to the
API's error shape (``common.api.exception_handler``). A service that turns a pure core's error
into its own refusal keeps its field and code: :meth:`DomainError.of`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pairing.errors import PairingError
from rules_engine.errors import CoreError


class DomainError(CoreError):
    """A request the product refuses, with the field it concerns and a sentence for the user."""

    @classmethod
    def of(cls, error: CoreError, *, field_prefix: str = "") -> DomainError:
        """The refusal of a pure core's ``error``: its message and code, its field (after
        ``field_prefix``, e.g. ``format_settings.``, where the core names a key of a setting)."""
        return cls(error.message, field=f"{field_prefix}{error.field}", code=error.code)


class ConflictError(DomainError):
    """Someone else changed the thing first; ``current`` holds what is stored now."""

    code = "conflict"

    def __init__(self, message: str, *, field: str = "__all__",
                 current: dict[str, object] | None = None) -> None:
        super().__init__(message, field=field)
        self.current = current


@contextmanager
def refused() -> Iterator[None]:
    """Inside: a refusal of a pure core (a format, a pairing, a schedule: ``PairingError``,
    with its message, field and code) becomes the :class:`DomainError` pages and the API show."""
    try:
        yield
    except PairingError as exc:
        raise DomainError.of(exc) from None
