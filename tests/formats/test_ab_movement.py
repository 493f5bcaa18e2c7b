"""The A/B movement (pairs) as a plugin: the A pairs keep their table, the B pairs move up."""

from __future__ import annotations

import formats
from tests.formats.pair_checks import assert_pairs_sit_together, meetings
from tests.formats.play import Day

SPEC = formats.get("ab_movement")


def test_what_an_ab_movement_is() -> None:
    assert SPEC.pairs and SPEC.seats_automatically and SPEC.forfeits
    assert "B pairs move one table up" in " ".join(SPEC.describe({}, 4))


def test_a_pairs_stay_and_b_pairs_move_one_table_up() -> None:
    day = Day(SPEC, 8, rounds_planned=4)
    day.play_all()
    assert_pairs_sit_together(day)
    norths = [tuple(t[0] for t in plan.tables) for plan in day.history]
    assert len(set(norths)) == 1  # the A pairs keep their tables
    easts = [[t[1] for t in plan.tables] for plan in day.history]
    for before, after in zip(easts, easts[1:], strict=False):
        assert after == before[-1:] + before[:-1] or after == before[1:] + before[:1]
    met = meetings(day)
    assert len(met) == len(set(met))  # four rounds of four tables: no meeting twice
