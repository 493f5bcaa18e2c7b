"""The series table's rules on their own (series.points: no database): points for a place by a
table or by the share of the field beaten, best N, minimum events, the order and its ties."""

from __future__ import annotations

import pytest

from series.points import (
    FIELD,
    TABLE,
    EventPlacings,
    Placing,
    place_points,
    series_table,
    split,
)


def _event(event_id: int, *places: tuple[int, tuple[int, ...]]) -> EventPlacings:
    return EventPlacings(event_id, tuple(Placing(p, players) for p, players in places))


@pytest.mark.parametrize(("place", "expected"), [(1, 100), (2, 80), (3, 65), (4, 0), (9, 0)])
def test_a_table_gives_each_place_its_points_and_nothing_past_its_end(place: int,
                                                                        expected: int) -> None:
    assert place_points(rule=TABLE, points=[100, 80, 65], place=place, entrants=9,
                        beaten=9 - place) == expected


def test_a_share_of_the_field_scales_by_the_entrants_beaten() -> None:
    # 5 entrants: beating 4, 3, 2, 1, 0 of the other 4 earns 100, 75, 50, 25, 0
    assert [place_points(rule=FIELD, points=[100], place=p, entrants=5, beaten=5 - p)
            for p in range(1, 6)] == [100, 75, 50, 25, 0]
    # 4 entrants: 100 × 2 / 3 = 66.67 → 67, 100 × 1 / 3 = 33.3 → 33 (half up)
    assert [place_points(rule=FIELD, points=[100], place=p, entrants=4, beaten=4 - p)
            for p in range(1, 5)] == [100, 67, 33, 0]
    assert place_points(rule=FIELD, points=[10], place=1, entrants=3, beaten=1) == 5  # 5.0
    assert place_points(rule=FIELD, points=[5], place=1, entrants=5, beaten=2) == 3  # 2.5 up
    assert place_points(rule=FIELD, points=[100], place=1, entrants=1, beaten=0) == 100


def test_a_shared_place_earns_its_points_each_and_beats_only_those_below() -> None:
    lines = series_table([_event(1, (1, (1,)), (2, (2,)), (2, (3,)), (4, (4,)))],
                         rule=FIELD, points=[90], best_of=None, min_events=None,
                         names={1: "A", 2: "B", 3: "C", 4: "D"})
    # players 2 and 3 share 2nd: each beats one entrant of three others: 30
    assert {ln.player_id: ln.total for ln in lines} == {1: 90, 2: 30, 3: 30, 4: 0}
    table = series_table([_event(1, (1, (1,)), (2, (2,)), (2, (3,)))], rule=TABLE,
                         points=[10, 6, 4], best_of=None, min_events=None, names={})
    assert {ln.player_id: ln.total for ln in table} == {1: 10, 2: 6, 3: 6}


def test_both_players_of_a_pair_earn_the_pairs_points() -> None:
    lines = series_table([_event(1, (1, (1, 2)), (2, (3, 4)))], rule=TABLE, points=[10, 6],
                         best_of=None, min_events=None, names={})
    assert {ln.player_id: ln.total for ln in lines} == {1: 10, 2: 10, 3: 6, 4: 6}


def test_best_n_counts_the_best_scores_and_marks_the_others_dropped() -> None:
    events = [_event(1, (1, (1,)), (2, (2,))), _event(2, (2, (1,)), (1, (2,))),
              _event(3, (1, (1,)), (2, (2,)))]
    lines = series_table(events, rule=TABLE, points=[10, 6], best_of=2, min_events=None,
                         names={1: "A", 2: "B"})
    by_player = {ln.player_id: ln for ln in lines}
    assert by_player[1].total == 20 and by_player[1].played == 3
    assert [by_player[1].scores[e].counted for e in (1, 2, 3)] == [True, False, True]
    # equal scores: the earlier event counts, the later is dropped
    assert by_player[2].total == 16
    assert [by_player[2].scores[e].counted for e in (1, 2, 3)] == [True, True, False]


def test_players_short_of_the_minimum_follow_without_a_rank() -> None:
    events = [_event(1, (1, (1,)), (2, (2,)), (3, (3,))), _event(2, (1, (3,)), (2, (2,)))]
    lines = series_table(events, rule=TABLE, points=[10, 6, 4], best_of=None, min_events=2,
                         names={1: "A", 2: "B", 3: "C"})
    assert [(ln.player_id, ln.rank, ln.qualified) for ln in lines] == [
        (3, 1, True), (2, 2, True), (1, None, False)]  # player 1 has the most points of one


def test_ties_go_to_more_wins_then_the_better_best_place_then_are_shared() -> None:
    # A and B 10 points: A won an event, B did not → A first.
    # C and D 7 points, no wins: C's best place (2nd) beats D's (3rd).
    # E and F equal in everything: they share the rank, listed by name.
    points = [10, 6, 4, 3, 2, 1, 0]
    events = [_event(1, (1, (1,)), (2, (2,)), (3, (4,)), (5, (5,)), (5, (6,)), (6, (3,))),
              _event(2, (2, (3,)), (3, (2,)), (4, (4,)), (5, (5,)), (5, (6,)), (7, (1,)))]
    lines = series_table(events, rule=TABLE, points=points, best_of=None, min_events=None,
                         names={1: "A", 2: "B", 3: "C", 4: "D", 5: "Eve", 6: "Fay"})
    assert [(ln.name, ln.total, ln.rank, ln.tied) for ln in lines] == [
        ("A", 10, 1, False), ("B", 10, 2, False), ("C", 7, 3, False), ("D", 7, 4, False),
        ("Eve", 4, 5, True), ("Fay", 4, 5, True)]
    # equal points, wins and best place: first shared
    lines = series_table([_event(1, (1, (1,)), (7, (2,))), _event(2, (1, (2,)), (7, (1,)))],
                         rule=TABLE, points=points, best_of=None, min_events=None,
                         names={1: "A", 2: "B"})
    assert [(ln.player_id, ln.total, ln.rank, ln.tied) for ln in lines] == [
        (1, 10, 1, True), (2, 10, 1, True)]


def test_a_pot_is_shared_down_to_the_cent() -> None:
    assert split("100", 3) == "33.33"
    assert split("50", 1) == "50.00"
