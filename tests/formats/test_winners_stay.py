"""Winners stay's spec as a pure plugin: an opening draw (seeded, or drawn at random), then the
opening game's winners keep their table all day and the others move one table up each round."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange
from pairing.results import TableResult

from .helpers import (
    byes,
    finish,
    lower_id_wins,
    matches,
    pair_of,
    pairs,
    play,
    run,
    seated_once,
    situation,
)

SPEC = formats.get("winners_stay")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "first_draw": "seeded", "playoff": None}


def test_fixed_pairs_play_the_planned_rounds() -> None:
    assert SPEC.entrants == "pairs" and SPEC.sitting == "round" and SPEC.min_entries == 2
    assert SPEC.rounds_used and SPEC.rounds_label == "Rounds"


def test_capabilities_are_a_pair_movements() -> None:
    assert SPEC.seats_automatically and SPEC.needs_winners and not SPEC.open_ended
    assert SPEC.swap == "pairs" and SPEC.playoff and SPEC.forfeits
    assert not SPEC.closed_field and SPEC.bracket == "" and not SPEC.alternates
    assert not SPEC.club_night and not SPEC.stage_totals


def test_settings_default_to_a_seeded_opening_draw() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "first_draw", "playoff"}
    assert SPEC.check_settings(None) == DEFAULTS
    assert SPEC.check_settings({"first_draw": "random"})["first_draw"] == "random"


@pytest.mark.parametrize(("raw", "key"), [
    ({"first_draw": "coin"}, "first_draw"),
    ({"groups": 2}, "groups"),
    ({"reset": True}, "reset"),
    ({"game_minutes": 300}, "game_minutes"),
    ({"playoff": {"kind": "double", "reset": "no"}}, "playoff.reset"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def test_fewer_rounds_than_seated_are_refused() -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=DEFAULTS, rounds_planned=1,
                                          seated={"qualifying": 2}, here=6))
    assert info.value.field == "rounds_planned"


def test_a_playoff_larger_than_the_field_is_refused() -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_field(SPEC.check_settings({"playoff": {"cut": 8}}), 7)
    assert info.value.field == "format_settings.playoff.cut"


def test_stages_and_words() -> None:
    assert SPEC.rounds_total(4, DEFAULTS, 8) == SPEC.qualifying_rounds(4, DEFAULTS, 8) == 4
    assert SPEC.describe_length(4, 8, DEFAULTS, 8) == "4 rounds of 8 deals"
    chosen = SPEC.check_settings({"playoff": {"kind": "double", "cut": 2}})
    # the match, the grand final (the loser's second life) and its reset
    assert SPEC.rounds_total(4, chosen, 8) == 4 + 3
    first = SPEC.describe(DEFAULTS, 4)[0]
    assert first.startswith("Winners stay, 4 rounds") and "winners keep their table" in first


@pytest.mark.parametrize(("count", "tables", "bye"), [
    (6, [(1, 2), (3, 4), (5, 6)], set()),
    (5, [(1, 2), (3, 4)], {5}),
])
def test_a_seeded_opening_draw_meets_the_pairs_in_seed_order(
        count: int, tables: list[tuple[int, int]], bye: set[int]) -> None:
    field = pairs(count)
    built = SPEC.build(situation(SPEC, 1, field=field))
    assert built.method == "first_draw"
    assert matches(built, field) == tables and byes(built, field) == bye


def test_a_random_opening_draw_is_the_same_for_the_same_seed() -> None:
    field = pairs(10)
    chosen = {"first_draw": "random"}
    drawn = {tuple(matches(SPEC.build(situation(SPEC, 1, field=field, settings=chosen,
                                                seed=seed)), field)) for seed in range(6)}
    assert len(drawn) > 1
    again = SPEC.build(situation(SPEC, 1, field=field, settings=chosen, seed=3))
    assert matches(again, field) == matches(
        SPEC.build(situation(SPEC, 1, field=field, settings=chosen, seed=3)), field)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 20), data=st.data())
def test_winners_keep_their_table_the_others_move_one_up(count: int,
                                                         data: st.DataObject) -> None:
    field = pairs(count)
    tables = count // 2
    sides = data.draw(st.lists(st.sampled_from(["NS", "EW"]), min_size=tables,
                               max_size=tables))
    random_draw = data.draw(st.booleans())
    chosen = {"first_draw": "random" if random_draw else "seeded"}
    rounds = (count + 1) // 2  # as many as tables (a phantom one for an odd field)
    built, results = run(SPEC, rounds, field=field, settings=chosen,
                         winner=lambda r: sides[r.table_number - 1] if r.round_number == 1
                         else "NS")
    opening = matches(built[0], field)
    winners = [pair_of(field)[r.winners()[0]] for r in results if r.round_number == 1]
    movers = [a if w == b else b for (a, b), w in zip(opening, winners, strict=True)]
    movers += sorted(byes(built[0], field))
    room = len(movers)
    met: Counter[frozenset[int]] = Counter()
    for number, round_ in enumerate(built, start=1):
        assert sorted(seated_once(round_)) == sorted(pair_of(field))
        met.update(frozenset(m) for m in matches(round_, field))
        if number == 1:
            continue
        for table, (stayer, mover) in enumerate(matches(round_, field), start=1):
            assert stayer == winners[table - 1], "the opening winners keep their table"
            # the loser of table i plays at table i + (round - 1), round the room
            assert (movers.index(mover) + number - 1) % room + 1 == table
    assert max(met.values()) == 1


def test_the_next_round_waits_for_the_opening_winners() -> None:
    field = pairs(4)
    first = SPEC.build(situation(SPEC, 1, field=field))
    games = play(1, first, lower_id_wins)
    unfinished = [games[0], TableResult(1, 2, games[1].seats)]
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 2, field=field, history=[first.plan], results=unfinished))
    assert info.value.field == "round"


def test_a_round_past_the_movement_is_refused_naming_the_round() -> None:
    field = pairs(4)
    built, results = run(SPEC, 2, field=field)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 3, field=field, history=[b.plan for b in built],
                             results=results, rounds_planned=3))
    assert info.value.field == "round"


def test_places_are_the_standings_ranks() -> None:
    field = pairs(4)
    _, results = run(SPEC, 2, field=field)
    placed = SPEC.placements(finish(SPEC, (2, 1, 4, 3), results, field=field))
    assert [(p.place, p.entry_id) for p in placed] == [(1, 2), (2, 1), (3, 4), (4, 3)]
