"""The individual progressive movement (pairing.progressive): winners move, fixed seats, reports."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing.progressive import (
    ProgressiveError,
    ProgressiveRound,
    arrivals,
    fixed_seats_warnings,
    next_game,
)

SEATS = "NESW"
SIDE = {"NS": ("N", "S"), "EW": ("E", "W")}
OTHER = {"NS": "EW", "EW": "NS"}


def room(tables: int, start: int = 1) -> list[dict[str, int]]:
    """Tables 1..n seated with consecutive ids: table t is N, E, S, W = 4t-3 .. 4t (start 1)."""
    return [{seat: start + 4 * t + i for i, seat in enumerate(SEATS)} for t in range(tables)]


def destination(table: int, count: int, direction: str) -> int:
    """1-based table the winners of 1-based ``table`` go to."""
    step = -1 if direction == "up" else 1
    return (table - 1 + step) % count + 1


def partner_counts(
    history: Sequence[Any], last: Sequence[dict[str, Hashable]]
) -> Counter[frozenset[Hashable]]:
    counts: Counter[frozenset[Hashable]] = Counter()
    for item in history:
        if isinstance(item, (list, tuple)) and len(item) == 2 and not isinstance(item[0], dict):
            counts[frozenset(item)] += 1
        else:
            for t in item:
                counts[frozenset((t["N"], t["S"]))] += 1
                counts[frozenset((t["E"], t["W"]))] += 1
    for t in last:
        counts[frozenset((t["N"], t["S"]))] += 1
        counts[frozenset((t["E"], t["W"]))] += 1
    return counts


def check_winners_move(
    seating: list[dict[str, Hashable]],
    winners: list[str],
    direction: str,
    result: ProgressiveRound[Hashable],
    partners: Counter[frozenset[Hashable]] | None = None,
) -> None:
    """Every winners_move invariant, for one game."""
    count = len(seating)
    new = result.seating()
    assert len(new) == count
    everyone = [p for t in seating for p in t.values()]
    seated = [p for t in new for p in t.values()]
    assert sorted(map(repr, seated)) == sorted(map(repr, everyone))  # each seated exactly once
    assert len(set(seated)) == len(seated)
    for t, (table, side) in enumerate(zip(seating, winners, strict=True), start=1):
        stayers = {table[s] for s in SIDE[OTHER[side]]}
        movers = {table[s] for s in SIDE[side]}
        # losers stay at their table
        assert stayers <= set(new[t - 1].values())
        # winners arrive at the next table in the chosen direction (wrapping at the ends)
        assert movers <= set(new[destination(t, count, direction) - 1].values())
    for u, table in enumerate(new, start=1):
        source = next(t for t in range(1, count + 1) if destination(t, count, direction) == u)
        stayers = {seating[u - 1][s] for s in SIDE[OTHER[winners[u - 1]]]}
        comers = {seating[source - 1][s] for s in SIDE[winners[source - 1]]}
        pairs = [frozenset((table["N"], table["S"])), frozenset((table["E"], table["W"]))]
        # the stayers are split; each arrival partners exactly one stayer
        for pair in pairs:
            assert len(pair & stayers) == 1
            assert len(pair & comers) == 1
        if partners is not None:
            (a, b), (x, y) = sorted(stayers, key=repr), sorted(comers, key=repr)
            options = [
                [frozenset((a, x)), frozenset((b, y))],
                [frozenset((a, y)), frozenset((b, x))],
            ]
            chosen = next(o for o in options if set(o) == set(pairs))
            other = next(o for o in options if o is not chosen)
            chosen_repeats = sum(1 for p in chosen if partners[p])
            other_repeats = sum(1 for p in other if partners[p])
            # a repeat partnership only when the other pairing repeats too (and not fewer)
            if chosen_repeats:
                assert other_repeats >= chosen_repeats
    # moves describe the change of seats exactly
    origin = {p: (t, s) for t, table in enumerate(seating, start=1) for s, p in table.items()}
    moves = result.quality.moves
    assert len(moves) == len(everyone)
    for m in moves:
        assert new[m.to_table - 1][m.to_seat] == m.player
        assert (m.from_table, m.from_seat) == origin[m.player]


# --- winners_move: fixed examples -----------------------------------------------------------------


def test_winners_move_up_by_default_and_the_head_table_wraps_to_the_last() -> None:
    seating = room(3)
    result = next_game(seating, ["NS", "EW", "NS"], seed=4)
    new = result.seating()
    assert {1, 3} <= set(new[2].values())  # table 1's winners (N 1, S 3) go to the last table
    assert {6, 8} <= set(new[0].values())  # table 2's winners (E 6, W 8) go to table 1
    assert {9, 11} <= set(new[1].values())  # table 3's winners go to table 2
    assert result.quality.settings == {
        "movement": "winners_move",
        "seed": 4,
        "direction": "up",
        "draw": "system",
    }
    check_winners_move(seating, ["NS", "EW", "NS"], "up", result)


def test_winners_move_down_and_the_last_table_wraps_to_table_one() -> None:
    seating = room(3)
    result = next_game(seating, ["NS", "NS", "EW"], direction="down")
    new = result.seating()
    assert {1, 3} <= set(new[1].values())
    assert {10, 12} <= set(new[0].values())  # last table's E/W winners go to table 1
    check_winners_move(seating, ["NS", "NS", "EW"], "down", result)


def test_stayers_keep_the_earlier_seat_and_the_other_moves_clockwise() -> None:
    seating = room(2)
    # table 1: N-S lost (E-W won); table 2: E-W lost.
    result = next_game(seating, ["EW", "NS"], draw="table", table_draw=[[1, 5], [6, 2]])
    t1, t2 = result.seating()
    # table 1: N (1) keeps N, S (3) moves to E; arrivals (winners of table 2: 5 and 7) opposite.
    assert t1["N"] == 1 and t1["E"] == 3
    assert t1["S"] in (5, 7) and t1["W"] in (5, 7)
    # table 2: E (6) keeps E, W (8) moves to S; arrivals (2 and 4 from table 1) at W and N.
    assert t2["E"] == 6 and t2["S"] == 8
    assert {t2["N"], t2["W"]} == {2, 4}


def test_table_draw_is_followed() -> None:
    seating = room(2)
    # table 1 stayers 2, 4 (N-S won); arrivals at table 1 are table 2's winners 6, 8 (E-W won)
    result = next_game(seating, ["NS", "EW"], draw="table", table_draw=[[2, 8], [1, 5]])
    t1, t2 = result.seating()
    partners1 = {frozenset((t1["N"], t1["S"])), frozenset((t1["E"], t1["W"]))}
    assert partners1 == {frozenset((2, 8)), frozenset((4, 6))}
    partners2 = {frozenset((t2["N"], t2["S"])), frozenset((t2["E"], t2["W"]))}
    # the pair may be given in either order: [arrival, stayer]
    assert partners2 == {frozenset((5, 1)), frozenset((7, 3))}
    assert [d.reason for d in result.quality.draws] == ["table_draw", "table_draw"]


def test_arrivals_lists_who_meets_before_the_draw() -> None:
    meet = arrivals(room(3), ["NS", "EW", "NS"])
    assert [(m.table, m.stayers, m.arrivals, m.from_table) for m in meet] == [
        (1, (2, 4), (6, 8), 2),
        (2, (5, 7), (9, 11), 3),
        (3, (10, 12), (1, 3), 1),
    ]


def test_system_draw_avoids_a_repeat_when_the_other_pairing_is_fresh() -> None:
    seating = room(2)
    # table 1 stayers 2 and 4, arrivals 6 and 8: 2 partnered 6 before, so 2 must get 8.
    for seed in range(20):
        result = next_game(seating, ["NS", "EW"], [[2, 6]], seed=seed)
        t1 = result.seating()[0]
        assert frozenset((2, 8)) in {frozenset((t1["N"], t1["S"])), frozenset((t1["E"], t1["W"]))}
        assert result.quality.draws[0].reason == "avoids_repeat"
        assert result.quality.repeat_partners == ()


def test_system_draw_repeats_only_when_forced_and_warns() -> None:
    seating = room(2)
    result = next_game(seating, ["NS", "EW"], [[2, 6], [2, 8], [4, 8]], seed=1)
    t1 = result.seating()[0]
    pairs = {frozenset((t1["N"], t1["S"])), frozenset((t1["E"], t1["W"]))}
    # both pairings repeat; (2,6)+(4,8) repeats twice, (2,8)+(4,6) once: the latter is chosen
    assert pairs == {frozenset((2, 8)), frozenset((4, 6))}
    draw = result.quality.draws[0]
    assert draw.reason == "fewer_repeats" and draw.repeats == (1, 2)
    assert [set(r.players) for r in result.quality.repeat_partners] == [{2, 8}]
    assert any(
        w.code == "forced_repeat" and "Table 1" in w.message for w in result.quality.warnings
    )


def test_a_table_draw_that_repeats_needlessly_is_warned() -> None:
    result = next_game(room(2), ["NS", "EW"], [[2, 6]], draw="table", table_draw=[[2, 6], [1, 5]])
    assert [w.code for w in result.quality.warnings] == ["table_draw_repeat"]
    assert result.quality.repeat_partners[0].times_before == 1


def test_the_seeded_draw_is_reproducible_and_depends_on_the_seed() -> None:
    seating = room(8)
    winners = ["NS", "EW"] * 4
    first = next_game(seating, winners, seed=11)
    assert first == next_game(seating, winners, seed=11)
    assert all(d.reason == "seeded_draw" for d in first.quality.draws)
    outcomes = {tuple(map(tuple, next_game(seating, winners, seed=s).tables)) for s in range(12)}
    assert len(outcomes) > 1


def test_string_ids_work_and_are_echoed() -> None:
    seating = [
        {"N": "ann", "E": "bob", "S": "cy", "W": "di"},
        {"N": "ed", "E": "flo", "S": "gus", "W": "hal"},
    ]
    result = next_game(seating, ["EW", "NS"])
    assert sorted(p for t in result.seating() for p in t.values()) == sorted(
        p for t in seating for p in t.values()
    )
    check_winners_move(seating, ["EW", "NS"], "up", result)


def test_one_table_only_changes_partners() -> None:
    result = next_game(room(1), ["NS"])
    t = result.seating()[0]
    assert {frozenset((t["N"], t["S"])), frozenset((t["E"], t["W"]))} & {
        frozenset((1, 3)),
        frozenset((2, 4)),
    } == set()
    assert [w.code for w in result.quality.warnings] == ["one_table"]


def test_tuple_tables_are_accepted() -> None:
    assert (
        next_game([(1, 2, 3, 4), (5, 6, 7, 8)], ["NS", "NS"]).tables
        == next_game(room(2), ["NS", "NS"]).tables
    )


# --- ties -----------------------------------------------------------------------------------------


def test_points_decide_a_missing_winner() -> None:
    by_points = next_game(room(2), [None, "EW"], points=[{"NS": 250, "EW": 310}, None])
    assert by_points.tables == next_game(room(2), ["EW", "EW"]).tables


def test_an_exact_tie_needs_the_winner_given() -> None:
    with pytest.raises(ProgressiveError) as exc:
        next_game(room(2), [None, "EW"], points=[{"NS": 300, "EW": 300}, None])
    assert (exc.value.field, exc.value.code) == ("winners[0]", "tie")
    assert "Table 1" in exc.value.message
    # the table decided it by a cut: the winner is given, the points still tie
    tied = next_game(room(2), ["NS", "EW"], points=[{"NS": 300, "EW": 300}, None])
    assert tied.tables == next_game(room(2), ["NS", "EW"]).tables


def test_a_winner_with_fewer_points_is_refused() -> None:
    with pytest.raises(ProgressiveError) as exc:
        next_game(room(1), ["NS"], points=[{"NS": 100, "EW": 300}])
    assert exc.value.code == "disagrees_with_points"


# --- history and the report -----------------------------------------------------------------------


def test_history_may_end_with_the_last_game_without_counting_it_twice() -> None:
    seating = room(1)
    alone = next_game(seating, ["NS"], [], draw="table", table_draw=[[2, 1]])
    with_last = next_game(seating, ["NS"], [seating], draw="table", table_draw=[[2, 1]])
    assert with_last == alone
    # one table: E 2 stays, W 4 moves to S, 1 partners 2 (at W), 3 partners 4 (at N); 4 and 1
    # (S and W now) opposed in the last game, and once more when an earlier game was the same
    opposed = {frozenset(r.players): r.times_before for r in alone.quality.repeat_opponents}
    assert opposed == {frozenset((4, 1)): 1, frozenset((3, 2)): 1}
    twice = next_game(seating, ["NS"], [seating, seating], draw="table", table_draw=[[2, 1]])
    opposed = {frozenset(r.players): r.times_before for r in twice.quality.repeat_opponents}
    assert opposed == {frozenset((4, 1)): 2, frozenset((3, 2)): 2}


def test_repeat_opponents_are_reported_from_seatings() -> None:
    seating = room(2)
    result = next_game(seating, ["NS", "EW"], seed=3)
    t1 = result.seating()[0]
    # table 1: the stayers 2 and 4 (last game's partners) now sit E and S and oppose each other,
    # so do the arrivals 6 and 8; none of these pairs opposed before
    assert {t1["E"], t1["S"]} == {2, 4} and {t1["N"], t1["W"]} == {6, 8}
    assert result.quality.repeat_opponents == ()
    # with an earlier game where 2 opposed 6 and 8, those meetings are repeats
    earlier = [{"N": 6, "E": 2, "S": 8, "W": 1}, {"N": 3, "E": 4, "S": 5, "W": 7}]
    again = next_game(seating, ["NS", "EW"], [earlier], seed=3)
    t1 = again.seating()[0]
    partner_of_2 = t1["W"] if t1["E"] == 2 else t1["N"]
    expected = {frozenset((2, p)) for p in (6, 8) if p != partner_of_2}
    assert {frozenset(r.players) for r in again.quality.repeat_opponents} >= expected


def test_repeat_partners_match_the_history_count() -> None:
    seating = room(2)
    history = [[2, 8], [2, 8], [4, 6], [2, 6], [4, 8]]
    result = next_game(seating, ["NS", "EW"], history, seed=0)
    counts = partner_counts(history, seating)
    reported = {frozenset(r.players): r.times_before for r in result.quality.repeat_partners}
    for table in result.seating():
        for pair in (frozenset((table["N"], table["S"])), frozenset((table["E"], table["W"]))):
            assert reported.get(pair, 0) == counts[pair]


def test_the_report_serialises_to_plain_json() -> None:
    out = next_game(room(2), ["NS", "EW"], [[2, 6]]).to_dict()
    assert set(out) == {"tables", "quality"}
    assert set(out["quality"]) == {
        "repeat_partners",
        "repeat_opponents",
        "moves",
        "warnings",
        "draws",
        "substitutions",
        "settings",
    }
    assert set(out["quality"]["moves"][0]) == {
        "player",
        "from_table",
        "from_seat",
        "to_table",
        "to_seat",
    }


# --- alternates -----------------------------------------------------------------------------------


def test_an_alternate_takes_the_leavers_place_and_moves_as_they_would() -> None:
    seating = room(2)
    result = next_game(seating, ["NS", "EW"], entering=[99], leaving=[1], seed=2)
    new = result.seating()
    assert 1 not in {p for t in new for p in t.values()}
    assert 99 in new[1].values()  # 1 won at table 1 and would have gone to table 2
    (sub,) = result.quality.substitutions
    assert (sub.left, sub.entered, sub.table, sub.seat) == (1, 99, 1, "N")
    move = next(m for m in result.quality.moves if m.player == 99)
    assert (move.from_table, move.from_seat, move.to_table) == (None, None, 2)


def test_a_leaver_without_an_alternate_is_an_error_naming_the_table() -> None:
    with pytest.raises(ProgressiveError) as exc:
        next_game(room(3), ["NS", "EW", "NS"], leaving=[10])
    assert (exc.value.field, exc.value.code) == ("tables[2].E", "empty_seat")
    assert "Table 3" in exc.value.message


def test_more_alternates_than_seats_is_an_error() -> None:
    with pytest.raises(ProgressiveError) as exc:
        next_game(room(1), ["NS"], entering=[20, 21], leaving=[1])
    assert (exc.value.field, exc.value.code) == ("entering", "no_seat")


@pytest.mark.parametrize(
    ("kwargs", "field", "code"),
    [
        ({"entering": [3], "leaving": [1]}, "entering[0]", "already_seated"),
        ({"entering": [30], "leaving": [31]}, "leaving[0]", "not_seated"),
        ({"entering": [30, 30], "leaving": [1, 2]}, "entering[1]", "duplicate"),
    ],
)
def test_bad_alternates(kwargs: dict[str, Any], field: str, code: str) -> None:
    with pytest.raises(ProgressiveError) as exc:
        next_game(room(2), ["NS", "NS"], **kwargs)
    assert (exc.value.field, exc.value.code) == (field, code)


# --- input errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seating", "winners", "kwargs", "field", "code"),
    [
        ([], [], {}, "tables", "empty"),
        ([{"N": 1, "E": 2, "S": 3, "X": 4}], ["NS"], {}, "tables[0]", "unknown_seat"),
        ([{"N": 1, "E": 2, "S": 3}], ["NS"], {}, "tables[0]", "missing_seat"),
        (
            [{"N": 1, "E": 2, "S": 3, "W": 4}, {"N": 5, "E": 2, "S": 7, "W": 8}],
            ["NS", "NS"],
            {},
            "tables[1].E",
            "seated_twice",
        ),
        ([{"N": 1, "E": 2, "S": 3, "W": None}], ["NS"], {}, "tables[0].W", "bad_id"),
        (room(2), ["NS"], {}, "winners[1]", "missing"),
        (room(2), ["NS", "EW", "NS"], {}, "winners", "too_many"),
        (room(1), ["N"], {}, "winners[0]", "bad_side"),
        (room(1), ["NS"], {"movement": "swiss"}, "movement", "bad_movement"),
        (room(1), ["NS"], {"direction": "left"}, "direction", "bad_direction"),
        (room(1), ["NS"], {"draw": "dice"}, "draw", "bad_draw"),
        (room(1), ["NS"], {"seed": "x"}, "seed", "bad_seed"),
        (room(1), ["NS"], {"steps": {"X": 1}}, "steps", "unknown_seat"),
        (room(1), ["NS"], {"steps": {"E": 1.5}}, "steps.E", "bad_step"),
        (room(1), ["NS"], {"games": 0}, "games", "bad_games"),
        (room(1), ["NS"], {"table_draw": [[2, 1]]}, "table_draw", "not_used"),
        (room(2), ["NS", "NS"], {"draw": "table"}, "table_draw", "missing"),
        (
            room(2),
            ["NS", "NS"],
            {"draw": "table", "table_draw": [[2, 5]]},
            "table_draw[1]",
            "missing",
        ),
        (
            room(2),
            ["NS", "NS"],
            {"draw": "table", "table_draw": [[2, 4], [6, 1]]},
            "table_draw[0]",
            "stayers_together",
        ),
        (
            room(2),
            ["NS", "NS"],
            {"draw": "table", "table_draw": [[5, 7], [6, 1]]},
            "table_draw[0]",
            "arrivals_together",
        ),
        (
            room(2),
            ["NS", "NS"],
            {"draw": "table", "table_draw": [[2, 1], [6, 1]]},
            "table_draw[0]",
            "not_at_table",
        ),
        (room(1), ["NS"], {"history": [[1, 1]]}, "history[0]", "bad_pair"),
        (room(1), ["NS"], {"history": "abc"}, "history", "bad_history"),
        (
            room(1),
            ["NS"],
            {"history": [[{"N": 1, "E": 1, "S": 2, "W": 3}]]},
            "history[0][0].E",
            "seated_twice",
        ),
        (room(251), ["NS"] * 251, {}, "tables", "too_many"),
    ],
)
def test_bad_input_names_the_field(
    seating: Any, winners: Any, kwargs: dict[str, Any], field: str, code: str
) -> None:
    history = kwargs.pop("history", ())
    with pytest.raises(ProgressiveError) as exc:
        next_game(seating, winners, history, **kwargs)
    assert (exc.value.field, exc.value.code) == (field, code)
    assert exc.value.message
    assert isinstance(exc.value, ValueError)
    assert exc.value.to_dict() == {"field": field, "code": code, "message": exc.value.message}


# --- winners_move: properties ---------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[list[dict[str, Hashable]], list[str], list[Any], str, int]:
    count = draw(st.integers(min_value=1, max_value=9))
    use_strings = draw(st.booleans())
    ids: list[Hashable] = list(draw(st.permutations(range(1, 4 * count + 1))))
    if use_strings:
        ids = [f"p{i}" for i in ids]
    seating = [dict(zip(SEATS, ids[4 * t : 4 * t + 4], strict=True)) for t in range(count)]
    winners = draw(st.lists(st.sampled_from(["NS", "EW"]), min_size=count, max_size=count))
    pool = ids + ([f"gone{i}" for i in range(3)] if use_strings else [900, 901, 902])
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1]),
            max_size=6 * count,
        )
    )
    direction = draw(st.sampled_from(["up", "down"]))
    seed = draw(st.integers(min_value=-(2**40), max_value=2**40))
    return seating, winners, [list(p) for p in pairs], direction, seed


@settings(max_examples=300, deadline=None)
@given(games())
def test_winners_move_invariants(
    game: tuple[list[dict[str, Hashable]], list[str], list[Any], str, int],
) -> None:
    seating, winners, history, direction, seed = game
    result = next_game(seating, winners, history, direction=direction, seed=seed)
    check_winners_move(seating, winners, direction, result, partner_counts(history, seating))
    assert result == next_game(seating, winners, history, direction=direction, seed=seed)


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_table_draw_invariants(
    game: tuple[list[dict[str, Hashable]], list[str], list[Any], str, int], data: st.DataObject
) -> None:
    seating, winners, history, direction, _ = game
    meet = arrivals(seating, winners, direction=direction)
    choice = [
        [data.draw(st.sampled_from(m.stayers)), data.draw(st.sampled_from(m.arrivals))]
        for m in meet
    ]
    result = next_game(
        seating, winners, history, direction=direction, draw="table", table_draw=choice
    )
    check_winners_move(seating, winners, direction, result)
    for table, (stayer, comer) in zip(result.seating(), choice, strict=True):
        assert frozenset((stayer, comer)) in {
            frozenset((table["N"], table["S"])),
            frozenset((table["E"], table["W"])),
        }


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=8),
    st.integers(min_value=0, max_value=1000),
    st.sampled_from(["up", "down"]),
    st.data(),
)
def test_an_evening_of_games_keeps_every_invariant(
    count: int, seed: int, direction: str, data: st.DataObject
) -> None:
    seating: list[dict[str, Hashable]] = [dict(t) for t in room(count)]
    history: list[Any] = []
    for game in range(8):
        winners = data.draw(st.lists(st.sampled_from(["NS", "EW"]), min_size=count, max_size=count))
        partners = partner_counts(history, seating)
        result = next_game(seating, winners, history, direction=direction, seed=seed + game)
        check_winners_move(seating, winners, direction, result, partners)
        reported = {frozenset(r.players): r.times_before for r in result.quality.repeat_partners}
        for table in result.seating():
            for pair in (frozenset((table["N"], table["S"])), frozenset((table["E"], table["W"]))):
                assert reported.get(pair, 0) == partners[pair]
        history.append(seating)
        seating = result.seating()


# --- fixed_seats ----------------------------------------------------------------------------------


def test_fixed_seats_default_steps() -> None:
    result = next_game(room(4), None, movement="fixed_seats")
    new = result.seating()
    for t in range(4):
        assert new[t]["N"] == room(4)[t]["N"]  # North stays
        assert new[(t + 1) % 4]["S"] == room(4)[t]["S"]  # South one table toward higher numbers
        assert new[(t - 1) % 4]["E"] == room(4)[t]["E"]  # East one toward table 1
        assert new[(t - 2) % 4]["W"] == room(4)[t]["W"]  # West two toward table 1
    assert result.quality.settings["steps"] == {"N": 0, "E": -1, "S": 1, "W": -2}
    assert result.quality.draws == ()
    assert result.quality.warnings == ()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=12),
    st.dictionaries(st.sampled_from(list(SEATS)), st.integers(min_value=-30, max_value=30)),
)
def test_fixed_seats_move_each_seat_by_its_step_with_wrap(
    count: int, steps: dict[str, int]
) -> None:
    seating = room(count)
    result = next_game(seating, None, movement="fixed_seats", steps=steps)
    full = {"N": 0, "E": -1, "S": 1, "W": -2} | steps
    new = result.seating()
    for t in range(count):
        for seat in SEATS:
            assert new[(t + full[seat]) % count][seat] == seating[t][seat]
    assert sorted(p for t in new for p in t.values()) == list(range(1, 4 * count + 1))
    for m in result.quality.moves:
        assert m.to_seat == m.from_seat
        if "N" not in steps:
            assert m.to_seat != "N" or m.to_table == m.from_table  # North never moves


def test_fixed_seats_warns_for_a_known_bad_configuration() -> None:
    # East and West moving together keep the same E/W partners every game
    warnings = fixed_seats_warnings(5, {"E": -1, "W": -1})
    assert [w.code for w in warnings] == ["partners_repeat"]
    assert "E/W" in warnings[0].message and "game 2" in warnings[0].message
    # South two tables on 4 tables: N/S partners meet again after two games
    (warning,) = fixed_seats_warnings(4, {"S": 2})
    assert "N/S" in warning.message and "game 3" in warning.message
    # the report of next_game carries the warning
    result = next_game(room(5), None, movement="fixed_seats", steps={"E": -1, "W": -1})
    assert [w.code for w in result.quality.warnings] == ["partners_repeat"]
    # within fewer games than the repeat there is nothing to warn about
    assert fixed_seats_warnings(4, {"S": 2}, games=2) == ()


@pytest.mark.parametrize("count", range(1, 30))
def test_the_default_steps_never_repeat_partners_within_a_round_of_the_room(count: int) -> None:
    assert fixed_seats_warnings(count) == ()


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=15),
    st.dictionaries(st.sampled_from(list(SEATS)), st.integers(min_value=-20, max_value=20)),
    st.integers(min_value=1, max_value=40),
)
def test_the_simulated_warning_matches_the_gcd_rule(
    count: int, steps: dict[str, int], games_: int
) -> None:
    full = {"N": 0, "E": -1, "S": 1, "W": -2} | steps
    warned = {
        w.message.split(" partners repeat")[0][-3:]
        for w in fixed_seats_warnings(count, steps, games_)
    }
    for one, two in (("N", "S"), ("E", "W")):
        apart = count // math.gcd((full[two] - full[one]) % count, count)
        assert (f"{one}/{two}" in warned) == (games_ > apart)


def test_fixed_seats_over_a_whole_room_repeat_no_partner_and_report_it() -> None:
    seating: list[dict[str, Any]] = room(7)
    history: list[Any] = []
    for _ in range(6):
        result = next_game(seating, None, history, movement="fixed_seats")
        assert result.quality.repeat_partners == ()
        history.append(seating)
        seating = result.seating()
    # game 8 brings everyone back to the first seating: all partners repeat
    result = next_game(seating, None, history, movement="fixed_seats")
    assert result.seating() == room(7)
    assert len(result.quality.repeat_partners) == 14


def test_fixed_seats_warnings_refuses_a_bad_table_count() -> None:
    with pytest.raises(ProgressiveError) as exc:
        fixed_seats_warnings(0)
    assert exc.value.field == "tables"


def test_steps_given_to_winners_move_are_flagged() -> None:
    result = next_game(room(2), ["NS", "NS"], steps={"S": 1})
    assert [w.code for w in result.quality.warnings] == ["setting_ignored"]
