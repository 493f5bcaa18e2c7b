"""The club night's spec as a pure plugin: single players with rotating partners, round after
round for as long as the club plays; no settings of its own, one stage, placed by the standings."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, Placed, PlanChange, Stage

from .helpers import finish, players, run, seated_once, situation

SPEC = formats.get("club_night")


def test_single_players_play_rounds() -> None:
    assert SPEC.entrants == "players" and not SPEC.pairs
    assert SPEC.sitting == "round" and SPEC.sitting_title == "Round"
    assert (SPEC.default_rounds, SPEC.default_deals, SPEC.rounds_label) == (4, 8, "Rounds")
    assert SPEC.rounds_used and SPEC.rounds_setting == ""
    assert SPEC.min_entries == 4
    assert SPEC.shortcut == "New club night" and SPEC.summary


def test_capabilities_are_a_club_nights() -> None:
    assert SPEC.club_night and SPEC.open_ended
    assert not SPEC.seats_automatically and not SPEC.needs_winners
    assert not SPEC.alternates and SPEC.swap == "players"
    assert not SPEC.closed_field and SPEC.bracket == "" and not SPEC.playoff
    assert not SPEC.forfeits and not SPEC.stage_totals
    assert not SPEC.has_bracket({})


def test_it_has_no_settings_and_refuses_any() -> None:
    assert SPEC.setting_keys == frozenset()
    assert SPEC.check_settings(None) == {} and SPEC.check_settings({}) == {}
    with pytest.raises(FormatError) as info:
        SPEC.check_settings({"cut": 8})
    assert info.value.field == "format_settings"


def test_the_plan_may_change_at_any_time_and_any_field_is_seated() -> None:
    change = PlanChange(stored={}, settings={}, rounds_planned=1,
                        seated={Stage.QUALIFYING.value: 6}, here=5)
    assert SPEC.check_plan_change(change) is None  # fewer rounds than played: it plays on
    assert SPEC.check_field({}, 4) is None and SPEC.check_field({}, 5) is None


@pytest.mark.parametrize("planned", [1, 4, 9])
def test_one_stage_of_the_planned_rounds_and_more(planned: int) -> None:
    assert SPEC.rounds_total(planned, {}, 12) == planned
    assert SPEC.qualifying_rounds(planned, {}, 12) == planned
    # a club night plays on past its plan: every round is qualifying
    assert {SPEC.stage_of(n, planned, {}, 12) for n in range(1, planned + 3)} == {"qualifying"}
    assert SPEC.qualifying_cut({}) is None


def test_its_length_and_rules_in_words() -> None:
    assert SPEC.describe_length(4, 8, {}, 12) == "4 rounds of 8 deals"
    assert SPEC.describe_length(1, 1, {}, 12) == "1 round of 1 deal"
    assert SPEC.describe_length(3, None, {}, 12, game_target=500) == "3 rounds of a game to 500"
    (sentence,) = SPEC.describe({}, 5)
    assert sentence.startswith("5 rounds planned") and "partners change every round" in sentence
    assert "sit out in turn" in sentence


@settings(max_examples=40, deadline=None)
@given(count=st.integers(4, 40), seed=st.integers(0, 2**32))
def test_the_first_round_seats_everyone_once_at_tables_of_four(count: int, seed: int) -> None:
    built = SPEC.build(situation(SPEC, 1, entries=players(count), seed=seed))
    assert sorted(seated_once(built)) == list(players(count))
    assert len(built.plan.tables) == count // 4 and len(built.plan.byes) == count % 4
    assert built.method in {"whist_design", "search"}


@settings(max_examples=30, deadline=None)
@given(count=st.integers(4, 32), seed=st.integers(0, 2**32))
def test_partners_rotate_and_players_sit_out_in_turn(count: int, seed: int) -> None:
    rounds = 3 if count < 8 else 5
    built, _ = run(SPEC, rounds, entries=players(count), seed=seed)
    partners: Counter[frozenset[int]] = Counter()
    sat_out: Counter[int] = Counter()
    for round_ in built:
        assert sorted(seated_once(round_)) == list(players(count))
        for n, e, s, w in round_.plan.tables:
            partners.update([frozenset((n, s)), frozenset((e, w))])
        sat_out.update(round_.plan.byes)
    assert max(partners.values()) == 1, "nobody partners the same player twice"
    counts = [sat_out[p] for p in players(count)]
    assert max(counts) - min(counts) <= 1, "players sit out in turn"


def test_twelve_players_follow_the_whist_design_and_the_same_seed_draws_the_same() -> None:
    first, _ = run(SPEC, 3, entries=players(12))
    again, _ = run(SPEC, 3, entries=players(12))
    assert [b.method for b in first] == ["whist_design"] * 3
    assert [b.plan for b in first] == [b.plan for b in again]
    other, _ = run(SPEC, 3, entries=players(12), seed=8)
    assert [b.plan for b in other] != [b.plan for b in first]


def test_a_round_past_the_plan_is_searched_for() -> None:
    built, _ = run(SPEC, 5, entries=players(12), rounds_planned=3)
    assert built[-1].method == "search"
    assert sorted(seated_once(built[-1])) == list(players(12))


def test_a_player_fixed_to_a_table_sits_there() -> None:
    built = SPEC.build(situation(SPEC, 1, entries=players(12), fixed_tables={5: 3, 9: 1}))
    assert built.plan.table_of(5) == 3 and built.plan.table_of(9) == 1
    assert sorted(seated_once(built)) == list(players(12))


def test_places_are_the_standings_ranks() -> None:
    placed = SPEC.placements(finish(SPEC, [4, 2, 9], []))
    assert placed == [Placed(1, 4, "qualifying"), Placed(2, 2, "qualifying"),
                      Placed(3, 9, "qualifying")]
