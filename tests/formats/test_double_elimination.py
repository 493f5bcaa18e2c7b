"""The double-elimination bracket as a plugin: a pair is out after its second loss; a grand
final (with a reset when the losers' bracket winner wins it)."""

from __future__ import annotations

from collections import Counter

import formats
from tests.formats.pair_checks import assert_pairs_sit_together
from tests.formats.play import Day

SPEC = formats.get("double_elimination")


def test_what_a_double_elimination_is() -> None:
    assert SPEC.bracket == "double" and SPEC.pairs and SPEC.closed_field
    assert SPEC.check_settings({})["reset"] is True


def test_nobody_plays_on_after_two_losses_and_all_are_placed() -> None:
    for seed in range(5):
        day = Day(SPEC, 8, seed=seed)
        day.play_all()
        assert_pairs_sit_together(day)
        pair_of = {e: p for p, members in day.pairs.items() for e in members}
        losses: Counter[int] = Counter()
        for r in day.results:
            north, east = pair_of[r.seats["N"]], pair_of[r.seats["E"]]
            assert losses[north] < 2 and losses[east] < 2, "a pair played after its second loss"
            losses[east if r.winner == "NS" else north] += 1
        placed = day.finish()
        assert sorted(p.entry_id for p in placed) == list(range(1, 9))
        champion = placed[0].entry_id
        assert losses[champion] <= 1
