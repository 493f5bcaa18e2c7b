"""The bridge from stored ruleset choices (preset name + overrides) to the rules engine."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from common.errors import DomainError
from rules_engine import RulesError, Ruleset, get_ruleset


@lru_cache(maxsize=256)
def _cached(preset: str, overrides_json: str) -> Ruleset:
    return get_ruleset(preset, json.loads(overrides_json))


def ruleset_for(*, preset: str, overrides: dict[str, Any] | None) -> Ruleset:
    """The rules engine's ruleset for a preset and overrides (validated, cached)."""
    return _cached(preset, json.dumps(overrides or {}, sort_keys=True))


def check_ruleset(*, preset: str, overrides: dict[str, Any] | None) -> Ruleset:
    """Like :func:`ruleset_for` but turns the engine's rejection into a field error."""
    try:
        return ruleset_for(preset=preset, overrides=overrides)
    except RulesError as exc:
        first = exc.errors[0]
        field = "ruleset_preset" if first.field == "ruleset" else "ruleset_overrides"
        raise DomainError(
            "; ".join(e.message for e in exc.errors), field=field, code=first.code
        ) from None


def event_ruleset(event: Any) -> Ruleset:
    return ruleset_for(preset=event.ruleset_preset, overrides=event.ruleset_overrides)
