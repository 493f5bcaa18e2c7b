"""Seating a club-night round at tables of any size with teams: two players head to head,
five each for themselves, six in two teams of three, eight in four teams of two (pure Python).

The ruleset says the shape (``formats.Situation``): the seats of a table in clockwise order and
which seats play together (``teams``, as seat indexes: six-handed ``((0, 2, 4), (1, 3, 5))``,
eight-handed ``((0, 4), (1, 5), (2, 6), (3, 7))``, each alone ``((0,), (1,), ...)``). The
partnership game at tables of four keeps its whist designs and rotation
(``pairing.rotation``), individuals at tables of three theirs (``pairing.threes``); this module
seats every other shape.

* **byes** — ``N % k`` players sit out a round; nobody sits out a second time before every
  present player has once (counted over the history; fixed players never sit out).
* **cost** — a round is judged by who meets whom again: a repeat *teammate* costs
  ``TEAMMATE_WEIGHT`` × the times they already played together, a repeat *opponent* (at one table,
  not on one team) the times they already met. A seeded local search swaps players between seats
  of different tables and teams to lower it, from a few random starts; the best is kept.
  Deterministic for a seed.
* **head to head** — at tables of two, while the same players come to every round and nobody is
  fixed to a table, the night follows the circle method (the round robin's "polygon"): the
  first round, seated as above, fixes an order; each later round keeps the first player in
  place and turns the others one step, so everyone meets everyone exactly once in ``n − 1``
  rounds (``n`` with an odd field, each sitting out once). The search alone, round by round,
  can corner itself near the end: over ``n − 1`` rounds of 8 to 12 players (100 seeds each) it
  left one or two repeat meetings in 19 to 29 nights in 100; the circle leaves none. A round
  that leaves the circle (an arrival, a leaver, a director's swap) and every round after the
  circle is seated by the search.
* **season** — with the club's earlier nights (``pairing.season``), teammates of an earlier
  night cost the pair's season weight divided by ``SEASON_SCALE`` (5 for last week's, less
  for older nights): more than a repeat opponent, less than a repeat teammate of the evening.
  Without a season nothing changes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

from rules_engine.i18n import Text, gettext_noop

from .rotation.model import Orderable, RotationError, RoundPlan

P = TypeVar("P", bound=Orderable)

TEAMMATE_WEIGHT = 10
SEASON_SCALE = 8
RESTARTS = 3
SWAPS_PER_PLAYER = 60


def _key(a: P, b: P) -> tuple[P, P]:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class TablesQuality:
    """How often players met again over a night: teammates and opponents beyond their first
    meeting, the most times any two played together, and byes per player (most − fewest)."""

    repeat_teammates: int
    repeat_opponents: int
    max_together: int
    bye_spread: int


def _meetings(rounds: Sequence[RoundPlan[P]], teams: Sequence[Sequence[int]]
              ) -> tuple[Counter[tuple[P, P]], Counter[tuple[P, P]]]:
    mates: Counter[tuple[P, P]] = Counter()
    opponents: Counter[tuple[P, P]] = Counter()
    for plan in rounds:
        for table in plan.tables:
            team_of = {i: t for t, team in enumerate(teams) for i in team}
            for i, j in combinations(range(len(table)), 2):
                pair = _key(table[i], table[j])
                if team_of.get(i, -1 - i) == team_of.get(j, -2 - j):
                    mates[pair] += 1
                else:
                    opponents[pair] += 1
    return mates, opponents


def measure(rounds: Sequence[RoundPlan[P]], teams: Sequence[Sequence[int]]) -> TablesQuality:
    """Repeat teammates and opponents over ``rounds`` and how evenly byes went round."""
    mates, opponents = _meetings(rounds, teams)
    byes: Counter[P] = Counter()
    everyone: set[P] = set()
    for plan in rounds:
        byes.update(plan.byes)
        everyone |= set(plan.players())
    counts = [byes[p] for p in everyone] or [0]
    return TablesQuality(
        repeat_teammates=sum(n - 1 for n in mates.values() if n > 1),
        repeat_opponents=sum(n - 1 for n in opponents.values() if n > 1),
        max_together=max(mates.values(), default=0),
        bye_spread=max(counts) - min(counts),
    )


def table_round(
    players: Sequence[P],
    history: Sequence[RoundPlan[P]] = (),
    *,
    table_size: int,
    teams: Sequence[Sequence[int]],
    seed: int = 0,
    fixed_tables: Mapping[P, int] | None = None,
    season: Mapping[frozenset[P], int] | None = None,
) -> RoundPlan[P]:
    """The next round: ``len(players) // table_size`` tables in seat order, the rest on byes.
    ``season`` is what playing together again costs for the club's earlier nights (pair ->
    weight, ``pairing.season.season_weights``)."""
    if not 2 <= table_size <= 8:
        raise RotationError("table_size", Text(gettext_noop("A table seats 2 to 8 players here, not %(table_size)s."), table_size=table_size))
    if sorted(i for team in teams for i in team) != list(range(table_size)):
        raise RotationError("teams", Text(gettext_noop("The teams must share out the table's seats.")))
    present = list(dict.fromkeys(players))
    if len(present) < table_size:
        raise RotationError("players", Text(gettext_noop("A round needs at least %(table_size)s players; %(count)s are here."), table_size=table_size, count=len(present)), code="too_few")
    fixed = dict(fixed_tables or {})
    tables = len(present) // table_size
    for player, number in fixed.items():
        if player in present and not 1 <= number <= tables:
            raise RotationError("fixed_tables", Text(gettext_noop("Table %(number)s is not played this round (%(tables)s tables)."), number=number, tables=tables))
    rng = random.Random(seed * 7919 + len(history))
    # byes: the fewest so far first (fixed players never), the order among equals drawn
    had: Counter[P] = Counter(p for plan in history for p in plan.byes)
    free = [p for p in present if p not in fixed]
    rng.shuffle(free)
    free.sort(key=lambda p: had[p])
    resting = sorted(free[:len(present) % table_size]) if len(present) % table_size else []
    seated = [p for p in present if p not in set(resting)]
    if table_size == 2 and not fixed:
        turned = _circle_round(present, history, rng)
        if turned is not None:
            return turned
    mates, opponents = _meetings(history, teams)
    extra: Counter[tuple[P, P]] = Counter()
    for pair, weight in (season or {}).items():
        if len(pair) == 2 and weight > 0:
            a, b = pair
            # an evening's repeat teammate costs TEAMMATE_WEIGHT (10); last week's about 5
            extra[_key(a, b)] = (weight + SEASON_SCALE - 1) // SEASON_SCALE
    team_of = {i: t for t, team in enumerate(teams) for i in team}

    seat_pairs = list(combinations(range(table_size), 2))

    def table_cost(table: list[P]) -> int:
        total = 0
        for i, j in seat_pairs:
            pair = _key(table[i], table[j])
            total += (TEAMMATE_WEIGHT * mates[pair] + extra[pair] if team_of[i] == team_of[j]
                      else opponents[pair])
        return total

    best: list[list[P]] | None = None
    best_cost = 0
    for _ in range(RESTARTS):
        layout = _start(seated, fixed, tables, table_size, rng)
        costs = [table_cost(t) for t in layout]
        current = sum(costs)
        movable = [(t, i) for t in range(tables) for i in range(table_size)
                   if layout[t][i] not in fixed]
        for _ in range(SWAPS_PER_PLAYER * len(seated)):
            if current == 0 or len(movable) < 2:
                break
            (t1, i1), (t2, i2) = rng.sample(movable, 2)
            if t1 == t2 and team_of[i1] == team_of[i2]:
                continue
            a, b = layout[t1][i1], layout[t2][i2]
            if a in fixed or b in fixed:
                continue
            layout[t1][i1], layout[t2][i2] = b, a
            one = table_cost(layout[t1])
            two = table_cost(layout[t2]) if t2 != t1 else one
            delta = one - costs[t1] + (two - costs[t2] if t2 != t1 else 0)
            if delta <= 0:
                costs[t1], costs[t2] = one, two
                current += delta
            else:
                layout[t1][i1], layout[t2][i2] = a, b
        if best is None or current < best_cost:
            best, best_cost = [list(t) for t in layout], current
    assert best is not None
    return RoundPlan(tables=tuple(tuple(t) for t in best), byes=tuple(resting))


def _start(seated: list[P], fixed: Mapping[P, int], tables: int, size: int,
           rng: random.Random) -> list[list[P]]:
    """A random layout with every fixed player at their table."""
    layout: list[list[P]] = [[] for _ in range(tables)]
    for player in seated:
        if player in fixed:
            layout[fixed[player] - 1].append(player)
    rest = [p for p in seated if p not in fixed]
    rng.shuffle(rest)
    for table in layout:
        if len(table) > size:
            raise RotationError("fixed_tables", Text(gettext_noop("More players are fixed to a table than it seats.")))
        while len(table) < size:
            table.append(rest.pop())
        rng.shuffle(table)
    return layout


def _circle_order(first: RoundPlan[P]) -> list[P | None] | None:
    """The circle a head-to-head first round starts: its tables' first seats in order, the
    player on bye facing the empty place (None) in the middle, the second seats back round; None
    when the round is not head to head."""
    if any(len(table) != 2 for table in first.tables) or len(first.byes) > 1:
        return None
    middle: list[P | None] = [first.byes[0], None] if first.byes else []
    return [*(t[0] for t in first.tables), *middle, *(t[1] for t in reversed(first.tables))]


def _circle_round(present: Sequence[P], history: Sequence[RoundPlan[P]],
                  rng: random.Random) -> RoundPlan[P] | None:
    """The next round of the circle the night's first round started, while every round so far
    seated exactly the players present and followed it; None otherwise, or once everyone has
    met everyone (the search seats the round)."""
    if not history or any(set(plan.players()) != set(present) for plan in history):
        return None
    order = _circle_order(history[0])
    if order is None or len(history) >= len(order) - 1:
        return None
    m = len(order)
    for number in range(len(history) + 1):
        pairs = [(order[i], order[m - 1 - i]) for i in range(m // 2)]
        tables = [(a, b) for a, b in pairs if a is not None and b is not None]
        byes = [p for pair in pairs for p in pair if p is not None and None in pair]
        if number == len(history):
            rng.shuffle(tables)
            return RoundPlan(tables=tuple(tuple(rng.sample(t, 2)) for t in tables),
                             byes=tuple(byes))
        past = history[number]
        if ({frozenset(t) for t in past.tables} != {frozenset(t) for t in tables}
                or set(past.byes) != set(byes)):
            return None
        # the first place stays, the others turn one step
        order = [order[0], order[-1], *order[1:-1]]
    return None
