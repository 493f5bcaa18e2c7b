"""Properties of the partner rotation (pure Python, no database)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pairing.rotation import (
    Quality,
    RotationError,
    RoundPlan,
    Schedule,
    max_partner_free_rounds,
    measure,
    next_round,
    plan_schedule,
)

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_valid_round(plan: RoundPlan[int], present: list[int]) -> None:
    seated = [p for t in plan.tables for p in t]
    assert all(len(t) == 4 for t in plan.tables)
    assert sorted(seated + list(plan.byes)) == sorted(present)
    assert len(plan.byes) == len(present) % 4
    assert len(plan.tables) == len(present) // 4


def assert_fair_byes(
    history: list[RoundPlan[int]], plan: RoundPlan[int], present: list[int]
) -> None:
    """Nobody on bye has more byes (before this round) than anybody who plays."""
    before: Counter[int] = Counter(p for r in history for p in r.byes)
    if plan.byes:
        playing = [p for t in plan.tables for p in t]
        assert max(before[p] for p in plan.byes) <= min(before[p] for p in playing)


# ------------------------------------------------------------------ plan_schedule


@given(n=st.integers(4, 70), r=st.integers(1, 12), seed=st.integers(0, 10_000))
@SLOW
def test_plan_seats_everyone_and_avoids_repeat_partners(n: int, r: int, seed: int) -> None:
    r = min(r, max_partner_free_rounds(n))
    players = list(range(1, n + 1))
    schedule = plan_schedule(players, r, seed=seed)
    assert isinstance(schedule, Schedule)
    assert len(schedule.rounds) == r
    history: list[RoundPlan[int]] = []
    for plan in schedule.rounds:
        assert_valid_round(plan, players)
        assert_fair_byes(history, plan, players)
        history.append(plan)
    q = schedule.quality
    assert q == measure(schedule.rounds)
    assert q.repeat_partners == 0
    assert q.max_byes - q.min_byes <= 1
    assert q.repeat_opponents >= q.opponents_lower_bound
    assert q.repeat_tablemates >= q.tablemates_lower_bound


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23, 26, 31, 37])
def test_plan_half_as_many_rounds_as_players_without_repeat_partners(n: int) -> None:
    schedule = plan_schedule(list(range(n)), n // 2, seed=3)
    assert schedule.quality.repeat_partners == 0


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 10, 11, 13, 16])
def test_plan_up_to_the_partner_free_limit(n: int) -> None:
    r = max_partner_free_rounds(n)
    assert plan_schedule(list(range(n)), r).quality.repeat_partners == 0
    with pytest.raises(RotationError) as err:
        plan_schedule(list(range(n)), r + 1)
    assert err.value.field == "rounds"
    allowed = plan_schedule(list(range(n)), r + 1, allow_repeat_partners=True)
    assert allowed.quality.repeat_partners >= 1


@pytest.mark.parametrize("n", [100, 137, 250])
def test_plan_large_club_night_twelve_rounds(n: int) -> None:
    q = plan_schedule(list(range(n)), 12, seed=1).quality
    assert q.repeat_partners == 0
    assert q.repeat_opponents == q.opponents_lower_bound == 0
    assert q.max_byes - q.min_byes <= 1


def test_plan_is_deterministic_and_seed_matters() -> None:
    a = plan_schedule(list(range(30)), 6, seed=5)
    b = plan_schedule(list(range(30)), 6, seed=5)
    c = plan_schedule(list(range(30)), 6, seed=6)
    assert a == b
    assert a.rounds != c.rounds


def test_plan_uses_any_orderable_ids() -> None:
    names = [f"player-{i:02d}" for i in range(14)]
    schedule = plan_schedule(names, 5)
    for plan in schedule.rounds:
        assert_valid_round(plan, names)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("players", "rounds", "field", "code"),
    [
        ([1, 2, 3], 2, "players", "too_few_players"),
        ([1, 2, 3, 4, 4], 2, "players", "duplicate_player"),
        ([1, 2, 3, "x"], 2, "players", "bad_id"),
        (list(range(8)), 0, "rounds", "bad_rounds"),
        (list(range(8)), 8, "rounds", "too_many_rounds"),
    ],
)
def test_plan_rejects_bad_requests(
    players: list[object], rounds: int, field: str, code: str
) -> None:
    with pytest.raises(RotationError) as err:
        plan_schedule(players, rounds)  # type: ignore[arg-type]
    assert err.value.field == field
    assert err.value.code == code
    assert err.value.message
    assert isinstance(err.value, ValueError)


# ------------------------------------------------------------------ next_round


@given(n=st.integers(8, 60), seed=st.integers(0, 1000))
@SLOW
def test_next_round_greedy_reaches_no_repeat_partners(n: int, seed: int) -> None:
    rounds = min(n // 2, 12)
    players = list(range(n))
    history: list[RoundPlan[int]] = []
    for _ in range(rounds):
        plan = next_round(players, history, seed=seed)
        assert_valid_round(plan, players)
        assert_fair_byes(history, plan, players)
        history.append(plan)
    q = measure(history)
    assert q.repeat_partners == 0
    assert q.max_byes - q.min_byes <= 1


@pytest.mark.parametrize("n", [64, 101, 250])
def test_next_round_greedy_twelve_rounds_large(n: int) -> None:
    players = list(range(n))
    history: list[RoundPlan[int]] = []
    for _ in range(12):
        history.append(next_round(players, history))
    assert measure(history).repeat_partners == 0


@given(
    n=st.integers(8, 40),
    seed=st.integers(0, 1000),
    data=st.data(),
)
@SLOW
def test_next_round_with_arrivals_leavers_and_fixed_tables(
    n: int, seed: int, data: st.DataObject
) -> None:
    pool = list(range(n + 8))
    present = sorted(data.draw(st.sets(st.sampled_from(pool), min_size=n, max_size=n)))
    history: list[RoundPlan[int]] = []
    for _ in range(5):
        n_tables = len(present) // 4
        fixed_players = data.draw(st.lists(st.sampled_from(present), max_size=3, unique=True))
        fixed = {p: data.draw(st.integers(1, n_tables)) for p in fixed_players}
        per_table = Counter(fixed.values())
        if any(c > 4 for c in per_table.values()):
            continue
        plan = next_round(present, history, seed=seed, fixed_tables=fixed)
        assert_valid_round(plan, present)
        for p, t in fixed.items():
            assert p in plan.tables[t - 1]
        free = [p for p in present if p not in fixed]
        before: Counter[int] = Counter(p for r in history for p in r.byes)
        if plan.byes:
            playing = [p for t in plan.tables for p in t if p not in fixed]
            assert max(before[p] for p in plan.byes) <= min(before[p] for p in playing)
        assert set(plan.byes) <= set(free)
        assert next_round(present, history, seed=seed, fixed_tables=fixed) == plan
        history.append(plan)
        # someone leaves, someone arrives
        leaving = data.draw(st.sampled_from(present))
        arriving = data.draw(st.sampled_from(pool))
        present = sorted((set(present) - {leaving}) | {arriving})
        if len(present) < 4:
            break


def test_next_round_pins_players_in_wheelchairs_and_partners_them_freshly() -> None:
    players = list(range(1, 17))
    history: list[RoundPlan[int]] = []
    for _ in range(8):
        plan = next_round(players, history, fixed_tables={7: 2, 11: 2})
        assert 7 in plan.tables[1] and 11 in plan.tables[1]
        history.append(plan)
    assert measure(history).repeat_partners == 0


def test_late_arrival_and_early_leaver() -> None:
    history: list[RoundPlan[int]] = []
    players = list(range(1, 13))
    for _ in range(3):
        history.append(next_round(players, history))
    players = [p for p in players if p != 5] + [13, 14]
    plan = next_round(players, history)
    assert_valid_round(plan, players)
    assert 5 not in list(plan.players())
    assert measure([*history, plan]).repeat_partners == 0


def test_byes_rotate_through_everyone_first() -> None:
    players = list(range(1, 11))  # 2 byes a round
    history: list[RoundPlan[int]] = []
    for _ in range(5):
        history.append(next_round(players, history))
    byes = Counter(p for r in history for p in r.byes)
    assert all(byes[p] == 1 for p in players)


@pytest.mark.parametrize(
    ("players", "fixed", "field", "code"),
    [
        ([1, 2, 3], {}, "players", "too_few_players"),
        ([1, 1, 2, 3, 4], {}, "players", "duplicate_player"),
        (list(range(1, 9)), {9: 1}, "fixed_tables", "not_present"),
        (list(range(1, 9)), {1: 3}, "fixed_tables", "no_such_table"),
        (list(range(1, 9)), {1: 0}, "fixed_tables", "no_such_table"),
        (list(range(1, 13)), {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, "fixed_tables", "table_full"),
        (list(range(1, 9)), {1: "2"}, "fixed_tables", "bad_table"),
    ],
)
def test_next_round_rejects_bad_requests(
    players: list[int], fixed: dict[int, object], field: str, code: str
) -> None:
    with pytest.raises(RotationError) as err:
        next_round(players, [], fixed_tables=fixed)  # type: ignore[arg-type]
    assert (err.value.field, err.value.code) == (field, code)


def test_next_round_rejects_a_malformed_history() -> None:
    bad = RoundPlan(tables=((1, 2, 3, 4), (1, 5, 6, 7)))  # player 1 twice
    with pytest.raises(RotationError) as err:
        next_round(list(range(1, 9)), [bad])
    assert err.value.field == "history"


# ------------------------------------------------------------------ measure


def test_measure_counts_repeats_and_bounds() -> None:
    r1 = RoundPlan(tables=((1, 2, 3, 4),), byes=(5,))
    r2 = RoundPlan(tables=((1, 2, 3, 5),), byes=(4,))
    q = measure([r1, r2])
    assert isinstance(q, Quality)
    assert q.repeat_partners == 1  # 1–3 twice
    assert q.repeat_opponents == 2  # 1–2 and 2–3 twice
    assert q.repeat_tablemates == 3  # 1–2, 1–3, 2–3
    assert q.byes_per_player == {1: 0, 2: 0, 3: 0, 4: 1, 5: 1}
    assert (q.max_byes, q.min_byes) == (1, 0)
    # each of 1, 2, 3 meets 6 tablemates among 4 others: 2 repeats each, 3 pairs-worth
    assert q.tablemates_lower_bound == 3
    d = q.to_dict()
    assert d["byes_per_player"] == {"1": 0, "2": 0, "3": 0, "4": 1, "5": 1}
    assert d["repeat_partners"] == 1
