"""An individual progressive event's settings: defaults and validation.

Stored with the event as plain JSON; every key is optional and falls back to the NPA's way:
winners move toward table 1, the system makes the high/low partner draw, the top 8 are cut to
two semi-final tables and then the final table (``stages``).

==================  ==========================================================================
key                 values (default first)
==================  ==========================================================================
movement            ``winners_move``, ``fixed_seats``
direction           ``up`` (toward table 1), ``down``
draw                ``system``, ``table``
steps               fixed seats only: tables each seat moves, e.g. ``{"N": 0, "S": 1, ...}``
cut                 ``8`` (semi-finals, then the final), ``4`` (the final table), ``0`` (none);
                    at tables of three ``9``, ``3`` or ``0`` (``threes``)
semi_partners       ``seeded`` (1+8 v 4+5, 2+7 v 3+6), ``draw``
final_rule          ``rotate`` (three games, partners rotate), ``single_game``
ties                ``system_cut`` (the system cuts for a level game), ``table_cut``
game_minutes        ``null`` (games end by deals), or 10 to 240: a time limit with a countdown
==================  ==========================================================================

At tables of three (``check_settings(raw, threes=True)``) the cut defaults to 9, the movement is
``winners_move`` only and ``draw`` (who partners whom) has nothing to decide: ``system`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from rules_engine.i18n import Text, gettext_noop

from . import threes as threes_rules
from .model import DEFAULT_STEPS, Direction, DrawMode, Movement, ProgressiveError
from .stages import CUTS, DEFAULT_CUT, FinalRule, SemiPartners

TIES = ("system_cut", "table_cut")
DEFAULTS: dict[str, str | int | None] = {
    "movement": Movement.WINNERS_MOVE.value,
    "direction": Direction.UP.value,
    "draw": DrawMode.SYSTEM.value,
    "cut": DEFAULT_CUT,
    "semi_partners": SemiPartners.SEEDED.value,
    "final_rule": FinalRule.ROTATE.value,
    "ties": TIES[0],
    "game_minutes": None,
}
KNOWN = frozenset({*DEFAULTS, "steps"})
# The NPA World Series: a game is four deals (each player deals once), six qualifying games.
DEALS_PER_GAME = 4
QUALIFYING_GAMES = 6


def _choice(raw: Mapping[str, object], key: str, choices: list[str]) -> str:
    value = raw.get(key, DEFAULTS[key])
    if not isinstance(value, str) or value not in choices:
        raise ProgressiveError(
            f"format_settings.{key}", Text(gettext_noop("Choose one of: %(values)s."), values=', '.join(choices)), "bad_choice"
        )
    return value


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_settings(raw: Mapping[str, object] | None, *, threes: bool = False) -> dict[str, object]:
    """The settings with defaults filled in; raises :class:`ProgressiveError` naming the key.
    ``threes``: for a day at tables of three (see the module docstring)."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        raise ProgressiveError(
            f"format_settings.{unknown[0]}",
            Text(gettext_noop("Unknown setting; the settings are %(values)s."), values=', '.join(sorted(KNOWN))), "unknown_field",
        )
    settings: dict[str, object] = {
        "movement": _choice(raw, "movement", [m.value for m in Movement]),
        "direction": _choice(raw, "direction", [d.value for d in Direction]),
        "draw": _choice(raw, "draw", [d.value for d in DrawMode]),
        "semi_partners": _choice(raw, "semi_partners", [p.value for p in SemiPartners]),
        "final_rule": _choice(raw, "final_rule", [r.value for r in FinalRule]),
        "ties": _choice(raw, "ties", list(TIES)),
    }
    if threes:
        threes_rules.check_movement(settings["movement"])
        if settings["draw"] != DrawMode.SYSTEM.value:
            raise ProgressiveError(
                "format_settings.draw",
                Text(gettext_noop("At tables of three nobody draws for partners: the draw is system.")), "not_used")
        settings["cut"] = threes_rules.check_cut(raw.get("cut", threes_rules.DEFAULT_CUT_THREES))
    cut = settings["cut"] if threes else raw.get("cut", DEFAULT_CUT)
    if not threes and (not _whole(cut) or cut not in CUTS):
        raise ProgressiveError(
            "format_settings.cut",
            Text(gettext_noop("The cut is 8 (two semi-final tables, then the final), 4 (the final table) or 0 (no cut).")), "bad_choice",
        )
    settings["cut"] = cut
    minutes = raw.get("game_minutes")
    if minutes is not None and (not _whole(minutes) or not 10 <= minutes <= 240):
        raise ProgressiveError(
            "format_settings.game_minutes",
            Text(gettext_noop("A game's time limit is a whole number of minutes from 10 to 240 (or null for none).")), "bad_value",
        )
    settings["game_minutes"] = minutes
    if "steps" in raw:
        steps = raw["steps"]
        if settings["movement"] != Movement.FIXED_SEATS.value:
            raise ProgressiveError("format_settings.steps",
                                   Text(gettext_noop("Steps apply to the fixed seat movement only.")), "not_used")
        if not isinstance(steps, Mapping) or not set(steps) <= {"N", "E", "S", "W"} or not all(
            isinstance(v, int) and not isinstance(v, bool) and -50 <= v <= 50
            for v in steps.values()
        ):
            raise ProgressiveError(
                "format_settings.steps",
                Text(gettext_noop("Give whole-number steps (−50 to 50) for seats N, E, S and W.")), "bad_value",
            )
        settings["steps"] = {**{k.value: v for k, v in DEFAULT_STEPS.items()}, **steps}
    return settings
