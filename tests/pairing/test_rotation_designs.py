"""Every whist design the rotation module can produce is verified here."""

from __future__ import annotations

from collections import Counter

import pytest

from pairing.rotation import design_sizes, plan_schedule, verify_whist, whist_design
from pairing.rotation.designs import (
    STARTERS,
    develop,
    field_design,
    product_design,
    search_starter,
)
from pairing.rotation.patterned import search_patterned

PRIMES_1_MOD_4 = [p for p in range(5, 102) if p % 4 == 1 and all(p % d for d in range(2, p))]
REQUIRED = sorted({8, 12, 13, 16, 17, 20, *PRIMES_1_MOD_4})
NEW_SIZES = [40, 45, 65, 85]


def check_whist(
    rounds: list[tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...]]], v: int
) -> None:
    """Independent of ``verify_whist``: partners once, opponents twice, byes once each."""
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for tables, bye in rounds:
        assert sorted([p for t in tables for p in t] + list(bye)) == list(range(v))
        byes.update(bye)
        for n, e, s, w in tables:
            partners[frozenset((n, s))] += 1
            partners[frozenset((e, w))] += 1
            for x in (n, s):
                for y in (e, w):
                    opponents[frozenset((x, y))] += 1
    pairs = v * (v - 1) // 2
    assert len(partners) == pairs and set(partners.values()) == {1}
    assert len(opponents) == pairs and set(opponents.values()) == {2}
    if v % 4 == 0:
        assert len(rounds) == v - 1 and not byes
    else:
        assert len(rounds) == v and set(byes.values()) == {1} and len(byes) == v


@pytest.mark.parametrize("v", REQUIRED)
def test_required_sizes_have_verified_designs(v: int) -> None:
    rounds = whist_design(v)
    assert rounds is not None
    check_whist(rounds, v)


@pytest.mark.parametrize("v", sorted(STARTERS))
def test_every_stored_starter_develops_into_a_design(v: int) -> None:
    check_whist(develop(v, STARTERS[v]), v)


@pytest.mark.parametrize("q", [9, 25, 49, 81, 121, 125, 169, 289, 361])
def test_finite_field_designs_for_prime_powers(q: int) -> None:
    rounds = field_design(q)
    assert rounds is not None
    check_whist(rounds, q)


@pytest.mark.parametrize("v", [45, 65, 85, 117, 145, 153, 225])
def test_product_ring_designs(v: int) -> None:
    rounds = product_design(v)
    assert rounds is not None
    check_whist(rounds, v)
    assert v in design_sizes(v)


def test_product_ring_needs_every_factor_1_mod_4() -> None:
    for v in (21, 33, 57, 69, 77, 93):
        assert product_design(v) is None


def test_every_listed_size_up_to_200_builds_and_verifies() -> None:
    sizes = design_sizes(200)
    assert set(REQUIRED) <= set(sizes)
    for v in sizes:
        rounds = whist_design(v)
        assert rounds is not None, v
        verify_whist(rounds, v)


def test_no_design_for_impossible_sizes() -> None:
    for v in (6, 7, 10, 11, 14):
        assert whist_design(v) is None


def test_verify_whist_rejects_a_broken_design() -> None:
    rounds = whist_design(8)
    assert rounds is not None
    tables, byes = rounds[0]
    a, b, c, d = tables[0]
    broken = [((b, a, c, d), *tables[1:]), byes]
    with pytest.raises(ValueError):
        verify_whist([tuple(broken), *rounds[1:]], 8)  # type: ignore[list-item]


def test_starter_search_finds_small_designs() -> None:
    for v in (8, 12, 21):
        starter = search_starter(v, seed=1)
        assert starter is not None
        check_whist(develop(v, starter), v)


@pytest.mark.parametrize("v", [8, 12, 13, 16, 17, 20, 21, 29, *NEW_SIZES])
def test_plan_schedule_returns_the_complete_design(v: int) -> None:
    full = v - 1 if v % 4 == 0 else v
    schedule = plan_schedule(list(range(1, v + 1)), full, seed=4)
    rounds = [
        (
            tuple((n - 1, e - 1, s - 1, w - 1) for n, e, s, w in r.tables),
            tuple(p - 1 for p in r.byes),
        )
        for r in schedule.rounds
    ]
    check_whist(rounds, v)
    q = schedule.quality
    assert q.repeat_partners == 0
    assert q.repeat_opponents == q.opponents_lower_bound == v * (v - 1) // 2
    assert q.repeat_tablemates == q.tablemates_lower_bound


@pytest.mark.parametrize("v", [8, 12, 16, 20, 21])
def test_stored_starters_are_what_the_search_finds(v: int) -> None:
    """Provenance: the stored starter is the search's own result for seed 0."""
    assert search_starter(v, seed=0) == STARTERS[v]


def test_patterned_starter_for_40_is_what_the_search_finds() -> None:
    """Provenance of STARTERS[40]: the patterned search's own result for seed 0 (about 2 s)."""
    starter = search_patterned(40, seed=0)
    assert starter == STARTERS[40]
    check_whist(develop(40, starter), 40)


@pytest.mark.parametrize("v", [28, 40])
def test_patterned_starters_have_the_pattern(v: int) -> None:
    starter = search_patterned(v, seed=0)
    assert starter is not None
    m = v - 1
    for a, b, c, d in starter:
        assert (a + c) % m == 0 or m in (a, c)
        assert (b + d) % m == 0
    check_whist(develop(v, starter), v)


def test_no_patterned_starter_where_squares_forbid_it() -> None:
    assert search_patterned(32, seed=0, max_moves=20_000) is None
    assert search_patterned(33, seed=0, max_moves=20_000) is None
