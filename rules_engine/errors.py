"""The engine's one error type: a list of field-level problems a club director can read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

__all__ = ["FieldError", "RulesError", "MAX_ERRORS"]

# A person fixes the first few problems and tries again; a list of a million bad cards helps
# nobody and would cost time and memory to build, so a RulesError keeps at most this many.
MAX_ERRORS = 20


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
    """Raised whenever input breaks the rules; carries every problem found, not just the first.

    At most :data:`MAX_ERRORS` problems are kept; when there were more, one more error with the
    code ``too_many_errors`` says so (its field is the first problem left out). The iterable is
    read no further than that, so a producer may stop early once it has found enough.
    """

    def __init__(self, errors: Iterable[FieldError]) -> None:
        found = list(islice(errors, MAX_ERRORS + 1))
        if not found:
            raise ValueError("RulesError needs at least one FieldError")
        if len(found) > MAX_ERRORS:
            first_left_out = found[MAX_ERRORS]
            found = found[:MAX_ERRORS]
            found.append(
                FieldError(
                    first_left_out.field,
                    "too_many_errors",
                    f"there are more problems from here on; only the first {MAX_ERRORS} are listed",
                )
            )
        self.errors: list[FieldError] = found
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
