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


# --- head to head: the circle ---------------------------------------------------------------


def _head_to_head(players: list[int], rounds: int, seed: int,
                  history: list[RoundPlan[int]] | None = None) -> list[RoundPlan[int]]:
    """A night as the club night builds it: the event's seed and the round's number."""
    night = list(history or [])
    for _ in range(rounds):
        night.append(table_round(players, night, table_size=2, teams=SHAPES[2],
                                 seed=seed * 1000 + len(night) + 1))
    return night


def _meetings(night: list[RoundPlan[int]]) -> Counter[frozenset[int]]:
    return Counter(frozenset(t) for plan in night for t in plan.tables)


@pytest.mark.parametrize("players", [8, 10, 12])
@pytest.mark.parametrize("seed", range(1, 16))
def test_a_two_handed_round_robin_meets_every_pair_exactly_once(players: int, seed: int) -> None:
    # the search alone, round by round, left a repeat (and so a pair that never met) in about
    # one night in four of these; the circle leaves none
    field = list(range(1, players + 1))
    night = _head_to_head(field, players - 1, seed)
    met = _meetings(night)
    assert set(met) == {frozenset(p) for p in combinations(field, 2)}
    assert set(met.values()) == {1}
    assert all(not plan.byes for plan in night)


@pytest.mark.parametrize("players", [9, 11])
def test_an_odd_field_meets_once_and_each_sits_out_once(players: int) -> None:
    field = list(range(1, players + 1))
    night = _head_to_head(field, players, seed=4)
    met = _meetings(night)
    assert set(met) == {frozenset(p) for p in combinations(field, 2)} and set(met.values()) == {1}
    assert sorted(p for plan in night for p in plan.byes) == field
    # stopped after n - 1 rounds: nobody met twice, nobody sat out twice
    assert measure(night[:-1], SHAPES[2]).bye_spread <= 1


def test_the_circle_varies_the_seats_and_the_seed_varies_the_circle() -> None:
    field = list(range(1, 11))
    night = _head_to_head(field, 9, seed=2)
    assert night == _head_to_head(field, 9, seed=2)
    assert night != _head_to_head(field, 9, seed=3)
    # nobody keeps the first seat or table 1 all night
    firsts = Counter(plan.tables[0][0] for plan in night)
    assert max(firsts.values()) < 9
    seat_one = Counter(t[0] for plan in night for t in plan.tables)
    assert max(seat_one.values()) < 9


def test_after_the_round_robin_the_search_goes_on() -> None:
    field = list(range(1, 9))
    night = _head_to_head(field, 9, seed=5)
    assert max(_meetings(night[:7]).values()) == 1
    # rounds 8 and 9 repeat meetings (there is nobody new), but nobody thrice and no pair twice
    # in those two rounds
    assert max(_meetings(night).values()) == 2
    assert max(_meetings(night[7:]).values()) == 1


def test_a_night_that_leaves_the_circle_is_seated_by_the_search() -> None:
    field = list(range(1, 11))
    night = _head_to_head(field, 2, seed=6)
    # the director swaps two players of round 2 between tables: round 3 cannot follow the
    # circle the first round started, and the search still avoids every earlier meeting
    first = _meetings(night[:1])
    tables = list(night[1].tables)
    (a, b), (c, d) = tables[0], tables[1]
    if frozenset((a, d)) in first or frozenset((c, b)) in first:
        (a, b), (c, d) = (a, b), (d, c)
    tables[0], tables[1] = (a, d), (c, b)
    assert not any(frozenset(t) in first for t in tables)
    swapped = RoundPlan(tables=tuple(tables), byes=())
    night = _head_to_head(field, 1, seed=6, history=[night[0], swapped])
    assert max(_meetings(night).values()) == 1
    # an arrival leaves the circle too: eleven players, one on bye, all placed
    late = table_round([*field, 11], night, table_size=2, teams=SHAPES[2], seed=7)
    assert sorted(p for p in late.players()) == list(range(1, 12)) and len(late.byes) == 1
    assert max(_meetings([*night, late]).values()) == 1


def test_a_player_fixed_to_a_table_keeps_it_head_to_head() -> None:
    field = list(range(1, 11))
    night: list[RoundPlan[int]] = []
    for number in range(1, 6):
        plan = table_round(field, night, table_size=2, teams=SHAPES[2], seed=number,
                           fixed_tables={3: 4})
        assert 3 in plan.tables[3]
        night.append(plan)
    assert max(_meetings(night).values()) == 1
