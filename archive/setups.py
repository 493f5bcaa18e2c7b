"""What a generated event is played under: a ruleset the format seats for the field and
settings a director could choose, drawn from the generator's seed (:func:`draw_setup`), and
the smallest field a format plays (:func:`smallest_field`). Read by ``archive.generate``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from common.rulesets import table_teams
from formats import Format, FormatError
from ranking import TIE_BREAKS
from ranking.pairs import PAIR_TIE_BREAKS
from rules_engine import PRESET_NAMES, Ruleset, get_ruleset
from tournaments.models import Event

MAX_PLAYERS = 512
GROUP_MOST = 16  # the most pairs in one group of a generated round robin (15 rounds)

RULESET = "pagat_double_deck"  # the default ruleset (``smallest_field`` without a setup)


class GenerateError(Exception):
    """The event cannot be generated as asked (an unknown format, a size out of range)."""


@dataclass(frozen=True)
class Setup:
    """What the director chose when creating the event: the rules and the format's settings,
    drawn from the seed (:func:`draw_setup`)."""

    preset: str
    overrides: dict[str, Any]
    settings: dict[str, Any]
    rounds: int | None
    deals: int
    bye_scoring: str
    bye_points: int
    tie_breaks: list[str] | None

    @property
    def ruleset(self) -> Ruleset:
        return get_ruleset(self.preset, self.overrides)


def rulesets_for(spec: Format) -> list[tuple[str, dict[str, Any]]]:
    """Every preset (and, for three-player games, the byes-only variant ``sit_out=none``) whose
    tables ``spec`` seats."""
    found: list[tuple[str, dict[str, Any]]] = []
    for preset in PRESET_NAMES:
        for overrides in ({}, {"sit_out": "none"}):
            ruleset = get_ruleset(preset)
            if overrides and ruleset.options.get("sit_out") != "dealer":
                continue
            ruleset = get_ruleset(preset, overrides)
            try:
                spec.settings_for({}, table_sizes=tuple(ruleset.table_sizes),
                                  individual=ruleset.individual, teams=table_teams(ruleset))
            except FormatError as exc:
                if exc.code == "table_shape":
                    continue
            found.append((preset, overrides))
    return found


def entrants_of(spec: Format, ruleset: Ruleset, players: int) -> int:
    """Players, or the sides a pair format registers from them (two partners, a team of three,
    one player head to head)."""
    return players // ruleset.side_size if spec.pairs else players


def _seats(spec: Format, ruleset: Ruleset, settings: dict[str, Any], entrants: int) -> bool:
    """Whether a first round of ``entrants`` is one the format seats under these rules and
    settings."""
    if spec.pairs:
        if entrants < 2:
            return False
    elif entrants < max(spec.min_entries, min(ruleset.table_sizes)):
        return False
    try:
        spec.check_field(settings, entrants)
    except FormatError:
        return False
    return True


def smallest_field(spec: Format, setup: Setup | None = None) -> int:
    """The fewest players an event of ``spec`` seats (by default under ``pagat_double_deck`` and
    the format's default settings): whole sides in a pair format, the format's first-round
    check passed."""
    ruleset = setup.ruleset if setup else get_ruleset(RULESET)
    settings = setup.settings if setup else spec.settings_for(None)
    for players in range(2, MAX_PLAYERS + 1):
        if spec.pairs and players % ruleset.side_size:
            continue
        if _seats(spec, ruleset, settings, entrants_of(spec, ruleset, players)):
            return players
    raise GenerateError(f"{spec.label} seats no field of at most {MAX_PLAYERS} players.")


def _rounds_cap(spec: Format, settings: dict[str, Any], entrants: int) -> int | None:
    """The most rounds the format's movement seats for ``entrants`` (None: no limit)."""
    return spec.max_rounds(settings, entrants)


def _pair_settings(rng: random.Random, spec: Format, entrants: int) -> dict[str, Any]:
    keys = spec.setting_keys
    raw: dict[str, Any] = {"ties": rng.choice(("system_cut", "system_cut", "table_cut"))}
    if rng.random() < 0.2:
        raw["game_minutes"] = rng.choice((30, 45, 60))
    if "first_draw" in keys:
        raw["first_draw"] = rng.choice(("seeded", "random"))
    if "groups" in keys and entrants >= 4:
        # a director splits a big field: a group of more than GROUP_MOST pairs plays more
        # rounds than a day holds
        least = -(-entrants // GROUP_MOST)
        raw["groups"] = rng.choice([least, least,
                                    *range(least + 1, min(least + 3, entrants // 2) + 1)])
    bracket: dict[str, Any] = {}
    if spec.bracket == "single" or (spec.playoff and rng.random() < 0.5):
        bracket["third_place"] = rng.random() < 0.5
    if spec.bracket == "double":
        bracket["reset"] = rng.random() < 0.7
    if spec.bracket:
        if rng.random() < 0.3:
            bracket["consolation"] = [1]
        raw.update(bracket)
    if "playoff" in keys and entrants >= 2 and rng.random() < 0.5:
        kind = rng.choice(("single", "double"))
        cut = rng.randint(2, min(entrants, 8))
        playoff: dict[str, Any] = {"kind": kind, "cut": cut}
        if kind == "single":
            playoff["third_place"] = rng.random() < 0.5
        else:
            playoff["reset"] = rng.random() < 0.7
        if rng.random() < 0.2:
            playoff["consolation"] = [1]
        if entrants - cut >= 2 and rng.random() < 0.3:
            playoff["lower"] = rng.randint(2, min(entrants - cut, 8))
        raw["playoff"] = playoff
    return raw


def _individual_settings(rng: random.Random, spec: Format, threes: bool) -> dict[str, Any]:
    if not spec.setting_keys:
        return {}
    raw: dict[str, Any] = {
        "direction": rng.choice(("up", "down")),
        "semi_partners": rng.choice(("seeded", "draw")),
        "final_rule": rng.choice(("rotate", "single_game")),
        "ties": rng.choice(("system_cut", "system_cut", "table_cut")),
    }
    if threes:
        raw["cut"] = rng.choice((9, 3, 0))
    else:
        raw["cut"] = rng.choice((8, 4, 0))
        raw["movement"] = rng.choice(("winners_move", "winners_move", "fixed_seats"))
        # the tables cut the cards for partners under winners move (the generator makes up
        # each table's draw from its seed: ``archive.generate``)
        raw["draw"] = (rng.choice(("system", "table")) if raw["movement"] == "winners_move"
                       else "system")
    if rng.random() < 0.2:
        raw["game_minutes"] = rng.choice((30, 45))
    return {k: v for k, v in raw.items() if k in spec.setting_keys}


def _tie_breaks(rng: random.Random, spec: Format) -> list[str] | None:
    if rng.random() < 0.5:
        return None  # the usual ones
    names = list(PAIR_TIE_BREAKS if spec.pairs else TIE_BREAKS)
    return rng.sample(names, rng.randint(1, len(names)))


def draw_setup(rng: random.Random, spec: Format, players: int, *,
               preset: str | None = None) -> Setup:
    """The rules and settings of an event of ``spec`` for ``players`` players, drawn from
    ``rng``: a ruleset the format seats for that many players (``preset`` fixes it), then
    settings valid for it and for the field (a cut no larger than the field, a playoff no larger
    than the pairs, the planned rounds within what a movement seats), tried again until the
    format accepts them (the defaults at last)."""
    candidates = [(p, o) for p, o in rulesets_for(spec) if preset is None or p == preset]
    if not candidates:
        raise GenerateError(f"{spec.label} is not played under {preset!r}.")
    usable = []
    for name, overrides in candidates:
        ruleset = get_ruleset(name, overrides)
        if _seats(spec, ruleset, _defaults(spec, ruleset), entrants_of(spec, ruleset, players)):
            usable.append((name, overrides))
    if not usable:
        raise GenerateError(f"{spec.label} seats no event of {players} players under "
                            f"{preset or 'any ruleset'}.")
    name, overrides = rng.choice(usable)
    ruleset = get_ruleset(name, overrides)
    entrants = entrants_of(spec, ruleset, players)
    threes = 3 in ruleset.table_sizes
    settings = _defaults(spec, ruleset)
    for _ in range(20):
        raw = (_pair_settings(rng, spec, entrants) if spec.pairs
               else _individual_settings(rng, spec, threes))
        try:
            checked = spec.settings_for(raw, table_sizes=tuple(ruleset.table_sizes),
                                        individual=ruleset.individual,
                                        teams=table_teams(ruleset))
        except FormatError:
            continue
        if _seats(spec, ruleset, checked, entrants) and _plans(spec, checked, entrants):
            settings = raw
            break
    rounds = rng.randint(2, 5) if spec.rounds_used else None
    cap = _rounds_cap(spec, spec.settings_for(settings, table_sizes=tuple(ruleset.table_sizes),
                                              individual=ruleset.individual,
                                              teams=table_teams(ruleset)), entrants)
    if rounds is not None and cap is not None:
        rounds = max(1, min(rounds, cap))
    return Setup(preset=name, overrides=dict(overrides), settings=settings, rounds=rounds,
                 deals=rng.choice((1, 1, 2, 3)),
                 bye_scoring=rng.choice(list(Event.ByeScoring.values)),
                 bye_points=rng.choice((0, 25, 50, -25)), tie_breaks=_tie_breaks(rng, spec))


def _defaults(spec: Format, ruleset: Ruleset) -> dict[str, Any]:
    return spec.settings_for(None, table_sizes=tuple(ruleset.table_sizes),
                             individual=ruleset.individual, teams=table_teams(ruleset))


def _plans(spec: Format, settings: dict[str, Any], entrants: int) -> bool:
    """A bracket (the format's own, or the playoff's with its split final) that can be planned
    for the field."""
    from formats.pairs import brackets

    if not spec.pairs:
        return True
    try:
        brackets(spec.bracket, settings, entrants, None)
    except FormatError:
        return False
    return True
