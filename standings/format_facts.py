"""The few facts about an event's format that the standings need, read from
``Event.format_settings`` in this one place: how many go through the cut after qualifying, to
which stage, and the bracket a pair event plays.

The standings sit below ``draw`` (which owns the format registry), so they never ask it; these
readers follow the formats' own settings (``pairing.progressive.settings``,
``pairing.pair_settings``) and fall back to their defaults when a setting is missing. They are
meant to move into the formats' own pure package with the rest of the format knowledge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pairing.bracket import BracketError, Plan, bracket_plan
from pairing.pair_settings import BRACKET_KINDS
from pairing.progressive.stages import DEFAULT_CUT
from tournaments.models import Event


@dataclass(frozen=True)
class Cut:
    """After qualifying, the best ``size`` eligible entries go on to ``goes_to`` (words)."""

    size: int
    goes_to: str


def _settings(event: Event) -> dict[str, Any]:
    return dict(event.format_settings or {})


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def qualifying_cut(event: Event) -> Cut | None:
    """The cut after the qualifying rounds, or None when the event has none: an individual
    progressive event cuts to ``cut`` players (8: the semi-final tables, 4: the final table,
    0: no cut); a pair event with a ``playoff`` cuts to its ``cut`` pairs."""
    settings = _settings(event)
    if event.format == Event.Format.INDIVIDUAL_PROGRESSIVE:
        raw = settings.get("cut", DEFAULT_CUT)
        size = _whole(raw) if raw is not None else 0
        if size is None:
            size = DEFAULT_CUT
        if size <= 0:
            return None
        return Cut(size, "the semi-final tables" if size == 8 else "the final table")
    playoff = settings.get("playoff")
    if event.is_pairs and not event.is_bracket and isinstance(playoff, dict):
        size = _whole(playoff.get("cut", 8))
        if size and size > 0:
            return Cut(size, "the playoff")
    return None


def bracket_of(event: Event, entrants: int) -> Plan | None:
    """The elimination bracket a pair event plays (a bracket format: all its pairs; a playoff:
    the pairs through the cut), or None when it has none or it cannot be planned."""
    settings = _settings(event)
    if event.format in BRACKET_KINDS:
        options, kind = settings, BRACKET_KINDS[event.format]
    elif event.is_pairs and isinstance(settings.get("playoff"), dict):
        options = dict(settings["playoff"])
        kind = str(options.get("kind", "single"))
        entrants = _whole(options.get("cut", 8)) or entrants
    else:
        return None
    try:
        return bracket_plan(
            max(entrants, 2), kind=kind, third_place=bool(options.get("third_place", False)),
            reset=bool(options.get("reset", True)),
            consolation=tuple(options.get("consolation") or ()))
    except BracketError:
        return None
