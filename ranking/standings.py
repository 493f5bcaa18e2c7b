"""Standings rules: totals per entry, bye scores and named tie-breaks. Pure Python, no ORM.

Vocabulary:

* a *result* is what one entry scored in one game (its side's total at the end, or so far);
* an entry's *totals* are its results summed (the database does that with one GROUP BY, see
  ``standings.services``; :func:`totals_from_results` is the same sum in Python, the reference the
  tests compare against);
* a *bye* is a round an entry sat out; it scores what the event says (nothing, a fixed number, or
  the average of the round's winning scores or of all its scores), computed from the round's
  *finished* games;
* a *tie-break* is a named rule; entries are ordered by the event's tie-breaks in turn and
  entries equal on every one of them *share a rank* (1, 1, 3).

Points and per-round points include bye points; games and wins count only games played.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from itertools import groupby
from typing import Any, Protocol, TypeAlias, TypedDict, TypeVar

from rules_engine.errors import CoreError
from rules_engine.i18n import Text, gettext_noop

TIE_BREAKS: dict[str, str] = {
    "points": gettext_noop("Total points"),
    "wins": gettext_noop("Games won"),
    "head_to_head": gettext_noop("Wins against the other tied players"),
    "highest_game": gettext_noop("Highest single game"),
    "hands_made": gettext_noop("Contracts made"),
    "fewest_sets": gettext_noop("Fewest times set"),
}
# Individual events rank by points; partnership events by wins, then points.
INDIVIDUAL_DEFAULT = ["points", "wins", "head_to_head", "highest_game"]
PARTNERSHIP_DEFAULT = ["wins", "points"]



class RankingError(CoreError, ValueError):
    """Bad ranking settings, with the field they concern (the web layer shows it there)."""

    def __init__(self, message: str, *, field: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)


@dataclass(frozen=True)
class Result:
    """One entry in one game."""

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


@dataclass(frozen=True)
class EntryTotals:
    """An entry's results summed over the event (byes not included)."""

    entry_id: int
    name: str
    active: bool = True
    points: int = 0
    games: int = 0  # finished games
    wins: int = 0
    hands_declared: int = 0
    hands_made: int = 0
    hands_set: int = 0
    highest_game: int | None = None  # best finished game
    per_round: Mapping[int, int] = field(default_factory=dict)
    alternate: bool = False  # scores, but is not ranked for a cut or a place


@dataclass(frozen=True)
class RoundScores:
    """What a bye is computed from: the round's finished games, summed.

    ``winning_*`` sum and count the winning side's score of each finished game, ``all_*`` every
    side's score. Counting each player of a side (as the database rows do) weights every game
    equally, so averages are the same as counting each side once.
    """

    winning_total: int = 0
    winning_count: int = 0
    all_total: int = 0
    all_count: int = 0


@dataclass(frozen=True)
class Meeting:
    """For head-to-head: an entry's side and result in one game."""

    game_id: int
    entry_id: int
    side: str
    won: bool


def per_round_text(per_round: Mapping[int, int]) -> dict[str, int]:
    """Points by round, keyed by the round's number as text (as JSON has them), in order."""
    return {str(k): v for k, v in sorted(per_round.items())}


class LineKeys(TypedDict):
    """The keys every standings line has, a player's (:class:`RowDict`) or a line a page shows
    (``standings.rows.StandingRow``, which adds a pair's and a board's)."""

    tied: bool
    entry_id: int
    name: str
    active: bool
    alternate: bool
    points: int
    games: int
    wins: int
    byes: int
    bye_points: int
    hands_declared: int
    hands_made: int
    hands_set: int
    highest_game: int | None
    per_round: dict[str, int]  # points by round number (as text)


class RowDict(LineKeys):
    """A :class:`Row` as JSON has it (``per_round`` keyed by the round's number as text, in
    order): the line the standings snapshot stores and the verifier compares."""

    rank: int
    penalty_points: int  # the director's penalties, already taken off ``points``


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
    tied: bool = False
    per_round: dict[int, int] = field(default_factory=dict)
    alternate: bool = False
    # The director's penalties (a positive sum), already taken off ``points``.
    penalty_points: int = 0

    def to_dict(self) -> RowDict:
        return {
            "rank": self.rank, "tied": self.tied, "entry_id": self.entry_id, "name": self.name,
            "active": self.active, "alternate": self.alternate, "points": self.points,
            "penalty_points": self.penalty_points, "games": self.games,
            "wins": self.wins, "byes": self.byes, "bye_points": self.bye_points,
            "hands_declared": self.hands_declared, "hands_made": self.hands_made,
            "hands_set": self.hands_set, "highest_game": self.highest_game,
            "per_round": per_round_text(self.per_round),
        }


def default_tie_breaks(*, partnership: str) -> list[str]:
    return list(PARTNERSHIP_DEFAULT if partnership == "fixed" else INDIVIDUAL_DEFAULT)


def validate_tie_breaks(names: Sequence[str] | None, *, partnership: str) -> list[str]:
    """The tie-breaks an event will use: the defaults for its kind when none are given."""
    if not names:
        return default_tie_breaks(partnership=partnership)
    return checked_tie_breaks(names, TIE_BREAKS)


def checked_tie_breaks(names: Sequence[str], known: Mapping[str, str]) -> list[str]:
    """``names`` when each is one of ``known`` and none is listed twice; else
    :class:`RankingError` (``tie_breaks``)."""
    unknown = [n for n in names if n not in known]
    if unknown:
        raise RankingError(
            Text(gettext_noop("Unknown tie-break %(unknown)s; choose from %(values)s."), unknown=repr(unknown[0]), values=', '.join(known)),
            field="tie_breaks",
        )
    if len(set(names)) != len(names):
        raise RankingError(Text(gettext_noop("A tie-break is listed twice.")), field="tie_breaks")
    return list(names)


def tie_breaks_in_force(names: Sequence[str] | None, *, partnership: str) -> list[str]:
    """Like :func:`validate_tie_breaks` but tolerant of stored data: unknown names are dropped."""
    known = [n for n in (names or []) if n in TIE_BREAKS]
    return list(dict.fromkeys(known)) or default_tie_breaks(partnership=partnership)


def tie_break_labels(names: Sequence[str]) -> list[dict[str, str]]:
    return [{"name": n, "label": TIE_BREAKS[n]} for n in names]


def _average(total: int, count: int) -> int:
    if count <= 0:
        return 0
    return int((Decimal(total) / Decimal(count)).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def bye_score(*, scoring: str, fixed_points: int, scores: RoundScores) -> int:
    """What an entry sitting out a round scores (rounded half up; 0 before any game finished)."""
    if scoring == "fixed":
        return fixed_points
    if scoring == "average_winning":
        return _average(scores.winning_total, scores.winning_count)
    if scoring == "average_all":
        return _average(scores.all_total, scores.all_count)
    return 0  # "zero" and anything unknown


def totals_from_results(
    *, entries: Iterable[tuple[int, str, bool]], results: Iterable[Result]
) -> tuple[list[EntryTotals], dict[int, RoundScores]]:
    """Sum raw results per entry and per round (the reference for the database's GROUP BY)."""
    acc: dict[int, dict[str, Any]] = {
        eid: {"name": name, "active": active, "points": 0, "games": 0, "wins": 0,
              "hands_declared": 0, "hands_made": 0, "hands_set": 0, "highest_game": None,
              "per_round": {}}
        for eid, name, active in entries
    }
    rounds: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in results:
        if r.finished:
            sums = rounds[r.round_number]
            sums[2] += r.points
            sums[3] += 1
            if r.won:
                sums[0] += r.points
                sums[1] += 1
        a = acc.get(r.entry_id)
        if a is None:
            continue
        a["points"] += r.points
        a["per_round"][r.round_number] = a["per_round"].get(r.round_number, 0) + r.points
        a["hands_declared"] += r.hands_declared
        a["hands_made"] += r.hands_made
        a["hands_set"] += r.hands_set
        if r.finished:
            a["games"] += 1
            a["wins"] += int(r.won)
            best = a["highest_game"]
            a["highest_game"] = r.points if best is None else max(best, r.points)
    totals = [EntryTotals(entry_id=eid, **values) for eid, values in acc.items()]
    return totals, {n: RoundScores(*s) for n, s in rounds.items()}


def head_to_head_wins(group_ids: set[int], meetings: Iterable[Meeting]) -> dict[int, int]:
    """Wins of each tied entry in games where another entry of the group sat on the other side."""
    by_game: dict[int, list[Meeting]] = defaultdict(list)
    for m in meetings:
        if m.entry_id in group_ids:
            by_game[m.game_id].append(m)
    wins = dict.fromkeys(group_ids, 0)
    for rows in by_game.values():
        for m in rows:
            if m.won and any(o.side != m.side for o in rows):
                wins[m.entry_id] += 1
    return wins


MeetingsFor = Callable[[set[int]], Iterable[Meeting]]


def _key(name: str, row: Row) -> int:
    if name == "points":
        return row.points
    if name == "wins":
        return row.wins
    if name == "highest_game":
        return row.highest_game if row.highest_game is not None else -(10**9)
    if name == "hands_made":
        return row.hands_made
    if name == "fewest_sets":
        return -row.hands_set
    raise KeyError(name)


def _segments(tie_breaks: Sequence[str]) -> list[tuple[str, ...]]:
    """Consecutive plain tie-breaks merge into one sort key; head_to_head stands alone."""
    segments: list[tuple[str, ...]] = []
    for name in tie_breaks:
        if name != "head_to_head" and segments and segments[-1][0] != "head_to_head":
            segments[-1] = (*segments[-1], name)
        else:
            segments.append((name,))
    return segments


def _wins_key(wins: Mapping[int, int]) -> Callable[[Row], SortKey]:
    return lambda row: wins.get(row.entry_id, 0)


def _plain_key(names: tuple[str, ...]) -> Callable[[Row], SortKey]:
    return lambda row: tuple(_key(n, row) for n in names)


# What rows are sorted by: a number, or a tuple of numbers (and a name, where level rows are
# listed alphabetically).
SortKey: TypeAlias = int | tuple[int | str, ...]


class Ranked(Protocol):
    """A standings row as the ranking step sees it: its rank and whether it shares it."""

    rank: int
    tied: bool


R = TypeVar("R", bound=Ranked)


def split_groups(
    groups: list[list[R]], key_for: Callable[[list[R]], Callable[[R], SortKey]]
) -> list[list[R]]:
    """Split each group of level rows by the key ``key_for(group)`` (higher first); single rows
    stay as they are."""
    refined: list[list[R]] = []
    for group in groups:
        if len(group) == 1:
            refined.append(group)
            continue
        key = key_for(group)
        refined.extend(
            list(same) for _, same in groupby(sorted(group, key=key, reverse=True), key=key)
        )
    return refined


def same_key(key: Callable[[R], SortKey]) -> Callable[[list[R]], Callable[[R], SortKey]]:
    """For :func:`split_groups`: the one ``key`` for every group."""
    return lambda _group: key


def share_ranks(groups: list[list[R]], listed_by: Callable[[R], SortKey]) -> list[R]:
    """The rows in order, ranked: each group of level rows (sorted by ``listed_by``) shares the
    rank of its first row (1, 1, 3) and is flagged ``tied``."""
    ordered: list[R] = []
    position = 1
    for group in groups:
        group.sort(key=listed_by)
        for row in group:
            row.rank = position
            row.tied = len(group) > 1
        ordered.extend(group)
        position += len(group)
    return ordered


def rank_rows(rows: list[Row], tie_breaks: Sequence[str], meetings_for: MeetingsFor) -> list[Row]:
    """Order rows by the tie-breaks in turn; rows equal on all of them share a rank.

    Groups are refined one tie-break segment at a time. ``meetings_for(ids)`` returns the games
    of the given entries; it is called once per ``head_to_head`` segment, for all the groups
    still tied at that point together, so the common case needs no per-game data at all.
    """
    groups: list[list[Row]] = [rows]
    for segment in _segments(tie_breaks):
        tied = [g for g in groups if len(g) > 1]
        if not tied:
            break
        if segment == ("head_to_head",):
            meetings = list(meetings_for({row.entry_id for g in tied for row in g}))
            wins: dict[int, int] = {}
            for group in tied:
                wins.update(head_to_head_wins({row.entry_id for row in group}, meetings))
            key = _wins_key(wins)
        else:
            key = _plain_key(segment)
        groups = split_groups(groups, same_key(key))
    return share_ranks(groups, lambda r: (r.name.lower(), r.entry_id))


def standings_rows(
    *,
    totals: Iterable[EntryTotals],
    byes: Iterable[tuple[int, int]],
    round_scores: Mapping[int, RoundScores],
    tie_breaks: Sequence[str],
    bye_scoring: str = "average_winning",
    bye_points: int = 0,
    meetings_for: MeetingsFor = lambda ids: (),
    penalties: Mapping[int, int] | None = None,
) -> list[Row]:
    """Ranked standings: ``totals`` per entry, ``byes`` as (round number, entry id),
    ``penalties`` the points a director took off each entry (entry id -> a positive sum):
    subtracted from its points (not from a round's), shown beside them."""
    rows: dict[int, Row] = {
        t.entry_id: Row(
            entry_id=t.entry_id, name=t.name, active=t.active, points=t.points, games=t.games,
            wins=t.wins, hands_declared=t.hands_declared, hands_made=t.hands_made,
            hands_set=t.hands_set, highest_game=t.highest_game, per_round=dict(t.per_round),
            alternate=t.alternate,
        )
        for t in totals
    }
    bye_cache: dict[int, int] = {}
    for round_number, entry_id in byes:
        row = rows.get(entry_id)
        if row is None:
            continue
        if round_number not in bye_cache:
            bye_cache[round_number] = bye_score(
                scoring=bye_scoring, fixed_points=bye_points,
                scores=round_scores.get(round_number, RoundScores()),
            )
        value = bye_cache[round_number]
        row.byes += 1
        row.bye_points += value
        row.points += value
        row.per_round[round_number] = row.per_round.get(round_number, 0) + value
    for entry_id, penalty in (penalties or {}).items():
        row = rows.get(entry_id)
        if row is not None and penalty:
            row.penalty_points += penalty
            row.points -= penalty
    return rank_rows(list(rows.values()), tie_breaks, meetings_for)


def compute_standings(
    *,
    entries: Iterable[tuple[int, str, bool]],
    results: Sequence[Result],
    byes: Iterable[tuple[int, int]],
    tie_breaks: Sequence[str],
    bye_scoring: str = "average_winning",
    bye_points: int = 0,
) -> list[Row]:
    """Standings from raw results: ``entries`` are (id, name, active), ``byes`` (round, entry)."""
    totals, round_scores = totals_from_results(entries=entries, results=results)
    meetings = [Meeting(r.game_id, r.entry_id, r.side, r.won) for r in results]
    return standings_rows(
        totals=totals, byes=byes, round_scores=round_scores, tie_breaks=tie_breaks,
        bye_scoring=bye_scoring, bye_points=bye_points, meetings_for=lambda ids: meetings,
    )

