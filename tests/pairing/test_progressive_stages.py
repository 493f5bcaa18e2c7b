"""The stages after the qualifying games: the plan of rounds, the semi-final and final tables,
and the final placements (pure; pairing.progressive.stages)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pairing.progressive import ProgressiveError, stages
from pairing.progressive import settings as progressive_settings
from pairing.progressive.stages import FinalRule, Stage, StagePlan
from pairing.results import TableResult


def _partners(table: tuple[int, int, int, int]) -> set[frozenset[int]]:
    n, e, s, w = table
    return {frozenset((n, s)), frozenset((e, w))}


def _result(number: int, table: int, seats: tuple[int, int, int, int], ns: int, ew: int,
            winner: str | None = "auto") -> TableResult:
    side = ("NS" if ns > ew else "EW" if ew > ns else None) if winner == "auto" else winner
    return TableResult(number, table, dict(zip("NESW", seats, strict=True)),
                       {"NS": ns, "EW": ew}, side, True)


def test_the_default_plan_is_six_qualifying_games_a_semi_final_and_three_final_games() -> None:
    plan = stages.plan_from(progressive_settings.check_settings({}), 6)
    assert plan.stages == (Stage.QUALIFYING,) * 6 + (Stage.SEMIFINAL,) + (Stage.FINAL,) * 3
    assert plan.rounds_total == 10 and plan.first_round(Stage.FINAL) == 8
    assert plan.rounds_of(Stage.SEMIFINAL) == (7,)
    assert StagePlan(6, cut=4, final_rule=FinalRule.SINGLE_GAME).stages[-1] == Stage.FINAL
    assert StagePlan(6, cut=4, final_rule=FinalRule.SINGLE_GAME).rounds_total == 7
    assert StagePlan(5, cut=0).rounds_total == 5


def test_seeded_semi_finals_are_one_and_eight_against_four_and_five() -> None:
    ranking = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    t1, t2 = stages.semifinal_tables(ranking)
    assert _partners(t1) == {frozenset((11, 18)), frozenset((14, 15))}
    assert _partners(t2) == {frozenset((12, 17)), frozenset((13, 16))}
    drawn = stages.semifinal_tables(ranking, mode="draw", seed=3)
    assert sorted(drawn[0] + drawn[1]) == ranking[:8]
    assert drawn == stages.semifinal_tables(ranking, mode="draw", seed=3)  # reproducible


def test_a_cut_larger_than_the_field_is_refused() -> None:
    with pytest.raises(ProgressiveError) as info:
        stages.semifinal_tables([1, 2, 3, 4, 5, 6, 7])
    assert info.value.field == "cut" and info.value.code == "cut_larger_than_field"


def test_the_rotating_final_partners_everyone_with_everyone_once() -> None:
    players = [5, 6, 7, 8]
    pairs = [p for game in (1, 2, 3)
             for p in _partners(stages.final_table(players, game=game, rule="rotate"))]
    assert sorted(map(sorted, pairs)) == sorted(
        sorted(p) for p in itertools.combinations(players, 2))
    with pytest.raises(ProgressiveError):
        stages.final_table(players, game=4, rule="rotate")


def test_semi_final_winners_reach_the_final_and_a_level_game_needs_its_cut() -> None:
    ranking = list(range(1, 11))
    t1, t2 = stages.semifinal_tables(ranking)
    semis = [_result(7, 1, t1, 300, 250), _result(7, 2, t2, 200, 410)]
    assert stages.finalists(ranking, semis, cut=8) == sorted(
        [t1[0], t1[2], t2[1], t2[3]], key=ranking.index)
    level = [_result(7, 1, t1, 300, 300), semis[1]]
    with pytest.raises(ProgressiveError) as info:
        stages.finalists(ranking, level, cut=8)
    assert info.value.code == "tie"
    settled = [_result(7, 1, t1, 300, 300, winner="EW"), semis[1]]
    assert set(stages.finalists(ranking, settled, cut=8)) == {t1[1], t1[3], t2[1], t2[3]}


def test_placements_final_then_semis_then_qualifying_with_ties_split_by_seed() -> None:
    ranking = [(e, e) for e in range(1, 13)]  # entry e qualified e-th
    order = [e for e, _ in ranking]
    plan = StagePlan(6)
    t1, t2 = stages.semifinal_tables(order)  # t1: 1,4,8,5 ; t2: 2,3,7,6
    semis = [_result(7, 1, t1, 250, 300), _result(7, 2, t2, 400, 100)]  # EW(4,5) and NS(2,7)
    finalists = stages.finalists(order, semis, cut=8)
    assert finalists == [2, 4, 5, 7]
    finals = [
        _result(7 + g, 1, stages.final_table(finalists, game=g), ns, ew)
        for g, (ns, ew) in enumerate([(200, 100), (100, 200), (150, 150)], start=1)
    ]
    placed = stages.placements(ranking=ranking, plan=plan, semis=semis, finals=finals)
    totals: dict[int, int] = {}
    for r in finals:
        for seat, e in r.seats.items():
            totals[e] = totals.get(e, 0) + r.points["NS" if seat in "NS" else "EW"]
    top4 = [p.entry_id for p in placed[:4]]
    assert top4 == sorted(finalists, key=lambda e: (-totals[e], e))
    assert [p.place for p in placed] == list(range(1, 13))
    # semi losers: 1 and 8 scored 250, 3 and 6 scored 100: by score, then qualifying seed
    assert [p.entry_id for p in placed[4:8]] == [1, 8, 3, 6]
    assert [p.entry_id for p in placed[8:]] == [9, 10, 11, 12]
    assert {p.stage for p in placed[:4]} == {Stage.FINAL}


def test_single_game_final_winning_side_takes_first_and_second_by_seed() -> None:
    ranking = [(e, e) for e in range(1, 9)]
    plan = StagePlan(6, cut=4, final_rule=FinalRule.SINGLE_GAME)
    finalists = stages.finalists([1, 2, 3, 4, 5], [], cut=4)
    table = stages.final_table(finalists, game=1, rule="single_game")  # 1+4 v 2+3
    placed = stages.placements(ranking=ranking, plan=plan,
                               finals=[_result(7, 1, table, 100, 300)])
    assert [p.entry_id for p in placed[:4]] == [2, 3, 1, 4]
    assert [p.place for p in placed] == list(range(1, 9))


def test_shared_qualifying_ranks_share_a_place_after_the_cut_and_no_cut_uses_the_ranks() -> None:
    ranking = [(1, 1), (2, 2), (3, 2), (4, 4)]
    placed = stages.placements(ranking=ranking, plan=StagePlan(6, cut=0))
    assert [(p.entry_id, p.place) for p in placed] == [(1, 1), (2, 2), (3, 2), (4, 4)]


@given(st.permutations(list(range(1, 17))), st.integers(min_value=0, max_value=10**6))
def test_semi_tables_always_hold_exactly_the_top_eight(order: list[int], seed: int) -> None:
    for mode in ("seeded", "draw"):
        tables = stages.semifinal_tables(order, mode=mode, seed=seed)
        assert sorted(tables[0] + tables[1]) == sorted(order[:8])


def test_settings_validate_the_stage_keys() -> None:
    for bad in ({"cut": 6}, {"cut": True}, {"final_rule": "coin"}, {"semi_partners": 3},
                {"ties": "rock"}, {"game_minutes": 5}, {"game_minutes": "55"}):
        with pytest.raises(ProgressiveError) as info:
            progressive_settings.check_settings(bad)
        assert info.value.field == f"format_settings.{next(iter(bad))}"
    ok = progressive_settings.check_settings({"cut": 4, "game_minutes": 55})
    assert (ok["cut"], ok["game_minutes"], ok["final_rule"]) == (4, 55, "rotate")


def test_the_rules_are_described_in_words() -> None:
    lines = stages.describe(progressive_settings.check_settings({}), 6)
    text = " ".join(lines)
    assert "6 qualifying games" in text and "seeds 1 and 8 against 4 and 5" in text
    assert "three games" in text and "system" in text
    no_cut = stages.describe({"cut": 0}, 4)
    assert any("No cut" in line for line in no_cut)
