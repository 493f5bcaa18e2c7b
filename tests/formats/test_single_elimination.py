"""The single-elimination bracket as a plugin: seeded, winners go on, the places from the
bracket."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats.spec import Stage
from tests.formats.pair_checks import assert_pairs_sit_together
from tests.formats.play import Day

SPEC = formats.get("single_elimination")


def test_what_a_single_elimination_is() -> None:
    assert SPEC.bracket == "single" and SPEC.pairs and SPEC.closed_field and SPEC.forfeits
    assert SPEC.describe_length(4, 4, SPEC.check_settings({}), 8) == "bracket matches of 4 deals"


@settings(max_examples=20, deadline=None)
@given(pairs=st.integers(min_value=2, max_value=32), seed=st.integers(0, 1000))
def test_each_round_halves_the_field_until_a_champion(pairs: int, seed: int) -> None:
    day = Day(SPEC, pairs, seed=seed)
    assert day.total == (pairs - 1).bit_length()
    day.play_all()
    assert_pairs_sit_together(day)
    assert len(day.history[-1].tables) == 1
    placed = day.finish()
    assert placed[0].place == 1 and placed[0].stage == Stage.BRACKET
    final = day.results[-1]
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    assert placed[0].entry_id == pair_of[final.seats["N" if final.winner == "NS" else "E"]]
    assert sorted(p.entry_id for p in placed) == list(range(1, pairs + 1))


def test_the_best_seed_meets_the_lowest_first() -> None:
    day = Day(SPEC, 8)
    first = day.play_round()
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    meetings = {frozenset({pair_of[t[0]], pair_of[t[1]]}) for t in first.plan.tables}
    assert frozenset({1, 8}) in meetings and frozenset({4, 5}) in meetings
