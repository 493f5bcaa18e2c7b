"""An individual progressive event's movement settings: defaults and validation.

Stored with the event as plain JSON; every key is optional and falls back to the NPA's way:
winners move toward table 1 and the system makes the high/low partner draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import DEFAULT_STEPS, Direction, DrawMode, Movement, ProgressiveError

DEFAULTS: dict[str, Any] = {
    "movement": Movement.WINNERS_MOVE.value,
    "direction": Direction.UP.value,
    "draw": DrawMode.SYSTEM.value,
}
# The NPA World Series: a game is four deals (each player deals once), six qualifying games.
DEALS_PER_GAME = 4
QUALIFYING_GAMES = 6


def _choice(raw: Mapping[str, Any], key: str, choices: list[str]) -> str:
    value = raw.get(key, DEFAULTS[key])
    if value not in choices:
        raise ProgressiveError(
            f"format_settings.{key}", f"Choose one of: {', '.join(choices)}.", "bad_choice"
        )
    return str(value)


def check_settings(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The settings with defaults filled in; raises :class:`ProgressiveError` naming the key."""
    raw = dict(raw or {})
    known = {"movement", "direction", "draw", "steps"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ProgressiveError(
            f"format_settings.{unknown[0]}",
            f"Unknown setting; the settings are {', '.join(sorted(known))}.", "unknown_field",
        )
    settings: dict[str, Any] = {
        "movement": _choice(raw, "movement", [m.value for m in Movement]),
        "direction": _choice(raw, "direction", [d.value for d in Direction]),
        "draw": _choice(raw, "draw", [d.value for d in DrawMode]),
    }
    if "steps" in raw:
        steps = raw["steps"]
        if settings["movement"] != Movement.FIXED_SEATS.value:
            raise ProgressiveError("format_settings.steps",
                                   "Steps apply to the fixed seat movement only.", "not_used")
        if not isinstance(steps, Mapping) or not set(steps) <= {"N", "E", "S", "W"} or not all(
            isinstance(v, int) and not isinstance(v, bool) and -50 <= v <= 50
            for v in steps.values()
        ):
            raise ProgressiveError(
                "format_settings.steps",
                "Give whole-number steps (−50 to 50) for seats N, E, S and W.", "bad_value",
            )
        settings["steps"] = {**{k.value: v for k, v in DEFAULT_STEPS.items()}, **steps}
    return settings
