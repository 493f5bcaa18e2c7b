"""The club night: individuals with rotating partners, round after round, for as long as the
club plays (``pairing.club_night`` seats each round); with a three-handed or cutthroat ruleset,
individuals at tables of three with opponents rotating (``pairing.threes``)."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound, club_night_round
from pairing.rotation import RotationError
from pairing.season import season_weights
from pairing.tables import table_round
from rules_engine.i18n import Text, gettext_noop, ngettext

from .spec import Format, FormatError, Situation


def _build(s: Situation) -> BuiltRound:
    if s.shape == "other":
        size = max(s.table_sizes)
        try:
            plan = table_round(list(s.entries), list(s.history), table_size=size,
                               teams=s.teams, seed=s.seed * 1000 + s.number,
                               fixed_tables=s.fixed_tables or None,
                               season=season_weights(s.season_history) or None)
        except RotationError as exc:
            raise FormatError(exc.message, field=exc.field, code=exc.code) from None
        return BuiltRound(plan, "tables")
    return club_night_round(
        s.entries, s.history, rounds_planned=s.rounds_planned, seed=s.seed,
        fixed_tables=s.fixed_tables or None, results=s.results,
        table_sizes=s.table_sizes, individual=s.individual, season=s.season_history,
    )


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    planned = ngettext("%(rounds)s round planned (the director may play more).",
                       "%(rounds)s rounds planned (the director may play more).",
                       rounds_planned, rounds=rounds_planned)
    return [Text(gettext_noop(
                "%(planned)s At tables of four partners change every round and nobody partners the same "
                "player twice while it can be avoided; at tables of three everyone plays for "
                "themselves and the opponents change every round, meeting the same player again "
                "as little as possible. Partners also change from one club night to the next: "
                "after the evening's own rule, the partners of the club's earlier nights of the "
                "season (its series, or the last weeks) are avoided, last week's most of all. "
                "When the players do not fill whole tables, players sit out in turn (or, where "
                "the rules let a table seat four, some tables of three seat four, in turn, and "
                "the dealer sits out each hand). At tables of two, five, six or eight the teams "
                "change every round, nobody playing with the same teammates again while it can "
                "be avoided."), planned=planned)]


FORMAT = Format(
    name="club_night", label=gettext_noop("Club night (rotating partners)"), build=_build,
    summary=gettext_noop("Club night: partners rotate every round; play on as long as the club likes."),
    describe=_describe, club_night=True, shortcut=gettext_noop("New club night"), tables_of_three=True,
    any_table=True,
)
