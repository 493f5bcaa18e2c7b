"""Round robin (pairs): every pair meets every other pair of its group once
(``pairing.round_robin`` makes the schedule); an optional playoff bracket after it."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.round_robin import ScheduleError, round_robin, round_robin_rounds
from rules_engine.i18n import Text, gettext_noop

from .pairs import pair_format, seat, sit_out_withdrawn
from .spec import Situation, setting_int


def _build(s: Situation) -> BuiltRound:
    schedule = round_robin(tuple(s.pairs), groups=setting_int(s.settings, "groups", 1))
    return seat(s, sit_out_withdrawn(s, schedule[s.number - 1]), "round_robin")


def _qualifying_rounds(rounds_planned: int, settings: Mapping[str, object], entrants: int) -> int:
    """The schedule's rounds (the planned rounds while too few pairs are registered to plan
    it)."""
    try:
        return round_robin_rounds(entrants, groups=setting_int(settings, "groups", 1))
    except ScheduleError:
        return rounds_planned


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    groups = setting_int(settings, "groups", 1)
    if groups > 1:
        return [Text(gettext_noop("Round robin: every pair meets every other pair of its group "
                                  "once. The pairs play in %(groups)s groups."), groups=groups)]
    return [gettext_noop("Round robin: every pair meets every other pair of its group once.")]


FORMAT = pair_format(
    name="round_robin", label=gettext_noop("Round robin (pairs)"), qualify=_build, describe=_describe,
    summary=gettext_noop("Round robin: every pair meets every other pair of its group once."),
    qualifying_rounds=_qualifying_rounds, keys=frozenset({"groups"}),
    rounds_used=False,
    rounds_help=gettext_noop("Not used: a round robin plays every pair once (in each group)."),
    closed_field=True,
)
