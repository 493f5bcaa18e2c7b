"""Standings rules: totals per entry, bye scores and named tie-breaks. Pure Python, no ORM.

Vocabulary: a *result* is what one entry scored in one game (its side's total); a *tie-break* is a
named rule applied in order to order entries; entries equal on every rule *share a rank*
(1, 1, 3). Byes score what the event says: nothing, a fixed number, or the average of the round's
winning (or all) scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from config.errors import DomainError


@dataclass(frozen=True)
class Result:
    entry_id: int
    round_number: int
    game_id: int
    side: str
    points: int
    opponents_points: int
    won: bool
    finished: bool
    hands_declared: int = 0
    hands_made: int = 0
    hands_set: int = 0


@dataclass
class Row:
    entry_id: int
    name: str
    active: bool = True
    points: int = 0
    games: int = 0
    wins: int = 0
    byes: int = 0
    bye_points: int = 0
    hands_declared: int = 0
    hands_made: int = 0
    hands_set: int = 0
    highest_game: int | None = None
    rank: int = 0
    per_round: dict[int, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "entry_id": self.entry_id, "name": self.name,
            "active": self.active, "points": self.points, "games": self.games,
            "wins": self.wins, "byes": self.byes, "bye_points": self.bye_points,
            "hands_declared": self.hands_declared, "hands_made": self.hands_made,
            "hands_set": self.hands_set, "highest_game": self.highest_game,
            "per_round": {str(k): v for k, v in sorted(self.per_round.items())},
        }


TIE_BREAKS: dict[str, str] = {
    "points": "Total points",
    "wins": "Games won",
    "head_to_head": "Wins against the other tied players",
    "highest_game": "Highest single game",
    "hands_made": "Contracts made",
    "fewest_sets": "Fewest times set",
}
INDIVIDUAL_DEFAULT = ["points", "wins", "head_to_head", "highest_game"]
PARTNERSHIP_DEFAULT = ["wins", "points"]


def validate_tie_breaks(names: Sequence[str] | None, *, kind: str, partnership: str) -> list[str]:
    if not names:
        return list(PARTNERSHIP_DEFAULT if partnership == "fixed" else INDIVIDUAL_DEFAULT)
    unknown = [n for n in names if n not in TIE_BREAKS]
    if unknown:
        raise DomainError(
            f"Unknown tie-break {unknown[0]!r}; choose from {', '.join(TIE_BREAKS)}.",
            field="tie_breaks",
        )
    if len(set(names)) != len(names):
        raise DomainError("A tie-break is listed twice.", field="tie_breaks")
    return list(names)


def bye_score(
    *, scoring: str, fixed_points: int, round_results: Sequence[Result]
) -> int:
    """What an entry sitting out a round scores."""
    if scoring == "fixed":
        return fixed_points
    if scoring == "zero":
        return 0
    if scoring == "average_winning":
        by_game: dict[int, int] = {}
        for r in round_results:
            if r.finished:
                by_game[r.game_id] = max(by_game.get(r.game_id, r.points), r.points)
        scores = list(by_game.values())
    else:  # average_all: every side's score once
        seen: dict[tuple[int, str], int] = {}
        for r in round_results:
            if r.finished:
                seen[(r.game_id, r.side)] = r.points
        scores = list(seen.values())
    if not scores:
        return 0
    return round(sum(scores) / len(scores))


def _key(name: str, row: Row) -> Any:
    if name == "points":
        return row.points
    if name == "wins":
        return row.wins
    if name == "highest_game":
        return row.highest_game if row.highest_game is not None else -10**9
    if name == "hands_made":
        return row.hands_made
    if name == "fewest_sets":
        return -row.hands_set
    raise KeyError(name)


def _head_to_head(group: list[Row], results: Sequence[Result]) -> dict[int, int]:
    """Wins of each tied entry in games where it sat against another entry of the group."""
    ids = {row.entry_id for row in group}
    by_game: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        if r.entry_id in ids:
            by_game[r.game_id].append(r)
    wins = dict.fromkeys(ids, 0)
    for rows in by_game.values():
        for r in rows:
            if r.won and any(o.side != r.side for o in rows):
                wins[r.entry_id] += 1
    return wins


def rank_rows(rows: list[Row], tie_breaks: Sequence[str], results: Sequence[Result]) -> list[Row]:
    """Order rows by the tie-breaks in turn; rows equal on all of them share a rank."""

    def split(group: list[Row], depth: int) -> list[list[Row]]:
        if len(group) <= 1 or depth == len(tie_breaks):
            return [sorted(group, key=lambda r: r.name.lower())]
        name = tie_breaks[depth]
        key: Callable[[Row], Any]
        if name == "head_to_head":
            h2h = _head_to_head(group, results)
            key = lambda r: h2h[r.entry_id]  # noqa: E731
        else:
            key = lambda r: _key(name, r)  # noqa: E731
        buckets: dict[Any, list[Row]] = defaultdict(list)
        for row in group:
            buckets[key(row)].append(row)
        out: list[list[Row]] = []
        for value in sorted(buckets, reverse=True):
            out.extend(split(buckets[value], depth + 1))
        return out

    ordered: list[Row] = []
    position = 1
    for group in split(rows, 0):
        for row in group:
            row.rank = position
        ordered.extend(group)
        position += len(group)
    return ordered


def compute_standings(
    *,
    entries: Iterable[tuple[int, str, bool]],
    results: Sequence[Result],
    byes: Iterable[tuple[int, int]],
    tie_breaks: Sequence[str],
    bye_scoring: str = "average_winning",
    bye_points: int = 0,
) -> list[Row]:
    """Standings from scratch: ``entries`` are (id, name, active), ``byes`` (round, entry id)."""
    rows: dict[int, Row] = {eid: Row(entry_id=eid, name=name, active=active)
                            for eid, name, active in entries}
    by_round: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        by_round[r.round_number].append(r)
        row = rows.get(r.entry_id)
        if row is None:
            continue
        row.points += r.points
        row.per_round[r.round_number] = row.per_round.get(r.round_number, 0) + r.points
        row.hands_declared += r.hands_declared
        row.hands_made += r.hands_made
        row.hands_set += r.hands_set
        if r.finished:
            row.games += 1
            row.wins += int(r.won)
            row.highest_game = r.points if row.highest_game is None else max(row.highest_game, r.points)
    bye_cache: dict[int, int] = {}
    for round_number, entry_id in byes:
        row = rows.get(entry_id)
        if row is None:
            continue
        if round_number not in bye_cache:
            bye_cache[round_number] = bye_score(
                scoring=bye_scoring, fixed_points=bye_points,
                round_results=by_round.get(round_number, []),
            )
        row.byes += 1
        row.bye_points += bye_cache[round_number]
        row.points += bye_cache[round_number]
        row.per_round[round_number] = bye_cache[round_number]
    return rank_rows(list(rows.values()), tie_breaks, results)


def tie_break_labels(names: Sequence[str]) -> list[dict[str, str]]:
    return [{"name": n, "label": TIE_BREAKS[n]} for n in names]


def rows_by_entry(rows: Sequence[Mapping[str, Any]]) -> dict[int, Mapping[str, Any]]:
    return {int(r["entry_id"]): r for r in rows}
