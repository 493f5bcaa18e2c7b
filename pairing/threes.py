"""Individual play at tables of three (three-handed and cutthroat pinochle): seating a club-night
round and measuring a night (pure Python).

Vocabulary, as this module uses it:

* **individual play** — every player is their own side: no partners. Everyone else at one's
  table is an **opponent**.
* **table** — three players in seats N, E, S (clockwise), or four in N, E, S, W where the
  ruleset lets a table seat four: the dealer then sits out each hand in turn, so a player at a
  table of four sits out a quarter of the hands but it is still individual play. A table is a
  tuple in seat order; table numbers are 1-based.
* **table sizes** — the ruleset's choice: ``(3,)`` tables of three only, ``N % 3`` players sit
  out (a **bye**); ``(3, 4)`` as many tables of four as needed so nobody waits (``N % 3`` tables
  of four: 10 = 3+3+4, 11 = 3+4+4; 5 = one table of four and one bye; 4 = one table of four);
  ``(4,)`` individuals at tables of four only (``N % 4`` byes).
* **repeat** — every meeting of two players at one table beyond their first.
* **fairness** — byes: nobody sits out a second time before every present, non-fixed player has
  sat out once (counted over the history, so arrivals and leavers are handled as the 4-seat club
  night handles them); tables of four likewise: nobody sits at a table of four a second time
  before everyone has once. Both are invariants of the search, not hopes (see ``_swappable``).
  Players pinned to a table (``fixed_tables``) never sit out and sit at whatever size their
  table is; tables of four are the highest-numbered tables.

The search: the byes and the fours are chosen fairly, everyone is dealt to the tables at random,
then a seeded local search (simulated annealing) swaps players between tables, or with the bench,
to lower the round's cost ``Σ over pairs at a table of (0 if they never met, else 10 + times
met)``: a new meeting is free, a repeat costs, and a third meeting more than a second. The best of
a few restarts is kept. With tables of four (and up to 64 players) the search looks one round
ahead: six candidate seatings are each followed by the next round seated greedily, and the one
with the lowest cost over both rounds is kept, so this round does not leave the next round's fair
tables of four only players who have already met. Seat order within a table is drawn (seeded),
so nobody is always North.

Quality (``measure``): repeats against the counting lower bound — a player seated ``s_k`` times at
tables of size ``k`` meets ``Σ s_k (k − 1)`` opponents among the ``n − 1`` others, so at least
``Σ s_k (k − 1) − (n − 1)`` of those meetings are repeats, each repeat seen by both players.

With tables of four and few players that bound cannot be reached, because the fairness rule
picks who sits at a table of four: after a round of 10 players (3 + 3 + 4) the next table of four
must be four of the six who sat at the two tables of three, so two pairs meet again, and the four
who sat together must share the two tables of three, two more. An exhaustive search over every
fair night (tests/pairing/test_threes.py checks the 3-round case) gives the true least repeats
against the bound: 10 players, 2 rounds 4 (bound 0), 3 rounds 8 (bound 0), 4 rounds 11 (bound
3); 7 players, 4 rounds 17 (bound 15); 8 players, 4 rounds 20 (bound 20). The search reaches
these but for 10 players over 4 rounds (12); 11 players over 4 rounds: 12 both (bound 5). For larger nights a whole-night search (annealing every
round at once, fairness kept) found 11 for 17 players over 6 rounds (the search: 13), 7 for 19
over 8 (9), 18 for 20 over 8 (the search: 15, bound 2), 4 for 23 over 8 (5).

Measured (seed 3, tests/pairing/test_threes.py, 3 to 40 players over 4, 6 and 8 rounds): at
tables of three only, at most 4 repeats above the counting bound (0 for most sizes; 9, 15 and
21 players meet everyone once when there are rounds enough, as the Kirkman designs do); with
tables of four, at most 15 above it for 23 players or fewer (20 over 8 rounds, where the bound
is far from reachable, see above) and at most 3 from 24 players on. Hence ``repeat_margin``: 5
at tables of three, and with tables of four 16 below 24 players, 5 from 24 on; neither grows
with the players or the rounds.

API (player ids: hashable, orderable values — the Django side passes ints)::

    layout(n, table_sizes) -> (tables_of_three, tables_of_four, byes)
    threes_round(players, history, *, table_sizes=(3,), seed=0, fixed_tables=None) -> RoundPlan
    measure(rounds) -> ThreesQuality

Bad input raises :class:`pairing.rotation.RotationError` naming the field (``players``,
``history``, ``fixed_tables``, ``table_sizes``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic

from rules_engine.i18n import Text, gettext_noop

from .rotation.model import P, RotationError, RoundPlan
from .rotation.planner import _check_players

MIN_PLAYERS = 3
MAX_PLAYERS = 512
TABLE_SIZES = ((3,), (3, 4), (4,))
RESTARTS = 3
# Below this many players, tables of four force repeats the counting bound ignores.
SMALL_NIGHT = 24
# Cost of a pair at one table: free when they never met, else a repeat (10) plus the times met.
REPEAT = 10
# Look one round ahead for nights with tables of four of up to LOOK_AHEAD_PLAYERS: CANDIDATES seatings of this round
# are each followed by the next round seated greedily (best of ROLL_RESTARTS), and the seating
# with the lowest cost over both rounds is kept.
CANDIDATES = 6
ROLL_RESTARTS = 2
LOOK_AHEAD_PLAYERS = 64


def repeat_margin(players: int, rounds: int, table_sizes: Sequence[int] = (3,)) -> int:
    """The repeats above the counting bound (``measure``) the tests allow for a night of
    ``rounds``: 5 at tables of three; with tables of four, 16 for fewer than 24 players (where
    the fair turns at the tables of four force meetings the counting bound ignores, see the
    module docstring), 5 from 24 players on. It grows with neither the players nor the rounds."""
    del rounds  # the margin is the same for every length of night
    if 4 in table_sizes and players < SMALL_NIGHT:
        return 16
    return 5


def _check_sizes(table_sizes: Sequence[int]) -> tuple[int, ...]:
    sizes = tuple(sorted(set(table_sizes))) if isinstance(table_sizes, Sequence) else ()
    if sizes not in TABLE_SIZES:
        raise RotationError(
            "table_sizes",
            Text(gettext_noop("Tables seat three, three or four, or four individuals: give (3,), (3, 4) or (4,).")),
            "bad_table_sizes",
        )
    return sizes


def layout(n: int, table_sizes: Sequence[int] = (3,)) -> tuple[int, int, int]:
    """How ``n`` players sit: (tables of three, tables of four, byes); fewest byes first.

    ``(3,)``: ``n // 3`` tables, ``n % 3`` byes. ``(3, 4)``: ``n % 3`` tables of four and no bye
    (5 players: one table of four and one bye). ``(4,)``: ``n // 4`` tables, ``n % 4`` byes."""
    sizes = _check_sizes(table_sizes)
    if sizes == (4,):
        return 0, n // 4, n % 4
    if sizes == (3,):
        return n // 3, 0, n % 3
    fours = n % 3
    if 4 * fours > n:  # only 5 players: one table of four, one bye
        return 0, 1, n - 4
    return (n - 4 * fours) // 3, fours, 0


@dataclass(frozen=True)
class ThreesQuality(Generic[P]):
    """How good a night at tables of three (or four, individually) is: see the module docstring
    for the repeats and their lower bound."""

    repeat_opponents: int
    opponents_lower_bound: int
    max_met: int  # most times any one pair met
    byes_per_player: dict[P, int] = field(default_factory=dict)
    max_byes: int = 0
    min_byes: int = 0
    fours_per_player: dict[P, int] = field(default_factory=dict)
    max_fours: int = 0
    min_fours: int = 0
    rounds: int = 0
    players: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "players": self.players,
            "repeat_opponents": self.repeat_opponents,
            "opponents_lower_bound": self.opponents_lower_bound,
            "max_met": self.max_met,
            "byes_per_player": {str(p): n for p, n in sorted(self.byes_per_player.items())},
            "max_byes": self.max_byes,
            "min_byes": self.min_byes,
            "fours_per_player": {str(p): n for p, n in sorted(self.fours_per_player.items())},
            "max_fours": self.max_fours,
            "min_fours": self.min_fours,
        }


def measure(rounds: Sequence[RoundPlan[P]]) -> ThreesQuality[P]:
    """Repeat meetings, their lower bound, byes and tables of four per player over ``rounds``."""
    met: Counter[tuple[P, P]] = Counter()
    meetings: Counter[P] = Counter()
    byes: Counter[P] = Counter()
    fours: Counter[P] = Counter()
    everyone: set[P] = set()
    for plan in rounds:
        for table in plan.tables:
            for i, a in enumerate(table):
                meetings[a] += len(table) - 1
                if len(table) == 4:
                    fours[a] += 1
                for b in table[i + 1:]:
                    met[(a, b) if a < b else (b, a)] += 1
        byes.update(plan.byes)
        everyone.update(plan.players())
    others = max(len(everyone) - 1, 0)
    excess = sum(max(0, m - others) for m in meetings.values())
    per_bye = {p: byes.get(p, 0) for p in sorted(everyone)}
    per_four = {p: fours.get(p, 0) for p in sorted(everyone)}
    return ThreesQuality(
        repeat_opponents=sum(c - 1 for c in met.values() if c > 1),
        opponents_lower_bound=(excess + 1) // 2,
        max_met=max(met.values(), default=0),
        byes_per_player=per_bye,
        max_byes=max(per_bye.values(), default=0),
        min_byes=min(per_bye.values(), default=0),
        fours_per_player=per_four,
        max_fours=max(per_four.values(), default=0),
        min_fours=min(per_four.values(), default=0),
        rounds=len(rounds),
        players=len(everyone),
    )


def _check_history(history: Sequence[RoundPlan[P]]) -> None:
    if not isinstance(history, Sequence):
        raise RotationError("history", Text(gettext_noop("Give the history as a list of rounds.")), "not_a_list")
    for number, plan in enumerate(history, start=1):
        if not isinstance(plan, RoundPlan):
            raise RotationError("history", Text(gettext_noop("Round %(number)s is not a RoundPlan."), number=number), "bad_round")
        everyone = [p for table in plan.tables for p in table] + list(plan.byes)
        if any(len(table) not in (3, 4) for table in plan.tables):
            raise RotationError(
                "history", Text(gettext_noop("Round %(number)s has a table without 3 or 4 players."), number=number), "bad_table"
            )
        try:
            if len(set(everyone)) != len(everyone):
                raise RotationError(
                    "history", Text(gettext_noop("Round %(number)s lists a player twice."), number=number), "duplicate_player"
                )
        except TypeError as exc:
            raise RotationError("history", Text(gettext_noop("Round %(number)s has a bad player id."), number=number), "bad_id") from exc


def _check_fixed(present: Sequence[P], fixed_tables: Mapping[P, int],
                 sizes: Sequence[int]) -> dict[P, int]:
    if not isinstance(fixed_tables, Mapping):
        raise RotationError(
            "fixed_tables", Text(gettext_noop("Give fixed tables as player → table number.")), "bad_fixed"
        )
    here = set(present)
    per_table: dict[int, list[P]] = {}
    out: dict[P, int] = {}
    for player, number in fixed_tables.items():
        if player not in here:
            raise RotationError(
                "fixed_tables",
                Text(gettext_noop("Player %(player)s is fixed to table %(number)s but is not present this round."), player=player, number=number),
                "not_present",
            )
        if isinstance(number, bool) or not isinstance(number, int):
            raise RotationError(
                "fixed_tables", Text(gettext_noop("Table number for player %(player)s must be a whole number."), player=player),
                "bad_table",
            )
        if not 1 <= number <= len(sizes):
            raise RotationError(
                "fixed_tables",
                Text(gettext_noop("Player %(player)s is fixed to table %(number)s, but this round has tables 1 to %(count)s only."), player=player, number=number, count=len(sizes)), "no_such_table",
            )
        per_table.setdefault(number, []).append(player)
        if len(per_table[number]) > sizes[number - 1]:
            raise RotationError(
                "fixed_tables",
                Text(gettext_noop("More than %(most)s players are fixed to table %(number)s: "
                                  "%(players)s."), most=sizes[number - 1], number=number,
                     players=", ".join(map(str, sorted(per_table[number])))),
                "table_full",
            )
        out[player] = number - 1
    return out


def _fair_pick(candidates: Sequence[int], count: int, level_of: Sequence[int],
               rng: random.Random) -> list[int]:
    """``count`` of ``candidates`` with the fewest so far (``level_of``), ties drawn."""
    if count <= 0:
        return []
    ordered = sorted(candidates, key=lambda p: (level_of[p], p))
    level = level_of[ordered[count - 1]]
    forced = [p for p in ordered if level_of[p] < level]
    pool = [p for p in ordered if level_of[p] == level]
    return forced + rng.sample(pool, count - len(forced))


class _Round:
    """One round's search over player indexes 0..n−1 with the history's counts."""

    def __init__(self, n: int, met: list[int], byes: list[int], fours: list[int],
                 fixed: Mapping[int, int], sizes: Sequence[int], rng: random.Random) -> None:
        self.n = n
        self.met = met
        self.byes = byes
        self.fours = fours
        self.fixed = fixed
        self.sizes = list(sizes)
        self.rng = rng

    def cost(self, table: Sequence[int]) -> int:
        n, met = self.n, self.met
        total = 0
        for i in range(len(table)):
            row = table[i] * n
            for j in range(i + 1, len(table)):
                c = met[row + table[j]]
                if c:
                    total += REPEAT + c
        return total

    def start(self, present: Sequence[int], bye_count: int) -> tuple[list[list[int]], list[int]]:
        """A fair random start: byes, then the seats at tables of four, then the rest."""
        rng = self.rng
        free = [p for p in present if p not in self.fixed]
        bench = _fair_pick(free, bye_count, self.byes, rng)
        benched = set(bench)
        tables: list[list[int]] = [[] for _ in self.sizes]
        for p in sorted(self.fixed):
            tables[self.fixed[p]].append(p)
        four_seats = sum(s - len(t) for s, t in zip(self.sizes, tables, strict=True) if s == 4)
        seated = [p for p in free if p not in benched]
        to_fours = _fair_pick(seated, four_seats, self.fours, rng)
        chosen = set(to_fours)
        rest = [p for p in seated if p not in chosen]
        rng.shuffle(rest)
        fours_it, rest_it = iter(to_fours), iter(rest)
        for size, row in zip(self.sizes, tables, strict=True):
            source = fours_it if size == 4 else rest_it
            while len(row) < size:
                row.append(next(source))
        return tables, bench

    def _swappable(self, p: int, p_four: bool, q: int, q_four: bool, q_bench: bool) -> bool:
        """A swap that keeps the round fair: the multiset of bye counts on the bench and of
        fours counts at tables of four stays the same."""
        if p in self.fixed or q in self.fixed:
            return False
        if q_bench and self.byes[p] != self.byes[q]:
            return False
        return p_four == q_four or self.fours[p] == self.fours[q]

    def after(self, tables: Sequence[Sequence[int]], bench: Sequence[int]) -> _Round:
        """This search's counts once ``tables`` and ``bench`` are played."""
        n = self.n
        met, byes, fours = self.met[:], self.byes[:], self.fours[:]
        for row in tables:
            for i, a in enumerate(row):
                if len(row) == 4:
                    fours[a] += 1
                for b in row[i + 1:]:
                    met[a * n + b] += 1
                    met[b * n + a] += 1
        for p in bench:
            byes[p] += 1
        return _Round(n, met, byes, fours, self.fixed, self.sizes, self.rng)

    def rollout(self, tables: Sequence[Sequence[int]], bench: Sequence[int],
                present: Sequence[int], bye_count: int, iterations: int) -> int:
        """The cost of the next round, seated greedily after ``tables`` and ``bench`` (the same
        players present): a seating that leaves the next round's fair tables of four only
        players who have met scores worse than one that does not, at the same cost now."""
        state = self.after(tables, bench)
        best = -1
        for _ in range(ROLL_RESTARTS):
            start, resting = state.start(present, bye_count)
            cost = state.anneal(start, resting, iterations)
            if best < 0 or cost < best:
                best = cost
            if cost == 0:
                break
        return best

    def anneal(self, tables: list[list[int]], bench: list[int], iterations: int) -> int:
        rng = self.rng
        rand, randrange = rng.random, rng.randrange
        costs = [self.cost(t) for t in tables]
        total = sum(costs)
        T = len(tables)
        if total == 0 or iterations <= 0 or (T < 2 and not bench):
            return total
        temp = 1.5 * REPEAT
        cool = math.exp(math.log(0.02 / 1.5) / iterations)
        for _ in range(iterations):
            temp *= cool
            t1 = randrange(T)
            if costs[t1] == 0:
                t1 = randrange(T)
            r1 = tables[t1]
            s1 = randrange(len(r1))
            p = r1[s1]
            p_four = len(r1) == 4
            if bench and (T < 2 or rand() < 0.15):
                bi = randrange(len(bench))
                q = bench[bi]
                if not self._swappable(p, p_four, q, False, True):
                    continue
                r1[s1] = q
                new = self.cost(r1)
                delta = new - costs[t1]
                if delta <= 0 or rand() < math.exp(-delta / temp):
                    bench[bi] = p
                    costs[t1] = new
                    total += delta
                else:
                    r1[s1] = p
            else:
                t2 = randrange(T - 1)
                if t2 >= t1:
                    t2 += 1
                r2 = tables[t2]
                s2 = randrange(len(r2))
                q = r2[s2]
                if not self._swappable(p, p_four, q, len(r2) == 4, False):
                    continue
                r1[s1], r2[s2] = q, p
                n1, n2 = self.cost(r1), self.cost(r2)
                delta = n1 + n2 - costs[t1] - costs[t2]
                if delta <= 0 or rand() < math.exp(-delta / temp):
                    costs[t1], costs[t2] = n1, n2
                    total += delta
                else:
                    r1[s1], r2[s2] = p, q
            if total == 0:
                break
        return total


def threes_round(
    players: Sequence[P],
    history: Sequence[RoundPlan[P]] = (),
    *,
    table_sizes: Sequence[int] = (3,),
    seed: int = 0,
    fixed_tables: Mapping[P, int] | None = None,
    effort: float = 1.0,
) -> RoundPlan[P]:
    """The next round of individuals at tables of three (and four, see ``layout``).

    ``history`` may mention players who have left; arrivals simply appear in ``players``. Byes
    and seats at tables of four go to the present, non-fixed players who had the fewest so far;
    opponents repeat as little as the search finds. Deterministic for a seed and input. Raises
    :class:`RotationError` on malformed or impossible input; never returns a partial round."""
    sizes = _check_sizes(table_sizes)
    present = _check_players_threes(players)
    _check_history(history)
    threes, fours, bye_count = layout(len(present), sizes)
    if threes + fours == 0:
        raise RotationError("players", Text(gettext_noop("At least 4 players are needed for a table of four; %(count)s present."), count=len(present)), "too_few_players")
    seats = [3] * threes + [4] * fours
    fixed = _check_fixed(present, fixed_tables or {}, seats)
    everyone = set(present)
    for plan in history:
        everyone.update(plan.players())
    try:
        labels = sorted(everyone)
    except TypeError as exc:
        raise RotationError("history", Text(gettext_noop("Player ids in the history are not comparable.")),
                            "bad_id") from exc
    index = {p: i for i, p in enumerate(labels)}
    n = len(labels)
    met = [0] * (n * n)
    byes = [0] * n
    fours_so_far = [0] * n
    for plan in history:
        for table in plan.tables:
            ids = [index[p] for p in table]
            for i, a in enumerate(ids):
                if len(ids) == 4:
                    fours_so_far[a] += 1
                for b in ids[i + 1:]:
                    met[a * n + b] += 1
                    met[b * n + a] += 1
        for p in plan.byes:
            byes[index[p]] += 1
    here = [index[p] for p in present]
    fixed_i = {index[p]: t for p, t in fixed.items()}
    rng = random.Random(f"threes:{seed}:{len(history)}:{len(present)}:{sizes}")
    search = _Round(n, met, byes, fours_so_far, fixed_i, seats, rng)
    iterations = int(effort * (1500 + 60 * len(present)))
    ahead = fours > 0 and len(present) <= LOOK_AHEAD_PLAYERS
    best: tuple[int, list[list[int]], list[int]] | None = None
    for _ in range(CANDIDATES if ahead else RESTARTS):
        tables, bench = search.start(here, bye_count)
        cost = search.anneal(tables, bench, iterations)
        if ahead:
            cost += search.rollout(tables, bench, here, bye_count, iterations)
        if best is None or cost < best[0]:
            best = (cost, tables, bench)
        if cost == 0:
            break
    assert best is not None
    _, tables, bench = best
    out = []
    for row in tables:
        seated = [labels[p] for p in sorted(row)]
        # fixed players keep no seat letter: the seat order is drawn like everyone's
        rng.shuffle(seated)
        out.append(tuple(seated))
    return RoundPlan(tables=tuple(out), byes=tuple(sorted(labels[p] for p in bench)))


def _check_players_threes(players: Sequence[P]) -> list[P]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise RotationError("players", Text(gettext_noop("Give the players as a list of ids.")), "not_a_list")
    if len(players) < MIN_PLAYERS:
        raise RotationError(
            "players",
            Text(gettext_noop("At least %(min_players)s players are needed for a table; %(count)s present."), min_players=MIN_PLAYERS, count=len(players)),
            "too_few_players",
        )
    if len(players) > MAX_PLAYERS:
        raise RotationError(
            "players", Text(gettext_noop("At most %(max_players)s players can be seated; %(count)s given."), max_players=MAX_PLAYERS, count=len(players)),
            "too_many",
        )
    # the 4-seat checks (ids, duplicates) with the minimum met above
    padded = list(players)
    if len(padded) < 4:
        _check_ids(padded)
        return sorted(padded)
    return _check_players(padded)


def _check_ids(players: Sequence[P]) -> None:
    try:
        seen = set(players)
        sorted(seen)
    except TypeError as exc:
        raise RotationError(
            "players", Text(gettext_noop("Player ids must be hashable and comparable (e.g. all integers).")), "bad_id"
        ) from exc
    if len(seen) != len(players):
        raise RotationError("players", Text(gettext_noop("Each player may appear only once.")), "duplicate_player")


__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "ThreesQuality", "layout", "measure", "threes_round"]
