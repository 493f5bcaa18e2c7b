"""Errors for input a pure core refuses, and the engine's own: field-level problems a club
director can read.

:class:`CoreError` is the one base of every refusal in the project: the pure cores' errors
(``RulesError`` here; ``pairing``'s and ``ranking``'s, which may import this package and
nothing else of the project) and the web apps' ``common.errors.DomainError``. It lives here, in
the lowest layer, because the pure cores cannot import ``common``. Each carries ``message`` (a
sentence for people), ``field`` (the input at fault) and ``code`` (a short machine-readable
word), and :meth:`CoreError.api_errors` gives them in the API's error shape, so one translation
(``common.api.exception_handler``) answers every refusal with its field and its code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from .i18n import Text, gettext_noop

__all__ = ["CoreError", "FieldError", "RulesError", "MAX_ERRORS"]

# A person fixes the first few problems and tries again; a list of a million bad cards helps
# nobody and would cost time and memory to build, so a RulesError keeps at most this many.
MAX_ERRORS = 20


class CoreError(Exception):
    r"""A request refused: ``message`` for people, the ``field`` at fault (``"__all__"`` for the
    request as a whole) and a machine-readable ``code`` (the class's default unless given).

    Pure-core subclasses are ``ValueError``\ s too (``class XError(CoreError, ValueError)``), as
    callers of the pure functions expect."""

    code = "invalid"

    def __init__(self, message: str, *, field: str = "__all__", code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code

    def api_errors(self) -> list[dict[str, object]]:
        """Every problem in the API's error shape: ``[{"field", "code", "message"}]``."""
        return [{"field": self.field, "code": self.code, "message": self.message}]


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


class RulesError(CoreError, ValueError):
    """Raised whenever input breaks the rules; carries every problem found, not just the first
    (``field``, ``code`` and ``message`` are the first one's; :meth:`api_errors` lists them all).

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
                    Text(gettext_noop("there are more problems from here on; only the first %(max_errors)s are listed"), max_errors=MAX_ERRORS),
                )
            )
        self.errors: list[FieldError] = found
        super().__init__(found[0].message, field=found[0].field, code=found[0].code)
        self.args = ("; ".join(f"{e.field}: {e.message}" for e in self.errors),)

    @classmethod
    def single(cls, field: str, code: str, message: str) -> RulesError:
        return cls([FieldError(field, code, message)])

    def api_errors(self) -> list[dict[str, object]]:
        return [{"field": e.field, "code": e.code, "message": e.message} for e in self.errors]

    def to_dict(self) -> dict[str, list[dict[str, str]]]:
        return {"errors": [e.to_dict() for e in self.errors]}

    def prefixed(self, prefix: str) -> RulesError:
        """The same errors with ``prefix`` put before each field name (``hands[2].`` ...)."""
        return RulesError(
            FieldError(f"{prefix}{e.field}" if e.field else prefix.rstrip("."), e.code, e.message)
            for e in self.errors
        )
