"""Entered values as the rules engine reads them: the check of a hand's values, and a stored
revision parsed once (a bounded cache per ruleset)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from rules_engine import Hand as EngineHand
from rules_engine import HandScore, Ruleset, parse_hand, score_hand
from rules_engine.hands import HAND_FIELDS as ENGINE_HAND_FIELDS

from ..models import HandRevision
from ..selectors import revision_values

# Every value a hand may carry, as the rules engine reads them (``rules_engine.hands``).
HAND_FIELDS = ("outcome", *ENGINE_HAND_FIELDS)


def _clean_values(values: Mapping[str, object]) -> dict[str, object]:
    """Drop empty form fields so the engine reports what is missing, not what is blank."""
    cleaned: dict[str, object] = {}
    for key in HAND_FIELDS:
        value = values.get(key)
        if value in (None, ""):
            continue
        if isinstance(value, Mapping):
            inner = {k: v for k, v in value.items() if v not in (None, "")}
            if not inner:
                continue
            value = inner
        cleaned[key] = value
    return cleaned


def hand_check(*, values: Mapping[str, object], ruleset: Ruleset,
               seats: Sequence[str] | None = None) -> tuple[EngineHand, HandScore]:
    """Validate and score values without storing anything (also used for live form checks);
    ``seats`` are the table's (the ruleset's own when not given)."""
    hand = parse_hand(_clean_values(values), ruleset, seats=seats)
    return hand, score_hand(hand, ruleset)


# Parsed hands by their stored values: a save re-derives its game from every live hand, and a
# hand's values never change once stored (a correction is a new revision with its own values), so
# each hand is parsed once per process instead of once per later save of its game. Kept per
# ruleset (``Ruleset.memo``), keyed by the values themselves, never by a row's id, so nothing
# needs forgetting: a correction, a deletion or another ruleset simply asks for other keys.
PARSED_HANDS_KEPT = 4096  # per ruleset, least recently used out


_parsed_lock = threading.Lock()


# A stored hand's values as a key: each field's name and value (a mapping as its JSON text).
ValuesKey = tuple[tuple[str, object], ...]


def _values_key(values: Mapping[str, object]) -> ValuesKey:
    return tuple(
        (k, json.dumps(v, sort_keys=True) if isinstance(v, Mapping) else v)
        for k, v in sorted(values.items())
    )


def revision_hand(revision: HandRevision, ruleset: Ruleset,
                  seats: Sequence[str] | None = None) -> EngineHand:
    """The rules engine's hand of a stored revision (``parse_hand`` of its values at a table
    with ``seats``), parsed once per process, ruleset, seats and values (see
    ``PARSED_HANDS_KEPT``)."""
    values = revision_values(revision)
    key = (tuple(seats or ()), _values_key(values))
    kept: OrderedDict[tuple[tuple[str, ...], ValuesKey], EngineHand] = ruleset.memo(
        "parsed_hands", OrderedDict)
    with _parsed_lock:
        hand = kept.get(key)
        if hand is not None:
            kept.move_to_end(key)
            return hand
    hand = parse_hand(values, ruleset, seats=seats)
    with _parsed_lock:
        kept[key] = hand
        while len(kept) > PARSED_HANDS_KEPT:
            kept.popitem(last=False)
    return hand
