"""Incremental standings: the snapshot task's path, kept current from the games that changed.

The full compute (:func:`standings.selectors.standings_compute`) re-aggregates every seat result
of the event on each run. This module gives the same rows from what changed since its last run:

* a game's *fingerprint* is (highest seat result id, number of seat results). Seat results are
  never updated in place: scoring replaces a game's rows (delete, then insert with new ids from
  the sequence, always higher than the ones deleted), and deleting an entry deletes its rows, so
  any change to a game's results changes its fingerprint. One GROUP BY per run returns every
  game's fingerprint (one row per game, two integers); only the games whose fingerprint moved
  are read again, with the games that vanished dropped;
* the *state* of an event is what the last run read: each game's results with the fingerprint
  they were read with, each entry's results by game, the entries' ``EntryTotals`` (rebuilt only
  for entries of a changed game, or whose name, status or alternate flag changed) and each
  round's sums for bye averages (rebuilt only for rounds of a changed game). It lives in the
  worker process's memory, bounded by the entries kept (least recently used first out); a fresh
  process, an evicted event or a run that failed starts again from a full read. Nothing in it is
  trusted without its fingerprint, so two worker processes each keeping their own state, or a
  state several hands behind, still give exact rows;
* the entries (names, status, alternates), the byes, the director's penalties in force (one
  GROUP BY) and the event's settings are read on every run (small reads), so a rename, a withdrawal, a bye or a changed tie-break is seen exactly as
  by the full compute. Ranking, bye scores and tie-breaks are ``ranking.standings_rows``, the
  same pure code, with head-to-head meetings answered from the state instead of a query.

Pair events are computed in full (:func:`standings.selectors.standings_compute`): their rows
read game totals, cut winners and seats besides the seat results. The full compute stays the
safety net: ``compute_standings(full=True)``, the reconcile task and ``rebuild_standings``.
``tests/standings/test_incremental.py`` compares both after every step of random sequences of
entries, corrections, deletions, withdrawals, byes and stages.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import connection

from conduct.models import Penalty
from ranking import (
    EntryTotals,
    Meeting,
    RoundScores,
    Row,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
)
from scoring.models import SeatResult
from tournaments.models import Bye, Entry, Event, Round

from .rows import StandingRow, player_line

# What a worker process keeps: states of at most this many entries in all, least recently used
# first out (a state is ~1 MB for 250 players and 12 rounds; a club night's of 16, ~50 KB), so
# one run serving a night's sixty small events keeps them all, and eight championships still fit.
MAX_ENTRIES = 2000
# ... and of at most this many events.
MAX_EVENTS = 128
# Above this many changed games, the event's seat results are read in one pass instead of by id.
READ_ALL_ABOVE = 64


class Result(NamedTuple):
    """One seat result as the state keeps it."""

    id: int
    game_id: int
    entry_id: int
    round_number: int
    side: str
    points: int
    won: bool
    finished: bool
    hands_declared: int
    hands_made: int
    hands_set: int


FIELDS = tuple(Result._fields)
Fingerprint = tuple[int, int]


@dataclass
class EventState:
    """What the last run of one event read (see the module docstring)."""

    snapshot_id: int
    games: dict[int, tuple[Fingerprint, tuple[Result, ...]]] = field(default_factory=dict)
    by_entry: dict[int, dict[int, Result]] = field(default_factory=dict)
    by_round: dict[int, set[int]] = field(default_factory=dict)
    round_scores: dict[int, RoundScores] = field(default_factory=dict)
    totals: dict[int, EntryTotals] = field(default_factory=dict)
    # Each entry's last ranked row, as a dict and as JSON text around its rank (``_rows_out``):
    # a row equal to the last one but for its rank is neither converted nor serialised again
    # (one hand changes a few rows; ranks move for some more).
    texts: dict[int, tuple[Row, StandingRow, tuple[str, str]]] = field(default_factory=dict)


_STATES: dict[int, EventState] = {}


def forget(event_id: int | None = None) -> None:
    """Drop the kept state of one event (or of all): the next run reads everything."""
    if event_id is None:
        _STATES.clear()
    else:
        _STATES.pop(event_id, None)


# Plain SQL on the path of every hand: the ORM's compilation cost more than these queries.
FINGERPRINTS_SQL = (
    f"SELECT game_id, MAX(id), COUNT(*) FROM {SeatResult._meta.db_table} "  # noqa: S608
    "WHERE event_id = %s GROUP BY game_id"
)
RESULTS_SQL = (
    f"SELECT {', '.join(FIELDS)} FROM {SeatResult._meta.db_table} "  # noqa: S608
    "WHERE event_id = %s"
)
_PLAYER = Entry._meta.get_field("player").related_model._meta.db_table  # type: ignore[union-attr]
ENTRIES_SQL = (
    f"SELECT e.id, p.name, e.status, e.alternate FROM {Entry._meta.db_table} e "  # noqa: S608
    f"JOIN {_PLAYER} p ON p.id = e.player_id WHERE e.event_id = %s"
)
# The byes as (0, round number, entry id) and the penalties in force as (1, points, entry id):
# one statement (one round trip on the path of every hand).
BYES_SQL = (
    f"SELECT 0, r.number, b.entry_id FROM {Bye._meta.db_table} b "  # noqa: S608
    f"JOIN {Round._meta.db_table} r ON r.id = b.round_id WHERE r.event_id = %s "
    f"UNION ALL SELECT 1, SUM(p.points), p.entry_id FROM {Penalty._meta.db_table} p "
    "WHERE p.event_id = %s AND p.withdrawn_at IS NULL AND p.entry_id IS NOT NULL "
    "GROUP BY p.entry_id"
)


def _fingerprints(event: Event) -> dict[int, Fingerprint]:
    """Every game's fingerprint: one row per game with seat results."""
    with connection.cursor() as cursor:
        cursor.execute(FINGERPRINTS_SQL, [event.pk])
        return {game_id: (top, n) for game_id, top, n in cursor.fetchall()}


# A seat result as ``RESULTS_SQL`` answers it (the fields of :class:`Result`).
ResultRow = tuple[int, int, int, int, str, int, bool | int, bool | int, int, int, int]


def _results(event: Event, games: set[int]) -> list[ResultRow]:
    """The seat results of the given games (of all the event's games when there are many)."""
    if not games:
        return []
    sql, params = RESULTS_SQL, [event.pk]
    if len(games) <= READ_ALL_ABOVE:
        sql += f" AND game_id IN ({', '.join(['%s'] * len(games))})"
        params += sorted(games)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _refresh(state: EventState, event: Event) -> set[int]:
    """Bring the state's games up to date; returns the entries whose results changed."""
    fingerprints = _fingerprints(event)
    changed = {g for g, fp in fingerprints.items() if g not in state.games
               or state.games[g][0] != fp}
    gone = [g for g in state.games if g not in fingerprints]
    if not changed and not gone:
        return set()
    fetched: dict[int, list[Result]] = {}
    for id_, game_id, entry_id, number, side, points, won, finished, *hands in _results(
            event, changed):
        # (SQLite answers booleans as integers.)
        result = Result(id_, game_id, entry_id, number, side, points, bool(won), bool(finished),
                        *hands)
        if result.game_id in changed:
            fetched.setdefault(result.game_id, []).append(result)
    entries: set[int] = set()
    rounds: set[int] = set()
    for game_id in (*gone, *changed):
        old = state.games.pop(game_id, None)
        for result in old[1] if old else ():
            state.by_entry.get(result.entry_id, {}).pop(game_id, None)
            state.by_round.get(result.round_number, set()).discard(game_id)
            entries.add(result.entry_id)
            rounds.add(result.round_number)
    for game_id, results in fetched.items():
        # The fingerprint of the rows actually read (they may be newer than the GROUP BY's).
        fp = (max(r.id for r in results), len(results))
        state.games[game_id] = (fp, tuple(results))
        for result in results:
            state.by_entry.setdefault(result.entry_id, {})[game_id] = result
            state.by_round.setdefault(result.round_number, set()).add(game_id)
            entries.add(result.entry_id)
            rounds.add(result.round_number)
    for number in rounds:
        scores = _round_scores(state, number)
        if scores is None:
            state.round_scores.pop(number, None)
        else:
            state.round_scores[number] = scores
    return entries


def _round_scores(state: EventState, number: int) -> RoundScores | None:
    """A round's finished results summed as ``standings.selectors._round_scores`` does (None
    when the round has no finished result: that query returns no row for it)."""
    wt = wc = at = ac = 0
    for game_id in state.by_round.get(number, ()):
        for r in state.games[game_id][1]:
            if not r.finished:
                continue
            at += r.points
            ac += 1
            if r.won:
                wt += r.points
                wc += 1
    return RoundScores(wt, wc, at, ac) if ac else None


def _entry_totals(entry_id: int, name: str, active: bool, alternate: bool,
                  results: Iterable[Result]) -> EntryTotals:
    """One entry's totals as ``standings.selectors._entry_totals`` aggregates them."""
    results = list(results)
    if not results:
        return EntryTotals(entry_id=entry_id, name=name, active=active, alternate=alternate)
    finished = [r for r in results if r.finished]
    return EntryTotals(
        entry_id=entry_id, name=name, active=active,
        points=sum(r.points for r in results), games=len(finished),
        wins=sum(1 for r in finished if r.won),
        hands_declared=sum(r.hands_declared for r in results),
        hands_made=sum(r.hands_made for r in results),
        hands_set=sum(r.hands_set for r in results),
        highest_game=max((r.points for r in finished), default=None),
        per_round={r.round_number: r.points for r in results},
        alternate=alternate,
    )


def _totals(state: EventState, event: Event, changed: set[int]) -> list[EntryTotals]:
    """Every entry's totals: kept ones reused, the changed ones rebuilt from their results."""
    totals: dict[int, EntryTotals] = {}
    with connection.cursor() as cursor:
        cursor.execute(ENTRIES_SQL, [event.pk])
        entries = cursor.fetchall()
    for pk, name, status, alternate in entries:
        active = status == Entry.Status.ACTIVE
        alternate = bool(alternate)  # (SQLite answers booleans as integers.)
        kept = state.totals.get(pk)
        if (kept is None or pk in changed or kept.name != name or kept.active != active
                or kept.alternate != alternate):
            kept = _entry_totals(pk, name, active, alternate,
                                 state.by_entry.get(pk, {}).values())
        totals[pk] = kept
    state.totals = totals
    return list(totals.values())


def _state_for(event: Event, snapshot_id: int) -> EventState:
    state = _STATES.pop(event.pk, None)
    if state is None or state.snapshot_id != snapshot_id:
        state = EventState(snapshot_id=snapshot_id)
    return state


# A row's rank (and whether it is shared) moves whenever an entry passes it; the rest of the row
# only when its own results do. Its JSON text is kept as the text before and after these two
# keys, which ``sort_keys`` puts next to each other.
_KEYS = sorted(player_line(Row(entry_id=0, name="")))
if _KEYS[_KEYS.index("rank") + 1] != "tied":
    raise RuntimeError("standings rows: 'rank' and 'tied' must be adjacent in sorted key order")
_BEFORE = frozenset(_KEYS[:_KEYS.index("rank")])
_AFTER = frozenset(_KEYS[_KEYS.index("tied") + 1:])


def _dumps(data: Mapping[str, object]) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _row_parts(data: StandingRow) -> tuple[str, str]:
    """The row's JSON text before ``"rank"`` and after ``"tied"`` (without the braces)."""
    return (_dumps({k: v for k, v in data.items() if k in _BEFORE})[1:-1],
            _dumps({k: v for k, v in data.items() if k in _AFTER})[1:-1])


def _rows_out(state: EventState, rows: list[Row]) -> tuple[list[StandingRow], str]:
    """``[player_line(row) for row in rows]`` and their ``json.dumps(..., separators=(",", ":"),
    sort_keys=True)``, reusing the dict and text of a row equal to the entry's row of the last
    run but for its rank (a ``Row`` is compared field by field; equal rows give equal dicts
    and text)."""
    texts: dict[int, tuple[Row, StandingRow, tuple[str, str]]] = {}
    dicts: list[StandingRow] = []
    parts = []
    for row in rows:
        kept = state.texts.get(row.entry_id)
        if kept is not None:
            # The kept row is this state's own: it takes the new rank before the comparison.
            kept[0].rank, kept[0].tied = row.rank, row.tied
        if kept is None or kept[0] != row:
            data = player_line(row)
            kept = (row, data, _row_parts(data))
        texts[row.entry_id] = kept
        # A copy: callers may change the rows they are given, the kept one stays as it was.
        dicts.append({**kept[1], "rank": row.rank, "tied": row.tied,
                      "per_round": dict(kept[1]["per_round"])})
        before, after = kept[2]
        parts.append(f'{{{before},"rank":{row.rank:d},"tied":{"true" if row.tied else "false"},'
                     f'{after}}}')
    state.texts = texts
    return dicts, f"[{','.join(parts)}]"


def standings_rows_incremental(
    *, event: Event, snapshot_id: int
) -> tuple[list[StandingRow], list[dict[str, str]], str] | None:
    """The event's ranked rows, tie-break labels and rows as JSON text over every round, equal
    to ``standings_compute(event=event)`` (and the text to ``json.dumps(rows,
    separators=(",", ":"), sort_keys=True)``); None for a pair event (computed in full by the
    caller).

    ``snapshot_id`` ties the kept state to the event's snapshot row (a state is never reused for
    another event that got the same id after a delete)."""
    if event.is_pairs:
        return None
    # Taken out while it is updated: a run that raises leaves no half-updated state behind.
    state = _state_for(event, snapshot_id)
    changed = _refresh(state, event)
    totals = _totals(state, event, changed)
    with connection.cursor() as cursor:
        cursor.execute(BYES_SQL, [event.pk, event.pk])
        found = cursor.fetchall()
    byes = [(number, entry_id) for kind, number, entry_id in found if kind == 0]
    penalties = {entry_id: int(total) for kind, total, entry_id in found if kind == 1}
    tie_breaks = tie_breaks_in_force(event.tie_breaks, partnership=event.partnership)

    def meetings_for(ids: set[int]) -> list[Meeting]:
        return [Meeting(r.game_id, r.entry_id, r.side, r.won)
                for entry_id in ids for r in state.by_entry.get(entry_id, {}).values()
                if r.finished]

    rows = standings_rows(
        totals=totals, byes=byes, round_scores=state.round_scores, tie_breaks=tie_breaks,
        bye_scoring=event.bye_scoring, bye_points=event.bye_points, meetings_for=meetings_for,
        penalties=penalties,
    )
    dicts, text = _rows_out(state, rows)
    _STATES[event.pk] = state
    kept = sum(len(kept.totals) for kept in _STATES.values())
    while len(_STATES) > 1 and (len(_STATES) > MAX_EVENTS or kept > MAX_ENTRIES):
        kept -= len(_STATES.pop(next(iter(_STATES))).totals)
    return dicts, tie_break_labels(tie_breaks), text
