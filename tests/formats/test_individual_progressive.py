"""The individual progressive day's spec as a pure plugin: NPA defaults, a seat draw, then winners
move and losers stay, the cut to the semi-final tables and the final table, and the places."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError, PlanChange, Situation
from pairing.results import TableResult

from .helpers import finish, lower_id_wins, ns_wins, play, players, run, seated_once, situation

SPEC = formats.get("individual_progressive")
NPA = {"movement": "winners_move", "direction": "up", "draw": "system", "cut": 8,
       "semi_partners": "seeded", "final_rule": "rotate", "ties": "system_cut",
       "game_minutes": None}


def test_single_players_play_games() -> None:
    assert SPEC.entrants == "players" and not SPEC.pairs
    assert SPEC.sitting == "game" and SPEC.sitting_title == "Game"
    assert (SPEC.default_rounds, SPEC.default_deals) == (6, 4)  # the NPA's day
    assert SPEC.rounds_label == "Qualifying games" and SPEC.rounds_setting == "qualifying_games"
    assert SPEC.rounds_used and SPEC.min_entries == 4
    assert SPEC.shortcut == "New progressive tournament"


def test_capabilities_are_a_progressive_days() -> None:
    assert SPEC.seats_automatically and SPEC.needs_winners and SPEC.alternates
    assert not SPEC.open_ended and SPEC.stage_totals
    assert SPEC.swap == "players" and not SPEC.closed_field
    assert SPEC.bracket == "" and not SPEC.playoff and not SPEC.forfeits
    assert not SPEC.club_night and not SPEC.has_bracket(NPA)


def test_only_the_format_given_means_the_npa_defaults() -> None:
    assert SPEC.check_settings(None) == NPA and SPEC.check_settings({}) == NPA
    assert SPEC.setting_keys == frozenset(NPA) | {"steps"}
    chosen = SPEC.check_settings({"cut": 4, "final_rule": "single_game", "game_minutes": 45})
    assert chosen == {**NPA, "cut": 4, "final_rule": "single_game", "game_minutes": 45}
    fixed = SPEC.check_settings({"movement": "fixed_seats", "steps": {"S": 2}})
    assert fixed["steps"]["S"] == 2 and set(fixed["steps"]) == {"N", "E", "S", "W"}


@pytest.mark.parametrize(("raw", "key"), [
    ({"movement": "sideways"}, "movement"),
    ({"direction": "sideways"}, "direction"),
    ({"draw": "coin"}, "draw"),
    ({"cut": 6}, "cut"),
    ({"cut": True}, "cut"),
    ({"semi_partners": "friends"}, "semi_partners"),
    ({"final_rule": "best_of_five"}, "final_rule"),
    ({"ties": "coin"}, "ties"),
    ({"game_minutes": 5}, "game_minutes"),
    ({"game_minutes": "45"}, "game_minutes"),
    ({"steps": {"N": 1}}, "steps"),  # steps belong to the fixed seat movement
    ({"movement": "fixed_seats", "steps": {"X": 1}}, "steps"),
    ({"groups": 2}, "groups"),
])
def test_each_refusal_names_its_setting(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        SPEC.check_settings(raw)
    assert info.value.field == f"format_settings.{key}"


def _change(**kw: Any) -> PlanChange:
    base: dict[str, Any] = {"stored": NPA, "settings": NPA, "rounds_planned": 6,
                            "seated": {}, "here": 12}
    return PlanChange(**{**base, **kw})


def test_the_stages_may_change_until_play_reaches_them() -> None:
    SPEC.check_plan_change(_change(seated={"qualifying": 3}, rounds_planned=8,
                                   settings={**NPA, "cut": 4}))
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(_change(seated={"qualifying": 6, "semifinal": 1}))
    assert info.value.field == "format_settings"
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(_change(seated={"qualifying": 4}, rounds_planned=3))
    assert info.value.field == "rounds_planned"
    with pytest.raises(FormatError) as info:
        SPEC.check_plan_change(_change(seated={"qualifying": 1}, here=6))
    assert (info.value.field, info.value.code) == ("format_settings.cut", "cut_larger_than_field")
    SPEC.check_plan_change(_change(here=6))  # nothing seated yet: the field may still grow


def test_a_cut_larger_than_the_field_is_refused_before_the_first_game() -> None:
    SPEC.check_field(NPA, 8)
    SPEC.check_field({**NPA, "cut": 4}, 4)
    SPEC.check_field({**NPA, "cut": 0}, 4)
    with pytest.raises(FormatError) as info:
        SPEC.check_field(NPA, 7)
    assert (info.value.field, info.value.code) == ("format_settings.cut", "cut_larger_than_field")
    assert "format_settings.cut" in info.value.message


@pytest.mark.parametrize(("chosen", "after"), [
    ({}, ["semifinal", "final", "final", "final"]),
    ({"final_rule": "single_game"}, ["semifinal", "final"]),
    ({"cut": 4}, ["final", "final", "final"]),
    ({"cut": 4, "final_rule": "single_game"}, ["final"]),
    ({"cut": 0}, []),
])
def test_the_stages_follow_the_cut_and_the_final_rule(chosen: dict[str, Any],
                                                      after: list[str]) -> None:
    s = SPEC.check_settings(chosen)
    total = SPEC.rounds_total(5, s, 20)
    assert total == 5 + len(after)
    assert SPEC.qualifying_rounds(5, s, 20) == 5
    assert [SPEC.stage_of(n, 5, s, 20) for n in range(1, total + 1)] == ["qualifying"] * 5 + after
    assert SPEC.stage_of(total + 1, 5, s, 20) == "qualifying"  # past the plan


def test_the_cut_the_standings_draw() -> None:
    assert SPEC.qualifying_cut(NPA).goes_to == "the semi-final tables"
    assert SPEC.qualifying_cut(NPA).size == 8
    four = SPEC.qualifying_cut({**NPA, "cut": 4})
    assert four is not None and (four.size, four.goes_to) == (4, "the final table")
    assert SPEC.qualifying_cut({**NPA, "cut": 0}) is None


def test_its_length_in_words_counts_the_stages() -> None:
    assert SPEC.describe_length(10, 4, NPA, 32) == (
        "10 qualifying games of 4 deals, then semi-finals and a 3-game final")
    single = SPEC.check_settings({"cut": 4, "final_rule": "single_game"})
    assert SPEC.describe_length(6, 4, single, 32) == "6 qualifying games of 4 deals, then a final"
    assert SPEC.describe_length(1, 4, {**NPA, "cut": 0}, 32) == "1 qualifying game of 4 deals"


def test_its_rules_in_sentences_follow_the_settings() -> None:
    words = " ".join(SPEC.describe(NPA, 6))
    assert words.startswith("6 qualifying games")
    assert "winners move one table toward table 1" in words
    assert "the system draws who partners whom" in words
    assert "top 8" in words and "alternates" in words and "minutes" not in words
    other = " ".join(SPEC.describe(SPEC.check_settings(
        {"direction": "down", "draw": "table", "cut": 0, "game_minutes": 40}), 4))
    assert "away from table 1" in other and "the table cuts the cards" in other
    assert "No cut" in other and "at most 40 minutes" in other
    fixed = " ".join(SPEC.describe(SPEC.check_settings({"movement": "fixed_seats"}), 4))
    assert "fixed number of tables" in fixed


@settings(max_examples=40, deadline=None)
@given(count=st.integers(4, 40), seed=st.integers(0, 2**32))
def test_the_seat_draw_seats_whole_tables_the_last_to_check_in_wait(count: int,
                                                                    seed: int) -> None:
    built = SPEC.build(situation(SPEC, 1, entries=players(count), seed=seed, rounds_planned=6))
    assert built.method == "seat_draw" and built.plan.byes == ()
    full = count - count % 4
    assert sorted(seated_once(built)) == list(players(full))


@settings(max_examples=40, deadline=None)
@given(tables=st.integers(2, 8), data=st.data())
def test_winners_move_one_table_up_and_losers_stay_split_up(tables: int,
                                                            data: st.DataObject) -> None:
    direction = data.draw(st.sampled_from(["up", "down"]))
    sides = data.draw(st.lists(st.sampled_from(["NS", "EW"]), min_size=tables, max_size=tables))
    entries = players(4 * tables)
    first = SPEC.build(situation(SPEC, 1, entries=entries, settings={"direction": direction}))
    games = play(1, first, lambda r: sides[r.table_number - 1])
    second = SPEC.build(situation(SPEC, 2, entries=entries, history=[first.plan], results=games,
                                  settings={"direction": direction}))
    assert second.method == "winners_move"
    assert sorted(seated_once(second)) == list(entries)
    for game in games:
        t = game.table_number
        winners, losers = set(game.winners()), set(game.seats.values()) - set(game.winners())
        step = -1 if direction == "up" else 1
        target = (t - 1 + step) % tables + 1
        assert all(second.plan.table_of(p) == target for p in winners)
        assert all(second.plan.table_of(p) == t for p in losers)
        n, e, s, w = second.plan.tables[t - 1]
        assert losers not in ({n, s}, {e, w}), "the losers split up"


def test_an_alternate_takes_the_seat_of_a_player_who_left() -> None:
    first = SPEC.build(situation(SPEC, 1, entries=players(9)))
    assert 9 not in set(first.plan.seated())  # the ninth waits
    games = play(1, first, ns_wins)
    here = tuple(e for e in players(9) if e != 3)
    second = SPEC.build(situation(SPEC, 2, entries=here, history=[first.plan], results=games))
    assert sorted(seated_once(second)) == sorted(here)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 2, entries=tuple(e for e in players(8) if e != 3),
                             history=[first.plan], results=games))
    assert (info.value.field, info.value.code) == ("entries", "no_alternate")


def test_the_movement_needs_every_tables_winners() -> None:
    first = SPEC.build(situation(SPEC, 1, entries=players(8)))
    games = play(1, first, ns_wins)
    unfinished = [games[0], TableResult(1, 2, games[1].seats)]
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(SPEC, 2, entries=players(8), history=[first.plan],
                             results=unfinished))
    assert info.value.field == "round" and "Table 2" in info.value.message


def test_the_semi_final_tables_are_seeded_from_the_qualifying_order() -> None:
    order = (12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    built = SPEC.build(situation(SPEC, 7, entries=players(12), ranking=order, rounds_planned=6))
    assert built.method == "semifinal"
    # seeds 1+8 v 4+5 at table 1, 2+7 v 3+6 at table 2 (N, E, S, W: N-S against E-W)
    assert built.plan.tables == ((12, 9, 5, 8), (11, 10, 6, 7))
    drawn = SPEC.build(situation(SPEC, 7, entries=players(12), ranking=order, rounds_planned=6,
                                 settings={"semi_partners": "draw"}))
    assert set(drawn.plan.seated()) == set(order[:8])


def test_a_cut_of_four_goes_straight_to_one_final_game() -> None:
    order = (12, 11, 10, 9, 8)
    built = SPEC.build(situation(SPEC, 5, entries=players(12), ranking=order, rounds_planned=4,
                                 settings={"cut": 4, "final_rule": "single_game"}))
    assert built.method == "final"
    assert built.plan.tables == ((12, 11, 9, 10),)  # seeds 1+4 v 2+3


def test_a_whole_day_is_placed_final_table_semi_finals_then_the_standings() -> None:
    order = players(12)  # player 1 qualified first
    built, results = run(SPEC, 10, entries=order, rounds_planned=6, ranking=order)
    assert [b.method for b in built[6:]] == ["semifinal", "final", "final", "final"]
    # the semi-finals' winning sides (lower ids win): 1+8 and 2+7; the final rotates partners
    assert {frozenset(b.plan.tables[0]) for b in built[7:]} == {frozenset({1, 2, 7, 8})}
    partnerships = {frozenset((t[0], t[2])) for b in built[7:] for t in b.plan.tables}
    assert len(partnerships) == 3
    placed = SPEC.placements(finish(SPEC, order, results, rounds_planned=6))
    assert [(p.place, p.entry_id, p.stage) for p in placed[:4]] == [
        (1, 1, "final"), (2, 2, "final"), (3, 7, "final"), (4, 8, "final")]
    assert [(p.entry_id, p.stage) for p in placed[4:8]] == [
        (3, "semifinal"), (4, "semifinal"), (5, "semifinal"), (6, "semifinal")]
    assert [(p.place, p.entry_id, p.stage) for p in placed[8:]] == [
        (9, 9, "qualifying"), (10, 10, "qualifying"), (11, 11, "qualifying"),
        (12, 12, "qualifying")]


def test_an_event_finished_before_its_cut_is_placed_by_the_standings() -> None:
    _, results = run(SPEC, 2, entries=players(8), winner=lower_id_wins, rounds_planned=6)
    placed = SPEC.placements(finish(SPEC, (5, 1, 2), results, rounds_planned=6))
    assert [(p.place, p.entry_id, p.stage) for p in placed] == [
        (1, 5, "qualifying"), (2, 1, "qualifying"), (3, 2, "qualifying")]


def test_a_level_semi_final_cannot_seat_the_final() -> None:
    order = players(8)
    semis = SPEC.build(situation(SPEC, 2, entries=order, ranking=order, rounds_planned=1))
    level = [TableResult(2, n, dict(zip("NESW", t, strict=True)), {"NS": 250, "EW": 250},
                         None, True) for n, t in enumerate(semis.plan.tables, start=1)]
    with pytest.raises(FormatError) as info:
        SPEC.build(Situation(number=3, seed=1, rounds_planned=1, entries=order,
                             results=tuple(level), settings=NPA, ranking=order))
    assert info.value.code == "tie"
