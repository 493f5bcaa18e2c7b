"""The error the pair-event builders raise for a request they refuse (pure, standard library)."""

from __future__ import annotations


class PairingError(ValueError):
    """A request that cannot be met. ``field`` names the input at fault, ``code`` is a short
    machine-readable reason and ``message`` a sentence a tournament director can act on."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(f"{field}: {message}")
        self.message = message
        self.field = field
        self.code = code

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}
