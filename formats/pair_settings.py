"""The settings of the fixed-partnership formats: defaults and validation.

Stored with the event as plain JSON (``Event.format_settings``); every key is optional.

====================  ========================================================================
key                   values (default first)
====================  ========================================================================
first_draw            swiss, winners_stay: ``seeded`` (registration or seed order), ``random``
groups                round_robin: ``1``, or the number of groups the pairs are split into
ties                  ``system_cut`` (the system cuts for a level game), ``table_cut``
game_minutes          ``null``, or 10 to 240: a time limit per game with a countdown; when the
                      director calls time, the side ahead wins
third_place           single_elimination: ``false``, ``true`` (a match for third place)
reset                 double_elimination: ``true`` (a second grand final when the losers'
                      bracket side wins the first), ``false``
consolation           brackets: ``[]``, or the rounds whose losers play a consolation bracket
                      (single: winners' bracket rounds; double: losers' bracket rounds)
playoff               swiss, round_robin, ab_movement, winners_stay: ``null``, or a bracket
                      after the qualifying rounds: ``{"kind": "single" | "double", "cut": 8,
                      "third_place", "reset", "consolation", "lower"}`` (the top ``cut`` pairs
                      of the qualifying standings, seeded in that order); ``lower``: ``0``, or
                      the split final: the next ``lower`` pairs play a lower bracket of the
                      same kind (and third-place match or reset, no consolation) at the same
                      time, for the places after the upper bracket's
====================  ========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from pairing.bracket import BracketError, Plan, bracket_plan
from rules_engine.i18n import Text, gettext_noop

from .spec import FormatError, setting_int

# The common settings of every pair format, and those of a format that may end in a playoff.
COMMON_KEYS = frozenset({"ties", "game_minutes"})
PLAYOFF_KEYS = frozenset({"playoff"})
BRACKET_KEYS = {"single": frozenset({"third_place", "consolation"}),
                "double": frozenset({"reset", "consolation"})}
TIES = ("system_cut", "table_cut")
DRAWS = ("seeded", "random")
MAX_CUT = 256


class PairSettingsError(FormatError):
    """A bad setting, naming its key (``format_settings.<key>``)."""

    def __init__(self, field: str, message: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _flag(raw: Mapping[str, object], key: str, default: bool, prefix: str) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise PairSettingsError(f"{prefix}{key}", Text(gettext_noop("Give true or false.")), "bad_value")
    return value


def _choice(raw: Mapping[str, object], key: str, choices: tuple[str, ...]) -> str:
    value = raw.get(key, choices[0])
    if value not in choices:
        raise PairSettingsError(f"format_settings.{key}", Text(gettext_noop("Choose one of: %(values)s."), values=', '.join(choices)),
                                "bad_choice")
    return str(value)


def _bracket(raw: Mapping[str, object], kind: str, prefix: str) -> dict[str, object]:
    """The bracket's own options for ``kind`` (``single`` or ``double``)."""
    out: dict[str, object] = {}
    if kind == "single":
        out["third_place"] = _flag(raw, "third_place", False, prefix)
        if "reset" in raw:
            raise PairSettingsError(f"{prefix}reset", Text(gettext_noop("A reset applies to double elimination only.")), "not_used")
    else:
        out["reset"] = _flag(raw, "reset", True, prefix)
        if raw.get("third_place"):
            raise PairSettingsError(f"{prefix}third_place", Text(gettext_noop("A third-place match applies to single elimination only (the losers' bracket decides third).")),
                                    "not_used")
    rounds = raw.get("consolation", [])
    if not isinstance(rounds, list) or not all(_whole(r) and 1 <= r <= 30 for r in rounds):
        raise PairSettingsError(f"{prefix}consolation", Text(gettext_noop("List the rounds whose losers play the consolation bracket, e.g. [1, 2] (or [] for none).")), "bad_value")
    out["consolation"] = sorted(set(rounds))
    return out


def _playoff(raw: object) -> dict[str, object] | None:
    if raw is None:
        return None
    prefix = "format_settings.playoff."
    if not isinstance(raw, Mapping):
        raise PairSettingsError("format_settings.playoff", Text(gettext_noop("Give the bracket after the qualifying rounds, e.g. {\"kind\": \"single\", \"cut\": 8}, or null.")),
                                "bad_value")
    unknown = sorted(set(raw) - {"kind", "cut", "third_place", "reset", "consolation", "lower"})
    if unknown:
        raise PairSettingsError(f"{prefix}{unknown[0]}", Text(gettext_noop("Unknown setting; a playoff has kind, cut, third_place, reset, consolation and lower.")), "unknown_field")
    kind = raw.get("kind", "single")
    if kind not in ("single", "double"):
        raise PairSettingsError(f"{prefix}kind", Text(gettext_noop("Choose single or double.")), "bad_choice")
    cut = raw.get("cut", 8)
    if not _whole(cut) or not 2 <= cut <= MAX_CUT:
        raise PairSettingsError(f"{prefix}cut", Text(gettext_noop("The cut is the number of pairs that go on to the bracket: 2 to %(max_cut)s."), max_cut=MAX_CUT), "bad_value")
    playoff = {"kind": kind, "cut": cut, **_bracket(raw, kind, prefix)}
    lower = raw.get("lower")
    lower = 0 if lower is None else lower
    if not _whole(lower) or not (lower == 0 or 2 <= lower <= MAX_CUT):
        raise PairSettingsError(f"{prefix}lower", Text(gettext_noop("The lower bracket takes the next pairs after the cut: 2 to %(max_cut)s, or 0 for none."), max_cut=MAX_CUT), "bad_value")
    if lower:
        playoff["lower"] = lower
        lower_plan(playoff)
    return playoff


def lower_plan(playoff: Mapping[str, object]) -> Plan | None:
    """The split final's lower bracket (None without one): the playoff's kind, third-place
    match and reset for the ``lower`` pairs after the cut, without a consolation bracket. A
    lower bracket that cannot be built is refused naming ``format_settings.playoff.lower``."""
    size = setting_int(playoff, "lower")
    if not size:
        return None
    try:
        return bracket_plan(size, kind=str(playoff["kind"]),
                            third_place=bool(playoff.get("third_place", False)),
                            reset=bool(playoff.get("reset", True)))
    except BracketError as exc:
        raise PairSettingsError("format_settings.playoff.lower",
                                Text(gettext_noop("The lower bracket of %(size)s pairs: %(message)s"), size=size, message=exc.message),
                                "bad_lower") from None


def check_pair_settings(known: frozenset[str], raw: Mapping[str, object] | None, *,
                        bracket: str = "") -> dict[str, object]:
    """The settings of a pair format taking the keys ``known`` (a bracket format: of kind
    ``bracket``) with its defaults filled in; raises :class:`PairSettingsError` naming the
    key."""
    raw = dict(raw or {})
    unknown = sorted(set(raw) - known)
    if unknown:
        raise PairSettingsError(f"format_settings.{unknown[0]}", Text(gettext_noop("Unknown setting; this format's settings are %(values)s."), values=', '.join(sorted(known))), "unknown_field")
    settings: dict[str, object] = {"ties": _choice(raw, "ties", TIES)}
    minutes = raw.get("game_minutes")
    if minutes is not None and (not _whole(minutes) or not 10 <= minutes <= 240):
        raise PairSettingsError("format_settings.game_minutes", Text(gettext_noop("A game's time limit is a whole number of minutes from 10 to 240 (or null for none).")), "bad_value")
    settings["game_minutes"] = minutes
    if "first_draw" in known:
        settings["first_draw"] = _choice(raw, "first_draw", DRAWS)
    if "groups" in known:
        groups = raw.get("groups", 1)
        if not _whole(groups) or not 1 <= groups <= 32:
            raise PairSettingsError("format_settings.groups", Text(gettext_noop("Groups are a whole number from 1 to 32.")), "bad_value")
        settings["groups"] = groups
    if bracket:
        settings.update(_bracket(raw, bracket, "format_settings."))
    if "playoff" in known:
        settings["playoff"] = _playoff(raw.get("playoff"))
    return settings
