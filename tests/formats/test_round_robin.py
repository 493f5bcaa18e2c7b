"""The round robin's spec as a pure plugin: every pair meets every other pair of its group once,
the schedule deciding the event's length; a closed field; an optional playoff after it."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange

from .helpers import byes, finish, matches, pair_of, pairs, run, seated_once, situation

SPEC = formats.get("round_robin")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "groups": 1, "playoff": None}


def test_fixed_pairs_play_the_schedules_rounds() -> None:
    assert SPEC.entrants == "pairs" and SPEC.sitting == "round" and SPEC.min_entries == 2
    assert not SPEC.rounds_used and SPEC.rounds_help.startswith("Not used")
    assert SPEC.rounds_label == "Rounds (not used)"


def test_capabilities_are_a_closed_schedule_of_pairs() -> None:
    assert SPEC.closed_field and SPEC.seats_automatically and SPEC.needs_winners
    assert not SPEC.open_ended and SPEC.swap == "pairs" and SPEC.playoff and SPEC.forfeits
    assert SPEC.bracket == "" and not SPEC.alternates and not SPEC.club_night
    assert not SPEC.stage_totals and not SPEC.has_bracket(DEFAULTS)


def test_settings_default_to_one_group() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "groups", "playoff"}
    assert SPEC.check_settings(None) == DEFAULTS
    assert SPEC.check_settings({"groups": 3})["groups"] == 3


@pytest.mark.parametrize(("raw", "key"), [
    ({"groups": 0}, "groups"),
    ({"groups": 33}, "groups"),
    ({"groups": "2"}, "groups"),
    ({"first_draw": "random"}, "first_draw"),
    ({"ties": "dice"}, "ties"),
    ({"game_minutes": 241}, "game_minutes"),
    ({"playoff": {"cut": 0}}, "playoff.cut"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def test_the_groups_are_fixed_once_play_starts() -> None:
    two = SPEC.check_settings({"groups": 2})
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=two, rounds_planned=4,
                                      seated={}, here=8))
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings={**DEFAULTS, "game_minutes": 30},
                                      rounds_planned=4, seated={"qualifying": 1}, here=8))
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=two, rounds_planned=4,
                                          seated={"qualifying": 1}, here=8))
    assert (info.value.field, info.value.code) == ("format_settings.groups", "started")


def test_a_playoff_larger_than_the_field_is_refused() -> None:
    chosen = SPEC.check_settings({"playoff": {"cut": 4}})
    SPEC.check_field(chosen, 4)
    with pytest.raises(FormatError) as info:
        SPEC.check_field(chosen, 3)
    assert info.value.field == "format_settings.playoff.cut"


@pytest.mark.parametrize(("count", "groups", "rounds"), [
    (2, 1, 1), (7, 1, 7), (8, 1, 7), (9, 2, 5), (8, 2, 3), (12, 3, 3),
])
def test_the_schedule_decides_the_length_not_the_plan(count: int, groups: int,
                                                      rounds: int) -> None:
    chosen = SPEC.check_settings({"groups": groups})
    assert SPEC.qualifying_rounds(4, chosen, count) == rounds
    assert SPEC.rounds_total(4, chosen, count) == rounds
    assert {SPEC.stage_of(n, 4, chosen, count) for n in range(1, rounds + 1)} == {"qualifying"}
    assert SPEC.describe_length(4, 8, chosen, count) == (
        f"{rounds} round{'s' if rounds != 1 else ''} of 8 deals")


def test_too_few_pairs_to_plan_count_the_planned_rounds() -> None:
    assert SPEC.qualifying_rounds(4, DEFAULTS, 1) == 4
    assert SPEC.qualifying_rounds(4, SPEC.check_settings({"groups": 3}), 4) == 4


def test_a_playoff_follows_the_schedule() -> None:
    chosen = SPEC.check_settings({"playoff": {"kind": "single", "cut": 4}})
    assert SPEC.rounds_total(4, chosen, 6) == 5 + 2
    assert SPEC.stage_of(6, 4, chosen, 6) == "bracket"
    cut = SPEC.qualifying_cut(chosen)
    assert cut is not None and cut.size == 4


def test_its_rules_in_sentences_name_the_groups() -> None:
    (first, *rest) = SPEC.describe(DEFAULTS, 4)
    assert first == "Round robin: every pair meets every other pair of its group once."
    assert any("forfeits" in line for line in rest)
    grouped = SPEC.describe(SPEC.check_settings({"groups": 3}), 4)[0]
    assert grouped.endswith("The pairs play in 3 groups.")


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 16))
def test_every_pair_meets_every_other_once(count: int) -> None:
    field = pairs(count)
    total = SPEC.rounds_total(4, DEFAULTS, count)
    built, _ = run(SPEC, total, field=field)
    met: Counter[frozenset[int]] = Counter()
    for round_ in built:
        assert sorted(seated_once(round_)) == sorted(pair_of(field))
        assert len(byes(round_, field)) == count % 2
        met.update(frozenset(m) for m in matches(round_, field))
    assert met == Counter(frozenset(m) for m in combinations(field, 2))


@settings(max_examples=30, deadline=None)
@given(count=st.integers(4, 16), groups=st.integers(2, 3))
def test_groups_meet_only_within_themselves(count: int, groups: int) -> None:
    if count < 2 * groups:
        groups = 2
    field = pairs(count)
    chosen = {"groups": groups}
    total = SPEC.rounds_total(4, SPEC.check_settings(chosen), count)
    built, _ = run(SPEC, total, field=field, settings=chosen)
    met = Counter(frozenset(m) for b in built for m in matches(b, field))
    # the groups are dealt by seed, snake-wise: 1, 2, .., g, g, .., 1, ...
    snake = [*range(groups), *reversed(range(groups))]
    group = {p: snake[(p - 1) % len(snake)] for p in field}
    assert all(len({group[p] for p in m}) == 1 for m in met)
    expected = {frozenset(m) for m in combinations(field, 2) if group[m[0]] == group[m[1]]}
    assert set(met) == expected and max(met.values()) == 1


def test_a_withdrawn_pairs_opponent_has_a_bye() -> None:
    field = pairs(4)
    built = SPEC.build(situation(SPEC, 1, field=field, active=(1, 2, 3)))
    assert matches(built, field) == [(2, 3)] and byes(built, field) == {1}


def test_a_round_past_the_schedule_is_refused_naming_the_round() -> None:
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 4, field=pairs(4), rounds_planned=9))
    assert (info.value.field, info.value.code) == ("round", "no_more_rounds")


def test_places_are_the_standings_ranks() -> None:
    field = pairs(3)
    _, results = run(SPEC, 3, field=field)
    placed = SPEC.placements(finish(SPEC, (2, 3, 1), results, field=field))
    assert [(p.place, p.entry_id, p.stage) for p in placed] == [
        (1, 2, "qualifying"), (2, 3, "qualifying"), (3, 1, "qualifying")]
