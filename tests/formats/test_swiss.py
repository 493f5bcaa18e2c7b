"""Swiss's spec as a pure plugin: fixed pairs with the same number of wins meet, never twice; a
bye counts as a win; an optional playoff bracket after the rounds. (The split final, a playoff's
lower bracket, has its own module: test_split_final.py.)"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange, Stage

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

SPEC = formats.get("swiss")
DEFAULTS = {"ties": "system_cut", "game_minutes": None, "first_draw": "seeded", "playoff": None}
PLAYOFF = {"kind": "single", "cut": 4}


def test_fixed_pairs_play_rounds() -> None:
    assert SPEC.entrants == "pairs" and SPEC.pairs
    assert SPEC.sitting == "round" and SPEC.rounds_label == "Rounds" and SPEC.rounds_used
    assert SPEC.min_entries == 2 and SPEC.shortcut == "New pairs event"
    assert SPEC.rounds_help == "With a playoff, the qualifying rounds before it."


def test_capabilities_are_a_pair_format_that_may_end_in_a_playoff() -> None:
    assert SPEC.seats_automatically and SPEC.needs_winners and not SPEC.open_ended
    assert SPEC.swap == "pairs" and SPEC.playoff and SPEC.forfeits
    assert not SPEC.closed_field and SPEC.bracket == "" and not SPEC.alternates
    assert not SPEC.club_night and not SPEC.stage_totals
    assert not SPEC.has_bracket(DEFAULTS)
    assert SPEC.has_bracket(SPEC.check_settings({"playoff": PLAYOFF}))


def test_settings_default_and_a_playoff_is_filled_in() -> None:
    assert SPEC.setting_keys == {"ties", "game_minutes", "first_draw", "playoff"}
    assert SPEC.check_settings(None) == DEFAULTS
    chosen = SPEC.check_settings({"first_draw": "random", "game_minutes": 30,
                                  "playoff": {"kind": "double", "cut": 6}})
    assert chosen["first_draw"] == "random" and chosen["game_minutes"] == 30
    assert chosen["playoff"] == {"kind": "double", "cut": 6, "reset": True, "consolation": []}
    single = SPEC.check_settings({"playoff": {"consolation": [2, 1, 1]}})["playoff"]
    assert single == {"kind": "single", "cut": 8, "third_place": False, "consolation": [1, 2]}


@pytest.mark.parametrize(("raw", "key"), [
    ({"first_draw": "coin"}, "first_draw"),
    ({"ties": "coin"}, "ties"),
    ({"game_minutes": 9}, "game_minutes"),
    ({"game_minutes": True}, "game_minutes"),
    ({"groups": 2}, "groups"),
    ({"third_place": True}, "third_place"),
    ({"playoff": 8}, "playoff"),
    ({"playoff": {"kind": "triple"}}, "playoff.kind"),
    ({"playoff": {"cut": 1}}, "playoff.cut"),
    ({"playoff": {"cut": 300}}, "playoff.cut"),
    ({"playoff": {"kind": "single", "reset": False}}, "playoff.reset"),
    ({"playoff": {"kind": "double", "third_place": True}}, "playoff.third_place"),
    ({"playoff": {"third_place": "yes"}}, "playoff.third_place"),
    ({"playoff": {"consolation": [0]}}, "playoff.consolation"),
    ({"playoff": {"seeds": 8}}, "playoff.seeds"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def _change(**kw: Any) -> PlanChange:
    base: dict[str, Any] = {"stored": DEFAULTS, "settings": DEFAULTS, "rounds_planned": 5,
                            "seated": {}, "here": 8}
    return PlanChange(**{**base, **kw})


def test_the_plan_may_change_until_play_reaches_it() -> None:
    with_playoff = SPEC.check_settings({"playoff": PLAYOFF})
    SPEC.check_plan_change(_change(seated={"qualifying": 2}, settings=with_playoff))
    SPEC.check_plan_change(_change(seated={"qualifying": 2},
                                   settings={**DEFAULTS, "ties": "table_cut",
                                             "game_minutes": 40}))
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(_change(seated={"qualifying": 3}, rounds_planned=2))
    assert info.value.field == "rounds_planned"
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(_change(stored=with_playoff, settings=DEFAULTS,
                                       seated={"qualifying": 5, "bracket": 1}))
    assert (info.value.field, info.value.code) == ("format_settings.playoff", "started")


def test_a_playoff_larger_than_the_field_is_refused() -> None:
    SPEC.check_field(DEFAULTS, 2)
    chosen = SPEC.check_settings({"playoff": {"cut": 8}})
    SPEC.check_field(chosen, 8)
    with pytest.raises(FormatError) as info:
        SPEC.check_field(chosen, 6)
    assert (info.value.field, info.value.code) == ("format_settings.playoff.cut",
                                                   "cut_larger_than_field")


def test_without_a_playoff_every_round_qualifies() -> None:
    assert SPEC.rounds_total(5, DEFAULTS, 12) == SPEC.qualifying_rounds(5, DEFAULTS, 12) == 5
    assert {SPEC.stage_of(n, 5, DEFAULTS, 12) for n in range(1, 6)} == {"qualifying"}
    assert SPEC.qualifying_cut(DEFAULTS) is None
    assert SPEC.describe_length(5, 8, DEFAULTS, 12) == "5 rounds of 8 deals"


@pytest.mark.parametrize(("playoff", "bracket_rounds"), [
    ({"kind": "single", "cut": 4}, 2),
    ({"kind": "single", "cut": 8, "third_place": True}, 3),
    ({"kind": "double", "cut": 4}, 5),  # W1, then W2 and L1, L2, GF, GF2
    ({"kind": "double", "cut": 4, "reset": False}, 4),
])
def test_a_playoff_adds_its_bracket_rounds(playoff: dict[str, Any], bracket_rounds: int) -> None:
    chosen = SPEC.check_settings({"playoff": playoff})
    assert SPEC.qualifying_rounds(5, chosen, 12) == 5
    assert SPEC.rounds_total(5, chosen, 12) == 5 + bracket_rounds
    stages = [SPEC.stage_of(n, 5, chosen, 12) for n in range(1, 6 + bracket_rounds)]
    assert stages == ["qualifying"] * 5 + [Stage.BRACKET.value] * bracket_rounds
    cut = SPEC.qualifying_cut(chosen)
    assert cut is not None and (cut.size, cut.goes_to) == (playoff["cut"], "the playoff")


def test_its_rules_in_sentences_follow_the_settings() -> None:
    words = " ".join(SPEC.describe(DEFAULTS, 5))
    assert words.startswith("Swiss, 5 rounds") and "never twice" in words
    assert "forfeits" in words and "play a bracket" not in words and "minutes" not in words
    chosen = SPEC.check_settings({"game_minutes": 50, "playoff": {
        "kind": "single", "cut": 4, "third_place": True}})
    words = " ".join(SPEC.describe(chosen, 3))
    assert "Then the top 4 pairs of the standings play a bracket" in words
    assert "third place" in words and "at most 50 minutes" in words


@settings(max_examples=50, deadline=None)
@given(count=st.integers(2, 40), random_draw=st.booleans(), seed=st.integers(0, 2**32))
def test_the_first_round_seats_every_pair_once_an_odd_one_out_has_a_bye(
        count: int, random_draw: bool, seed: int) -> None:
    field = pairs(count)
    chosen = {"first_draw": "random" if random_draw else "seeded"}
    built = SPEC.build(situation(SPEC, 1, field=field, settings=chosen, seed=seed))
    assert sorted(seated_once(built)) == sorted(pair_of(field))
    for n, e, s, w in built.plan.tables:  # partners sit N-S and E-W
        assert pair_of(field)[n] == pair_of(field)[s] and pair_of(field)[e] == pair_of(field)[w]
    assert len(byes(built, field)) == count % 2
    assert built.method.startswith("swiss: 0 rematches")


def test_a_seeded_first_round_meets_the_top_half_with_the_bottom_half() -> None:
    field = pairs(6)
    assert matches(SPEC.build(situation(SPEC, 1, field=field)), field) == [(1, 4), (2, 5), (3, 6)]
    odd = SPEC.build(situation(SPEC, 1, field=pairs(5)))
    assert byes(odd, pairs(5)) == {5}  # the lowest seed sits out


@settings(max_examples=40, deadline=None)
@given(count=st.integers(4, 20), seed=st.integers(0, 2**16))
def test_later_rounds_pair_by_wins_and_never_repeat_a_match(count: int, seed: int) -> None:
    field = pairs(count)
    rounds = min(5, count - 1 if count % 2 == 0 else count)
    built, results = run(SPEC, rounds, field=field, seed=seed)
    met: Counter[frozenset[int]] = Counter()
    had_bye: Counter[int] = Counter()
    for number, round_ in enumerate(built, start=1):
        assert sorted(seated_once(round_)) == sorted(pair_of(field))
        met.update(frozenset(m) for m in matches(round_, field))
        now = byes(round_, field)
        assert all(had_bye[p] == 0 for p in now) or all(had_bye[p] for p in field), \
            "no second bye while another pair has had none"
        had_bye.update(now)
        if number == 2 and count % 4 == 0:
            # after round 1 half the pairs have a win: winners meet winners
            winners = {pair_of(field)[e] for r in results if r.round_number == 1
                       for e in r.winners()}
            assert all((a in winners) == (b in winners) for a, b in matches(round_, field))
    assert max(met.values()) == 1, "no pair meets another twice"


def test_pairs_that_withdrew_are_not_paired() -> None:
    field = pairs(6)
    built = SPEC.build(situation(SPEC, 1, field=field, active=(1, 2, 3, 5, 6)))
    placed = {p for m in matches(built, field) for p in m} | byes(built, field)
    assert placed == {1, 2, 3, 5, 6} and len(byes(built, field)) == 1


def test_the_next_round_waits_for_every_winner() -> None:
    field = pairs(4)
    first = SPEC.build(situation(SPEC, 1, field=field))
    games = play(1, first, lower_id_wins)
    unfinished = [games[0], type(games[1])(1, 2, games[1].seats)]
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 2, field=field, history=[first.plan], results=unfinished))
    assert info.value.field == "round" and "Table 2" in info.value.message


def test_the_playoff_seeds_the_top_pairs_of_the_standings_and_advances_winners() -> None:
    field = pairs(8)
    order = (8, 7, 6, 5, 4, 3, 2, 1)  # the qualifying standings, best first
    chosen = {"playoff": PLAYOFF}
    built, results = run(SPEC, 2, field=field, settings=chosen, rounds_planned=2)
    semis = SPEC.build(situation(SPEC, 3, field=field, history=[b.plan for b in built],
                                 results=results, settings=chosen, ranking=order,
                                 rounds_planned=2))
    assert semis.method == "bracket" and semis.matches == ("W1-1", "W1-2")
    assert matches(semis, field) == [(8, 5), (7, 6)]  # seed 1 v 4, 2 v 3
    results += play(3, semis, lower_id_wins)  # 5 and 6 win
    final = SPEC.build(situation(SPEC, 4, field=field, results=results, settings=chosen,
                                 ranking=order, rounds_planned=2))
    assert final.matches == ("W2-1",) and matches(final, field) == [(5, 6)]
    finish_ = finish(SPEC, order, results, field=field, settings=chosen, rounds_planned=2)
    with pytest.raises(FormatError) as info:
        SPEC.placements(finish_)
    assert (info.value.field, info.value.code) == ("status", "bracket_unfinished")
    results += play(4, final, lower_id_wins)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 5, field=field, results=results, settings=chosen,
                             ranking=order, rounds_planned=2))
    assert info.value.code == "complete"
    placed = SPEC.placements(finish(SPEC, order, results, field=field, settings=chosen,
                                    rounds_planned=2))
    assert [(p.place, p.entry_id, p.stage) for p in placed[:2]] == [
        (1, 5, "bracket"), (2, 6, "bracket")]
    assert {p.entry_id for p in placed[2:4]} == {7, 8}
    assert all(p.place == 3 and p.stage == "bracket" for p in placed[2:4])
    assert [(p.place, p.entry_id, p.stage) for p in placed[4:]] == [
        (5, 4, "qualifying"), (6, 3, "qualifying"), (7, 2, "qualifying"), (8, 1, "qualifying")]


def test_without_a_playoff_the_standings_are_the_places() -> None:
    field = pairs(4)
    _, results = run(SPEC, 2, field=field)
    placed = SPEC.placements(finish(SPEC, (3, 1, 4, 2), results, field=field))
    assert [(p.place, p.entry_id, p.stage) for p in placed] == [
        (1, 3, "qualifying"), (2, 1, "qualifying"), (3, 4, "qualifying"), (4, 2, "qualifying")]
