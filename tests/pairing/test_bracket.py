"""Elimination brackets (pairing.bracket): plans, byes, drop-in order, state of play, places."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.bracket import (
    BracketError,
    Plan,
    Slot,
    State,
    bracket_plan,
    bracket_state,
    drop_order,
    elimination_places,
    seed_order,
)
from pairing.bracket.consolation import may_have_met

MAIN = ("winners", "losers", "final")


@dataclass
class Run:
    """A bracket played to the end, wave by wave, with what happened in playing order."""

    plan: Plan
    seeds: list[int]
    results: dict[str, int] = field(default_factory=dict)
    played: list[tuple[str, int, int]] = field(default_factory=list)  # (code, winner, loser)
    waves: int = 0
    state: State | None = None


def play(plan: Plan, seeds: Sequence[int], pick: Callable[[str, int, int], int]) -> Run:
    """Seat every ready match, enter its result (``pick`` chooses the winner), repeat."""
    run = Run(plan, list(seeds))
    while True:
        state = bracket_state(plan, seeds, run.results)
        # ready is exactly the matches with two known pairs, no result, still needed
        expected = [
            m.code
            for m in plan.matches
            if None not in state.sides[m.code]
            and m.code not in run.results
            and m.code not in state.skipped
        ]
        assert list(state.ready) == expected
        if not state.ready:
            run.state = state
            return run
        run.waves += 1
        for code in state.ready:
            a, b = state.sides[code]
            assert a is not None and b is not None
            winner = pick(code, a, b)
            run.results[code] = winner
            run.played.append((code, winner, b if winner == a else a))


def random_pick(rng: random.Random) -> Callable[[str, int, int], int]:
    return lambda code, a, b: rng.choice((a, b))


def favourite_pick(seeds: Sequence[int]) -> Callable[[str, int, int], int]:
    rank = {e: i for i, e in enumerate(seeds)}
    return lambda code, a, b: a if rank[a] < rank[b] else b


def ids(n: int, start: int = 101) -> list[int]:
    return list(range(start, start + n))


def shared_places(counts: Sequence[int]) -> list[int]:
    """Places for groups of pairs going out together, best group first."""
    out: list[int] = []
    for count in counts:
        out.extend([len(out) + 1] * count)
    return out


def consolation_feeders(plan: Plan) -> list[str]:
    bracket = "winners" if plan.kind == "single" else "losers"
    return [m.code for m in plan.matches if m.bracket == bracket and m.round in plan.consolation]


# --- seeding ---------------------------------------------------------------------------------


def test_seed_order_of_eight() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(1) == [1]
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_seed_order_pairs_sum_and_halves(size: int) -> None:
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    if size >= 2:  # seeds 1 and 2 are in different halves: they can only meet in the final
        assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


@pytest.mark.parametrize("size", [0, 3, 6, 12, True, 4096])
def test_seed_order_refuses_sizes_that_are_not_powers_of_two(size: int) -> None:
    with pytest.raises(BracketError) as info:
        seed_order(size)
    assert info.value.field == "size"


def test_sixteen_pairs_first_round() -> None:
    plan = bracket_plan(16)
    first = [m for m in plan.matches if m.bracket == "winners" and m.round == 1]
    assert [m.code for m in first] == [f"W1-{i}" for i in range(1, 9)]
    assert [(m.sides[0].ref, m.sides[1].ref) for m in first] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip
    assert all(s.kind == "seed" for m in first for s in m.sides)
    w1 = plan.match("W1-1")
    assert (w1.winner_to, w1.loser_to, w1.depth) == ("W2-1", None, 1)
    final = plan.match("W4-1")
    assert (final.winner_to, final.loser_to) == (None, None)
    assert final.sides == (Slot("winner", "W3-1"), Slot("winner", "W3-2"))
    assert len(plan.matches) == 15


def test_byes_go_to_the_best_seeds() -> None:
    plan = bracket_plan(13)
    first = [m for m in plan.matches if m.bracket == "winners" and m.round == 1]
    assert len(first) == 5
    assert {m.code for m in first} == {"W1-2", "W1-3", "W1-4", "W1-6", "W1-8"}
    seeded_in_round_two = {
        s.ref for m in plan.matches if m.round == 2 for s in m.sides if s.kind == "seed"
    }
    assert seeded_in_round_two == {1, 2, 3}
    assert plan.match("W2-1").sides == (Slot("seed", 1), Slot("winner", "W1-2"))
    with pytest.raises(BracketError) as info:
        plan.match("W1-1")  # 1 v 16 would be a bye: it does not exist
    assert info.value.field == "match"


# --- the thirteen-pair double elimination with a consolation -----------------------------------


def test_thirteen_pairs_double_elimination_with_consolation() -> None:
    plan = bracket_plan(13, kind="double", consolation=(1, 2))
    assert plan.consolation == (1, 2)
    main = [m for m in plan.matches if m.bracket in MAIN]
    assert len([m for m in main if not m.conditional]) == 24
    assert [m.code for m in main if m.conditional] == ["GF2"]
    # Byes to seeds 1-3: they start in round 2, and the losers bracket collapses around them.
    assert plan.match("W2-1").sides[0] == Slot("seed", 1)
    assert plan.match("W2-3").sides[0] == Slot("seed", 2)
    assert plan.match("W2-4").sides[0] == Slot("seed", 3)
    losers_round_one = [m.code for m in plan.matches if m.bracket == "losers" and m.round == 1]
    assert losers_round_one == ["L1-2"]
    assert plan.match("W1-2").loser_to == "L2-1"  # its L1 partner was a bye: straight to L2
    assert plan.match("L2-1").sides[0] == Slot("loser", "W1-2")
    # Drop-ins from round 2 in reverse order.
    assert [plan.match(f"L2-{i}").sides[1].ref for i in range(1, 5)] == [
        "W2-4", "W2-3", "W2-2", "W2-1",
    ]  # fmt: skip
    assert plan.match("L6-1").sides == (Slot("winner", "L5-1"), Slot("loser", "W4-1"))
    assert plan.match("GF").sides == (Slot("winner", "W4-1"), Slot("winner", "L6-1"))
    assert plan.match("GF2").sides == (Slot("loser", "GF"), Slot("winner", "GF"))
    # Consolation: the one L1 loser and the four L2 losers; the L2 losers, out later, get byes.
    consolation = plan.in_bracket("consolation")
    assert [m.code for m in consolation] == ["C1-2", "C2-2", "C2-1", "C3-1"]
    assert plan.match("C1-2").sides == (Slot("loser", "L2-4"), Slot("loser", "L1-2"))
    assert {s.ref for m in consolation for s in m.sides if s.kind == "loser"} == {
        "L1-2", "L2-1", "L2-2", "L2-3", "L2-4",
    }  # fmt: skip
    assert plan.match("L1-2").loser_to == "C1-2"
    assert plan.match("L3-1").loser_to is None
    places = elimination_places(plan)
    assert places["L1-2"] == (None, 13)
    assert places["L2-1"] == (None, 9)
    assert places["L6-1"] == (None, 3)
    assert places["GF"] == (None, None) and places["GF2"] == (1, 2)

    seeds = ids(13)
    run = play(plan, seeds, favourite_pick(seeds))
    state = run.state
    assert state is not None and state.complete
    assert state.champion == seeds[0]
    assert "GF2" in state.skipped
    assert len([c for c, _, _ in run.played if plan.match(c).bracket in MAIN]) == 24
    assert state.placements[:2] == ((1, seeds[0]), (2, seeds[1]))
    assert [p for p, _ in state.placements] == shared_places([1, 1, 1, 1, 2, 2, 4, 1])
    assert state.losses[seeds[0]] == 0 and state.losses[seeds[1]] == 2
    assert len(state.consolation_placements) == 5
    assert [p for p, _ in state.consolation_placements] == [1, 2, 3, 3, 5]


def test_reset_is_played_when_the_losers_side_wins_the_grand_final() -> None:
    plan = bracket_plan(2, kind="double")
    assert [m.code for m in plan.matches] == ["W1-1", "GF", "GF2"]
    state = bracket_state(plan, [7, 9], {"W1-1": 7})
    assert state.ready == ("GF",)
    assert state.sides["GF"] == (7, 9)
    state = bracket_state(plan, [7, 9], {"W1-1": 7, "GF": 9})
    assert state.ready == ("GF2",) and not state.complete and state.champion is None
    assert state.losses == {7: 1, 9: 1}
    state = bracket_state(plan, [7, 9], {"W1-1": 7, "GF": 9, "GF2": 7})
    assert state.complete and state.champion == 7
    assert state.placements == ((1, 7), (2, 9))
    assert state.losses == {7: 1, 9: 2}
    # the winners-bracket side wins GF: GF2 is skipped and a result for it is refused
    state = bracket_state(plan, [7, 9], {"W1-1": 7, "GF": 7})
    assert state.complete and state.champion == 7 and state.skipped == frozenset({"GF2"})
    with pytest.raises(BracketError) as info:
        bracket_state(plan, [7, 9], {"W1-1": 7, "GF": 7, "GF2": 9})
    assert info.value.field == "match" and info.value.code == "skipped"
    assert "GF2" in info.value.message


def test_without_reset_the_grand_final_decides() -> None:
    plan = bracket_plan(4, kind="double", reset=False)
    assert not plan.has("GF2")
    assert plan.match("GF").winner_to is None
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 4, "L2-1": 2, "GF": 2}
    state = bracket_state(plan, [1, 2, 3, 4], results)
    assert state.complete and state.champion == 2
    assert state.placements == ((1, 2), (2, 1), (3, 4), (4, 3))
    assert state.losses == {1: 1, 2: 1, 3: 2, 4: 2}


def test_single_elimination_places_are_shared_by_round() -> None:
    seeds = ids(16)
    run = play(bracket_plan(16), seeds, random_pick(random.Random(3)))
    assert run.state is not None
    assert [p for p, _ in run.state.placements] == [1, 2, 3, 3] + [5] * 4 + [9] * 8
    plan = bracket_plan(16, third_place=True)
    assert plan.match("3P").sides == (Slot("loser", "W3-1"), Slot("loser", "W3-2"))
    assert plan.match("W3-1").loser_to == "3P"
    run = play(plan, seeds, favourite_pick(seeds))
    assert run.state is not None
    assert run.state.placements[:4] == ((1, 101), (2, 102), (3, 103), (4, 104))
    assert [p for p, _ in run.state.placements] == [1, 2, 3, 4] + [5] * 4 + [9] * 8


def test_drop_in_order() -> None:
    assert drop_order(2, 4) == [4, 3, 2, 1]
    assert drop_order(4, 4) == [2, 1, 4, 3]
    assert drop_order(6, 2) == [2, 1]
    assert drop_order(4, 2) == [1, 2]
    assert drop_order(8, 1) == [1]


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "code"),
    [
        ({"entrants": 1}, "entrants", "too_few"),
        ({"entrants": 0}, "entrants", "too_few"),
        ({"entrants": 1025}, "entrants", "too_many"),
        ({"entrants": True}, "entrants", "bad_entrants"),
        ({"entrants": 8, "kind": "triple"}, "kind", "bad_kind"),
        ({"entrants": 8, "kind": "double", "third_place": True}, "third_place", "not_single"),
        ({"entrants": 3, "third_place": True}, "third_place", "too_few"),
        ({"entrants": 16, "consolation": (4,)}, "consolation", "bad_round"),  # the final
        ({"entrants": 16, "consolation": (0,)}, "consolation", "bad_round"),
        ({"entrants": 16, "consolation": (3,), "third_place": True}, "consolation", "bad_round"),
        ({"entrants": 16, "consolation": (1, 1)}, "consolation", "bad_consolation"),
        ({"entrants": 16, "consolation": "1"}, "consolation", "bad_consolation"),
        ({"entrants": 5, "kind": "double", "consolation": (1,)}, "consolation", "bad_round"),
        ({"entrants": 5, "consolation": (1,)}, "consolation", "too_few"),  # one W1 match
        ({"entrants": 16, "kind": "double", "consolation": (6,)}, "consolation", "bad_round"),
    ],
)
def test_plan_errors(kwargs: dict[str, object], field: str, code: str) -> None:
    entrants = kwargs.pop("entrants")
    with pytest.raises(BracketError) as info:
        bracket_plan(entrants, **kwargs)  # type: ignore[arg-type]
    assert (info.value.field, info.value.code) == (field, code)
    assert info.value.message.endswith(".")
    assert info.value.to_dict() == {"field": field, "code": code, "message": info.value.message}


def test_one_pair_is_not_a_bracket() -> None:
    with pytest.raises(BracketError) as info:
        bracket_plan(1)
    assert info.value.field == "entrants"
    assert info.value.message == "A bracket needs at least 2 pairs."
    assert isinstance(info.value, ValueError)


def test_result_for_a_match_whose_pairs_are_not_known() -> None:
    plan = bracket_plan(8)
    with pytest.raises(BracketError) as info:
        bracket_state(plan, ids(8), {"W1-1": 101, "W2-1": 101})
    assert info.value.field == "match" and info.value.code == "not_ready"
    assert info.value.message.startswith("The pairs of match W2-1 are not known yet: ")
    assert "winner W1-2 is not known yet" in info.value.message


def test_wrong_winner_unknown_match_and_bad_seeds() -> None:
    plan = bracket_plan(8)
    with pytest.raises(BracketError) as info:
        bracket_state(plan, ids(8), {"W1-1": 102})
    assert info.value.field == "winner" and info.value.code == "wrong_winner"
    assert "W1-1" in info.value.message and "101" in info.value.message
    with pytest.raises(BracketError) as info:
        bracket_state(plan, ids(8), {"W9-1": 101})
    assert info.value.field == "match" and info.value.code == "unknown_match"
    with pytest.raises(BracketError) as info:
        bracket_state(plan, ids(8), {"W1-1": "101"})  # type: ignore[dict-item]
    assert info.value.field == "winner"
    for seeds, code in (
        (ids(7), "wrong_count"),
        ([1, 2, 3, 4, 5, 6, 7, 7], "duplicate"),
        ([1, 2, 3, 4, 5, 6, 7, True], "bad_id"),
        ("12345678", "bad_seeds"),
    ):
        with pytest.raises(BracketError) as info:
            bracket_state(plan, seeds, {})  # type: ignore[arg-type]
        assert (info.value.field, info.value.code) == ("seeds", code)
    with pytest.raises(BracketError) as info:
        plan.match("GF")
    assert info.value.field == "match"


def test_state_before_any_result() -> None:
    plan = bracket_plan(6, kind="double", consolation=(2,))
    state = bracket_state(plan, ids(6), {})
    assert state.ready == tuple(m.code for m in plan.matches if m.depth == 1)
    assert not state.complete and state.champion is None
    assert state.placements == () and state.consolation_placements == ()
    assert state.losses == dict.fromkeys(ids(6), 0)
    assert state.sides["W2-1"] == (101, None)


# --- drop-ins: no immediate rematch ----------------------------------------------------------


def _feeds(plan: Plan) -> dict[str, tuple[set[str], set[str]]]:
    """Per losers-bracket match, the winners-bracket matches whose losers can be on each side."""
    reach: dict[str, set[str]] = {}
    out: dict[str, tuple[set[str], set[str]]] = {}
    for m in plan.matches:
        if m.bracket != "losers":
            continue
        a, b = ({str(s.ref)} if str(s.ref).startswith("W") else reach[str(s.ref)] for s in m.sides)
        out[m.code] = (a, b)
        reach[m.code] = a | b
    return out


# With 5 pairs only three reach the losers bracket before the winners final (the loser of the
# one first-round match and the two round-2 losers); whichever way the drop-ins go, one round-2
# loser can meet, in its first losers match, the pair it beat in round 1.
UNAVOIDABLE = {5: {"L3-1"}}


@pytest.mark.parametrize("n", range(2, 65))
def test_no_drop_in_meets_the_pair_it_just_beat(n: int) -> None:
    """Structurally: a pair dropping from the winners bracket cannot, in its first losers match,
    meet the pair it beat in its last winners match (nor, from the other side, the pair that
    just sent it down), except in the losers-bracket final."""
    plan = bracket_plan(n, kind="double")
    bad = set()
    for code, (a, b) in _feeds(plan).items():
        m = plan.match(code)
        for side, other in ((m.sides[0], b), (m.sides[1], a)):
            if side.kind == "loser" and str(side.ref).startswith("W"):
                beaten_in = {
                    str(s.ref) for s in plan.match(str(side.ref)).sides if s.kind == "winner"
                }
                if beaten_in & other and m.winner_to != "GF":
                    bad.add(code)
    assert bad == UNAVOIDABLE.get(n, set())


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 64), rng=st.randoms(use_true_random=False))
def test_drop_ins_never_meet_their_last_victim_in_play(n: int, rng: random.Random) -> None:
    plan = bracket_plan(n, kind="double")
    run = play(plan, ids(n), random_pick(rng))
    last_win: dict[int, int] = {}
    in_losers: set[int] = set()
    for code, winner, loser in run.played:
        m = plan.match(code)
        if m.bracket == "winners":
            last_win[winner] = loser
        elif m.bracket == "losers":
            for pair, other in ((winner, loser), (loser, winner)):
                if (
                    pair not in in_losers
                    and m.winner_to != "GF"
                    and code not in UNAVOIDABLE.get(n, set())
                ):
                    assert last_win.get(pair) != other, (code, pair, other)
            in_losers |= {winner, loser}


def test_early_losers_rounds_have_no_rematches_at_all_for_powers_of_two() -> None:
    """With reverse / reverse-halves drop-ins, 16 pairs cannot rematch before losers round 4,
    32 and 64 not before losers round 5 and 6 respectively (checked on many random runs)."""
    rng = random.Random(11)
    for n, first_possible in ((8, 3), (16, 4), (32, 5), (64, 6)):
        plan = bracket_plan(n, kind="double")
        for _ in range(60):
            run = play(plan, ids(n), random_pick(rng))
            met: set[frozenset[int]] = set()
            for code, winner, loser in run.played:
                pair = frozenset((winner, loser))
                m = plan.match(code)
                if m.bracket == "losers" and m.round < first_possible:
                    assert pair not in met, code
                met.add(pair)


# --- consolation seeding ---------------------------------------------------------------------


def _met_before(run: Run) -> set[frozenset[int]]:
    return {
        frozenset((w, lost)) for code, w, lost in run.played if run.plan.match(code).bracket in MAIN
    }


@pytest.mark.parametrize(
    ("n", "kind", "rounds"),
    [
        (16, "single", (1, 2)),
        (24, "single", (1, 2)),
        (32, "single", (1, 2, 3)),
        (16, "double", (1, 2)),
        (32, "double", (1, 2, 3)),
        (32, "single", (1,)),
        (16, "double", (1,)),
    ],
)
def test_consolation_first_matches_are_not_rematches(
    n: int, kind: str, rounds: tuple[int, ...]
) -> None:
    """Where the bracket allows it, nobody meets, in its first consolation match, a pair it
    already played in the main bracket (checked on many random runs)."""
    plan = bracket_plan(n, kind=kind, consolation=rounds)
    rng = random.Random(n)
    for _ in range(40):
        run = play(plan, ids(n), random_pick(rng))
        met = _met_before(run)
        seen: set[int] = set()
        for code, w, lost in run.played:
            if plan.match(code).bracket == "consolation":
                if not {w, lost} <= seen:
                    assert frozenset((w, lost)) not in met, code
                seen |= {w, lost}


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(5, 48),
    kind=st.sampled_from(["single", "double"]),
    data=st.data(),
    rng=st.randoms(use_true_random=False),
)
def test_may_have_met_covers_every_real_meeting(
    n: int, kind: str, data: st.DataObject, rng: random.Random
) -> None:
    """The relation the consolation seeding works from never misses two pairs that met."""
    rounds = consolation_options(kind, n, False, data)
    if not rounds:
        return
    plan = bracket_plan(n, kind=kind, consolation=rounds)
    feeders = consolation_feeders(plan)
    main = {m.code: m.sides for m in plan.matches if m.bracket in MAIN}
    related = may_have_met(main, feeders)
    run = play(plan, ids(n), random_pick(rng))
    assert run.state is not None
    met = _met_before(run)
    for i, x in enumerate(feeders):
        for j, y in enumerate(feeders):
            if i != j and frozenset((run.state.losers[x], run.state.losers[y])) in met:
                assert related[i] >> j & 1, (x, y)


# --- properties ------------------------------------------------------------------------------


def consolation_options(kind: str, n: int, third: bool, data: st.DataObject) -> tuple[int, ...]:
    """A random valid consolation choice (possibly none) for this bracket."""
    plan = bracket_plan(n, kind=kind, third_place=third)
    bracket = "winners" if kind == "single" else "losers"
    per_round = Counter(m.round for m in plan.matches if m.bracket == bracket)
    last = max(per_round, default=0) - (1 if third else 0)
    candidates = [r for r in sorted(per_round) if r < last]
    chosen = data.draw(
        st.lists(st.sampled_from(candidates), unique=True) if candidates else st.just([])
    )
    if sum(per_round[r] for r in chosen) < 2:
        return ()
    return tuple(chosen)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(2, 80),
    kind=st.sampled_from(["single", "double"]),
    third=st.booleans(),
    reset=st.booleans(),
    data=st.data(),
    rng=st.randoms(use_true_random=False),
)
def test_brackets_played_to_the_end(
    n: int, kind: str, third: bool, reset: bool, data: st.DataObject, rng: random.Random
) -> None:
    third = third and kind == "single" and n >= 4
    consolation = consolation_options(kind, n, third, data)
    plan = bracket_plan(n, kind=kind, third_place=third, reset=reset, consolation=consolation)
    seeds = data.draw(st.permutations(ids(n, start=rng.randrange(1, 10_000))))

    # the plan itself
    seed_slots = [s.ref for m in plan.matches for s in m.sides if s.kind == "seed"]
    assert sorted(seed_slots) == list(range(1, n + 1))  # every seed exactly once
    keys = [(m.depth, m.bracket, m.round, m.position) for m in plan.matches]
    assert len({m.code for m in plan.matches}) == len(plan.matches)
    depth = {m.code: m.depth for m in plan.matches}
    for m in plan.matches:
        sources = [depth[str(s.ref)] for s in m.sides if s.kind != "seed"]
        assert m.depth == 1 + max(sources, default=0)
        for s in m.sides:
            if s.kind != "seed":
                source = plan.match(str(s.ref))
                assert (source.winner_to if s.kind == "winner" else source.loser_to) == m.code
    assert [k[0] for k in keys] == sorted(k[0] for k in keys)

    run = play(plan, seeds, random_pick(rng))
    state = run.state
    assert state is not None and state.complete and state.champion is not None
    assert run.waves == max(d for code, d in depth.items() if code not in state.skipped)

    # how many matches
    main_played = [c for c, _, _ in run.played if plan.match(c).bracket in MAIN]
    if kind == "single":
        assert len(main_played) == n - 1
        assert len([c for c, _, _ in run.played if c == "3P"]) == (1 if third else 0)
    else:
        assert len(main_played) in (2 * n - 2, 2 * n - 1)
        assert len(main_played) == 2 * n - 1 if "GF2" in run.results else 2 * n - 2

    # losses, elimination, and nobody plays on after going out of the main bracket
    allowed = 1 if kind == "single" else 2
    losses: Counter[int] = Counter()
    for code, winner, loser in run.played:
        if plan.match(code).bracket not in MAIN:
            continue
        assert losses[winner] < allowed and losses[loser] < allowed, code
        losses[loser] += 1
    assert dict(state.losses) == {e: losses[e] for e in seeds}
    assert state.losses[state.champion] <= 1
    if kind == "double" and not reset:
        assert all(losses[e] >= 1 for e in seeds if e != state.champion)
    else:
        assert all(losses[e] == allowed for e in seeds if e != state.champion)

    # winners and losers go where the plan says
    for code, winner, loser in run.played:
        m = plan.match(code)
        for to, pair in ((m.winner_to, winner), (m.loser_to, loser)):
            if to is not None and to not in state.skipped:
                assert pair in state.sides[to], (code, to)

    # the champion won the deciding match
    if kind == "single":
        final = next(m for m in plan.matches if m.bracket == "winners" and m.winner_to is None)
        decider = final.code
    else:
        decider = "GF2" if "GF2" in run.results else "GF"
    assert state.winners[decider] == state.champion
    assert state.losers[decider] == state.placements[1][1]

    # every pair placed exactly once, places as shared by round
    assert sorted(e for _, e in state.placements) == sorted(seeds)
    assert state.placements[0] == (1, state.champion)
    places = [p for p, _ in state.placements]
    assert places == sorted(places)
    for i, p in enumerate(places):  # a place is 1 + the number of pairs strictly better
        assert p == 1 + sum(1 for q in places if q < p), i

    # consolation: exactly the losers of the configured rounds, each placed once
    if consolation:
        feeders = consolation_feeders(plan)
        entered = {
            e
            for m in plan.in_bracket("consolation")
            for s, e in zip(m.sides, state.sides[m.code], strict=True)
            if s.kind == "loser" and plan.match(str(s.ref)).bracket != "consolation"
        }
        assert entered == {state.losers[c] for c in feeders}
        assert len(feeders) == len(entered)
        assert sorted(e for _, e in state.consolation_placements) == sorted(entered)
        assert state.consolation_placements[0][0] == 1
    else:
        assert not plan.in_bracket("consolation") and state.consolation_placements == ()


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), kind=st.sampled_from(["single", "double"]), data=st.data())
def test_results_out_of_order_are_refused(n: int, kind: str, data: st.DataObject) -> None:
    """A result for a match whose pairs are not both known is refused, naming the match."""
    plan = bracket_plan(n, kind=kind)
    later = [m for m in plan.matches if m.depth > 1]
    if not later:
        return
    m = data.draw(st.sampled_from(later))
    with pytest.raises(BracketError) as info:
        bracket_state(plan, ids(n), {m.code: 101})
    assert info.value.field == "match" and info.value.code == "not_ready"
    assert f"match {m.code} " in info.value.message


def test_a_big_double_bracket_is_quick() -> None:
    start = time.perf_counter()
    plan = bracket_plan(128, kind="double", consolation=(1, 2))
    elapsed = time.perf_counter() - start
    assert len([m for m in plan.matches if m.bracket in MAIN]) == 255
    assert elapsed < 1.0  # about 3 ms in practice; generous for a busy machine
