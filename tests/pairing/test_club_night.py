"""The club-night builder: a complete whist design while the night allows one, the search after."""

from __future__ import annotations

import itertools

from pairing.club_night import club_night_round
from pairing.results import TableResult
from pairing.rotation import RoundPlan, whist_design


def _partners(plans: list[RoundPlan[int]]) -> list[frozenset[int]]:
    pairs = []
    for plan in plans:
        for n, e, s, w in plan.tables:
            pairs += [frozenset((n, s)), frozenset((e, w))]
    return pairs


def _play(players: list[int], rounds: int, seed: int = 3) -> tuple[list[RoundPlan[int]], list[str]]:
    history: list[RoundPlan[int]] = []
    methods = []
    for _ in range(rounds):
        built = club_night_round(players, history, rounds_planned=rounds, seed=seed)
        history.append(built.plan)
        methods.append(built.method)
    return history, methods


def test_twelve_players_follow_the_whist_design_and_partner_everyone_once() -> None:
    players = list(range(101, 113))
    design = whist_design(12)
    assert design is not None
    history, methods = _play(players, len(design))
    assert methods == ["whist_design"] * len(design)
    partners = _partners(history)
    assert len(partners) == len(set(partners)) == 12 * 11 // 2  # every pair exactly once


def test_thirteen_players_sit_out_once_each_over_the_design() -> None:
    players = list(range(1, 14))
    history, methods = _play(players, 13)
    assert set(methods) == {"whist_design"}
    byes = list(itertools.chain.from_iterable(plan.byes for plan in history))
    assert sorted(byes) == players


def test_a_late_arrival_leaves_the_design_for_the_search() -> None:
    players = list(range(1, 13))
    history, _ = _play(players, 2)
    built = club_night_round([*players, 13], history, rounds_planned=6, seed=3)
    assert built.method == "search"
    assert 13 in set(built.plan.seated()) | set(built.plan.byes)
    assert not set(_partners([built.plan])) & set(_partners(history))


def test_a_night_changed_by_hand_leaves_the_design() -> None:
    players = list(range(1, 9))
    first = club_night_round(players, [], rounds_planned=4, seed=1).plan
    (n, e, s, w), other = first.tables
    swapped = RoundPlan(tables=((n, s, e, w), other), byes=())  # the director moved seats
    built = club_night_round(players, [swapped], rounds_planned=4, seed=1)
    assert built.method == "search"


def test_pinned_tables_and_sizes_without_a_design_use_the_search() -> None:
    assert club_night_round(list(range(1, 11)), [], rounds_planned=3, seed=0).method == "search"
    pinned = club_night_round(list(range(1, 9)), [], rounds_planned=3, seed=0,
                              fixed_tables={1: 2})
    assert pinned.method == "search"
    assert any(1 in table for table in pinned.plan.tables[1:2])


def test_results_are_accepted_and_do_not_change_the_rotation() -> None:
    players = list(range(1, 9))
    first = club_night_round(players, [], rounds_planned=4, seed=5).plan
    results = tuple(
        TableResult(round_number=1, table_number=i, seats=dict(zip("NESW", t, strict=True)),
                    points={"NS": 300, "EW": 510}, winner="EW", finished=True)
        for i, t in enumerate(first.tables, start=1)
    )
    assert results[0].winners() == tuple(sorted((first.tables[0][1], first.tables[0][3])))
    with_results = club_night_round(players, [first], rounds_planned=4, seed=5, results=results)
    without = club_night_round(players, [first], rounds_planned=4, seed=5)
    assert with_results == without
