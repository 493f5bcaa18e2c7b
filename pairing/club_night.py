"""The club-night round builder: individuals with rotating partners, or individual play at
tables of three (``pairing.threes``) when the ruleset says so.

When the players present are the same as in every round so far, no one is pinned to a table, and a
complete whist design exists for their number with at least the planned rounds, the night follows
the design (every pair partners exactly once over a full design). Otherwise, or as
soon as the night leaves the design (a late arrival, a leaver, a director's seat swap), each round
is seated by the search in :func:`pairing.rotation.next_round`, which avoids repeat partners
whenever possible and spreads byes fairly.

A night of a season (``season``: the partnerships of the club's earlier nights,
``pairing.season``) in which some of tonight's players have partnered before is seated by the
search too, every round, so that after the evening's own rule partners also change from week to
week; the whist design does not know the earlier nights. A night with no season, or none among
tonight's players, is seated exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .results import TableResult
from .rotation import RoundPlan, next_round, plan_schedule, whist_design
from .rotation.planner import MAX_ROUNDS
from .season import SeasonHistory, season_weights
from .threes import threes_round


@dataclass(frozen=True)
class BuiltRound:
    """A round to seat and how it was found (``whist_design`` or ``search``); a bracket round
    also names the match played at each table (``matches``, in table order)."""

    plan: RoundPlan[int]
    method: str
    matches: tuple[str, ...] = ()


def _shape(plan: RoundPlan[int]) -> tuple[frozenset[frozenset[frozenset[int]]], frozenset[int]]:
    """A round as partnerships per table and byes, ignoring table numbers and seat order."""
    tables = frozenset(
        frozenset({frozenset({n, s}), frozenset({e, w})}) for n, e, s, w in plan.tables
    )
    return tables, frozenset(plan.byes)


def club_night_round(
    players: Sequence[int],
    history: Sequence[RoundPlan[int]],
    *,
    rounds_planned: int,
    seed: int,
    fixed_tables: Mapping[int, int] | None = None,
    results: Sequence[TableResult] = (),
    table_sizes: Sequence[int] = (4,),
    individual: bool = False,
    season: SeasonHistory[int] | None = None,
) -> BuiltRound:
    """The next round of a club night. ``results`` are accepted for the common builder signature;
    partners rotate regardless of who won.

    Individual play (``individual``, or tables of three in ``table_sizes``) is seated by
    :func:`pairing.threes.threes_round` (method ``threes``): tables of three, or of three and
    four, opponents spread, byes and tables of four in turn; each plays alone there, so
    ``season`` (the partnerships of earlier nights) does not apply. Otherwise a ``season``
    with a pair of tonight's players is seated by the search (method ``season``)."""
    del results  # rotation does not depend on the scores
    number = len(history) + 1
    if individual or 3 in table_sizes:
        plan = threes_round(list(players), list(history), table_sizes=table_sizes,
                            seed=seed * 1000 + number,
                            fixed_tables=dict(fixed_tables) if fixed_tables else None)
        return BuiltRound(plan, "threes")
    here = set(players)
    weights = {pair: w for pair, w in season_weights(season or {}).items() if pair <= here}
    if weights:
        plan = next_round(list(players), list(history), seed=seed * 1000 + number,
                          fixed_tables=dict(fixed_tables) if fixed_tables else None,
                          season=weights)
        return BuiltRound(plan, "season")
    design = whist_design(len(players)) if not fixed_tables else None
    if design is not None and number <= rounds_planned <= len(design) <= MAX_ROUNDS:
        schedule = plan_schedule(sorted(players), len(design), seed=seed)
        planned = schedule.rounds
        if all(_shape(past) == _shape(planned[i]) for i, past in enumerate(history)):
            return BuiltRound(planned[len(history)], "whist_design")
    plan = next_round(list(players), list(history), seed=seed * 1000 + number,
                      fixed_tables=dict(fixed_tables) if fixed_tables else None)
    return BuiltRound(plan, "search")
