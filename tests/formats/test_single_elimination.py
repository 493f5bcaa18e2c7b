"""The single-elimination bracket's spec as a pure plugin: pairs in the director's seed order, the
best seed against the lowest, byes for the top seeds when the field is not a power of two, a
pair out after one loss; each wave seats every match whose pairs are known."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange
from pairing.results import TableResult

from .helpers import finish, lower_id_wins, matches, pairs, play, situation

SPEC = formats.get("single_elimination")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "third_place": False, "consolation": []}


def test_fixed_pairs_play_bracket_matches() -> None:
    assert SPEC.entrants == "pairs" and SPEC.sitting == "round" and SPEC.min_entries == 2
    assert not SPEC.rounds_used and SPEC.rounds_label == "Rounds (not used)"
    assert SPEC.rounds_help == "Not used: a bracket plays until it is decided."


def test_capabilities_are_a_brackets() -> None:
    assert SPEC.bracket == "single" and SPEC.has_bracket(DEFAULTS)
    assert SPEC.closed_field and not SPEC.playoff and SPEC.forfeits
    assert SPEC.seats_automatically and SPEC.needs_winners and not SPEC.open_ended
    assert SPEC.swap == "pairs" and not SPEC.alternates and not SPEC.club_night
    assert not SPEC.stage_totals


def test_settings_default_to_no_third_place_match_and_no_consolation() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "third_place", "consolation"}
    assert SPEC.check_settings(None) == DEFAULTS
    chosen = SPEC.check_settings({"third_place": True, "consolation": [1]})
    assert chosen["third_place"] is True and chosen["consolation"] == [1]


@pytest.mark.parametrize(("raw", "key"), [
    ({"third_place": "yes"}, "third_place"),
    ({"reset": True}, "reset"),
    ({"consolation": 1}, "consolation"),
    ({"consolation": [31]}, "consolation"),
    ({"playoff": {"cut": 4}}, "playoff"),
    ({"first_draw": "random"}, "first_draw"),
    ({"ties": "coin"}, "ties"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def test_the_brackets_shape_is_fixed_once_round_one_is_seated() -> None:
    third = {**DEFAULTS, "third_place": True}
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=third, rounds_planned=4,
                                      seated={}, here=8))
    # the planned rounds mean nothing to a bracket
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=DEFAULTS, rounds_planned=1,
                                      seated={"bracket": 3}, here=8))
    for changed, key in ((third, "third_place"), ({**DEFAULTS, "consolation": [1]},
                                                   "consolation")):
        with pytest.raises(FormatError) as info:
            SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=changed,
                                              rounds_planned=4, seated={"bracket": 1}, here=8))
        assert (info.value.field, info.value.code) == (f"format_settings.{key}", "started")


def test_a_third_place_match_needs_two_semi_finals() -> None:
    SPEC.check_field(DEFAULTS, 2)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 1, field=pairs(3), settings={"third_place": True}))
    assert info.value.field == "format_settings.third_place"


@pytest.mark.parametrize(("count", "chosen", "depth"), [
    (2, {}, 1), (3, {}, 2), (4, {}, 2), (5, {}, 3), (8, {}, 3), (9, {}, 4),
    (8, {"third_place": True}, 3), (8, {"consolation": [1]}, 3), (16, {"consolation": [1]}, 4),
    (3, {"third_place": True}, 0),  # cannot be planned: seating round 1 says why
])
def test_the_bracket_is_the_whole_event(count: int, chosen: dict[str, Any], depth: int) -> None:
    s = SPEC.check_settings(chosen)
    assert SPEC.qualifying_rounds(5, s, count) == 0
    assert SPEC.rounds_total(5, s, count) == depth
    assert {SPEC.stage_of(n, 5, s, count) for n in range(1, depth + 1)} <= {"bracket"}
    assert SPEC.qualifying_cut(s) is None
    assert SPEC.describe_length(5, 8, s, count) == "bracket matches of 8 deals"


def test_its_rules_in_sentences_follow_the_settings() -> None:
    plain = " ".join(SPEC.describe(DEFAULTS, 4))
    assert "out after one loss" in plain and "third place" not in plain
    assert "consolation" not in plain and "walkover" in plain
    full = " ".join(SPEC.describe(SPEC.check_settings(
        {"third_place": True, "consolation": [1], "game_minutes": 20}), 4))
    assert "The semi-final losers play for third place." in full
    assert "knocked out in round 1 of the winners' bracket" in full
    assert "at most 20 minutes" in full


def test_the_first_wave_meets_the_best_seed_with_the_lowest() -> None:
    field = pairs(8)
    built = SPEC.build(situation(SPEC, 1, field=field))
    assert built.method == "bracket" and built.matches == ("W1-1", "W1-2", "W1-3", "W1-4")
    assert matches(built, field) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    six = SPEC.build(situation(SPEC, 1, field=pairs(6)))
    assert matches(six, pairs(6)) == [(4, 5), (3, 6)]  # seeds 1 and 2 have a bye
    assert six.plan.byes == ()


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 32), third_place=st.booleans(), seed=st.integers(0, 2**16))
def test_winners_advance_until_the_bracket_is_decided(count: int, third_place: bool,
                                                      seed: int) -> None:
    third_place = third_place and count >= 4
    field = pairs(count)
    chosen = {"third_place": third_place}
    total = SPEC.rounds_total(0, SPEC.check_settings(chosen), count)
    results: list[Any] = []
    out: set[int] = set()
    for number in range(1, total + 1):
        built = SPEC.build(situation(SPEC, number, field=field, results=results,
                                     settings=chosen, seed=seed))
        wave = matches(built, field)
        playing = [p for m in wave for p in m]
        assert len(playing) == len(set(playing)), "a pair plays once a wave"
        assert not (set(playing) & out) or any(c == "3P" for c in built.matches), \
            "a pair is out after one loss (the third-place match aside)"
        results += play(number, built, lower_id_wins)
        out |= {max(m) for m, code in zip(wave, built.matches, strict=True) if code != "3P"}
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, total + 1, field=field, results=results, settings=chosen))
    assert info.value.code == "complete"
    placed = SPEC.placements(finish(SPEC, tuple(field), results, field=field, settings=chosen))
    assert sorted(p.entry_id for p in placed) == list(field)
    assert placed[0].place == 1 and placed[0].entry_id == 1 and placed[0].stage == "bracket"
    assert (placed[1].place, placed[1].entry_id) == (2, 2)
    if third_place:
        assert (placed[2].place, placed[2].entry_id) == (3, 3)
        assert (placed[3].place, placed[3].entry_id) == (4, 4)


def test_the_next_wave_waits_for_a_result() -> None:
    field = pairs(4)
    first = SPEC.build(situation(SPEC, 1, field=field))
    done, playing = play(1, first, lower_id_wins)
    games = [done, TableResult(1, 2, playing.seats, match=playing.match)]  # still playing
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 2, field=field, results=games))
    assert info.value.field == "round" and "no result" in info.value.message


def test_places_wait_for_the_last_match() -> None:
    field = pairs(4)
    first = SPEC.build(situation(SPEC, 1, field=field))
    with pytest.raises(FormatError) as info:
        SPEC.placements(finish(SPEC, tuple(field), play(1, first, lower_id_wins), field=field))
    assert (info.value.field, info.value.code) == ("status", "bracket_unfinished")


def test_pairs_out_in_the_same_round_share_a_place() -> None:
    field = pairs(8)
    results: list[Any] = []
    for number in (1, 2, 3):
        built = SPEC.build(situation(SPEC, number, field=field, results=results))
        results += play(number, built, lower_id_wins)
    placed = SPEC.placements(finish(SPEC, tuple(field), results, field=field))
    assert [(p.place, p.entry_id) for p in placed] == [
        (1, 1), (2, 2), (3, 3), (3, 4), (5, 5), (5, 6), (5, 7), (5, 8)]
