"""Partners varied across a season (``pairing.season``): the history and its weights, the
measure and its bound, the builders avoiding earlier nights' partners after the evening's own,
and nights without a season seated exactly as before."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import pytest

from pairing.club_night import club_night_round
from pairing.rotation import RoundPlan
from pairing.season import (
    SEASON_WEIGHT,
    Night,
    plan_teams,
    season_history,
    season_repeats,
    season_weight,
    season_weights,
)
from pairing.tables import table_round

SIX = ((0, 2, 4), (1, 3, 5))


def _season(players: int, nights: int, rounds: int = 3, *, seed: int = 1,
            use_season: bool = True) -> list[list[RoundPlan[int]]]:
    """Nights of the same regulars, each seated round by round with the nights before it."""
    everyone = list(range(1, players + 1))
    done: list[list[RoundPlan[int]]] = []
    for night in range(nights):
        season = season_history(_teams(done)) if use_season else {}
        tonight: list[RoundPlan[int]] = []
        for _ in range(rounds):
            tonight.append(club_night_round(everyone, tonight, rounds_planned=rounds,
                                            seed=seed * 100 + night, season=season).plan)
        done.append(tonight)
    return done


def _teams(nights: Sequence[Sequence[RoundPlan[int]]]) -> list[Night]:
    return [[plan_teams(plan) for plan in night] for night in nights]


def test_last_week_weighs_most_and_older_nights_less_but_never_nothing() -> None:
    weights = [season_weight(ago) for ago in range(1, 40)]
    assert weights[0] == SEASON_WEIGHT
    assert weights == sorted(weights, reverse=True) and weights[1] < weights[0]
    assert min(weights) == 1
    assert season_weights({frozenset((1, 2)): (1, 3), frozenset((3, 4)): ()}) == {
        frozenset((1, 2)): season_weight(1) + season_weight(3)}


def test_the_history_says_the_nights_since_each_partnership() -> None:
    first = [RoundPlan(((1, 2, 3, 4),)), RoundPlan(((1, 3, 2, 4),))]
    second = [RoundPlan(((1, 2, 3, 4), (5, 6, 7, 8)))]
    history = season_history(_teams([first, second]))
    assert history[frozenset((1, 3))] == (1, 2)  # partnered last night and the night before
    assert history[frozenset((1, 2))] == (2,)
    assert history[frozenset((6, 8))] == (1,)
    assert frozenset((1, 4)) not in history  # opponents are not partners


def test_teams_of_three_partner_each_other_and_players_alone_do_not() -> None:
    plan = RoundPlan(((1, 2, 3, 4, 5, 6),))
    assert sorted(map(sorted, plan_teams(plan, SIX))) == [[1, 3, 5], [2, 4, 6]]
    history = season_history([[plan_teams(plan, SIX)]])
    assert len(history) == 6
    alone = ((0,), (1,), (2,))
    assert plan_teams(RoundPlan(((1, 2, 3),)), alone) == []


def test_the_measure_counts_repeats_within_and_across_nights_and_the_bound() -> None:
    # four players, partners once each way then again: 3 distinct partnerships possible
    night = [RoundPlan(((1, 2, 3, 4),)), RoundPlan(((1, 3, 2, 4),)), RoundPlan(((1, 2, 4, 3),))]
    again = [RoundPlan(((1, 2, 3, 4),))]
    quality = season_repeats(_teams([night, again]))
    assert quality.partnerships == 8
    assert quality.repeats == 2 and quality.within_nights == 0
    assert quality.best == 2  # each plays 4 partnerships with 3 possible partners
    assert quality.max_together == 2
    assert quality.rate == pytest.approx(0.25)
    assert quality.to_dict()["best"] == 2
    twice = season_repeats(_teams([[RoundPlan(((1, 2, 3, 4),)), RoundPlan(((1, 2, 3, 4),))]]))
    assert twice.within_nights == twice.repeats == 2


def test_sixteen_regulars_over_four_nights_of_three_rounds_never_repeat_a_partner() -> None:
    with_season = season_repeats(_teams(_season(16, 4)))
    assert with_season.partnerships == 96 and with_season.best == 0
    assert with_season.repeats * 10 <= 96
    assert with_season.repeats == 0
    # the same nights each seated alone repeat many: what the season is for
    alone = season_repeats(_teams(_season(16, 4, use_season=False)))
    assert alone.within_nights == 0
    assert alone.repeats > 10


@pytest.mark.parametrize(("players", "nights", "near"), [
    (16, 8, 4), (16, 12, 8), (12, 4, 2), (20, 8, 4), (32, 4, 0),
])
def test_longer_seasons_stay_near_the_best_achievable(players: int, nights: int,
                                                      near: int) -> None:
    quality = season_repeats(_teams(_season(players, nights)))
    assert quality.within_nights == 0, "the evening's own rule comes first"
    assert quality.best <= quality.repeats <= quality.best + near
    # repeats are spread: nobody partners the same player far more often than the bound needs
    assert quality.max_together <= quality.partnerships // (players * (players - 1) // 2) + 2


def test_the_evening_comes_first_even_against_a_heavy_season() -> None:
    """Eight players, seven rounds: every partnership of the evening is new although every pair
    partnered last week (which a whole night of seven rounds cannot avoid)."""
    everyone = list(range(8))
    season = {frozenset((a, b)): (1,) for a in everyone for b in everyone if a < b}
    tonight: list[RoundPlan[int]] = []
    for _ in range(7):
        tonight.append(club_night_round(everyone, tonight, rounds_planned=7, seed=5,
                                        season=season).plan)
    assert season_repeats(_teams([tonight])).within_nights == 0


def test_a_six_handed_night_avoids_last_week_s_teammates() -> None:
    players = list(range(1, 13))
    last_week = [table_round(players, [], table_size=6, teams=SIX, seed=2)]
    weights = season_weights(season_history(_teams_six([last_week])))
    tonight = table_round(players, [], table_size=6, teams=SIX, seed=2, season=weights)
    assert not {p for team in plan_teams(tonight, SIX) for p in _pairs(team)} & set(weights)


def _teams_six(nights: Sequence[Sequence[RoundPlan[int]]]) -> list[Night]:
    return [[plan_teams(plan, SIX) for plan in night] for night in nights]


def _pairs(team: frozenset[int]) -> list[frozenset[int]]:
    members = sorted(team)
    return [frozenset((a, b)) for i, a in enumerate(members) for b in members[i + 1:]]


# --- nights without a season are seated exactly as before ---------------------------------------
# The digest of these nights as the builders seated them before seasons existed.
BEFORE = "7dc696cd4905674e4087a8bf7f7b1f9c4638375f0a2a50e06f67bd874183ea3f"


def _nights(season: Any) -> str:
    out = []
    for n in (8, 10, 13, 16, 17, 22):
        for seed in (0, 7):
            history: list[RoundPlan[int]] = []
            players = list(range(1, n + 1))
            for number in range(5):
                if number == 2:
                    players = players[1:] + [100 + number]  # one leaves, one arrives
                fixed = {players[0]: 1} if n == 10 else None
                history.append(club_night_round(players, history, rounds_planned=4, seed=seed,
                                                fixed_tables=fixed, season=season).plan)
            out.append([p.to_dict() for p in history])
    history = []
    for _ in range(4):
        history.append(table_round(list(range(1, 19)), history, table_size=6, teams=SIX,
                                   seed=3, season=season_weights(season or {}) or None))
    out.append([p.to_dict() for p in history])
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


@pytest.mark.parametrize("season", [None, {}, {frozenset((500, 501)): (1,)}])
def test_nights_without_a_season_among_their_players_are_seated_as_before(season: Any) -> None:
    assert _nights(season) == BEFORE
