"""Skill ratings from game results: openskill's Weng-Lin Bayesian ratings for teams.

A player's skill is a normal distribution, mean ``mu`` and uncertainty ``sigma``. A game is a
list of sides (a partnership of two in a four-handed game, one player each in three-handed or
cutthroat games); each side's players share the side's result, so a win next to a strong partner
counts for less than a win next to a weak one, and a loss to strong opponents costs less than a
loss to weak ones. The leaderboards show the conservative *ordinal* ``mu - 3 sigma``: a new
player starts at 0 and climbs as games make the system surer.

Who placed where: the winning side first (a pinochle game is won by reaching the target, which is
not always the higher total: bid-and-out), the other sides by their points; a game that ended
level is a draw for all (a cut of the cards settles who moves on, not who played better).

Point margins are optional (``RatingSettings.margin``, a fraction of the game's target): when set,
a side that wins by more than the margin moves further. ``bench/ratings.py`` measures whether
that recovers the true skills better; the default is what it found best.

Pure: no Django, no database; the ``league`` app stores what :func:`rate_game` returns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from openskill.models import (
    BradleyTerryFull,
    PlackettLuce,
    ThurstoneMostellerFull,
)

from rules_engine.errors import CoreError
from rules_engine.i18n import Text, gettext_noop

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
# The leaderboards' rating: mu - ORDINAL_Z * sigma (openskill's ordinal, a 99.7 % lower bound).
ORDINAL_Z = 3.0

MODELS = ("plackett_luce", "bradley_terry", "thurstone_mosteller")


class _Model(Protocol):
    """The part of an openskill Weng-Lin model used here (its ratings have ``mu`` and
    ``sigma``)."""

    def rating(self, mu: float | None = None, sigma: float | None = None) -> Any: ...

    def rate(self, teams: list[list[Any]], ranks: list[float] | None = None,
             scores: list[float] | None = None) -> list[list[Any]]: ...


class RatingInputError(CoreError, ValueError):
    """A game that cannot be rated (one side, an empty side, a player twice); names the field."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)


@dataclass(frozen=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """What a leaderboard shows: the skill we are nearly sure the player has at least."""
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - ORDINAL_Z * sigma


@dataclass(frozen=True)
class Side:
    """One side of a game: its players (ids) and the points it scored in the game."""

    players: tuple[int, ...]
    points: int = 0


@dataclass(frozen=True)
class GameResult:
    """A finished game. ``winner`` is the index of the winning side in ``sides``, or None when
    the game ended level. ``scale`` is the points of a whole game (the ruleset's target), the
    unit in which margins are measured."""

    sides: tuple[Side, ...]
    winner: int | None = None
    scale: int = 500


@dataclass(frozen=True)
class RatingSettings:
    """The model and its parameters. ``margin`` is 0 (margins not used) or the fraction of the
    game's target above which a bigger win counts for more (openskill's margin factor
    ``log1p(difference / margin)``)."""

    model: str = "plackett_luce"
    margin: float = 0.0
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    beta: float = DEFAULT_SIGMA / 2.0
    tau: float = DEFAULT_MU / 300.0

    def initial(self) -> Rating:
        return Rating(self.mu, self.sigma)


DEFAULT_SETTINGS = RatingSettings()


def check_game(game: GameResult) -> None:
    """Refuse a game that cannot be rated, naming the field."""
    if len(game.sides) < 2:
        raise RatingInputError(Text(gettext_noop("A game needs at least two sides.")), field="sides")
    seen: set[int] = set()
    for index, side in enumerate(game.sides):
        if not side.players:
            raise RatingInputError(Text(gettext_noop("Side %(value)s has no players."), value=index + 1), field="sides")
        for player in side.players:
            if player in seen:
                raise RatingInputError(Text(gettext_noop("Player %(player)s sits on two sides or twice."), player=player),
                                       field="sides")
            seen.add(player)
    if game.winner is not None and not 0 <= game.winner < len(game.sides):
        raise RatingInputError(Text(gettext_noop("The winner is not one of the sides.")), field="winner")
    if game.scale <= 0:
        raise RatingInputError(Text(gettext_noop("A game's scale is a positive number of points.")), field="scale")


def placings(game: GameResult) -> list[int]:
    """Each side's place (1 = best; equal places are a tie): the winner first, the others by
    their points; a game without a winner is ranked by points alone (level: all tie)."""
    order = sorted({s.points for i, s in enumerate(game.sides) if i != game.winner}, reverse=True)
    offset = 1 if game.winner is not None else 0
    places = []
    for index, side in enumerate(game.sides):
        if index == game.winner:
            places.append(1)
        else:
            places.append(offset + 1 + order.index(side.points))
    return places


def _model(settings: RatingSettings) -> _Model:
    kinds: dict[str, Any] = {
        "plackett_luce": PlackettLuce, "bradley_terry": BradleyTerryFull,
        "thurstone_mosteller": ThurstoneMostellerFull,
    }
    kind = kinds.get(settings.model)
    if kind is None:
        raise RatingInputError(Text(gettext_noop("Unknown rating model %(model)s; one of %(values)s."), model=repr(settings.model), values=', '.join(MODELS)), field="model")
    if settings.margin < 0 or not math.isfinite(settings.margin):
        raise RatingInputError(Text(gettext_noop("The margin is 0 or a positive fraction of the target.")),
                               field="margin")
    model: _Model = kind(mu=settings.mu, sigma=settings.sigma, beta=settings.beta,
                         tau=settings.tau, margin=settings.margin)
    return model


def _scores(game: GameResult, places: Sequence[int]) -> list[float] | None:
    """The sides' points in units of a whole game, when they order the sides as ``places`` do
    (otherwise margins would contradict the result: the game is rated by places alone)."""
    scores = [side.points / game.scale for side in game.sides]
    for i in range(len(scores)):
        for j in range(len(scores)):
            if places[i] < places[j] and not scores[i] > scores[j]:
                return None
            if places[i] == places[j] and scores[i] != scores[j]:
                return None
    return scores


def rate_game(ratings: Mapping[int, Rating], game: GameResult,
              settings: RatingSettings = DEFAULT_SETTINGS) -> dict[int, Rating]:
    """The new ratings of the game's players (a player missing from ``ratings`` starts at the
    settings' initial rating). Raises :class:`RatingInputError` for a game that cannot be rated."""
    check_game(game)
    model = _model(settings)
    initial = settings.initial()
    teams = [
        [model.rating(mu=ratings.get(p, initial).mu, sigma=ratings.get(p, initial).sigma)
         for p in side.players]
        for side in game.sides
    ]
    places = placings(game)
    scores = _scores(game, places) if settings.margin > 0 else None
    if scores is not None:
        rated = model.rate(teams, scores=scores)
    else:
        rated = model.rate(teams, ranks=[float(p) for p in places])
    result: dict[int, Rating] = {}
    for side, team in zip(game.sides, rated, strict=True):
        for player, new in zip(side.players, team, strict=True):
            result[player] = Rating(float(new.mu), float(new.sigma))
    return result


@dataclass(frozen=True)
class Change:
    """What one game did to one player's rating."""

    player: int
    before: Rating
    after: Rating


def replay(games: Iterable[GameResult], *, start: Mapping[int, Rating] | None = None,
           settings: RatingSettings = DEFAULT_SETTINGS) -> tuple[dict[int, Rating],
                                                                  list[list[Change]]]:
    """Rate ``games`` in order from the ratings in ``start`` (everyone else starts afresh):
    the final ratings and, per game, each player's change."""
    current: dict[int, Rating] = dict(start or {})
    initial = settings.initial()
    changes: list[list[Change]] = []
    for game in games:
        after = rate_game(current, game, settings)
        changes.append([Change(p, current.get(p, initial), r) for p, r in after.items()])
        current.update(after)
    return current, changes
