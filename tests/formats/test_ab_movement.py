"""The A/B movement's spec as a pure plugin: the A pairs (the first half, in seed order) keep
their table all day, the B pairs move one table up each round; an optional playoff after it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange

from .helpers import byes, finish, matches, pair_of, pairs, run, seated_once, situation

SPEC = formats.get("ab_movement")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "playoff": None}


def test_fixed_pairs_play_the_planned_rounds() -> None:
    assert SPEC.entrants == "pairs" and SPEC.sitting == "round" and SPEC.min_entries == 2
    assert SPEC.rounds_used and SPEC.rounds_label == "Rounds" and SPEC.shortcut == ""


def test_capabilities_are_a_pair_movements() -> None:
    assert SPEC.seats_automatically and SPEC.needs_winners and not SPEC.open_ended
    assert SPEC.swap == "pairs" and SPEC.playoff and SPEC.forfeits
    assert not SPEC.closed_field and SPEC.bracket == "" and not SPEC.alternates
    assert not SPEC.club_night and not SPEC.stage_totals


def test_settings_are_the_pair_formats_common_ones() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "playoff"}
    assert SPEC.check_settings(None) == DEFAULTS
    assert SPEC.check_settings({"ties": "table_cut"})["ties"] == "table_cut"


@pytest.mark.parametrize(("raw", "key"), [
    ({"first_draw": "random"}, "first_draw"),
    ({"groups": 2}, "groups"),
    ({"ties": "dice"}, "ties"),
    ({"game_minutes": 2.5}, "game_minutes"),
    ({"playoff": {"kind": "single", "lower": 1}}, "playoff.lower"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def test_fewer_rounds_than_seated_are_refused() -> None:
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=DEFAULTS, rounds_planned=3,
                                      seated={"qualifying": 3}, here=6))
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=DEFAULTS, rounds_planned=2,
                                          seated={"qualifying": 3}, here=6))
    assert info.value.field == "rounds_planned"


def test_a_playoff_larger_than_the_field_is_refused() -> None:
    chosen = SPEC.check_settings({"playoff": {"cut": 6}})
    SPEC.check_field(chosen, 6)
    with pytest.raises(FormatError) as info:
        SPEC.check_field(chosen, 5)
    assert info.value.field == "format_settings.playoff.cut"


def test_stages_and_words() -> None:
    assert SPEC.rounds_total(3, DEFAULTS, 6) == 3
    assert SPEC.stage_of(3, 3, DEFAULTS, 6) == "qualifying"
    assert SPEC.describe_length(3, 6, DEFAULTS, 6) == "3 rounds of 6 deals"
    assert SPEC.qualifying_cut(DEFAULTS) is None
    chosen = SPEC.check_settings({"playoff": {"cut": 2}})
    assert SPEC.rounds_total(3, chosen, 6) == 4 and SPEC.stage_of(4, 3, chosen, 6) == "bracket"
    first = SPEC.describe(DEFAULTS, 3)[0]
    assert first.startswith("A/B movement, 3 rounds") and "B pairs move one table up" in first


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 24))
def test_a_pairs_stay_b_pairs_move_up_and_meet_each_a_pair_once(count: int) -> None:
    field = pairs(count)
    tables = (count + 1) // 2  # the odd pair out's phantom table included
    built, _ = run(SPEC, tables, field=field)
    a_pairs = set(range(1, count // 2 + 1))
    met: Counter[frozenset[int]] = Counter()
    for number, round_ in enumerate(built, start=1):
        assert sorted(seated_once(round_)) == sorted(pair_of(field))
        assert len(byes(round_, field)) == count % 2
        for table, (a, b) in enumerate(matches(round_, field), start=1):
            assert a == table and a in a_pairs, "A pair t keeps table t"
            # B pair i starts at table i and moves one table up (round the room) each round
            assert (b - count // 2 - 1 + number - 1) % tables + 1 == table
        met.update(frozenset(m) for m in matches(round_, field))
    assert max(met.values()) == 1
    assert all(len(m & a_pairs) == 1 for m in met), "A pairs never meet, nor do B pairs"
    assert len(met) == len(a_pairs) * (count - len(a_pairs)), "every A pair meets every B pair"


def test_a_round_past_the_movement_is_refused_naming_the_round() -> None:
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 4, field=pairs(6), rounds_planned=5))
    assert info.value.field == "round"


def test_a_withdrawn_pairs_opponent_has_a_bye() -> None:
    field = pairs(4)
    built = SPEC.build(situation(SPEC, 1, field=field, active=(1, 2, 4)))
    assert matches(built, field) == [(2, 4)] and byes(built, field) == {1}


def test_places_are_the_standings_ranks() -> None:
    field = pairs(4)
    _, results = run(SPEC, 2, field=field)
    placed = SPEC.placements(finish(SPEC, (4, 3, 2, 1), results, field=field))
    assert [p.entry_id for p in placed] == [4, 3, 2, 1]
    assert [p.place for p in placed] == [1, 2, 3, 4]
