"""What every fixed-partnership format's tests check the same way: a pair sits together, on one
side of one table (or out), in every round."""

from __future__ import annotations

from tests.formats.play import Day


def meetings(day: Day) -> list[frozenset[int]]:
    """Every meeting of two pairs, round by round (pair ids)."""
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    return [frozenset({pair_of[t[0]], pair_of[t[1]]}) for plan in day.history for t in plan.tables]


def assert_pairs_sit_together(day: Day) -> None:
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    for plan in day.history:
        for north, east, south, west in plan.tables:
            assert pair_of[north] == pair_of[south] and pair_of[east] == pair_of[west]
            assert pair_of[north] != pair_of[east]
        out = {pair_of[e] for e in plan.byes}
        assert all(day.pairs[p][0] in plan.byes and day.pairs[p][1] in plan.byes for p in out)
