"""Standings of a fixed-partnership event: one row per pair. Pure Python, no ORM.

Vocabulary (the individual standings' words, see :mod:`ranking.standings`, applied to pairs):

* a *pair* is a fixed partnership with its own id and name; its players never change;
* a *game* is one finished game between two pairs: each pair's points and the winning pair, or
  no winner when the game ended level;
* a *bye* is a round a pair sat out; it counts as a win and scores the points the event gives
  (the caller works them out, e.g. with :func:`ranking.standings.bye_score`);
* a *forfeit* (walkover) is a game one pair could not play out: a game won by the other pair
  and lost by it, with the points the caller gives (the house: a bye's for the winner, nothing
  for the forfeiting pair).

What a row counts: ``wins`` are games won plus byes; ``losses`` games lost; ``games`` games
played (a level game is a game for both pairs and neither a win nor a loss); ``byes`` the rounds
sat out; ``points`` the pair's own points in its games plus its bye points; ``against`` what its
opponents scored against it; ``highest_game`` its best score in one game; ``per_round`` its points
round by round, bye rounds included.

Order: most wins, then most points, then the event's named tie-breaks in turn
(``PAIR_TIE_BREAKS``). Pairs equal on all of them *share a rank* (1, 1, 3), are flagged ``tied``
and are listed by name. ``head_to_head`` works as in the individual standings: when it is
reached, each group of pairs still level counts its members' wins in games against other
members of the same group, and the group is split by that count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine.i18n import Text, gettext_noop

from .standings import (
    RankingError,
    SortKey,
    checked_tie_breaks,
    per_round_text,
    same_key,
    share_ranks,
    split_groups,
)

PAIR_TIE_BREAKS: dict[str, str] = {
    "head_to_head": gettext_noop("Wins against the other tied pairs"),
    "points_against": gettext_noop("Fewest points against"),
    "highest_game": gettext_noop("Highest single game"),
}
PAIR_DEFAULT = ["head_to_head", "points_against", "highest_game"]


@dataclass(frozen=True)
class PairInfo:
    """A pair as the standings show it."""

    pair_id: int
    name: str
    players: tuple[str, ...]
    active: bool = True


@dataclass(frozen=True)
class PairGame:
    """One finished game: the two pairs, their points (in the same order) and the winning pair.

    ``winner`` is ``None`` when the game ended level. A ``forfeit`` (a walkover) counts as a
    game won and lost with the points given (the caller scores it, e.g. as a bye), but is no
    one's highest game.
    """

    round_number: int
    game_id: int
    pairs: tuple[int, int]
    points: tuple[int, int]
    winner: int | None
    forfeit: bool = False


@dataclass(frozen=True)
class PairBye:
    """A round a pair sat out; it counts as a win with ``points``."""

    round_number: int
    pair_id: int
    points: int


@dataclass
class PairRow:
    pair_id: int
    name: str
    players: tuple[str, ...]
    active: bool
    rank: int = 0
    tied: bool = False
    wins: int = 0
    losses: int = 0
    games: int = 0
    byes: int = 0
    points: int = 0
    against: int = 0
    highest_game: int | None = None
    per_round: dict[int, int] = field(default_factory=dict)
    # The director's penalties against the pair (a positive sum), already taken off ``points``.
    penalty_points: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "tied": self.tied, "pair_id": self.pair_id, "name": self.name,
            "players": list(self.players), "active": self.active, "wins": self.wins,
            "losses": self.losses, "games": self.games, "byes": self.byes,
            "points": self.points, "penalty_points": self.penalty_points, "against": self.against, "highest_game": self.highest_game,
            "per_round": per_round_text(self.per_round),
        }


def validate_pair_tie_breaks(names: Sequence[str] | None) -> list[str]:
    """The tie-breaks a pair event will use: ``PAIR_DEFAULT`` when none are given."""
    if not names:
        return list(PAIR_DEFAULT)
    return checked_tie_breaks(names, PAIR_TIE_BREAKS)


def _check_game(game: PairGame) -> None:
    first, second = game.pairs
    if first == second:
        raise RankingError(Text(gettext_noop("Game %(game_id)s lists pair %(first)s twice."), game_id=game.game_id, first=first), field="games")
    if game.winner is not None and game.winner not in game.pairs:
        raise RankingError(
            Text(gettext_noop("Game %(game_id)s: pair %(winner)s did not play in it."), game_id=game.game_id, winner=game.winner), field="games"
        )


def head_to_head_pair_wins(group: set[int], games: Sequence[PairGame]) -> dict[int, int]:
    """Wins of each pair of ``group`` in games against another pair of the group."""
    wins = dict.fromkeys(group, 0)
    for game in games:
        if game.winner is not None and game.pairs[0] in group and game.pairs[1] in group:
            wins[game.winner] += 1
    return wins


RowKey = Callable[[PairRow], SortKey]


def _plain_key(name: str) -> RowKey:
    if name == "points_against":
        return lambda row: -row.against
    if name == "highest_game":
        return lambda row: row.highest_game if row.highest_game is not None else -(10**9)
    raise KeyError(name)


def _within_group(games: Sequence[PairGame]) -> Callable[[list[PairRow]], RowKey]:
    """Head-to-head: each group's key counts wins against the members of that group only."""

    def key_for(group: list[PairRow]) -> RowKey:
        wins = head_to_head_pair_wins({row.pair_id for row in group}, games)
        return lambda row: wins[row.pair_id]

    return key_for


def rank_pair_rows(
    rows: list[PairRow], tie_breaks: Sequence[str], games: Sequence[PairGame]
) -> list[PairRow]:
    """Order rows by wins, points and then the tie-breaks; rows level on all share a rank."""
    groups = split_groups([rows], same_key(lambda row: (row.wins, row.points)))
    for name in tie_breaks:
        if all(len(g) == 1 for g in groups):
            break
        key_for = _within_group(games) if name == "head_to_head" else same_key(
            _plain_key(name)
        )
        groups = split_groups(groups, key_for)
    return share_ranks(groups, lambda r: (r.name.lower(), r.pair_id))


def pair_standings(
    pairs: Sequence[PairInfo],
    games: Sequence[PairGame],
    byes: Sequence[PairBye],
    tie_breaks: Sequence[str] = PAIR_DEFAULT,
    penalties: Mapping[int, int] | None = None,
) -> list[PairRow]:
    """Ranked standings of ``pairs`` from their finished ``games`` and ``byes``, less the
    director's ``penalties`` (pair id -> a positive sum, taken off the points).

    Games and byes of pairs not listed are left out of those pairs' rows (an opponent who is
    listed still counts the game). Raises :class:`~ranking.standings.RankingError` for an unknown
    or repeated tie-break (``tie_breaks``), a pair listed twice (``pairs``) or a game naming the
    same pair twice or a winner who did not play in it (``games``).
    """
    names = validate_pair_tie_breaks(tie_breaks)
    rows: dict[int, PairRow] = {}
    for info in pairs:
        if info.pair_id in rows:
            raise RankingError(Text(gettext_noop("Pair %(pair_id)s is listed twice."), pair_id=info.pair_id), field="pairs")
        rows[info.pair_id] = PairRow(
            pair_id=info.pair_id, name=info.name, players=tuple(info.players), active=info.active
        )
    per_round: dict[int, dict[int, int]] = defaultdict(dict)
    for game in games:
        _check_game(game)
        for side in (0, 1):
            row = rows.get(game.pairs[side])
            if row is None:
                continue
            own, theirs = game.points[side], game.points[1 - side]
            row.games += 1
            row.points += own
            row.against += theirs
            if game.winner == row.pair_id:
                row.wins += 1
            elif game.winner is not None:
                row.losses += 1
            if not game.forfeit:
                row.highest_game = own if row.highest_game is None else max(row.highest_game,
                                                                            own)
            rounds = per_round[row.pair_id]
            rounds[game.round_number] = rounds.get(game.round_number, 0) + own
    for bye in byes:
        row = rows.get(bye.pair_id)
        if row is None:
            continue
        row.byes += 1
        row.wins += 1
        row.points += bye.points
        rounds = per_round[row.pair_id]
        rounds[bye.round_number] = rounds.get(bye.round_number, 0) + bye.points
    for pair_id, rounds in per_round.items():
        rows[pair_id].per_round = dict(sorted(rounds.items()))
    for pair_id, penalty in (penalties or {}).items():
        row = rows.get(pair_id)
        if row is not None and penalty:
            row.penalty_points += penalty
            row.points -= penalty
    return rank_pair_rows(list(rows.values()), names, games)
