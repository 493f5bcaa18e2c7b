"""Round robin (pairs) as a plugin: every pair meets every other pair of its group once."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from tests.formats.pair_checks import assert_pairs_sit_together, meetings
from tests.formats.play import Day

SPEC = formats.get("round_robin")


def test_what_a_round_robin_is() -> None:
    assert SPEC.pairs and SPEC.closed_field and not SPEC.rounds_used
    assert SPEC.check_settings({})["groups"] == 1
    assert "every pair meets every other pair" in " ".join(SPEC.describe({"groups": 1}, 4))


@settings(max_examples=20, deadline=None)
@given(pairs=st.integers(min_value=3, max_value=12))
def test_everyone_meets_everyone_once(pairs: int) -> None:
    day = Day(SPEC, pairs)
    assert day.total == SPEC.qualifying_rounds(4, day.settings, pairs)
    assert day.total == (pairs if pairs % 2 else pairs - 1)
    day.play_all()
    assert_pairs_sit_together(day)
    met = meetings(day)
    assert sorted(map(sorted, met)) == sorted(map(sorted, map(frozenset, itertools.combinations(
        range(1, pairs + 1), 2))))


def test_groups_meet_within_themselves() -> None:
    day = Day(SPEC, 8, settings={"groups": 2})
    day.play_all()
    met = meetings(day)
    assert len(met) == len(set(met)) == 2 * 6  # two groups of four: 6 meetings each
    groups = [{p for m in met for p in m if p in side} for side in ({1, 2, 3, 4, 5, 6, 7, 8},)]
    assert groups[0] == set(range(1, 9))
    assert "2 groups" in " ".join(SPEC.describe({"groups": 2}, 4))
