"""The round robin for fixed partnerships (pure Python, no database)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.round_robin import (
    PairRound,
    ScheduleError,
    round_robin,
    round_robin_rounds,
    snake_groups,
)


def meetings(schedule: tuple[PairRound, ...]) -> Counter[frozenset[int]]:
    return Counter(frozenset(m) for rnd in schedule for m in rnd.matches)


def test_four_pairs_play_three_rounds_and_meet_once() -> None:
    schedule = round_robin([1, 2, 3, 4])
    assert len(schedule) == 3 == round_robin_rounds(4)
    assert schedule[0] == PairRound(matches=((1, 4), (2, 3)))
    assert meetings(schedule) == Counter(frozenset(c) for c in combinations([1, 2, 3, 4], 2))
    assert all(rnd.byes == () for rnd in schedule)


def test_odd_group_has_one_bye_a_round_and_each_pair_sits_out_once() -> None:
    schedule = round_robin([10, 20, 30, 40, 50])
    assert len(schedule) == 5 == round_robin_rounds(5)
    assert all(len(rnd.byes) == 1 and len(rnd.matches) == 2 for rnd in schedule)
    assert sorted(rnd.byes[0] for rnd in schedule) == [10, 20, 30, 40, 50]
    # The lowest seed sits out first.
    assert schedule[0].byes == (50,)


def test_two_and_three_pairs() -> None:
    assert round_robin([7, 8]) == (PairRound(matches=((7, 8),)),)
    three = round_robin([1, 2, 3])
    assert len(three) == 3
    assert meetings(three) == Counter({frozenset({1, 2}): 1, frozenset({1, 3}): 1,
                                       frozenset({2, 3}): 1})


def test_snake_groups_spread_the_seeds() -> None:
    assert snake_groups(list(range(1, 10)), 2) == ((1, 4, 5, 8, 9), (2, 3, 6, 7))
    assert snake_groups(list(range(1, 13)), 3) == ((1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10))
    assert snake_groups([5, 6, 7], 1) == ((5, 6, 7),)


def test_groups_share_rounds_and_number_tables_group_by_group() -> None:
    schedule = round_robin(list(range(1, 9)), groups=2)  # groups (1, 4, 5, 8) and (2, 3, 6, 7)
    assert len(schedule) == 3 == round_robin_rounds(8, groups=2)
    first = schedule[0]
    assert len(first.matches) == 4
    assert set().union(*first.matches[:2]) == {1, 4, 5, 8}
    assert set().union(*first.matches[2:]) == {2, 3, 6, 7}


def test_smaller_group_is_idle_once_it_has_finished() -> None:
    schedule = round_robin(list(range(1, 10)), groups=2)  # 5 rounds for 5 pairs, 3 for 4
    assert len(schedule) == 5 == round_robin_rounds(9, groups=2)
    small = {2, 3, 6, 7}
    for rnd in schedule[3:]:
        assert not small & set(rnd.placed())
        assert len(rnd.matches) == 2 and len(rnd.byes) == 1


def test_no_pair_is_always_listed_first() -> None:
    for count in range(3, 15):
        schedule = round_robin(list(range(count)))
        first = Counter(m[0] for rnd in schedule for m in rnd.matches)
        second = Counter(m[1] for rnd in schedule for m in rnd.matches)
        assert all(first[p] and second[p] for p in range(count)), count


@pytest.mark.parametrize(
    ("pairs", "groups", "field"),
    [
        ([], 1, "pairs"),
        ([1], 1, "pairs"),
        ([1, 2, 1], 1, "pairs"),
        ([1, 2, 3], 2, "groups"),
        ([1, 2, 3, 4], 0, "groups"),
    ],
)
def test_errors(pairs: list[int], groups: int, field: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        round_robin(pairs, groups=groups)
    assert caught.value.field == field
    assert caught.value.to_dict() == {"field": field, "message": caught.value.message}


def test_rounds_errors() -> None:
    with pytest.raises(ScheduleError, match="two pairs"):
        round_robin_rounds(1)
    with pytest.raises(ScheduleError) as caught:
        round_robin_rounds(5, groups=3)
    assert caught.value.field == "groups"


@given(
    pairs=st.lists(st.integers(-1000, 1000), min_size=2, max_size=40, unique=True),
    groups=st.integers(1, 6),
)
@settings(max_examples=150, deadline=None)
def test_schedule_properties(pairs: list[int], groups: int) -> None:
    groups = min(groups, len(pairs) // 2)
    schedule = round_robin(pairs, groups=groups)
    split = snake_groups(pairs, groups)
    assert sorted(p for g in split for p in g) == sorted(pairs)
    assert max(map(len, split)) - min(map(len, split)) <= 1
    assert len(schedule) == round_robin_rounds(len(pairs), groups=groups)

    # Every pair meets each group-mate exactly once and nobody else.
    expected = Counter(frozenset(c) for g in split for c in combinations(g, 2))
    assert meetings(schedule) == expected

    # A pair of an odd group sits out exactly once; a pair of an even group never.
    bye_count = Counter(p for rnd in schedule for p in rnd.byes)
    assert bye_count == Counter(p for g in split if len(g) % 2 for p in g)

    group_of = {p: i for i, g in enumerate(split) for p in g}
    rounds_of = [len(g) - 1 if len(g) % 2 == 0 else len(g) for g in split]
    for r, rnd in enumerate(schedule):
        placed = rnd.placed()
        # Nobody is placed twice; everyone whose group still plays is placed exactly once.
        assert len(placed) == len(set(placed))
        playing = {p for p in pairs if r < rounds_of[group_of[p]]}
        assert set(placed) == playing
        # At most one bye per group, and only odd groups have byes.
        per_group = Counter(group_of[p] for p in rnd.byes)
        assert all(n == 1 and len(split[g]) % 2 == 1 for g, n in per_group.items())
        # Tables are numbered group by group.
        order = [group_of[m[0]] for m in rnd.matches]
        assert order == sorted(order)
        assert all(group_of[a] == group_of[b] for a, b in rnd.matches)
