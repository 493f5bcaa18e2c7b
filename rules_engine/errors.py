"""The engine's one error type: a list of field-level problems a club director can read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["FieldError", "RulesError"]


@dataclass(frozen=True, slots=True)
class FieldError:
    """One problem with one input field.

    ``field`` follows the input JSON (``bid``, ``meld.NS``, ``cards[3]``, ``tricks[2][1]``),
    ``code`` is a short machine-readable word and ``message`` a sentence for people.
    """

    field: str
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


class RulesError(ValueError):
    """Raised whenever input breaks the rules; carries every problem found, not just the first."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors: list[FieldError] = list(errors)
        if not self.errors:
            raise ValueError("RulesError needs at least one FieldError")
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in self.errors))

    @classmethod
    def single(cls, field: str, code: str, message: str) -> RulesError:
        return cls([FieldError(field, code, message)])

    def to_dict(self) -> dict[str, list[dict[str, str]]]:
        return {"errors": [e.to_dict() for e in self.errors]}

    def prefixed(self, prefix: str) -> RulesError:
        """The same errors with ``prefix`` put before each field name (``hands[2].`` ...)."""
        return RulesError(
            FieldError(f"{prefix}{e.field}" if e.field else prefix.rstrip("."), e.code, e.message)
            for e in self.errors
        )
