"""The pure rating core (``ranking.ratings``): placings, refusals, and properties that hold for
any ratings and results (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranking.ratings import (
    DEFAULT_SETTINGS,
    GameResult,
    Rating,
    RatingInputError,
    RatingSettings,
    Side,
    placings,
    rate_game,
    replay,
)

ratings = st.builds(Rating, mu=st.floats(5, 45), sigma=st.floats(0.5, 9))
points = st.integers(-300, 900)
margins = st.sampled_from([0.0, 0.3])


@st.composite
def partnership_games(draw: st.DrawFn) -> tuple[dict[int, Rating], GameResult, RatingSettings]:
    start = {p: draw(ratings) for p in range(4)}
    ns, ew = draw(points), draw(points)
    # the higher total wins; a level game is won by either side (bid-and-out) or drawn
    winner = draw(st.sampled_from([0, 1, None])) if ns == ew else (0 if ns > ew else 1)
    game = GameResult(sides=(Side((0, 2), ns), Side((1, 3), ew)), winner=winner)
    return start, game, RatingSettings(margin=draw(margins))


@given(partnership_games())
@settings(max_examples=150, deadline=None)
def test_winners_never_go_down_and_losers_never_up(case: tuple[dict[int, Rating], GameResult,
                                                               RatingSettings]) -> None:
    start, game, rating_settings = case
    after = rate_game(start, game, rating_settings)
    assert set(after) == {0, 1, 2, 3}
    tau = rating_settings.tau
    for player, new in after.items():
        assert math.isfinite(new.mu) and new.sigma > 0
        # uncertainty only grows by the model's drift (tau) before the game shrinks it
        assert new.sigma <= math.hypot(start[player].sigma, tau) + 1e-9
    if game.winner is not None:
        winners = game.sides[game.winner].players
        losers = game.sides[1 - game.winner].players
        assert all(after[p].mu >= start[p].mu for p in winners)
        assert all(after[p].mu <= start[p].mu for p in losers)


@given(partnership_games())
@settings(max_examples=100, deadline=None)
def test_the_order_of_the_sides_does_not_matter(case: tuple[dict[int, Rating], GameResult,
                                                             RatingSettings]) -> None:
    start, game, rating_settings = case
    swapped = GameResult(sides=game.sides[::-1],
                         winner=None if game.winner is None else 1 - game.winner)
    first = rate_game(start, game, rating_settings)
    second = rate_game(start, swapped, rating_settings)
    for player in first:
        assert first[player].mu == pytest.approx(second[player].mu, abs=1e-9)
        assert first[player].sigma == pytest.approx(second[player].sigma, abs=1e-9)


@given(st.lists(partnership_games(), min_size=1, max_size=6))
@settings(max_examples=40, deadline=None)
def test_replay_is_rating_one_game_after_another(cases: list[tuple[dict[int, Rating],
                                                                   GameResult,
                                                                   RatingSettings]]) -> None:
    games = [game for _, game, _ in cases]
    final, changes = replay(games)
    current: dict[int, Rating] = {}
    for game, changed in zip(games, changes, strict=True):
        for change in changed:
            assert change.before == current.get(change.player, DEFAULT_SETTINGS.initial())
        current.update(rate_game(current, game))
    assert final == current


def test_placings_put_the_winner_first_even_with_fewer_points() -> None:
    # bid-and-out: the declaring side goes out first although the other side's total is higher
    assert placings(GameResult(sides=(Side((1, 2), 510), Side((3, 4), 530)), winner=0)) == [1, 2]
    assert placings(GameResult(sides=(Side((1,), 1000), Side((2,), 300), Side((3,), 700)),
                               winner=0)) == [1, 3, 2]
    assert placings(GameResult(sides=(Side((1, 2), 400), Side((3, 4), 400)))) == [1, 1]
    # a level game is a draw: equal players stay equal
    level = rate_game({}, GameResult(sides=(Side((1, 2), 400), Side((3, 4), 400))))
    assert level[1].mu == pytest.approx(level[3].mu)


def test_a_margin_is_used_only_when_the_points_agree_with_the_result() -> None:
    start = {1: Rating(30, 4), 2: Rating(30, 4), 3: Rating(20, 4), 4: Rating(20, 4)}
    big = GameResult(sides=(Side((1, 2), 500), Side((3, 4), 100)), winner=0)
    small = GameResult(sides=(Side((1, 2), 500), Side((3, 4), 480)), winner=0)
    with_margin = RatingSettings(margin=0.3)
    # the favourites winning big move further than winning narrowly, with margins only
    assert rate_game(start, big, with_margin)[1].mu != rate_game(start, small, with_margin)[1].mu
    assert rate_game(start, big)[1].mu == rate_game(start, small)[1].mu
    # a winner with fewer points (bid-and-out) is rated by places alone
    out = GameResult(sides=(Side((1, 2), 500), Side((3, 4), 520)), winner=0)
    plain = GameResult(sides=(Side((1, 2), 500), Side((3, 4), 400)), winner=0)
    assert rate_game(start, out, with_margin) == rate_game(start, plain, RatingSettings())


@pytest.mark.parametrize(("game", "field"), [
    (GameResult(sides=(Side((1, 2), 5),)), "sides"),
    (GameResult(sides=(Side((1, 2), 5), Side((), 3))), "sides"),
    (GameResult(sides=(Side((1, 2), 5), Side((2, 3), 3))), "sides"),
    (GameResult(sides=(Side((1,), 5), Side((2,), 3)), winner=2), "winner"),
    (GameResult(sides=(Side((1,), 5), Side((2,), 3)), scale=0), "scale"),
])
def test_games_that_cannot_be_rated_are_refused_naming_the_field(game: GameResult,
                                                                 field: str) -> None:
    with pytest.raises(RatingInputError) as caught:
        rate_game({}, game)
    assert caught.value.field == field


def test_bad_settings_are_refused_naming_the_field() -> None:
    game = GameResult(sides=(Side((1,), 5), Side((2,), 3)), winner=0)
    for bad, field in ((RatingSettings(model="elo"), "model"),
                       (RatingSettings(margin=-1), "margin")):
        with pytest.raises(RatingInputError) as caught:
            rate_game({}, game, bad)
        assert caught.value.field == field
