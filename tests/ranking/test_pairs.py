"""Standings per pair (fixed partnerships): totals, byes, level games, tie-breaks, shared ranks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.pairs import (
    PAIR_DEFAULT,
    PAIR_TIE_BREAKS,
    PairBye,
    PairGame,
    PairInfo,
    PairRow,
    pair_standings,
    validate_pair_tie_breaks,
)
from ranking.standings import RankingError


def infos(*names: str) -> list[PairInfo]:
    return [PairInfo(i, name, (f"{name} N", f"{name} S")) for i, name in enumerate(names, start=1)]


_next_game = iter(range(1, 10**9))


def game(a: int, b: int, pa: int, pb: int, *, rnd: int = 1, winner: int | None | str = "auto",
         ) -> PairGame:
    """A finished game; the winner is the pair with more points unless given."""
    if winner == "auto":
        winner = a if pa > pb else b if pb > pa else None
    assert not isinstance(winner, str)
    return PairGame(rnd, next(_next_game), (a, b), (pa, pb), winner)


def ranks(rows: list[PairRow]) -> list[tuple[str, int]]:
    return [(r.name, r.rank) for r in rows]


def test_totals_and_order_by_wins_then_points() -> None:
    games = [game(1, 2, 300, 200), game(3, 4, 260, 250, rnd=1),
             game(1, 3, 150, 310, rnd=2), game(2, 4, 400, 100, rnd=2)]
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [])
    assert ranks(rows) == [("Cat", 1), ("Bee", 2), ("Ace", 3), ("Dog", 4)]
    cat = rows[0]
    assert (cat.wins, cat.losses, cat.games, cat.points, cat.against) == (2, 0, 2, 570, 400)
    assert cat.highest_game == 310
    assert cat.per_round == {1: 260, 2: 310}
    assert not any(r.tied for r in rows)


def test_bye_counts_as_a_win_with_its_points() -> None:
    games = [game(1, 2, 300, 200)]
    byes = [PairBye(1, 3, 250)]
    rows = pair_standings(infos("Ace", "Bee", "Cat"), games, byes)
    assert ranks(rows) == [("Ace", 1), ("Cat", 2), ("Bee", 3)]
    cat = rows[1]
    assert (cat.wins, cat.byes, cat.games, cat.points, cat.against) == (1, 1, 0, 250, 0)
    assert cat.highest_game is None
    assert cat.per_round == {1: 250}


def test_level_game_is_a_game_but_neither_a_win_nor_a_loss() -> None:
    rows = pair_standings(infos("Ace", "Bee"), [game(1, 2, 250, 250)], [])
    for row in rows:
        assert (row.games, row.wins, row.losses, row.points, row.against) == (1, 0, 0, 250, 250)
    assert ranks(rows) == [("Ace", 1), ("Bee", 1)]
    assert all(r.tied for r in rows)


def test_given_winner_need_not_have_more_points() -> None:
    # A level game settled by a cut: the winner is named, points stay as scored.
    rows = pair_standings(infos("Ace", "Bee"), [game(1, 2, 250, 250, winner=2)], [])
    assert ranks(rows) == [("Bee", 1), ("Ace", 2)]
    assert (rows[1].losses, rows[0].wins) == (1, 1)


def test_shared_ranks_one_one_three_listed_by_name() -> None:
    games = [game(4, 1, 300, 100), game(3, 2, 300, 100), game(1, 2, 200, 200, rnd=2),
             game(3, 4, 200, 200, rnd=2)]
    # Dog and Cat: 1 win, 500 points, 300 against, best 300; Ace and Bee 0 wins, 300 points.
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [])
    assert ranks(rows) == [("Cat", 1), ("Dog", 1), ("Ace", 3), ("Bee", 3)]
    assert all(r.tied for r in rows)


def test_head_to_head_breaks_a_tie_on_wins_and_points() -> None:
    # Ace and Bee both 1 win and 500 points; Bee beat Ace.
    games = [game(1, 2, 200, 300), game(1, 3, 300, 100, rnd=2), game(2, 3, 200, 250, rnd=2)]
    rows = pair_standings(infos("Ace", "Bee", "Cat"), games, [])
    assert ranks(rows)[:2] == [("Bee", 1), ("Ace", 2)]
    # Without head-to-head, fewer points against decides: Ace conceded 400, Bee 450.
    rows = pair_standings(infos("Ace", "Bee", "Cat"), games, [], ["points_against"])
    assert ranks(rows)[:2] == [("Ace", 1), ("Bee", 2)]


def test_head_to_head_counts_only_games_among_the_tied_group() -> None:
    # Ace, Bee and Cat: 2 wins and 900 points each. Within the group Cat beat Ace and Bee and
    # Ace beat Bee; their wins against Dog (outside the group) do not count.
    games = [
        game(3, 1, 300, 200), game(3, 2, 300, 200), game(1, 2, 300, 200),
        game(1, 4, 400, 0), game(2, 4, 250, 0), game(2, 4, 250, 0), game(3, 4, 300, 400),
    ]
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [], ["head_to_head"])
    level = {r.name: (r.wins, r.points) for r in rows if r.name != "Dog"}
    assert level == {"Ace": (2, 900), "Bee": (2, 900), "Cat": (2, 900)}
    assert ranks(rows) == [("Cat", 1), ("Ace", 2), ("Bee", 3), ("Dog", 4)]
    # By points against instead: Ace conceded 500, Bee 600, Cat 800.
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [], ["points_against"])
    assert ranks(rows) == [("Ace", 1), ("Bee", 2), ("Cat", 3), ("Dog", 4)]


def test_a_circle_of_wins_leaves_head_to_head_level() -> None:
    # Ace beat Bee, Bee beat Cat, Cat beat Ace, all 300 to 200: level on everything.
    games = [game(1, 2, 300, 200), game(2, 3, 300, 200, rnd=2), game(3, 1, 300, 200, rnd=3)]
    rows = pair_standings(infos("Cat", "Bee", "Ace"), games, [])
    assert [(r.name, r.rank, r.tied) for r in rows] == [
        ("Ace", 1, True), ("Bee", 1, True), ("Cat", 1, True)
    ]


def test_head_to_head_level_then_points_against() -> None:
    # Ace and Bee level on wins and points and beat each other once: head-to-head 1-1;
    # points against decides (Ace 700, Bee 600).
    games = [
        game(1, 2, 400, 300), game(2, 1, 400, 300, rnd=2),
        game(1, 3, 300, 100, rnd=3), game(2, 3, 300, 0, rnd=3),
    ]
    rows = pair_standings(infos("Ace", "Bee", "Cat"), games, [])
    assert [(r.wins, r.points) for r in rows[:2]] == [(2, 1000), (2, 1000)]
    assert ranks(rows) == [("Bee", 1), ("Ace", 2), ("Cat", 3)]


def test_highest_game_breaks_what_points_against_leaves_level() -> None:
    # Ace and Bee: 1 win, 500 points, 300 against; Ace's best game 400, Bee's 300.
    games = [game(1, 3, 400, 0), game(1, 4, 100, 300, rnd=2),
             game(2, 3, 300, 200), game(2, 4, 200, 100, rnd=2, winner=4)]
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [],
                          ["points_against", "highest_game"])
    top = [r for r in rows if r.name in ("Ace", "Bee")]
    assert [(r.wins, r.points, r.against) for r in top] == [(1, 500, 300)] * 2
    assert ranks(rows)[:3] == [("Dog", 1), ("Ace", 2), ("Bee", 3)]
    assert not any(r.tied for r in rows)
    # Without highest_game they share the rank.
    rows = pair_standings(infos("Ace", "Bee", "Cat", "Dog"), games, [], ["points_against"])
    assert [(r.name, r.rank, r.tied) for r in rows[:3]] == [
        ("Dog", 1, False), ("Ace", 2, True), ("Bee", 2, True)
    ]


def test_pair_without_games_and_unknown_pairs_in_games() -> None:
    rows = pair_standings(infos("Ace", "Bee"), [game(1, 99, 300, 100)], [PairBye(2, 77, 100)])
    by_name = {r.name: r for r in rows}
    assert (by_name["Ace"].games, by_name["Ace"].against) == (1, 100)
    assert by_name["Bee"].games == 0 and by_name["Bee"].per_round == {}
    assert by_name["Bee"].highest_game is None


def test_to_dict_is_json_ready() -> None:
    rows = pair_standings(infos("Ace", "Bee"), [game(1, 2, 300, 200, rnd=2)],
                          [PairBye(1, 2, 150)])
    by_name = {r.name: r.to_dict() for r in rows}
    data = by_name["Ace"]
    assert data["players"] == ["Ace N", "Ace S"]
    assert data["per_round"] == {"2": 300}
    assert by_name["Bee"]["per_round"] == {"1": 150, "2": 200}
    json.dumps([r.to_dict() for r in rows])
    assert set(data) >= {"rank", "tied", "pair_id", "name", "active", "wins", "losses", "games",
                         "byes", "points", "against", "highest_game"}


def test_validate_pair_tie_breaks() -> None:
    assert validate_pair_tie_breaks(None) == PAIR_DEFAULT
    assert validate_pair_tie_breaks([]) == PAIR_DEFAULT
    assert validate_pair_tie_breaks(["highest_game"]) == ["highest_game"]
    assert set(PAIR_DEFAULT) == set(PAIR_TIE_BREAKS)
    for bad in (["wins"], ["head_to_head", "nope"], ["highest_game", "highest_game"]):
        with pytest.raises(RankingError) as caught:
            validate_pair_tie_breaks(bad)
        assert caught.value.field == "tie_breaks"
    with pytest.raises(RankingError):
        pair_standings(infos("Ace"), [], [], ["nope"])


def test_bad_input() -> None:
    with pytest.raises(RankingError) as caught:
        pair_standings([*infos("Ace"), PairInfo(1, "Again", ())], [], [])
    assert caught.value.field == "pairs"
    for bad in (PairGame(1, 1, (1, 1), (0, 0), None), PairGame(1, 1, (1, 2), (0, 0), 3)):
        with pytest.raises(RankingError) as caught:
            pair_standings(infos("Ace", "Bee"), [bad], [])
        assert caught.value.field == "games"


# ------------------------------------------------------------------ properties


@st.composite
def events(draw: st.DrawFn) -> tuple[list[PairInfo], list[PairGame], list[PairBye]]:
    count = draw(st.integers(1, 9))
    names = draw(st.lists(st.sampled_from(["Ace", "Bee", "Cat", "Dog", "ace"]), min_size=count,
                          max_size=count))
    pairs = [PairInfo(i, name, ("x", "y")) for i, name in enumerate(names, start=1)]
    games: list[PairGame] = []
    for game_id in range(draw(st.integers(0, 20)) if count > 1 else 0):
        a, b = draw(st.lists(st.integers(1, count), min_size=2, max_size=2, unique=True))
        pa, pb = draw(st.integers(0, 2)) * 100, draw(st.integers(0, 2)) * 100
        winner = draw(st.sampled_from([a, b, None]))
        games.append(PairGame(draw(st.integers(1, 5)), game_id, (a, b), (pa, pb), winner))
    byes = [PairBye(draw(st.integers(1, 5)), draw(st.integers(1, count)), draw(st.integers(0, 3)))
            for _ in range(draw(st.integers(0, 4)))]
    return pairs, games, byes


def expected_totals(pairs: list[PairInfo], games: list[PairGame],
                    byes: list[PairBye]) -> dict[int, dict[str, object]]:
    out: dict[int, dict[str, object]] = {}
    for info in pairs:
        mine = [(g, g.pairs.index(info.pair_id)) for g in games if info.pair_id in g.pairs]
        my_byes = [b for b in byes if b.pair_id == info.pair_id]
        per_round: dict[int, int] = {}
        for g, side in mine:
            per_round[g.round_number] = per_round.get(g.round_number, 0) + g.points[side]
        for b in my_byes:
            per_round[b.round_number] = per_round.get(b.round_number, 0) + b.points
        out[info.pair_id] = {
            "wins": sum(g.winner == info.pair_id for g, _ in mine) + len(my_byes),
            "losses": sum(g.winner not in (None, info.pair_id) for g, _ in mine),
            "games": len(mine),
            "byes": len(my_byes),
            "points": sum(g.points[s] for g, s in mine) + sum(b.points for b in my_byes),
            "against": sum(g.points[1 - s] for g, s in mine),
            "highest_game": max((g.points[s] for g, s in mine), default=None),
            "per_round": per_round,
        }
    return out


TIE_BREAK_LISTS = st.lists(st.sampled_from(sorted(PAIR_TIE_BREAKS)), unique=True, max_size=3)


def plain_key(row: PairRow, tie_breaks: list[str]) -> tuple[int, ...]:
    keys = [row.wins, row.points]
    for name in tie_breaks:
        if name == "points_against":
            keys.append(-row.against)
        elif name == "highest_game":
            keys.append(-(10**9) if row.highest_game is None else row.highest_game)
    return tuple(keys)


@given(event=events(), tie_breaks=TIE_BREAK_LISTS)
@settings(max_examples=300, deadline=None)
def test_totals_and_order_match_an_independent_count(
    event: tuple[list[PairInfo], list[PairGame], list[PairBye]], tie_breaks: list[str]
) -> None:
    pairs, games, byes = event
    rows = pair_standings(pairs, games, byes, tie_breaks)
    assert sorted(r.pair_id for r in rows) == [p.pair_id for p in pairs]
    expected = expected_totals(pairs, games, byes)
    for row in rows:
        got = {k: getattr(row, k) for k in expected[row.pair_id]}
        assert got == expected[row.pair_id]

    used = validate_pair_tie_breaks(tie_breaks)
    # Ranks: 1 for the first row, then either shared with the row above or its position.
    for i, row in enumerate(rows):
        if i and rows[i - 1].rank == row.rank:
            assert rows[i - 1].tied and row.tied
            assert (rows[i - 1].name.lower(), rows[i - 1].pair_id) < (row.name.lower(),
                                                                      row.pair_id)
        else:
            assert row.rank == i + 1
        assert row.tied == (sum(r.rank == row.rank for r in rows) > 1)
    # Wins then points never go up down the table; rows sharing a rank agree on every plain key.
    for above, below in zip(rows, rows[1:], strict=False):
        assert (above.wins, above.points) >= (below.wins, below.points)
        if above.rank == below.rank:
            assert plain_key(above, used) == plain_key(below, used)
    if "head_to_head" not in used:
        # Without head-to-head the order is exactly the keys' order.
        keys = [plain_key(r, used) for r in rows]
        assert keys == sorted(keys, reverse=True)
        for above, below in zip(rows, rows[1:], strict=False):
            assert (above.rank == below.rank) == (plain_key(above, used) == plain_key(below, used))
    else:
        # Plain keys before head-to-head decide the order between groups; inside each group level
        # on them, head-to-head wins among the group's pairs and then the later keys decide.
        cut = used.index("head_to_head")
        prefix = [plain_key(r, used[:cut]) for r in rows]
        assert prefix == sorted(prefix, reverse=True)
        for key in set(prefix):
            group = [r for r, k in zip(rows, prefix, strict=True) if k == key]
            ids = {r.pair_id for r in group}
            h2h = {i: sum(1 for g in games if g.winner == i and set(g.pairs) <= ids) for i in ids}
            later = [(h2h[r.pair_id], *plain_key(r, used[cut + 1:])[2:]) for r in group]
            assert later == sorted(later, reverse=True)
            for (above, k1), (below, k2) in zip(zip(group, later, strict=True),
                                                list(zip(group, later, strict=True))[1:],
                                                strict=False):
                assert (above.rank == below.rank) == (k1 == k2)
