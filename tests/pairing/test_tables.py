"""Seating club-night rounds at tables of two, five, six and eight (``pairing.tables``): everyone
placed once a round, byes in turn, teammates changing before opponents, fixed tables kept,
deterministic for a seed, bad shapes refused naming the field."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from pairing.rotation import RotationError, RoundPlan
from pairing.tables import measure, table_round

SHAPES = {
    2: ((0,), (1,)),
    5: ((0,), (1,), (2,), (3,), (4,)),
    6: ((0, 2, 4), (1, 3, 5)),
    8: ((0, 4), (1, 5), (2, 6), (3, 7)),
}


def _night(players: int, size: int, rounds: int, seed: int = 3) -> list[RoundPlan[int]]:
    history: list[RoundPlan[int]] = []
    for _ in range(rounds):
        history.append(table_round(list(range(1, players + 1)), history, table_size=size,
                                   teams=SHAPES[size], seed=seed))
    return history


@pytest.mark.parametrize("size", sorted(SHAPES))
@pytest.mark.parametrize("extra", [0, 1])
def test_everyone_is_placed_once_and_byes_go_round(size: int, extra: int) -> None:
    players = 2 * size + extra
    night = _night(players, size, rounds=4)
    for plan in night:
        placed = [p for table in plan.tables for p in table] + list(plan.byes)
        assert sorted(placed) == list(range(1, players + 1))
        assert all(len(table) == size for table in plan.tables)
        assert len(plan.byes) == players % size
    assert measure(night, SHAPES[size]).bye_spread <= 1


def test_teams_of_three_change_before_opponents_repeat() -> None:
    # 18 players, three tables of six: over three rounds nobody need play with a teammate again
    night = _night(18, 6, rounds=3)
    quality = measure(night, SHAPES[6])
    assert quality.repeat_teammates == 0 and quality.max_together == 1


def test_partners_at_eight_never_repeat_while_they_need_not() -> None:
    night = _night(24, 8, rounds=6)
    assert measure(night, SHAPES[8]).repeat_teammates == 0


def test_head_to_head_players_meet_new_opponents() -> None:
    night = _night(10, 2, rounds=5)
    met = Counter(frozenset(t) for plan in night for t in plan.tables)
    assert max(met.values()) == 1


def test_a_seed_repeats_its_night_and_another_seed_draws_another() -> None:
    assert _night(13, 6, rounds=3, seed=5) == _night(13, 6, rounds=3, seed=5)
    assert _night(13, 6, rounds=3, seed=5) != _night(13, 6, rounds=3, seed=6)


def test_a_player_fixed_to_a_table_stays_there_and_never_sits_out() -> None:
    history: list[RoundPlan[int]] = []
    for _ in range(4):
        plan = table_round(list(range(1, 14)), history, table_size=6, teams=SHAPES[6],
                           seed=1, fixed_tables={7: 2})
        assert 7 in plan.tables[1] and 7 not in plan.byes
        history.append(plan)


def test_seating_quality_is_measured_per_pair() -> None:
    plan = RoundPlan(tables=((1, 2, 3, 4, 5, 6),), byes=())
    quality = measure([plan, plan], SHAPES[6])
    teammates = sum(1 for i, j in combinations(range(6), 2) if i % 2 == j % 2)
    assert quality.repeat_teammates == teammates and quality.max_together == 2


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"table_size": 9, "teams": tuple((i,) for i in range(9))}, "table_size"),
    ({"table_size": 6, "teams": ((0, 2), (1, 3))}, "teams"),
])
def test_a_bad_shape_is_refused_naming_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(RotationError) as info:
        table_round(list(range(12)), (), seed=1, **kwargs)
    assert info.value.field == field


def test_too_few_players_for_a_table_are_refused() -> None:
    with pytest.raises(RotationError) as info:
        table_round([1, 2, 3], (), table_size=6, teams=SHAPES[6], seed=1)
    assert info.value.field == "players" and info.value.code == "too_few"
