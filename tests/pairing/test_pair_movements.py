"""Table movements for fixed partnerships: A/B and winners stay (pure Python, no database)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.pair_movements import (
    ab_movement,
    ab_rounds,
    first_draw,
    first_game,
    winners_stay,
    winners_stay_rounds,
)
from pairing.round_robin import PairRound, ScheduleError


def assert_everyone_placed_once(rnd: PairRound, pairs: list[int]) -> None:
    placed = rnd.placed()
    assert sorted(placed) == sorted(pairs)
    assert len(rnd.byes) == len(pairs) % 2


def assert_no_rematch(rounds: list[PairRound]) -> None:
    met = Counter(frozenset(m) for rnd in rounds for m in rnd.matches)
    assert all(n == 1 for n in met.values()), met.most_common(3)


# ------------------------------------------------------------------ A/B movement


def test_ab_even() -> None:
    pairs = [1, 2, 3, 4, 5, 6]  # A: 1, 2, 3 at tables 1-3; B: 4, 5, 6
    assert ab_rounds(6) == 3
    assert ab_movement(pairs, 1) == PairRound(matches=((1, 4), (2, 5), (3, 6)))
    # B pairs move one table up; the last table's B pair goes to table 1.
    assert ab_movement(pairs, 2) == PairRound(matches=((1, 6), (2, 4), (3, 5)))
    assert ab_movement(pairs, 3) == PairRound(matches=((1, 5), (2, 6), (3, 4)))


def test_ab_odd_gives_the_pair_at_the_phantom_table_a_bye() -> None:
    pairs = [1, 2, 3, 4, 5]  # A: 1, 2 at tables 1-2 (table 3 is the phantom); B: 3, 4, 5
    assert ab_rounds(5) == 3
    assert ab_movement(pairs, 1) == PairRound(matches=((1, 3), (2, 4)), byes=(5,))
    assert ab_movement(pairs, 2) == PairRound(matches=((1, 5), (2, 3)), byes=(4,))
    assert ab_movement(pairs, 3) == PairRound(matches=((1, 4), (2, 5)), byes=(3,))


def test_ab_two_and_three_pairs() -> None:
    assert ab_movement([8, 9], 1) == PairRound(matches=((8, 9),))
    assert [ab_movement([1, 2, 3], r) for r in (1, 2)] == [
        PairRound(matches=((1, 2),), byes=(3,)),
        PairRound(matches=((1, 3),), byes=(2,)),
    ]


@pytest.mark.parametrize(
    ("pairs", "round_number", "field"),
    [
        ([1], 1, "pairs"),
        ([1, 2, 2], 1, "pairs"),
        ([1, 2, 3, 4], 0, "round"),
        ([1, 2, 3, 4], 3, "round"),
        ([1, 2, 3, 4, 5], 4, "round"),
    ],
)
def test_ab_errors(pairs: list[int], round_number: int, field: str) -> None:
    with pytest.raises(ScheduleError) as caught:
        ab_movement(pairs, round_number)
    assert caught.value.field == field


@given(pairs=st.lists(st.integers(0, 10_000), min_size=2, max_size=41, unique=True))
@settings(max_examples=100, deadline=None)
def test_ab_properties(pairs: list[int]) -> None:
    rounds = [ab_movement(pairs, r) for r in range(1, ab_rounds(len(pairs)) + 1)]
    a_pairs = pairs[: len(pairs) // 2]
    for rnd in rounds:
        assert_everyone_placed_once(rnd, pairs)
        # A pair i keeps table i all day and is never on a bye.
        assert [m[0] for m in rnd.matches] == a_pairs
    assert_no_rematch(rounds)
    # Every A pair meets every B pair once.
    assert sum(len(rnd.matches) for rnd in rounds) == len(a_pairs) * (len(pairs) - len(a_pairs))
    # Each B pair sits out at most once.
    assert all(n == 1 for n in Counter(p for rnd in rounds for p in rnd.byes).values())


# ------------------------------------------------------------------ opening draws


def test_first_game_seeds_one_against_two() -> None:
    assert first_game([1, 2, 3, 4]) == PairRound(matches=((1, 2), (3, 4)))
    assert first_game([1, 2, 3, 4, 5]) == PairRound(matches=((1, 2), (3, 4)), byes=(5,))


def test_first_draw_is_repeatable_and_seats_everyone() -> None:
    pairs = list(range(1, 12))
    draw = first_draw(pairs, seed=42)
    assert draw == first_draw(pairs, seed=42)
    assert_everyone_placed_once(draw, pairs)
    assert {first_draw(pairs, seed=s) for s in range(20)} != {draw}


def test_first_draw_errors() -> None:
    with pytest.raises(ScheduleError) as caught:
        first_draw([3, 3], seed=1)
    assert caught.value.field == "pairs"


# ------------------------------------------------------------------ winners stay


def test_winners_stay_even() -> None:
    first = [(1, 2), (3, 4), (5, 6)]
    winners = [2, 3, 6]  # losers 1, 4, 5
    assert winners_stay_rounds(6) == 3
    assert winners_stay(first, winners, 2) == PairRound(matches=((2, 5), (3, 1), (6, 4)))
    assert winners_stay(first, winners, 3) == PairRound(matches=((2, 4), (3, 5), (6, 1)))


def test_winners_stay_odd_bye_pair_moves_with_the_losers() -> None:
    opening = first_game([1, 2, 3, 4, 5])  # 1 v 2, 3 v 4, 5 on a bye
    winners = [1, 4]  # losers 2, 3; 5 is the loser of the phantom table 3
    assert winners_stay_rounds(5) == 3
    assert winners_stay(opening.matches, winners, 2, opening.byes) == PairRound(
        matches=((1, 5), (4, 2)), byes=(3,)
    )
    assert winners_stay(opening.matches, winners, 3, opening.byes) == PairRound(
        matches=((1, 3), (4, 5)), byes=(2,)
    )


@pytest.mark.parametrize(
    ("first", "winners", "round_number", "byes", "field"),
    [
        ([(1, 2), (3, 4)], [1, 3], 1, (), "round"),
        ([(1, 2), (3, 4)], [1, 3], 3, (), "round"),
        ([(1, 2)], [1], 2, (), "round"),
        ([(1, 2), (3, 4)], [1, 2], 2, (), "winners"),
        ([(1, 2), (3, 4)], [1], 2, (), "winners"),
        ([(1, 2), (3, 1)], [1, 3], 2, (), "pairs"),
        ([(1, 2), (3, 4)], [1, 3], 2, (4,), "pairs"),
        ([(1, 2), (3, 4)], [1, 3], 2, (5, 6), "pairs"),
        ([], [], 2, (), "pairs"),
    ],
)
def test_winners_stay_errors(
    first: list[tuple[int, int]], winners: list[int], round_number: int, byes: tuple[int, ...],
    field: str,
) -> None:
    with pytest.raises(ScheduleError) as caught:
        winners_stay(first, winners, round_number, byes)
    assert caught.value.field == field


@given(
    pairs=st.lists(st.integers(0, 10_000), min_size=2, max_size=41, unique=True),
    seed=st.integers(0, 10_000),
)
@settings(max_examples=100, deadline=None)
def test_winners_stay_properties(pairs: list[int], seed: int) -> None:
    opening = first_draw(pairs, seed=seed)
    rng = random.Random(seed)
    winners = [rng.choice(match) for match in opening.matches]
    last = winners_stay_rounds(len(pairs))
    rounds = [opening] + [
        winners_stay(opening.matches, winners, r, opening.byes) for r in range(2, last + 1)
    ]
    assert len(rounds) == last
    for rnd in rounds:
        assert_everyone_placed_once(rnd, pairs)
    assert_no_rematch(rounds)
    for r, rnd in enumerate(rounds[1:], start=2):
        # Winners keep their table (and never sit out); each loser moves one table up a round.
        assert [m[0] for m in rnd.matches] == winners
        tables = len(opening.matches) + len(opening.byes)
        for i, (a, b) in enumerate(opening.matches):
            loser = b if a == winners[i] else a
            at = (i + r - 1) % tables
            if at < len(rnd.matches):
                assert rnd.matches[at][1] == loser
            else:
                assert rnd.byes == (loser,)
    # Every moving pair sits out once over the movement, staying pairs never.
    bye_count = Counter(p for rnd in rounds for p in rnd.byes)
    assert all(n == 1 for n in bye_count.values())
    assert not set(bye_count) & set(winners)
    if len(pairs) % 2:
        assert len(bye_count) == len(pairs) // 2 + 1
