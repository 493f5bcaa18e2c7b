"""Properties of the Swiss pairing for pair events (pure Python, no database)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.swiss import (
    Quality,
    Standing,
    SwissError,
    SwissRound,
    _Field,
    swiss_cost,
    swiss_round,
    swiss_simulate,
)

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ independent helpers


def placement(standings: Sequence[Standing]) -> list[Standing]:
    """More wins, then more points, then the given order."""
    index = {s.pair: i for i, s in enumerate(standings)}
    return sorted(standings, key=lambda s: (-s.wins, -s.points, index[s.pair]))


def eligible_for_bye(standings: Sequence[Standing]) -> list[int]:
    if len(standings) % 2 == 0:
        return []
    fewest = min(s.byes for s in standings)
    return [s.pair for s in standings if s.byes == fewest]


def met(standings: Sequence[Standing]) -> set[frozenset[int]]:
    listed = {s.pair for s in standings}
    return {frozenset((s.pair, o)) for s in standings for o in s.opponents if o in listed}


def can_pair(
    standings: Sequence[Standing], byes: Sequence[int], *, within: int | None = None
) -> bool:
    """Whether a round without rematches exists with one of ``byes`` sitting out (any pair when
    the count is even) and every match within ``within`` wins."""
    wins = {s.pair: s.wins for s in standings}
    old = met(standings)
    graph = nx.Graph()
    ids = list(wins)
    for x, a in enumerate(ids):
        for b in ids[x + 1 :]:
            if frozenset((a, b)) in old:
                continue
            if within is not None and abs(wins[a] - wins[b]) > within:
                continue
            graph.add_edge(a, b)
    for c in byes:
        graph.add_edge(c, "bye")
    mate = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(mate) == len(ids) + (len(ids) % 2)


def without(standings: Sequence[Standing], pair: int | None) -> list[Standing]:
    return [s for s in standings if s.pair != pair]


def perfect_matchings(ids: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def every_round(
    standings: Sequence[Standing],
) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    ids = [s.pair for s in standings]
    if len(ids) % 2 == 0:
        for matching in perfect_matchings(ids):
            yield matching, None
        return
    for bye in eligible_for_bye(standings):
        for matching in perfect_matchings([p for p in ids if p != bye]):
            yield matching, bye


def rule_key(
    standings: Sequence[Standing], matches: Sequence[tuple[int, int]], bye: int | None
) -> tuple[int, int, tuple[int, ...], int]:
    """The rules of the module docstring as a tuple compared in order, computed from scratch:
    rematches, eligible pairs placed below the bye, matches per difference in wins (largest
    difference first), then the top-half v bottom-half cost."""
    placed = placement(standings)
    rank = {s.pair: i for i, s in enumerate(placed)}
    wins = {s.pair: s.wins for s in standings}
    group = {w: [s.pair for s in placed if s.wins == w] for w in wins.values()}
    old = met(standings)
    rematches = sum(1 for a, b in matches if frozenset((a, b)) in old)
    below = 0 if bye is None else sum(1 for p in eligible_for_bye(standings) if rank[p] > rank[bye])
    top = max(wins.values()) - min(wins.values())
    per_difference = [0] * (top + 1)
    split = 0
    for a, b in matches:
        a, b = sorted((a, b), key=rank.__getitem__)
        difference = wins[a] - wins[b]
        per_difference[top - difference] += 1
        upper, lower = group[wins[a]], group[wins[b]]
        if difference == 0:
            g = len(upper)
            split += (2 * (upper.index(b) - upper.index(a)) - g) ** 2 - g % 2
        else:
            split += (len(upper) - 1 - upper.index(a)) ** 2 + lower.index(b) ** 2
    return rematches, below, tuple(per_difference[:-1]), split


def assert_seats_everyone(standings: Sequence[Standing], result: SwissRound) -> None:
    seated = [p for match in result.matches for p in match]
    if result.bye is not None:
        seated.append(result.bye)
    assert sorted(seated) == sorted(s.pair for s in standings)
    assert (result.bye is None) == (len(standings) % 2 == 0)
    assert result.quality.bye == result.bye


def assert_quality_is_measured(standings: Sequence[Standing], result: SwissRound) -> None:
    wins = {s.pair: s.wins for s in standings}
    old = met(standings)
    differences = [abs(wins[a] - wins[b]) for a, b in result.matches]
    assert result.quality == Quality(
        rematches=sum(1 for a, b in result.matches if frozenset((a, b)) in old),
        spread=max(differences),
        cross_group=sum(1 for d in differences if d),
        bye=result.bye,
    )


def assert_table_order(standings: Sequence[Standing], result: SwissRound) -> None:
    rank = {s.pair: i for i, s in enumerate(placement(standings))}
    firsts = [rank[a] for a, _ in result.matches]
    assert firsts == sorted(firsts)
    assert all(rank[a] < rank[b] for a, b in result.matches)


def assert_follows_the_rules(standings: Sequence[Standing], result: SwissRound) -> None:
    """What is always true of a round, checked independently of the cost numbers."""
    assert_seats_everyone(standings, result)
    assert_quality_is_measured(standings, result)
    assert_table_order(standings, result)
    eligible = eligible_for_bye(standings)
    q = result.quality
    if result.bye is not None:
        # the bye goes to a pair with the fewest byes
        assert result.bye in eligible
    if q.rematches:
        assert not can_pair(standings, eligible)
        return
    if result.bye is not None:
        # no lower-placed eligible pair could have sat out without forcing a rematch
        rank = {s.pair: i for i, s in enumerate(placement(standings))}
        for pair in eligible:
            if rank[pair] > rank[result.bye]:
                assert not can_pair(without(standings, pair), [])
    rest = without(standings, result.bye)
    # the spread is the least any rematch-free round with this bye allows
    if q.spread:
        assert not can_pair(rest, [], within=q.spread - 1)
    # each boundary between score groups with an odd number of pairs above it is crossed
    wins = {s.pair: s.wins for s in standings}
    placed = placement(rest)
    for i in range(1, len(placed)):
        above, below = placed[i - 1].wins, placed[i].wins
        if above != below and i % 2 == 1:
            assert any(
                max(wins[a], wins[b]) >= above and min(wins[a], wins[b]) <= below
                for a, b in result.matches
            )


def play(n: int, rounds: int, seed: int) -> Iterator[tuple[list[Standing], SwissRound]]:
    """Rounds with random winners, yielding the standings before each round and the round."""
    rng = random.Random(seed)
    ids = rng.sample(range(1, 10 * n + 1), n)
    wins = dict.fromkeys(ids, 0)
    points = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    opponents: dict[int, set[int]] = {p: set() for p in ids}
    for _ in range(rounds):
        standings = [Standing(p, wins[p], points[p], frozenset(opponents[p]), byes[p]) for p in ids]
        result = swiss_round(standings, seed=seed)
        yield standings, result
        for a, b in result.matches:
            opponents[a].add(b)
            opponents[b].add(a)
            winner = a if rng.random() < 0.5 else b
            wins[winner] += 1
            points[winner] += rng.randint(0, 30)
        if result.bye is not None:
            wins[result.bye] += 1
            byes[result.bye] += 1


@st.composite
def fields(draw: st.DrawFn, low: int, high: int) -> list[Standing]:
    """Arbitrary standings: few distinct wins and points (so there are ties), byes, and some
    earlier meetings (symmetric), plus an opponent that is not listed (withdrawn)."""
    n = draw(st.integers(low, high))
    ids = draw(st.lists(st.integers(1, 400), min_size=n, max_size=n, unique=True))
    top = draw(st.integers(0, 4))
    wins = draw(st.lists(st.integers(0, top), min_size=n, max_size=n))
    points = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    opponents: dict[int, set[int]] = {p: {999} for p in ids}
    for x, a in enumerate(ids):
        for b in ids[x + 1 :]:
            if rng.random() < density:
                opponents[a].add(b)
                opponents[b].add(a)
    return [
        Standing(p, w, pts, frozenset(opponents[p]), b)
        for p, w, pts, b in zip(ids, wins, points, byes, strict=True)
    ]


# ------------------------------------------------------------------ optimality


@given(fields(2, 8))
@settings(max_examples=300, deadline=None)
def test_the_round_is_the_brute_force_optimum(standings: list[Standing]) -> None:
    result = swiss_round(standings)
    assert_follows_the_rules(standings, result)
    options = list(every_round(standings))
    costs = [swiss_cost(standings, m, b) for m, b in options]
    mine = swiss_cost(standings, result.matches, result.bye)
    assert mine == min(costs)
    # the cost numbers encode the rules in order of importance
    keys = [rule_key(standings, m, b) for m, b in options]
    assert rule_key(standings, result.matches, result.bye) == min(keys)
    assert sorted(costs) == [
        swiss_cost(standings, *options[k]) for k in sorted(range(len(keys)), key=keys.__getitem__)
    ]


@given(fields(9, 40))
@SLOW
def test_the_staged_search_finds_what_the_full_matching_finds(standings: list[Standing]) -> None:
    """The likely-matches-first search keeps only provable optima: its cost equals the minimum
    over every possible match."""
    result = swiss_round(standings)
    assert_follows_the_rules(standings, result)
    field = _Field(standings, 0, False)
    every = [(a, b) for a in range(field.n) for b in range(a + 1, field.n)]
    full = field.solve(every, field.eligible)
    assert full is not None
    assert swiss_cost(standings, result.matches, result.bye) == field.total(full)


@given(n=st.integers(2, 60), rounds=st.integers(1, 9), seed=st.integers(0, 10_000))
@SLOW
def test_simulated_events_follow_the_rules(n: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, n - 1)
    byes_so_far: dict[int, int] = {}
    for standings, result in play(n, rounds, seed):
        assert_follows_the_rules(standings, result)
        if result.bye is not None:
            # nobody has a second bye while another pair has none
            assert all(
                byes_so_far.get(result.bye, 0) <= byes_so_far.get(s.pair, 0) for s in standings
            )
            byes_so_far[result.bye] = byes_so_far.get(result.bye, 0) + 1


@given(half=st.integers(2, 30), seed=st.integers(0, 10_000))
@SLOW
def test_round_two_keeps_the_score_groups_apart(half: int, seed: int) -> None:
    """After round 1 the winners have not met each other, nor have the losers: with an even
    number in each group nobody floats, with an odd number exactly one pair does."""
    n = 2 * half
    (_, first), (standings, second) = play(n, 2, seed)
    assert first.quality.spread == 0
    assert second.quality.rematches == 0
    assert second.quality.spread == half % 2
    assert second.quality.cross_group == half % 2


@pytest.mark.parametrize("n", [16, 32, 64])
def test_groups_that_can_pair_among_themselves_stay_apart(n: int) -> None:
    """With 2**k pairs every group splits in halves, so all groups stay even: while no group is
    blocked by rematches, every match is between equal wins."""
    checked = 0
    for standings, result in play(n, n.bit_length() - 1, seed=n):
        groups = {s.wins for s in standings}
        assert all(sum(1 for s in standings if s.wins == w) % 2 == 0 for w in groups)
        if all(can_pair([s for s in standings if s.wins == w], []) for w in groups):
            assert result.quality.spread == 0
            checked += 1
    assert checked >= 2


def test_the_simulation_is_reproducible() -> None:
    rounds = swiss_simulate(11, 6, seed=4)
    assert rounds == swiss_simulate(11, 6, seed=4)
    assert len(rounds) == 6
    pairs = list(range(1, 12))
    seen: set[frozenset[int]] = set()
    for result in rounds:
        assert sorted([p for m in result.matches for p in m] + [result.bye]) == pairs
        meetings = {frozenset(m) for m in result.matches}
        assert not meetings & seen and result.quality.rematches == 0
        seen |= meetings
    assert len({r.bye for r in rounds}) == 6
    with pytest.raises(SwissError) as err:
        swiss_simulate(1, 3, seed=0)
    assert err.value.field == "pairs"


# ------------------------------------------------------------------ concrete rounds


def fresh(ids: Sequence[int]) -> list[Standing]:
    return [Standing(p, 0) for p in ids]


def test_round_one_is_top_half_against_bottom_half() -> None:
    result = swiss_round(fresh(range(1, 9)))
    assert result.matches == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert result.bye is None
    assert result.quality == Quality(rematches=0, spread=0, cross_group=0, bye=None)
    odd = swiss_round(fresh(range(1, 8)))
    assert odd.matches == ((1, 4), (2, 5), (3, 6)) and odd.bye == 7
    # the given order is the seed order, whatever the ids
    assert swiss_round(fresh([40, 7, 13, 2])).matches == ((40, 13), (7, 2))
    assert swiss_round(fresh([5, 9])).matches == ((5, 9),)
    three = swiss_round(fresh([5, 9, 1]))
    assert three.matches == ((5, 9),) and three.bye == 1


@pytest.mark.parametrize("n", [6, 10, 11, 32, 33, 128])
def test_round_one_folds_the_seed_order(n: int) -> None:
    result = swiss_round(fresh(range(1, n + 1)))
    half = n // 2
    assert result.matches == tuple((i, i + half) for i in range(1, half + 1))
    assert result.bye == (n if n % 2 else None)


def test_a_shuffled_first_round_is_seeded() -> None:
    pairs = fresh(range(1, 17))
    plain = swiss_round(pairs)
    draws = {swiss_round(pairs, seed=s, shuffle_first=True).matches for s in range(5)}
    assert len(draws) > 1 and plain.matches not in draws
    assert swiss_round(pairs, seed=3, shuffle_first=True) == swiss_round(
        pairs, seed=3, shuffle_first=True
    )
    shuffled = swiss_round(pairs, seed=3, shuffle_first=True)
    order = list(range(1, 17))
    random.Random(3).shuffle(order)
    assert shuffled.matches == tuple((order[i], order[i + 8]) for i in range(8))
    # after the first round the shuffle does not apply
    later = [Standing(p, p % 2) for p in range(1, 17)]
    assert swiss_round(later, seed=3, shuffle_first=True) == swiss_round(later)


def test_round_two_splits_each_group_top_against_bottom() -> None:
    first = swiss_round(fresh(range(1, 9)))
    winners = {1, 6, 3, 8}  # 1 beat 5, 6 beat 2, 3 beat 7, 8 beat 4
    opponents = {p: frozenset({q}) for m in first.matches for p, q in (m, m[::-1])}
    standings = [Standing(p, int(p in winners), 0, opponents[p]) for p in range(1, 9)]
    result = swiss_round(standings)
    # placement: 1, 3, 6, 8 (one win, seed order), then 2, 4, 5, 7
    assert result.matches == ((1, 6), (3, 8), (2, 5), (4, 7))
    assert result.quality == Quality(rematches=0, spread=0, cross_group=0, bye=None)


def test_points_order_a_score_group() -> None:
    standings = [Standing(p, 1, points) for p, points in [(1, 10), (2, 40), (3, 30), (4, 20)]]
    assert swiss_round(standings).matches == ((2, 4), (3, 1))


def test_an_odd_group_floats_its_lowest_pair_to_the_top_of_the_next() -> None:
    standings = [Standing(p, 1 if p <= 3 else 0) for p in range(1, 7)]
    result = swiss_round(standings)
    assert result.matches == ((1, 2), (3, 4), (5, 6))
    assert result.quality == Quality(rematches=0, spread=1, cross_group=1, bye=None)


def test_a_rematch_in_the_split_moves_to_the_next_opponent() -> None:
    standings = [
        Standing(1, 2, 0, frozenset({3})),
        Standing(2, 2),
        Standing(3, 2, 0, frozenset({1})),
        Standing(4, 2),
    ]
    result = swiss_round(standings)
    assert result.quality.rematches == 0
    assert frozenset((1, 3)) not in {frozenset(m) for m in result.matches}


def test_rematches_only_when_unavoidable_and_as_few_as_possible() -> None:
    everybody = [Standing(p, 1, 0, frozenset(set(range(1, 5)) - {p})) for p in range(1, 5)]
    assert swiss_round(everybody).quality.rematches == 2
    # six pairs that have met everyone of the other triangle: one rematch is the least
    triangles = [{1, 2, 3}, {4, 5, 6}]
    standings = [
        Standing(p, 0, 0, frozenset(next(t for t in triangles if p not in t))) for p in range(1, 7)
    ]
    result = swiss_round(standings)
    assert result.quality.rematches == 1
    assert_follows_the_rules(standings, result)


def test_the_bye_goes_to_the_lowest_pair_with_the_fewest_byes() -> None:
    standings = [Standing(p, 5 - p, 0, frozenset(), 1 if p == 5 else 0) for p in range(1, 6)]
    assert swiss_round(standings).bye == 4
    everyone_had_one = [Standing(p, 5 - p, 0, frozenset(), 1) for p in range(1, 6)]
    assert swiss_round(everyone_had_one).bye == 5


def test_the_bye_skips_a_pair_whose_bye_would_force_a_rematch() -> None:
    # pair 1 has met 2, 3 and 4: with 5 on the bye, 1 would have to meet one of them again
    opponents = {1: {2, 3, 4}, 2: {1}, 3: {1}, 4: {1}, 5: set()}
    standings = [Standing(p, 0, 0, frozenset(opponents[p])) for p in range(1, 6)]
    result = swiss_round(standings)
    assert result.bye == 4
    assert result.quality.rematches == 0
    assert (1, 5) in result.matches


def test_withdrawn_opponents_are_ignored() -> None:
    standings = [Standing(p, 0, 0, frozenset({99, p})) for p in range(1, 5)]
    assert swiss_round(standings).matches == swiss_round(fresh(range(1, 5))).matches


@pytest.mark.parametrize(
    ("standings", "field", "code"),
    [
        ([], "pairs", "too_few"),
        ([Standing(1, 0)], "pairs", "too_few"),
        ([Standing(1, 0), Standing(2, 0), Standing(1, 1)], "pairs", "duplicate"),
        ([Standing(1, 0), Standing(2, -1)], "pairs[1].wins", "out_of_range"),
        ([Standing(1, 0), Standing(2, 0, byes=-1)], "pairs[1].byes", "out_of_range"),
        ([Standing(True, 0), Standing(2, 0)], "pairs[0].pair", "bad_number"),
        ([Standing(1, 0), Standing(2, 1.5)], "pairs[1].wins", "bad_number"),
        ([Standing(1, 0), Standing(2, 0, 0, frozenset({"x"}))], "pairs[1].opponents", "bad_id"),
        ([Standing(1, 0), (2, 0)], "pairs[1]", "bad_pairs"),
    ],
)
def test_bad_standings_are_refused_naming_the_field(
    standings: list[Standing], field: str, code: str
) -> None:
    with pytest.raises(SwissError) as err:
        swiss_round(standings)
    assert (err.value.field, err.value.code) == (field, code)
    assert err.value.message
    assert isinstance(err.value, ValueError)


def test_too_many_pairs_are_refused() -> None:
    with pytest.raises(SwissError) as err:
        swiss_round(fresh(range(501)))
    assert err.value.field == "pairs"


def test_swiss_cost_checks_the_round() -> None:
    standings = fresh(range(1, 6))
    assert swiss_cost(standings, [(1, 3), (2, 4)], 5) == 0
    assert swiss_cost(standings, [(1, 3), (2, 4)], 5) < swiss_cost(standings, [(1, 2), (3, 4)], 5)
    with pytest.raises(SwissError) as err:
        swiss_cost(standings, [(1, 3)], 5)
    assert err.value.field == "matches"
    with pytest.raises(SwissError) as err:
        swiss_cost(standings, [(1, 3), (2, 4), (5, 9)], None)
    assert err.value.field == "matches"
    had_bye = [Standing(p, 0, 0, frozenset(), int(p == 5)) for p in range(1, 6)]
    with pytest.raises(SwissError) as err:
        swiss_cost(had_bye, [(1, 3), (2, 4)], 5)
    assert err.value.field == "bye"
