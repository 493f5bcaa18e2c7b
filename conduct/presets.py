"""Penalty presets: default points per kind of penalty, one preset per ruleset family.

A tournament run on NPA values takes heavier penalties than a club night; the event's table
starts from its family's preset and the director may change any kind's points
(``conduct.services.penalty_table_set``)."""

from __future__ import annotations

from typing import TypedDict


class Preset(TypedDict):
    label: str
    points: dict[str, int]  # per ``Penalty.Kind`` value


PRESETS: dict[str, Preset] = {
    "tournament": {
        "label": "Tournament (NPA-style)",
        "points": {"table_talk": 50, "slow_play": 25, "tardiness": 50, "misconduct": 100,
                   "renege": 50, "other": 25},
    },
    "club": {
        "label": "Club",
        "points": {"table_talk": 20, "slow_play": 10, "tardiness": 10, "misconduct": 50,
                   "renege": 20, "other": 10},
    },
}


def preset_for(ruleset_preset: str) -> str:
    """The penalty preset of a ruleset's family: NPA tournament values take the tournament
    preset, every other ruleset the club's."""
    return "tournament" if ruleset_preset.startswith("npa") else "club"
