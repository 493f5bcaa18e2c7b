"""The stages of an individual progressive event after qualifying: the cut, the semi-final tables,
the final table and the final placements (pure Python).

NPA practice: after the qualifying games the top 8 play semi-final games at tables 1 and 2; the
two winners of each semi-final table go to the final table of four; the final decides the
champion ("highest score determines the winner"). The NPA text leaves open how partners are set
at those tables and how partners who scored the same are split, so both are event settings:

* ``semi_partners``: ``"seeded"`` (default) seats the qualifying seeds 1+8 against 4+5 at table 1
  and 2+7 against 3+6 at table 2 (the two partners of a side sit N–S or E–W); ``"draw"`` draws the
  eight into the two tables at random (seeded, reproducible).
* ``final_rule``: ``"rotate"`` (default) plays three games at the final table with partners
  rotating each game, so every finalist partners each other finalist once (seeds 1+4 v 2+3, then
  1+3 v 2+4, then 1+2 v 3+4); the champion is the finalist with the highest individual total over
  the three games. ``"single_game"`` plays one game, seeds 1+4 v 2+3; the winning side takes
  places 1 and 2, the losing side 3 and 4.
* Equal totals are split by the qualifying standings (the better qualifier places higher),
  both at the final and among the semi-final losers (places 5 to 8, by their semi-final score).
* ``cut``: 8 (default: semi-finals, then the final), 4 (straight to the final table), or 0
  (no cut: the qualifying standings are the result).

Everyone else is placed by the qualifying standings (from 9th, or 5th with a cut of 4), sharing a
place where the standings share a rank. Players who are not eligible (alternates, withdrawn
players) are left out of the cut and the placements; the caller gives the eligible order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules_engine.i18n import Text, gettext_noop, ngettext

from ..results import TableResult
from .model import ProgressiveError

Tables = tuple[tuple[int, int, int, int], ...]


class Stage(StrEnum):
    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"


class SemiPartners(StrEnum):
    SEEDED = "seeded"
    DRAW = "draw"


class FinalRule(StrEnum):
    ROTATE = "rotate"
    SINGLE_GAME = "single_game"


CUTS = (8, 4, 0)
DEFAULT_CUT = 8
FINAL_GAMES = {FinalRule.ROTATE: 3, FinalRule.SINGLE_GAME: 1}
# Final seatings (N, E, S, W) as indexes into the finalists in seed order: N–S against E–W.
_FINAL_SEATS = {
    FinalRule.ROTATE: ((0, 1, 3, 2), (0, 1, 2, 3), (0, 2, 1, 3)),
    FinalRule.SINGLE_GAME: ((0, 1, 3, 2),),
}
# Semi-finals by seed (indexes into the top 8): table 1 seeds 1+8 v 4+5, table 2 2+7 v 3+6.
_SEEDED_SEMIS = ((0, 3, 7, 4), (1, 2, 6, 5))


@dataclass(frozen=True)
class StagePlan:
    """Which stage each round of the event belongs to."""

    qualifying: int
    cut: int = DEFAULT_CUT
    final_rule: FinalRule = FinalRule.ROTATE

    @property
    def stages(self) -> tuple[Stage, ...]:
        after: tuple[Stage, ...] = ()
        if self.cut in (8, 9):  # 9: three semi-final tables of three (``threes``)
            after = (Stage.SEMIFINAL,)
        if self.cut:
            after += (Stage.FINAL,) * FINAL_GAMES[self.final_rule]
        return (Stage.QUALIFYING,) * self.qualifying + after

    @property
    def rounds_total(self) -> int:
        return len(self.stages)

    def stage_of(self, number: int) -> Stage:
        """The stage of round ``number`` (1-based); rounds past the plan count as qualifying."""
        stages = self.stages
        return stages[number - 1] if 1 <= number <= len(stages) else Stage.QUALIFYING

    def first_round(self, stage: Stage) -> int | None:
        for i, s in enumerate(self.stages, start=1):
            if s == stage:
                return i
        return None

    def rounds_of(self, stage: Stage) -> tuple[int, ...]:
        return tuple(i for i, s in enumerate(self.stages, start=1) if s == stage)


def plan_from(settings: Mapping[str, object], qualifying: int) -> StagePlan:
    cut = settings.get("cut", DEFAULT_CUT)
    rule = str(settings.get("final_rule", FinalRule.ROTATE.value))
    return StagePlan(
        qualifying=qualifying, cut=int(cut) if isinstance(cut, int) else DEFAULT_CUT,
        final_rule=FinalRule(rule) if rule in {r.value for r in FinalRule} else FinalRule.ROTATE,
    )


def _need(ranking: Sequence[int], count: int, stage: str) -> None:
    if len(set(ranking)) != len(ranking):
        raise ProgressiveError("ranking", Text(gettext_noop("A player is listed twice in the standings.")), "duplicate")
    if len(ranking) < count:
        raise ProgressiveError(
            "cut",
            Text(gettext_noop("The %(stage)s needs %(count)s eligible qualifiers; the standings have %(count2)s."), stage=stage, count=count, count2=len(ranking)),
            "cut_larger_than_field",
        )


def semifinal_tables(ranking: Sequence[int], *, mode: str = "seeded", seed: int = 0) -> Tables:
    """The two semi-final tables from the qualifying order (best first)."""
    _need(ranking, 8, "semi-final")
    top = list(ranking[:8])
    if mode == SemiPartners.DRAW.value:
        drawn = sorted(top)
        random.Random(f"progressive-semis:{seed}").shuffle(drawn)
        return ((drawn[0], drawn[1], drawn[2], drawn[3]), (drawn[4], drawn[5], drawn[6], drawn[7]))
    return tuple((top[n], top[e], top[s], top[w]) for n, e, s, w in _SEEDED_SEMIS)


def _side_winners(result: TableResult, where: str) -> tuple[int, ...]:
    if not result.finished:
        raise ProgressiveError(
            where, Text(gettext_noop("Table %(table_number)s's game is not finished."), table_number=result.table_number), "not_finished"
        )
    if result.winner is None:
        raise ProgressiveError(
            where,
            Text(gettext_noop("Table %(table_number)s's game ended level and nobody has won the cut yet."), table_number=result.table_number),
            "tie",
        )
    return result.winners()


def finalists(ranking: Sequence[int], semis: Sequence[TableResult], *, cut: int) -> list[int]:
    """The four finalists in seed order: the two winners of each semi-final table, or the top 4
    qualifiers when the cut is 4."""
    if cut == 4:
        _need(ranking, 4, "final")
        return list(ranking[:4])
    if len(semis) != 2:
        raise ProgressiveError("semifinal", Text(gettext_noop("The final needs both semi-final tables' results.")),
                               "not_finished")
    chosen: list[int] = []
    for i, result in enumerate(sorted(semis, key=lambda r: r.table_number)):
        chosen.extend(_side_winners(result, f"semifinal[{i}]"))
    return sorted(chosen, key=_seed_key(ranking))


def _seed_key(ranking: Sequence[int]) -> Callable[[int], tuple[int, int]]:
    """Sort key: the better qualifier first (players not in the standings last, by id)."""
    seeds = {entry: i for i, entry in enumerate(ranking)}
    return lambda entry: (seeds.get(entry, 10**9), entry)


def final_table(players: Sequence[int], *, game: int, rule: str = "rotate") -> tuple[int, int, int, int]:
    """Seats at the final table for final game ``game`` (1-based); ``players`` in seed order."""
    seats = _FINAL_SEATS[FinalRule(rule)]
    if not 1 <= game <= len(seats):
        raise ProgressiveError("round", Text(gettext_noop("The final has %(count)s game(s)."), count=len(seats)), "no_such_game")
    if len(players) != 4 or len(set(players)) != 4:
        raise ProgressiveError("finalists", Text(gettext_noop("The final table seats four different players.")),
                               "bad_finalists")
    n, e, s, w = seats[game - 1]
    return (players[n], players[e], players[s], players[w])


@dataclass(frozen=True)
class Placement:
    place: int
    entry_id: int
    stage: Stage  # where the place was decided
    points: int | None = None  # the score that decided it (final total, semi-final score)


def _points(results: Sequence[TableResult]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for r in results:
        for entry in r.seats.values():
            side = r.side_of(entry)
            totals[entry] = totals.get(entry, 0) + int(r.points.get(side or "", 0))
    return totals


def placements(
    *,
    ranking: Sequence[tuple[int, int]],
    plan: StagePlan,
    semis: Sequence[TableResult] = (),
    finals: Sequence[TableResult] = (),
) -> list[Placement]:
    """Final places: the final table, then the semi-final tables, then the qualifying standings.

    ``ranking`` is the eligible qualifiers as (entry id, qualifying rank), best first. A stage not
    played (the event finished early) places nobody: everyone is then placed by the standings.
    """
    order = [entry for entry, _ in ranking]
    key = _seed_key(order)
    placed: list[Placement] = []
    decided: set[int] = set()
    final_players = sorted({e for r in finals for e in r.seats.values()}, key=key)
    if plan.cut and len(final_players) == 4 and any(r.finished for r in finals):
        if plan.final_rule == FinalRule.SINGLE_GAME:
            game = finals[0]
            top = list(_side_winners(game, "final[0]"))
            first = sorted(top, key=key)
            second = sorted((e for e in final_players if e not in top), key=key)
            points = _points(finals)
            placed += [Placement(i, e, Stage.FINAL, points.get(e))
                       for i, e in enumerate(first + second, start=1)]
        else:
            totals = _points([r for r in finals if r.finished])
            ordered = sorted(final_players, key=lambda e: (-totals.get(e, 0), key(e)))
            placed += [Placement(i, e, Stage.FINAL, totals.get(e, 0))
                       for i, e in enumerate(ordered, start=1)]
        decided.update(final_players)
    if plan.cut == 8 and decided and semis:
        semi_points = _points(semis)
        losers = sorted(
            {e for r in semis for e in r.seats.values()} - decided,
            key=lambda e: (-semi_points.get(e, 0), key(e)),
        )
        placed += [Placement(len(placed) + i, e, Stage.SEMIFINAL, semi_points.get(e))
                   for i, e in enumerate(losers, start=1)]
        decided.update(losers)
    base = len(placed)
    rest = [(e, rank) for e, rank in ranking if e not in decided]
    previous_rank: int | None = None
    place = 0
    for position, (entry, rank) in enumerate(rest, start=1):
        if rank != previous_rank:
            place = base + position
            previous_rank = rank
        placed.append(Placement(place, entry, Stage.QUALIFYING))
    return placed


def describe(settings: Mapping[str, object], qualifying: int) -> list[str]:
    """The event's stage rules in plain sentences (the rules page shows them)."""
    plan = plan_from(settings, qualifying)
    lines: list[str] = [ngettext("%(n)s qualifying game; each player's score is the total of their side's "
                      "points in every game they play.",
                      "%(n)s qualifying games; each player's score is the total of their side's "
                      "points in every game they play.", qualifying, n=qualifying)]
    if not plan.cut:
        lines.append(gettext_noop("No cut: the qualifying standings are the final result."))
        return lines
    if plan.cut == 8:
        if settings.get("semi_partners") == SemiPartners.DRAW.value:
            lines.append(gettext_noop("The top 8 qualifiers play one semi-final game at tables 1 and 2; "
                         "partners and tables are drawn by the system."))
        else:
            lines.append(gettext_noop("The top 8 qualifiers play one semi-final game: seeds 1 and 8 against "
                         "4 and 5 at table 1, seeds 2 and 7 against 3 and 6 at table 2."))
        lines.append(gettext_noop("The two winners at each semi-final table go to the final table."))
    else:
        lines.append(gettext_noop("The top 4 qualifiers go straight to the final table."))
    if plan.final_rule == FinalRule.SINGLE_GAME:
        lines.append(gettext_noop("The final is one game, seeds 1 and 4 against 2 and 3; the winning side "
                     "takes first and second place, the better qualifier first."))
    else:
        lines.append(gettext_noop("The final is three games with partners rotating each game (every "
                     "finalist partners each other once); the highest individual total over "
                     "the three games is the champion."))
    lines.append(gettext_noop(
        "Equal scores at the final and semi-final tables are split by the qualifying "
        "standings. Semi-final losers take places 5 to 8 by their semi-final score; everyone "
        "else is placed by the qualifying standings.") if plan.cut == 8 else gettext_noop(
        "Equal scores at the final table are split by the qualifying standings; everyone else "
        "is placed by the qualifying standings."))
    if settings.get("ties") == "table_cut":
        lines.append(gettext_noop("A game that ends level is settled by a cut of the cards at the table, "
                     "entered by the table or the director."))
    else:
        lines.append(gettext_noop("A game that ends level is settled by a cut of the cards drawn by the "
                     "system (seeded and logged); the points stand as scored."))
    return lines
