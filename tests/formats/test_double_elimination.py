"""The double-elimination bracket's spec as a pure plugin: losers of the winners' bracket drop
into the losers' bracket, a pair is out after its second loss, and the grand final is played
again (the reset) when the losers' bracket pair wins it, unless the director chose one final."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange
from pairing.results import TableResult

from .helpers import finish, lower_id_wins, matches, pair_of, pairs, play, situation

SPEC = formats.get("double_elimination")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "reset": True, "consolation": []}


def test_fixed_pairs_play_bracket_matches() -> None:
    assert SPEC.entrants == "pairs" and SPEC.sitting == "round" and SPEC.min_entries == 2
    assert not SPEC.rounds_used and SPEC.rounds_label == "Rounds (not used)"


def test_capabilities_are_a_brackets() -> None:
    assert SPEC.bracket == "double" and SPEC.has_bracket(DEFAULTS)
    assert SPEC.closed_field and not SPEC.playoff and SPEC.forfeits
    assert SPEC.seats_automatically and SPEC.needs_winners and not SPEC.open_ended
    assert SPEC.swap == "pairs" and not SPEC.alternates and not SPEC.stage_totals


def test_settings_default_to_a_grand_final_reset() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "reset", "consolation"}
    assert SPEC.check_settings(None) == DEFAULTS
    assert SPEC.check_settings({"reset": False})["reset"] is False


@pytest.mark.parametrize(("raw", "key", "code"), [
    ({"reset": "yes"}, "reset", "bad_value"),
    ({"third_place": True}, "third_place", "unknown_field"),
    ({"consolation": ["1"]}, "consolation", "bad_value"),
    ({"playoff": None}, "playoff", "unknown_field"),
    ({"game_minutes": 0}, "game_minutes", "bad_value"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str, code: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert (info.value.field, info.value.code) == (f"format_settings.{key}", code)


def test_the_reset_is_fixed_once_round_one_is_seated() -> None:
    one_final = {**DEFAULTS, "reset": False}
    SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=one_final, rounds_planned=4,
                                      seated={}, here=8))
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(PlanChange(stored=DEFAULTS, settings=one_final, rounds_planned=4,
                                          seated={"bracket": 1}, here=8))
    assert (info.value.field, info.value.code) == ("format_settings.reset", "started")


def test_a_consolation_round_the_field_cannot_feed_is_refused_at_the_first_round() -> None:
    SPEC.check_field(DEFAULTS, 2)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 1, field=pairs(4), settings={"consolation": [5]}))
    assert info.value.field == "format_settings.consolation"


@pytest.mark.parametrize(("count", "with_reset", "one_final"), [
    (2, 3, 2), (3, 5, 4), (4, 5, 4), (5, 6, 5), (8, 7, 6), (16, 9, 8),
])
def test_the_bracket_is_the_whole_event(count: int, with_reset: int, one_final: int) -> None:
    assert SPEC.rounds_total(4, DEFAULTS, count) == with_reset
    assert SPEC.rounds_total(4, {**DEFAULTS, "reset": False}, count) == one_final
    assert SPEC.qualifying_rounds(4, DEFAULTS, count) == 0
    assert SPEC.stage_of(1, 4, DEFAULTS, count) == "bracket"
    assert SPEC.qualifying_cut(DEFAULTS) is None
    assert SPEC.describe_length(4, None, DEFAULTS, count, game_target=500) == (
        "bracket matches of a game to 500")


def test_its_rules_in_sentences_follow_the_settings() -> None:
    words = " ".join(SPEC.describe(DEFAULTS, 4))
    assert "out after its second loss" in words
    assert "The grand final is played again if the losers' bracket pair wins it." in words
    one = " ".join(SPEC.describe(SPEC.check_settings({"reset": False, "consolation": [1]}), 4))
    assert "One grand final decides." in one
    assert "knocked out in round 1 of the losers' bracket" in one


def test_the_first_wave_meets_the_best_seed_with_the_lowest() -> None:
    field = pairs(8)
    built = SPEC.build(situation(SPEC, 1, field=field))
    assert built.matches == ("W1-1", "W1-2", "W1-3", "W1-4")
    assert matches(built, field) == [(1, 8), (4, 5), (2, 7), (3, 6)]


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, 24), reset=st.booleans(), upset=st.booleans())
def test_a_pair_is_out_after_its_second_loss_and_the_reset_follows_the_grand_final(
        count: int, reset: bool, upset: bool) -> None:
    field = pairs(count)
    chosen = {"reset": reset}
    total = SPEC.rounds_total(0, SPEC.check_settings(chosen), count)

    def winner(result: TableResult) -> str:
        # the better seed wins, but for an upset the losers' bracket pair (E-W) wins the final
        return "EW" if upset and result.match == "GF" else lower_id_wins(result)

    results: list[TableResult] = []
    losses: Counter[int] = Counter()
    codes: list[str] = []
    number = 0
    while True:
        number += 1
        try:
            built = SPEC.build(situation(SPEC, number, field=field, results=results,
                                         settings=chosen))
        except FormatError as exc:
            assert exc.code == "complete"
            break
        assert number <= total, "the bracket takes no more waves than its rounds"
        playing = [p for m in matches(built, field) for p in m]
        assert len(playing) == len(set(playing))
        assert all(losses[p] < 2 for p in playing), "a pair is out after its second loss"
        games = play(number, built, winner)
        results += games
        codes += built.matches
        for game in games:
            losers = set(game.seats.values()) - set(game.winners())
            losses.update({pair_of(field)[e] for e in losers})
    assert ("GF2" in codes) == (reset and upset)
    placed = SPEC.placements(finish(SPEC, tuple(field), results, field=field, settings=chosen))
    assert sorted(p.entry_id for p in placed) == list(field)
    champion = 2 if upset and not reset else 1
    assert (placed[0].place, placed[0].entry_id, placed[0].stage) == (1, champion, "bracket")
    assert (placed[1].place, placed[1].entry_id) == (2, 3 - champion)


def test_places_wait_for_the_last_match() -> None:
    field = pairs(2)
    first = SPEC.build(situation(SPEC, 1, field=field))
    with pytest.raises(FormatError) as info:
        SPEC.placements(finish(SPEC, tuple(field), play(1, first, lower_id_wins), field=field))
    assert (info.value.field, info.value.code) == ("status", "bracket_unfinished")
