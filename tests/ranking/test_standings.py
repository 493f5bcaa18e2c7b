"""Standings rules (pure): shared ranks, tie-break order, bye scoring variants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.standings import (
    INDIVIDUAL_DEFAULT,
    PARTNERSHIP_DEFAULT,
    EntryTotals,
    RankingError,
    Result,
    RoundScores,
    bye_score,
    compute_standings,
    standings_rows,
    tie_breaks_in_force,
    totals_from_results,
    validate_tie_breaks,
)


def res(entry: int, game: int, side: str, points: int, *, won: bool, rnd: int = 1,
        finished: bool = True, opp: int = 0, declared: int = 0, made: int = 0,
        set_: int = 0) -> Result:
    return Result(entry, rnd, game, side, points, opp, won, finished, declared, made, set_)


def table(game: int, rnd: int, ns: tuple[int, int], ew: tuple[int, int], ns_pts: int,
          ew_pts: int, *, finished: bool = True) -> list[Result]:
    """Four results of one game: N/S and E/W partners score their side's total."""
    ns_won = finished and ns_pts > ew_pts
    ew_won = finished and ew_pts > ns_pts
    return [
        *(res(e, game, "NS", ns_pts, won=ns_won, rnd=rnd, finished=finished, opp=ew_pts) for e in ns),
        *(res(e, game, "EW", ew_pts, won=ew_won, rnd=rnd, finished=finished, opp=ns_pts) for e in ew),
    ]


def ranks(rows) -> list[tuple[str, int]]:
    return [(r.name, r.rank) for r in rows]


def entries(*names: str) -> list[tuple[int, str, bool]]:
    return [(i, name, True) for i, name in enumerate(names, start=1)]


def test_individual_ranked_by_points_and_ties_share_a_rank() -> None:
    # Ann and Bob partner, Cy and Di partner; equal points and wins for the partners.
    results = table(1, 1, (1, 2), (3, 4), 300, 200)
    rows = compute_standings(entries=entries("Ann", "Bob", "Cy", "Di"), results=results,
                             byes=[], tie_breaks=INDIVIDUAL_DEFAULT)
    assert ranks(rows) == [("Ann", 1), ("Bob", 1), ("Cy", 3), ("Di", 3)]
    assert [r.tied for r in rows] == [True, True, True, True]


def test_one_one_three() -> None:
    results = [
        *table(1, 1, (1, 2), (5, 6), 300, 100),
        *table(2, 1, (3, 4), (7, 8), 250, 240),
    ]
    rows = compute_standings(entries=entries(*"ABCDEFGH"), results=results, byes=[],
                             tie_breaks=INDIVIDUAL_DEFAULT)
    assert [r.rank for r in rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert [r.name for r in rows[:4]] == ["A", "B", "C", "D"]


def test_points_then_wins() -> None:
    # A: 500 points, 1 win of 2; B: 500 points, 2 wins.
    results = [
        res(1, 1, "NS", 400, won=True), res(1, 2, "NS", 100, won=False, rnd=2),
        res(2, 3, "NS", 250, won=True), res(2, 4, "NS", 250, won=True, rnd=2),
    ]
    rows = compute_standings(entries=entries("A", "B"), results=results, byes=[],
                             tie_breaks=INDIVIDUAL_DEFAULT)
    assert ranks(rows) == [("B", 1), ("A", 2)]


def test_head_to_head_before_highest_game() -> None:
    # A and B level on points and wins; A beat B when they sat against each other,
    # B has the higher single game.
    results = [
        res(1, 1, "NS", 300, won=True), res(2, 1, "EW", 250, won=False),
        res(1, 2, "NS", 200, won=False, rnd=2), res(2, 2, "EW", 250, won=True, rnd=2),
    ]
    # Make B's best game higher without changing totals: add a third round.
    results += [res(1, 3, "NS", 100, won=True, rnd=3), res(2, 4, "NS", 100, won=False, rnd=3)]
    # Totals: A 600 (2 wins), B 600 (1 win) -> wins decide. Equalise wins with another game.
    results += [res(2, 5, "NS", 0, won=True, rnd=4), res(1, 6, "NS", 0, won=False, rnd=4)]
    rows = compute_standings(entries=entries("A", "B"), results=results, byes=[],
                             tie_breaks=INDIVIDUAL_DEFAULT)
    a, b = sorted(rows, key=lambda r: r.name)
    assert (a.points, a.wins, b.points, b.wins) == (600, 2, 600, 2)
    # head to head: games 1 and 2 had both; A won game 1, B won game 2 -> level; highest game:
    # A 300, B 250 -> A first.
    assert ranks(rows) == [("A", 1), ("B", 2)]
    # Head to head decides when it is not level: drop game 2's meeting (B wins elsewhere).
    results2 = [r for r in results if r.game_id != 2] + [
        res(1, 7, "NS", 200, won=False, rnd=2), res(2, 8, "EW", 250, won=True, rnd=2),
    ]
    order_h2h = compute_standings(entries=entries("A", "B"), results=results2, byes=[],
                                  tie_breaks=["points", "wins", "head_to_head", "highest_game"])
    assert ranks(order_h2h) == [("A", 1), ("B", 2)]
    order_best = compute_standings(entries=entries("A", "B"), results=results2, byes=[],
                                   tie_breaks=["points", "wins", "highest_game"])
    assert ranks(order_best) == [("A", 1), ("B", 2)]
    # With B's best game higher, highest_game alone puts B first, head to head puts A first.
    results3 = [r for r in results2 if r.game_id not in (1,)] + [
        res(1, 1, "NS", 300, won=True), res(2, 1, "EW", 250, won=False),
        res(2, 9, "NS", 400, won=False, rnd=5), res(1, 10, "NS", 350, won=False, rnd=5),
        res(1, 11, "NS", 50, won=False, rnd=6),
    ]
    rows3 = compute_standings(entries=entries("A", "B"), results=results3, byes=[],
                              tie_breaks=["points", "wins", "head_to_head", "highest_game"])
    a3, b3 = sorted(rows3, key=lambda r: r.name)
    assert (a3.points, a3.wins) == (b3.points, b3.wins)
    assert b3.highest_game is not None and a3.highest_game is not None
    assert b3.highest_game > a3.highest_game
    assert ranks(rows3) == [("A", 1), ("B", 2)]
    rows3b = compute_standings(entries=entries("A", "B"), results=results3, byes=[],
                               tie_breaks=["points", "wins", "highest_game", "head_to_head"])
    assert ranks(rows3b) == [("B", 1), ("A", 2)]


def test_partnership_ranks_by_wins_then_points() -> None:
    results = [
        res(1, 1, "NS", 900, won=False), res(1, 2, "NS", 100, won=True, rnd=2),
        res(2, 3, "NS", 300, won=True), res(2, 4, "NS", 300, won=True, rnd=2),
    ]
    by_points = compute_standings(entries=entries("A", "B"), results=results, byes=[],
                                  tie_breaks=INDIVIDUAL_DEFAULT)
    by_wins = compute_standings(entries=entries("A", "B"), results=results, byes=[],
                                tie_breaks=PARTNERSHIP_DEFAULT)
    assert ranks(by_points) == [("A", 1), ("B", 2)]
    assert ranks(by_wins) == [("B", 1), ("A", 2)]


def test_unfinished_games_count_points_but_not_games_or_wins() -> None:
    results = table(1, 1, (1, 2), (3, 4), 120, 80, finished=False)
    rows = compute_standings(entries=entries("A", "B", "C", "D"), results=results, byes=[],
                             tie_breaks=INDIVIDUAL_DEFAULT)
    a = rows[0]
    assert (a.points, a.games, a.wins, a.highest_game) == (120, 0, 0, None)


def test_hand_counts_and_per_round_are_summed() -> None:
    results = [
        res(1, 1, "NS", 300, won=True, declared=2, made=1, set_=1),
        res(1, 2, "NS", 150, won=False, rnd=2, declared=1, made=1),
    ]
    (row,) = compute_standings(entries=entries("A"), results=results, byes=[],
                               tie_breaks=INDIVIDUAL_DEFAULT)
    assert (row.hands_declared, row.hands_made, row.hands_set) == (3, 2, 1)
    assert row.per_round == {1: 300, 2: 150}
    assert row.to_dict()["per_round"] == {"1": 300, "2": 150}


# --- byes -----------------------------------------------------------------------------------
BYE_ROUND = [
    *table(1, 1, (1, 2), (3, 4), 520, 300),
    *table(2, 1, (5, 6), (7, 8), 410, 505),
]


@pytest.mark.parametrize(
    ("scoring", "fixed", "expected"),
    [
        ("zero", 0, 0),
        ("fixed", 250, 250),
        ("average_winning", 0, 513),  # (520 + 505) / 2 = 512.5, rounded half up
        ("average_all", 0, 434),  # (520 + 300 + 410 + 505) / 4 = 433.75
    ],
)
def test_bye_scoring_variants(scoring: str, fixed: int, expected: int) -> None:
    rows = compute_standings(
        entries=entries(*"ABCDEFGHI"), results=BYE_ROUND, byes=[(1, 9)],
        tie_breaks=INDIVIDUAL_DEFAULT, bye_scoring=scoring, bye_points=fixed,
    )
    bye_row = next(r for r in rows if r.name == "I")
    assert bye_row.byes == 1
    assert bye_row.bye_points == expected
    assert bye_row.points == expected
    assert bye_row.per_round == {1: expected}
    assert bye_row.games == 0 and bye_row.wins == 0


def test_bye_average_ignores_unfinished_games_and_is_zero_before_any() -> None:
    unfinished = table(3, 1, (1, 2), (3, 4), 900, 0, finished=False)
    assert bye_score(scoring="average_winning", fixed_points=0,
                     scores=totals_from_results(entries=[], results=unfinished)[1].get(1, RoundScores())) == 0
    _, scores = totals_from_results(entries=[], results=[*unfinished, *table(4, 1, (5, 6), (7, 8), 300, 200)])
    assert bye_score(scoring="average_winning", fixed_points=0, scores=scores[1]) == 300


def test_tie_break_validation_and_defaults() -> None:
    assert validate_tie_breaks([], partnership="rotating") == INDIVIDUAL_DEFAULT
    assert validate_tie_breaks(None, partnership="fixed") == PARTNERSHIP_DEFAULT
    assert validate_tie_breaks(["wins", "points"], partnership="rotating") == [
        "wins", "points"]
    with pytest.raises(RankingError, match="Unknown tie-break 'luck'"):
        validate_tie_breaks(["luck"], partnership="rotating")
    with pytest.raises(RankingError, match="twice"):
        validate_tie_breaks(["wins", "wins"], partnership="rotating")
    assert tie_breaks_in_force(["luck", "wins"], partnership="rotating") == ["wins"]
    assert tie_breaks_in_force([], partnership="fixed") == PARTNERSHIP_DEFAULT


def test_head_to_head_is_asked_only_for_tied_groups() -> None:
    asked: list[set[int]] = []

    def meetings(ids: set[int]):
        asked.append(set(ids))
        return []

    totals = [EntryTotals(1, "A", points=10), EntryTotals(2, "B", points=10),
              EntryTotals(3, "C", points=5)]
    rows = standings_rows(totals=totals, byes=[], round_scores={},
                          tie_breaks=["points", "head_to_head"], meetings_for=meetings)
    assert asked == [{1, 2}]
    assert [r.rank for r in rows] == [1, 1, 3]


# --- properties -----------------------------------------------------------------------------
result_strategy = st.builds(
    lambda e, g, side, p, won, rnd: res(e, g, side, p, won=won, rnd=rnd),
    st.integers(1, 8), st.integers(1, 12), st.sampled_from(["NS", "EW"]),
    st.integers(-200, 600), st.booleans(), st.integers(1, 4),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(result_strategy, max_size=40), st.sampled_from([INDIVIDUAL_DEFAULT, PARTNERSHIP_DEFAULT]))
def test_ranks_are_competition_ranks(results: list[Result], tie_breaks: list[str]) -> None:
    rows = compute_standings(entries=entries(*"ABCDEFGH"), results=results, byes=[(1, 8)],
                             tie_breaks=tie_breaks)
    assert len(rows) == 8
    assert rows[0].rank == 1
    for i, row in enumerate(rows):
        # standard competition ranking: rank = 1 + number of rows strictly ahead
        assert row.rank == 1 + sum(1 for other in rows if other.rank < row.rank)
        if i:
            prev = rows[i - 1]
            key = tie_breaks[0]
            assert getattr(prev, key) >= getattr(row, key)
    assert sum(r.points for r in rows) == sum(r.points for r in results if r.entry_id <= 8) + rows[
        [r.name for r in rows].index("H")].bye_points
