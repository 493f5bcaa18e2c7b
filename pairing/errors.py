"""The error the pair-event builders raise for a request they refuse (pure: the standard
library and ``rules_engine``'s :class:`~rules_engine.errors.CoreError`, the base of every
refusal)."""

from __future__ import annotations

from rules_engine.errors import CoreError


class PairingError(CoreError, ValueError):
    """A request that cannot be met. ``field`` names the input at fault, ``code`` is a short
    machine-readable reason and ``message`` a sentence a tournament director can act on."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)
        self.args = (f"{field}: {message}",)

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}
