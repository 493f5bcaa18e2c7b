"""Seating one round: byes, partnerships and tables, given what happened before.

Works on player indexes (ints 0..n−1). ``History`` holds how often each pair partnered,
opposed and shared a table, and each player's byes. ``seat_round`` chooses the byes (fairly, see
``bye_choice``) and seats everybody else by a seeded local search on the table cost:

    cost(table) = W_PARTNER · Σ partnered-before(partner pairs)
                + Σ season(partner pairs)
                + W_OPPONENT · Σ opposed-before(opponent pairs)
                + W_TABLEMATE · Σ met-before(all six pairs)

where each table takes the best of its three possible partnerships. ``W_PARTNER`` dominates, so
a repeat partnership is only ever chosen when no seating without one was found; when the local
search leaves one, an exact backtracking search for a perfect matching without repeat partners
(over the admissible bye choices) decides whether it was avoidable, and if so the local search
restarts from that matching.

``season`` is what partnering again costs because of the club's earlier nights
(``pairing.season``: a few dozen for last week's partner, less for older ones, 0 for a new
pair): softer than a repeat partner of the evening, harder than a repeat opponent. When the
search leaves season repeats, an exact search for a matching without them (or, failing that,
without those of the latest nights) is tried the same way and kept if the round costs less. With
no season every season cost is 0 and the search is exactly the evening's.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence

W_PARTNER = 10_000
W_OPPONENT = 3
W_TABLEMATE = 2

Table = tuple[int, int, int, int]


class History:
    """Pair and bye counts over player indexes 0..n−1."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.part = [0] * (n * n)
        self.opp = [0] * (n * n)
        self.tab = [0] * (n * n)
        self.byes = [0] * n
        # what partnering again costs for the season's earlier nights (``pairing.season``)
        self.season = [0] * (n * n)
        self.has_season = False

    def set_season(self, x: int, y: int, weight: int) -> None:
        n = self.n
        self.season[x * n + y] = self.season[y * n + x] = weight
        self.has_season = self.has_season or weight > 0

    def add(self, tables: Iterable[Table], byes: Iterable[int], sign: int = 1) -> None:
        n = self.n
        part, opp, tab = self.part, self.opp, self.tab
        for a, b, c, d in tables:
            for x, y in ((a, c), (b, d)):
                part[x * n + y] += sign
                part[y * n + x] += sign
            for x, y in ((a, b), (a, d), (c, b), (c, d)):
                opp[x * n + y] += sign
                opp[y * n + x] += sign
            t = (a, b, c, d)
            for i in range(4):
                for j in range(i + 1, 4):
                    x, y = t[i], t[j]
                    tab[x * n + y] += sign
                    tab[y * n + x] += sign
        for p in byes:
            self.byes[p] += sign


def bye_choice(
    candidates: Sequence[int], count: int, byes: Sequence[int]
) -> tuple[list[int], list[int], int]:
    """Split the bye decision into (forced, pool, how many of pool).

    Fairness: the players on bye must have no more byes so far than anybody who plays, so that
    nobody sits out a second time before everyone (eligible) has sat out once. Players with
    fewer byes than the ``count``-th smallest are forced; the rest is chosen from the pool of
    players with exactly that many.
    """
    if count == 0:
        return [], [], 0
    ordered = sorted(candidates, key=lambda p: (byes[p], p))
    level = byes[ordered[count - 1]]
    forced = [p for p in ordered if byes[p] < level]
    pool = [p for p in ordered if byes[p] == level]
    return forced, pool, count - len(forced)


class _Seater:
    def __init__(
        self,
        hist: History,
        players: Sequence[int],
        fixed: Mapping[int, int],
        n_tables: int,
        rng: random.Random,
    ) -> None:
        self.h = hist
        self.players = list(players)
        self.fixed = dict(fixed)  # player -> 0-based table
        self.T = n_tables
        self.rng = rng

    # -- costs ----------------------------------------------------------------------------
    def pairing_costs(self, a: int, b: int, c: int, d: int) -> tuple[int, int]:
        """Best cost of the table {a, b, c, d} over its three partnerships, and which."""
        n = self.h.n
        part, opp, tab = self.h.part, self.h.opp, self.h.tab
        an, bn, cn = a * n, b * n, c * n
        pab, pac, pad = part[an + b], part[an + c], part[an + d]
        pbc, pbd, pcd = part[bn + c], part[bn + d], part[cn + d]
        if self.h.has_season:
            sea = self.h.season
            sab, sac, sad = sea[an + b], sea[an + c], sea[an + d]
            sbc, sbd, scd = sea[bn + c], sea[bn + d], sea[cn + d]
        else:
            sab = sac = sad = sbc = sbd = scd = 0
        oab, oac, oad = opp[an + b], opp[an + c], opp[an + d]
        obc, obd, ocd = opp[bn + c], opp[bn + d], opp[cn + d]
        base = W_TABLEMATE * (
            tab[an + b] + tab[an + c] + tab[an + d] + tab[bn + c] + tab[bn + d] + tab[cn + d]
        )
        # pairing 0: a–c & b–d ; 1: a–b & c–d ; 2: a–d & b–c
        c0 = W_PARTNER * (pac + pbd) + sac + sbd + W_OPPONENT * (oab + oad + obc + ocd)
        c1 = W_PARTNER * (pab + pcd) + sab + scd + W_OPPONENT * (oac + oad + obc + obd)
        c2 = W_PARTNER * (pad + pbc) + sad + sbc + W_OPPONENT * (oab + oac + obd + ocd)
        if c0 <= c1 and c0 <= c2:
            return base + c0, 0
        if c1 <= c2:
            return base + c1, 1
        return base + c2, 2

    def table_cost(self, t: Sequence[int]) -> int:
        return self.pairing_costs(t[0], t[1], t[2], t[3])[0]

    # -- search ---------------------------------------------------------------------------
    def initial(
        self, seated: Sequence[int], pairs: Sequence[tuple[int, int]] | None
    ) -> list[list[int]]:
        tables: list[list[int]] = [[] for _ in range(self.T)]
        if pairs is not None:
            floating: list[tuple[int, int]] = []
            for x, y in pairs:
                t = self.fixed.get(x, self.fixed.get(y))
                if t is None:
                    floating.append((x, y))
                else:
                    tables[t].extend((x, y))
            for x, y in floating:
                for row in tables:
                    if len(row) < 4:
                        row.extend((x, y))
                        break
            return tables
        free = [p for p in seated if p not in self.fixed]
        self.rng.shuffle(free)
        for p in sorted(self.fixed):
            tables[self.fixed[p]].append(p)
        it = iter(free)
        for row in tables:
            while len(row) < 4:
                row.append(next(it))
        return tables

    def anneal(
        self,
        tables: list[list[int]],
        bench: list[int],
        pool: set[int],
        iterations: int,
    ) -> int:
        """Improve ``tables`` (and swap ``bench`` players with seated pool players) in place."""
        rng = self.rng
        T = self.T
        fixed = self.fixed
        costs = [self.table_cost(t) for t in tables]
        total = sum(costs)
        if total == 0 or iterations <= 0:
            return total
        movable_bench = [i for i, p in enumerate(bench) if p in pool]
        temp = 1.5 * W_OPPONENT
        cool = math.exp(math.log(0.05 / 1.5) / max(iterations, 1))
        pc = self.pairing_costs
        rand = rng.random
        randrange = rng.randrange
        for _ in range(iterations):
            temp *= cool
            # pick a table, preferring one that costs something
            t1 = randrange(T)
            if costs[t1] == 0:
                t1 = randrange(T)
            s1 = randrange(4)
            p1 = tables[t1][s1]
            if movable_bench and p1 in pool and rand() < 0.15:
                # swap with a benched pool player
                bi = movable_bench[randrange(len(movable_bench))]
                q = bench[bi]
                row = tables[t1]
                row[s1] = q
                new = pc(row[0], row[1], row[2], row[3])[0]
                delta = new - costs[t1]
                if delta <= 0 or rand() < math.exp(-delta / temp):
                    bench[bi] = p1
                    costs[t1] = new
                    total += delta
                else:
                    row[s1] = p1
                if total == 0:
                    break
                continue
            if T < 2:
                continue
            t2 = randrange(T - 1)
            if t2 >= t1:
                t2 += 1
            if p1 in fixed:
                continue
            s2 = randrange(4)
            p2 = tables[t2][s2]
            if p2 in fixed:
                continue
            r1, r2 = tables[t1], tables[t2]
            r1[s1], r2[s2] = p2, p1
            n1 = pc(r1[0], r1[1], r1[2], r1[3])[0]
            n2 = pc(r2[0], r2[1], r2[2], r2[3])[0]
            delta = n1 + n2 - costs[t1] - costs[t2]
            if delta <= 0 or rand() < math.exp(-delta / temp):
                costs[t1], costs[t2] = n1, n2
                total += delta
                if total == 0:
                    break
            else:
                r1[s1], r2[s2] = p1, p2
        return total

    def finish(self, tables: list[list[int]]) -> list[Table]:
        out: list[Table] = []
        for t in tables:
            a, b, c, d = sorted(t)
            _, k = self.pairing_costs(a, b, c, d)
            # seat partners N–S and E–W
            if k == 0:
                pair1, pair2 = (a, c), (b, d)
            elif k == 1:
                pair1, pair2 = (a, b), (c, d)
            else:
                pair1, pair2 = (a, d), (b, c)
            # vary who sits North between rounds, deterministically
            if self.rng.random() < 0.5:
                pair1, pair2 = pair2, pair1
            if self.rng.random() < 0.5:
                pair1 = (pair1[1], pair1[0])
            if self.rng.random() < 0.5:
                pair2 = (pair2[1], pair2[0])
            out.append((pair1[0], pair2[0], pair1[1], pair2[1]))
        return out

    def partners(self, t: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two partnerships the table's cost chooses."""
        a, b, c, d = t
        k = self.pairing_costs(a, b, c, d)[1]
        return ((a, c), (b, d)) if k == 0 else ((a, b), (c, d)) if k == 1 else ((a, d), (b, c))

    def partner_repeats(self, tables: Sequence[Sequence[int]]) -> int:
        if not self.h.has_season:
            return sum(self.table_cost(t) // W_PARTNER for t in tables)
        n, part = self.h.n, self.h.part
        return sum(part[x * n + y] for t in tables for x, y in self.partners(t))

    def season_cost(self, tables: Sequence[Sequence[int]]) -> int:
        """What the chosen partnerships cost for the season's earlier nights."""
        if not self.h.has_season:
            return 0
        n, sea = self.h.n, self.h.season
        return sum(sea[x * n + y] for t in tables for x, y in self.partners(t))

    # -- exact partner search -------------------------------------------------------------
    def matching(self, seated: Sequence[int], node_limit: int,
                 season_below: int | None = None) -> list[tuple[int, int]] | None:
        """A perfect matching of ``seated`` without a previous partnership, honouring fixed
        tables; with ``season_below``, also without a pair whose season cost reaches it."""
        n = self.h.n
        part = self.h.part
        sea = self.h.season
        fixed = self.fixed
        unmatched = set(seated)
        allowed: dict[int, list[int]] = {}
        for x in seated:
            fx = fixed.get(x)
            nb = []
            for y in seated:
                if y == x or part[x * n + y]:
                    continue
                if season_below is not None and sea[x * n + y] >= season_below:
                    continue
                fy = fixed.get(y)
                if fx is not None and fy is not None and fx != fy:
                    continue
                nb.append(y)
            self.rng.shuffle(nb)
            allowed[x] = nb
        load = [0] * self.T
        pairs: list[tuple[int, int]] = []
        nodes = 0

        def rec() -> bool:
            nonlocal nodes
            nodes += 1
            if nodes > node_limit:
                return False
            if not unmatched:
                return True
            best, best_opts = -1, None
            for x in sorted(unmatched):
                opts = [y for y in allowed[x] if y in unmatched]
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = x, opts
                    if len(opts) <= 1:
                        break
            assert best_opts is not None
            x = best
            for y in best_opts:
                t = fixed.get(x, fixed.get(y))
                if t is not None and load[t] >= 2:
                    continue
                if t is not None:
                    load[t] += 1
                unmatched.discard(x)
                unmatched.discard(y)
                pairs.append((x, y))
                if rec():
                    return True
                pairs.pop()
                unmatched.add(x)
                unmatched.add(y)
                if t is not None:
                    load[t] -= 1
                if nodes > node_limit:
                    return False
            return False

        return list(pairs) if rec() else None


def seat_round(
    hist: History,
    present: Sequence[int],
    fixed: Mapping[int, int],
    rng: random.Random,
    *,
    effort: float = 1.0,
    byes: Sequence[int] | None = None,
    start: Sequence[Sequence[int]] | None = None,
) -> tuple[list[Table], list[int], int]:
    """Seat ``present`` (indexes) for one round; returns (tables, byes).

    ``fixed`` maps a player to a 0-based table. ``byes`` forces the bye set (used when a planned
    schedule is improved round by round); otherwise byes are chosen fairly from ``hist.byes``.
    ``start`` (with ``byes``) is a seating to improve: the result is never worse than it.
    Fixed players never sit out. The third value is the round's cost.
    """
    present = sorted(present)
    n_tables = len(present) // 4
    k = len(present) - 4 * n_tables
    free = [p for p in present if p not in fixed]
    pool: list[int]
    if byes is not None:
        forced, pool, need = list(byes), [], 0
    else:
        forced, pool, need = bye_choice(free, k, hist.byes)
    seater = _Seater(hist, present, fixed, n_tables, rng)
    chosen = forced + (rng.sample(pool, need) if need else [])
    benched = set(chosen)
    seated = [p for p in present if p not in benched]
    m = len(seated)
    iterations = int(effort * (1500 + 60 * m))
    if start is not None:
        tables = [list(t) for t in start]
        before = sum(seater.table_cost(t) for t in tables)
        kept = [list(t) for t in tables]
    else:
        tables = seater.initial(seated, None)
    bench = list(chosen)
    pool_set = set(pool)
    cost = seater.anneal(tables, bench, pool_set, iterations)
    if start is not None and cost > before:
        tables, cost = kept, before
    if seater.partner_repeats(tables):
        found = _exact(seater, hist, present, forced, pool, need, bench, rng)
        if found is not None:
            pairs, bench = found
            benched = set(bench)
            seated = [p for p in present if p not in benched]
            cand = seater.initial(seated, pairs)
            # keep the bye set: the matching depends on it
            cand_cost = seater.anneal(cand, bench, set(), iterations)
            if seater.partner_repeats(cand) == 0:
                tables, cost = cand, cand_cost
    if hist.has_season and seater.season_cost(tables) and not seater.partner_repeats(tables):
        found_season = _season_matching(seater, tables, bench, iterations)
        if found_season is not None and found_season[1] < cost:
            tables, cost = found_season
    return seater.finish(tables), sorted(bench), cost


SEASON_TRIES = 8
SEASON_NODES = 8_000


def _season_matching(
    seater: _Seater, tables: list[list[int]], bench: list[int], iterations: int
) -> tuple[list[list[int]], int] | None:
    """A seating of the same players whose partnerships avoid the season's costly pairs: the
    matching that avoids every pair the season weighs first, then only the costlier ones (the
    latest nights'), each searched exactly within ``SEASON_NODES``; the local search then
    improves the first one found. None when none was found or none without an evening repeat."""
    seated = sorted(p for t in tables for p in t)
    n, sea = seater.h.n, seater.h.season
    weights = sorted({w for i, x in enumerate(seated) for y in seated[i + 1:]
                      if (w := sea[x * n + y]) > 0})
    if len(weights) > SEASON_TRIES:
        step = len(weights) / SEASON_TRIES
        weights = [weights[int(i * step)] for i in range(SEASON_TRIES)]
    for below in weights:
        pairs = seater.matching(seated, SEASON_NODES, season_below=below)
        if pairs is None:
            continue
        cand = seater.initial(seated, pairs)
        cost = seater.anneal(cand, list(bench), set(), iterations)
        if seater.partner_repeats(cand):
            return None
        return cand, cost
    return None


def _exact(
    seater: _Seater,
    hist: History,
    present: Sequence[int],
    forced: list[int],
    pool: list[int],
    need: int,
    current: list[int],
    rng: random.Random,
) -> tuple[list[tuple[int, int]], list[int]] | None:
    candidates: list[list[int]] = [list(current)]
    if need:
        total = math.comb(len(pool), need)
        if total <= 300:
            combos = [forced + list(c) for c in itertools.combinations(pool, need)]
            rng.shuffle(combos)
        else:
            combos = [forced + rng.sample(pool, need) for _ in range(300)]
        candidates.extend(combos)
    limit = 20_000 if len(present) > 40 else 60_000
    for bench in candidates:
        benched = set(bench)
        seated = [p for p in present if p not in benched]
        pairs = seater.matching(seated, limit)
        if pairs is not None:
            return pairs, bench
    return None
