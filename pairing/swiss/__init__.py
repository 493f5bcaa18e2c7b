"""Swiss pairing for pair (partnership) events (pure Python plus networkx's matching).

Vocabulary, as this module uses it:

* **pair** — a fixed partnership of two players, entered under one integer id. Pairs play
  pairs, one match per round; a match has a winner.
* **standing** — where a pair stands before the round: its wins so far (a bye counts as a win),
  its total points, the pairs it has already met and how many byes it has had (``Standing``).
* **placement** — the order of the field: more wins first, then more points, then the order the
  standings are given in (the registration or seed order). The first pair is the best placed.
* **score group** — the pairs with the same number of wins.
* **rematch** — two pairs meeting a second time.
* **bye** — with an odd number of pairs, one pair sits the round out. It counts as a win; how it
  is scored otherwise is the event's policy, decided elsewhere.
* **floater** — a pair that meets a pair from another score group, because its own group has an
  odd number of pairs or cannot be paired among itself without rematches.

The rules, in order of importance (each one gives way only to those above it):

1. **No rematches** while any pairing of the round avoids them; when none does, as few as
   possible.
2. **The bye** goes to a pair among those with the fewest byes so far (so nobody has a second
   bye while another pair has had none), the lowest-placed such pair for which the round can
   still be paired under rule 1.
3. **Equal wins meet.** The largest difference in wins between two pairs that meet (the
   *spread*) is as small as possible, then as few matches as possible have that difference,
   then as few the next smaller one, and so on: a pair floats one group rather than two, and
   only as many pairs float as the groups' sizes (and rule 1) require.
4. **Within a score group, top half against bottom half**: in a group of ``g`` pairs the pair
   placed ``i``-th in the group meets the pair placed ``i + g/2``-th (1 v 5, 2 v 6, 3 v 7, 4 v 8
   in a group of eight). In a group with an odd number of pairs the same split is kept around
   the pair that floats. A floater is preferably the lowest-placed pair of the higher group,
   meeting the best-placed pair of the lower group.

In the first round everybody has 0 wins, so the field is one score group: 1 v n/2+1,
2 v n/2+2, ... in the given order (with an odd count the last pair has the bye and the others
split the same way), or in a seeded shuffle of the given order when ``shuffle_first`` is asked.

How the round is found. The rules are one cost per match, added over the round, and the round
is a minimum-cost perfect matching of the pairs (Edmonds' blossom algorithm, networkx's
``max_weight_matching`` with ``maxcardinality=True`` on ``top - cost``; with an odd count a
stand-in "bye" pair is matched to the pair that sits out), never a greedy pass. The cost of a
match between a (better placed) and b is

* ``R`` if they met before (rule 1),
* ``U * m ** (d - 1)`` when their wins differ by ``d ≥ 1`` (rule 3; ``m`` exceeds the number of
  matches, so one match with a larger difference costs more than any number with smaller ones),
* within a score group of ``g`` pairs, ``(2 * k - g) ** 2 - (g % 2)`` where ``k`` is how many
  places apart in the group a and b are (0 for the top-half v bottom-half opponent; rule 4);
  across groups, ``x ** 2 + y ** 2`` where ``x`` counts the pairs of a's group placed below a
  and ``y`` those of b's group placed above b (0 for the bottom of one group against the top of
  the next),

and sitting out costs ``B`` for each eligible pair placed below the pair on bye (rule 2). ``R``,
``B`` and ``U`` are chosen so that each rule strictly outweighs everything below it, whatever
the round (all integers, so the matching is exact). ``swiss_cost`` gives a round's total.

Speed. Solving on every possible match is slow for large fields (128 pairs: more than a second
in pure Python), so the round is first solved on the likely matches only: the lowest eligible
pair on the bye and the rematch-free matches whose rule-4 cost is at most a bound (16 at first).
That answer is kept only when it provably is the optimum over all matches:

* its rule-3 cost equals a lower bound every rematch-free round must pay: each boundary between
  score groups with an odd number of pairs above it is crossed by a match, and a group that
  cannot pair among itself without rematches sends at least that many pairs across its two
  boundaries. Any round paying more costs more than this whole answer;
* its rule-4 total is within the bound, so a round using a left-out match costs more.

When the bound is what fails, it widens. When the lower bound is not reached, the answer still
shows that the optimum has this bye and no larger spread, and the round is solved exactly over
every rematch-free match within that spread. When no rematch-free round puts the lowest
eligible pair on the bye, every rematch-free match is allowed with every eligible pair for the
bye, and if that fails too, every match, rematches included. Each answer is therefore a true
minimum-cost pairing. A typical round of 128 pairs takes a few hundredths of a second, a late
round where pairs float across two groups a few tenths, and a round that cannot avoid a
rematch a second or two (every possible match is then in play). At 500 pairs (the most
accepted) a round takes one to a few seconds.

API (pair ids are integers; the Django side passes the entry ids)::

    swiss_round(standings, *, seed=0, shuffle_first=False) -> SwissRound
    swiss_cost(standings, matches, bye, *, seed=0, shuffle_first=False) -> int
    swiss_simulate(pairs, rounds, *, seed) -> list[SwissRound]
    simulation(pairs, rounds, *, seed) -> iterator of SwissRound (the same rounds, one by one)

``SwissRound.matches`` lists the top match first (table 1) and, in each match, the better-placed
pair first. ``quality`` reports the rematches, the spread, the matches between different score
groups and the bye. Bad input raises ``SwissError`` (a ``ValueError`` with ``message``, ``field``
and ``code``): fewer than two pairs or a pair listed twice (``pairs``), a bad value
(``pairs[i].wins`` ...). An opponent id that is not among the standings (a withdrawn pair) is
ignored.

Command line (``python -m pairing.swiss --help``)::

    python -m pairing.swiss next [--seed S] [--shuffle-first] < request.json
    python -m pairing.swiss simulate --pairs N --rounds R [--seed S]
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import networkx as nx

from rules_engine.i18n import Text, gettext_noop

from ..errors import PairingError

__all__ = [
    "MAX_PAIRS",
    "MAX_POINTS",
    "MAX_WINS",
    "Quality",
    "Standing",
    "SwissError",
    "SwissRound",
    "simulation",
    "swiss_cost",
    "swiss_round",
    "swiss_simulate",
]

MAX_PAIRS = 500
MAX_WINS = 1_000
MAX_POINTS = 1_000_000_000

# The first bound on the rule-4 cost of the likely matches (see "Speed" above).
_FIRST_BOUND = 16


class SwissError(PairingError):
    """A malformed Swiss request. ``field`` names the input at fault (``pairs``,
    ``pairs[3].wins``, ...; indexes 0-based), ``code`` is a short machine-readable reason and
    ``message`` a sentence a tournament director can act on."""


@dataclass(frozen=True)
class Standing:
    """A pair before the round: wins so far (a bye counts as a win), total points (orders the
    pairs within a score group), the pairs it has met and its byes."""

    pair: int
    wins: int
    points: int = 0
    opponents: frozenset[int] = frozenset()
    byes: int = 0


@dataclass(frozen=True)
class Quality:
    """How good the round is: ``rematches`` (0 whenever avoidable), ``spread`` (the largest
    difference in wins between two pairs that meet), ``cross_group`` (matches between pairs with
    different wins) and the pair on ``bye`` (or None)."""

    rematches: int
    spread: int
    cross_group: int
    bye: int | None

    def to_dict(self) -> dict[str, int | None]:
        return {
            "rematches": self.rematches,
            "spread": self.spread,
            "cross_group": self.cross_group,
            "bye": self.bye,
        }


@dataclass(frozen=True)
class SwissRound:
    """One round: the matches, top match (table 1) first and the better-placed pair first in
    each, the pair on bye (or None) and the round's quality."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None
    quality: Quality

    def to_dict(self) -> dict[str, object]:
        return {
            "matches": [list(match) for match in self.matches],
            "bye": self.bye,
            "quality": self.quality.to_dict(),
        }


def _whole(value: object, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise SwissError(Text(gettext_noop("%(value)s is not a whole number."), value=repr(value)), field=field, code="bad_number")
    if not low <= value <= high:
        raise SwissError(
            Text(gettext_noop("%(value)s is out of range (%(low)s to %(high)s)."), value=value, low=format(low, ','), high=format(high, ',')), field=field, code="out_of_range"
        )
    return value


def _checked(standings: Sequence[Standing]) -> list[Standing]:
    """The standings, validated; opponents reduced to listed pairs other than the pair itself."""
    if isinstance(standings, str | bytes) or not isinstance(standings, Sequence):
        raise SwissError(Text(gettext_noop("Give the standings as a list.")), field="pairs", code="bad_pairs")
    if len(standings) < 2:
        raise SwissError(Text(gettext_noop("A Swiss round needs at least two pairs.")), field="pairs", code="too_few")
    if len(standings) > MAX_PAIRS:
        raise SwissError(
            Text(gettext_noop("At most %(max_pairs)s pairs can be paired."), max_pairs=MAX_PAIRS), field="pairs", code="too_many"
        )
    seen: set[int] = set()
    for i, standing in enumerate(standings):
        if not isinstance(standing, Standing):
            raise SwissError(Text(gettext_noop("Each entry is a Standing.")), field=f"pairs[{i}]", code="bad_pairs")
        pair = _whole(standing.pair, f"pairs[{i}].pair", -(2**63), 2**63 - 1)
        if pair in seen:
            raise SwissError(Text(gettext_noop("Pair %(pair)s is listed twice."), pair=pair), field="pairs", code="duplicate")
        seen.add(pair)
        _whole(standing.wins, f"pairs[{i}].wins", 0, MAX_WINS)
        _whole(standing.points, f"pairs[{i}].points", -MAX_POINTS, MAX_POINTS)
        _whole(standing.byes, f"pairs[{i}].byes", 0, MAX_WINS)
        try:
            opponents = list(standing.opponents)
        except TypeError:
            raise SwissError(
                Text(gettext_noop("opponents is a set of pair ids.")), field=f"pairs[{i}].opponents", code="bad_id"
            ) from None
        for opponent in opponents:
            if not isinstance(opponent, int) or isinstance(opponent, bool):
                raise SwissError(
                    Text(gettext_noop("%(opponent)s is not a pair id."), opponent=repr(opponent)), field=f"pairs[{i}].opponents", code="bad_id"
                )
    return [
        Standing(
            s.pair,
            s.wins,
            s.points,
            frozenset(o for o in s.opponents if o in seen and o != s.pair),
            s.byes,
        )
        for s in standings
    ]


@dataclass(frozen=True)
class _Answer:
    """A matching on placement indices: the matches (better placed first) and the bye."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None


class _Field:
    """The field in placement order (index 0 = best placed) and the cost of every choice."""

    def __init__(self, standings: Sequence[Standing], seed: int, shuffle_first: bool) -> None:
        checked = _checked(standings)
        given = list(range(len(checked)))
        if shuffle_first and all(s.wins == 0 for s in checked):
            random.Random(seed).shuffle(given)
        tiebreak = {index: rank for rank, index in enumerate(given)}
        order = sorted(given, key=lambda i: (-checked[i].wins, -checked[i].points, tiebreak[i]))
        self.n = n = len(order)
        self.pairs = [checked[i] for i in order]
        self.ids = [s.pair for s in self.pairs]
        self.wins = [s.wins for s in self.pairs]
        index_of = {pair: i for i, pair in enumerate(self.ids)}
        self.met = [frozenset(index_of[o] for o in s.opponents) for s in self.pairs]
        # score groups, best first; each pair's place in its group and the group's size
        self.groups: list[list[int]] = []
        for i in range(n):
            if self.groups and self.wins[self.groups[-1][0]] == self.wins[i]:
                self.groups[-1].append(i)
            else:
                self.groups.append([i])
        self.place = [0] * n
        self.size = [0] * n
        for group in self.groups:
            for k, i in enumerate(group):
                self.place[i] = k
                self.size[i] = len(group)
        # the bye: the pairs with the fewest byes, lowest placed first
        if n % 2:
            fewest = min(s.byes for s in self.pairs)
            self.eligible = [i for i in reversed(range(n)) if self.pairs[i].byes == fewest]
        else:
            self.eligible = []
        self.bye_rank = {i: rank for rank, i in enumerate(self.eligible)}
        # weights: each rule outweighs everything below it (see the module docstring)
        self.matches_count = n // 2
        self.m = self.matches_count + 2
        self.unit = n**3 + 1  # > the largest possible rule-4 total
        self.dmax = self.wins[0] - self.wins[-1]
        self.b = self.matches_count * (self.float_cost(self.dmax) + 2 * n * n) + 1
        self.r = n * self.b
        self.top = 2 * self.r + self.float_cost(self.dmax) + 2 * n * n + n * self.b

    # -- costs (placement indices, a better placed than b)

    def float_cost(self, d: int) -> int:
        return 0 if d == 0 else self.unit * self.m ** (d - 1)

    def split_cost(self, a: int, b: int) -> int:
        if self.wins[a] == self.wins[b]:
            g = self.size[a]
            return (2 * abs(self.place[b] - self.place[a]) - g) ** 2 - (g % 2)
        return (self.size[a] - 1 - self.place[a]) ** 2 + self.place[b] ** 2

    def cost(self, a: int, b: int) -> int:
        a, b = min(a, b), max(a, b)
        rematch = self.r if b in self.met[a] else 0
        return rematch + self.float_cost(self.wins[a] - self.wins[b]) + self.split_cost(a, b)

    def bye_cost(self, c: int) -> int:
        return self.b * self.bye_rank[c]

    def total(self, answer: _Answer) -> int:
        bye = 0 if answer.bye is None else self.bye_cost(answer.bye)
        return bye + sum(self.cost(a, b) for a, b in answer.matches)

    # -- matching

    def solve(self, edges: Iterable[tuple[int, int]], byes: Iterable[int]) -> _Answer | None:
        """The minimum-cost perfect matching on the given matches and bye choices, or None when
        they allow no perfect matching."""
        n = self.n
        graph = nx.Graph()
        graph.add_weighted_edges_from((a, b, self.top - self.cost(a, b)) for a, b in edges)
        graph.add_weighted_edges_from((c, n, self.top - self.bye_cost(c)) for c in byes)
        mate: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        if len(mate) != (n + 1) // 2:
            return None
        bye = None
        matches = []
        for u, v in mate:
            if n in (u, v):
                bye = u if v == n else v
            else:
                matches.append((min(u, v), max(u, v)))
        return _Answer(tuple(sorted(matches)), bye)

    def floats(self, answer: _Answer) -> int:
        return sum(self.float_cost(self.wins[a] - self.wins[b]) for a, b in answer.matches)

    def lowest_eligible(self) -> int | None:
        return self.eligible[0] if self.eligible else None

    def groups_without(self, bye: int | None) -> list[list[int]]:
        groups = [[i for i in group if i != bye] for group in self.groups]
        return [group for group in groups if group]

    def unmatched_within(self, group: list[int]) -> int:
        """How many pairs of the group cannot meet a pair of their own group without a rematch
        (the group's size less twice its largest rematch-free matching)."""
        members = set(group)
        if all(self.met[a].isdisjoint(members) for a in group):
            return len(group) % 2
        graph = nx.Graph()
        graph.add_nodes_from(group)
        graph.add_edges_from(
            (a, b) for x, a in enumerate(group) for b in group[x + 1 :] if b not in self.met[a]
        )
        mate: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
        return len(group) - 2 * len(mate)

    def forced_floats(self, bye: int | None, *, rematches: bool = False) -> int:
        """A lower bound on the rule-3 cost of any rematch-free round with this bye.

        Every boundary between neighbouring score groups with an odd number of pairs above it is
        crossed by a match. With ``rematches``, also: the matches leaving a group, across its
        two boundaries, are at least the pairs it cannot pair among itself. The least cost of
        crossing counts meeting both is found boundary by boundary."""
        groups = self.groups_without(bye)
        if len(groups) < 2:
            return 0
        short = [self.unmatched_within(g) if rematches else len(g) % 2 for g in groups]
        top = max(short) + 1
        # best[c]: least cost so far with c matches crossing the last boundary
        best: dict[int, int] = {0: 0}
        above = 0
        for k, (upper, lower) in enumerate(zip(groups, groups[1:], strict=False)):
            above += len(upper)
            step = self.float_cost(self.wins[upper[0]] - self.wins[lower[0]])
            following: dict[int, int] = {}
            for c in range(above % 2, top + 1, 2):
                costs = [v for p, v in best.items() if p + c >= short[k]]
                if costs:
                    following[c] = min(costs) + c * step
            best = following
        return min(v for c, v in best.items() if c >= short[-1])

    def window_edges(self, k: int) -> list[tuple[int, int]]:
        """Every match without rematch between pairs at most ``k`` wins apart."""
        n = self.n
        return [
            (a, b)
            for a in range(n)
            for b in range(a + 1, n)
            if self.wins[a] - self.wins[b] <= k and b not in self.met[a]
        ]

    def pair(self) -> _Answer:
        """The optimum round; each answer returned is provably the optimum over every possible
        round (see "Speed" in the module docstring)."""
        bye = self.lowest_eligible()
        byes = [] if bye is None else [bye]
        floor = self.forced_floats(bye)
        refined = False
        # The likely matches first: every rematch-free match (the bye pair left out) by its
        # rule-4 cost, the first ones up to a bound that widens.
        ranked = sorted(
            (self.split_cost(a, b), a, b)
            for a in range(self.n)
            for b in range(a + 1, self.n)
            if b not in self.met[a] and bye not in (a, b)
        )
        splits = [split for split, _, _ in ranked]
        bound = _FIRST_BOUND
        count = bisect_right(splits, bound)
        # a pair that has met every other pair (the bye pair aside) leaves no rematch-free round
        partners = [0] * self.n
        for _, a, b in ranked:
            partners[a] += 1
            partners[b] += 1
        if any(partners[i] == 0 for i in range(self.n) if i != bye):
            count = -1
        while count >= 0:
            answer = self.solve([(a, b) for _, a, b in ranked[:count]], byes)
            if answer is None:
                if count == len(ranked):
                    break  # no rematch-free round with this bye
                bound = max(4 * bound, splits[count])
                count = bisect_right(splits, bound)
                continue
            floats = self.floats(answer)
            if floats != floor and not refined:
                floor = self.forced_floats(bye, rematches=True)
                refined = True
            if floats != floor:
                # A rematch-free round with the lowest eligible pair on the bye exists, so the
                # optimum has that bye too and no larger spread: solve exactly within it.
                spread = max(self.wins[a] - self.wins[b] for a, b in answer.matches)
                exact = self.solve(self.window_edges(spread), byes)
                assert exact is not None  # it holds the answer found
                return exact
            split = sum(self.split_cost(a, b) for a, b in answer.matches)
            if split <= bound:
                return answer
            bound = split
            if bisect_right(splits, bound) == count:
                return answer  # no further match is within the new bound: the same optimum
            count = bisect_right(splits, bound)  # the answer is within it: the next one is kept
        # No rematch-free round with the lowest eligible pair on the bye: another eligible pair
        # sits out if that avoids rematches (every rematch-free match allowed), or else every
        # match is allowed and the rematches are as few as possible.
        if len(self.eligible) > 1:
            found = self.solve(self.window_edges(self.dmax), self.eligible)
            if found is not None:
                return found
        every = [(a, b) for a in range(self.n) for b in range(a + 1, self.n)]
        full = self.solve(every, self.eligible)
        assert full is not None  # every pair can meet every other: a round always exists
        return full

    def round(self, answer: _Answer) -> SwissRound:
        ordered = sorted(answer.matches)
        matches = tuple((self.ids[a], self.ids[b]) for a, b in ordered)
        differences = [self.wins[a] - self.wins[b] for a, b in ordered]
        bye = None if answer.bye is None else self.ids[answer.bye]
        quality = Quality(
            rematches=sum(1 for a, b in ordered if b in self.met[a]),
            spread=max(differences, default=0),
            cross_group=sum(1 for d in differences if d),
            bye=bye,
        )
        return SwissRound(matches, bye, quality)


def swiss_round(
    standings: Sequence[Standing], *, seed: int = 0, shuffle_first: bool = False
) -> SwissRound:
    """The next round of a Swiss pair event: the minimum-cost pairing of the standings (see the
    module docstring for the rules). The standings' order breaks ties in placement. With
    ``shuffle_first`` and every pair on 0 wins, that order is first shuffled with ``seed``."""
    field = _Field(standings, seed, shuffle_first)
    return field.round(field.pair())


def swiss_cost(
    standings: Sequence[Standing],
    matches: Iterable[tuple[int, int]],
    bye: int | None,
    *,
    seed: int = 0,
    shuffle_first: bool = False,
) -> int:
    """The total cost of a proposed round under the rules of the module docstring (the number
    ``swiss_round`` minimises). The matches and bye must seat every pair exactly once."""
    field = _Field(standings, seed, shuffle_first)
    index_of = {pair: i for i, pair in enumerate(field.ids)}
    try:
        pairs = [(index_of[a], index_of[b]) for a, b in matches]
        bye_index = None if bye is None else index_of[bye]
    except KeyError as exc:
        raise SwissError(Text(gettext_noop("%(args)s is not a listed pair."), args=repr(exc.args[0])), field="matches") from None
    seated = sorted(
        [i for match in pairs for i in match] + ([] if bye_index is None else [bye_index])
    )
    if seated != list(range(field.n)):
        raise SwissError(Text(gettext_noop("The matches and bye must seat every pair once.")), field="matches")
    if (bye_index is None) != (field.n % 2 == 0) or (
        bye_index is not None and bye_index not in field.bye_rank
    ):
        raise SwissError(Text(gettext_noop("That pair may not have the bye.")), field="bye")
    return field.total(_Answer(tuple((min(a, b), max(a, b)) for a, b in pairs), bye_index))


def simulation(pairs: int, rounds: int, *, seed: int) -> Iterator[SwissRound]:
    """Plays ``rounds`` Swiss rounds for pairs 1..``pairs`` with random winners (a fair coin per
    match, seeded) and random points (winner 400-1,200, loser 100-900); a bye counts as a win
    with no points. Yields each round as it is paired."""
    _whole(pairs, "pairs", 2, MAX_PAIRS)
    _whole(rounds, "rounds", 0, MAX_WINS)
    rng = random.Random(seed)
    wins = dict.fromkeys(range(1, pairs + 1), 0)
    points = dict.fromkeys(wins, 0)
    byes = dict.fromkeys(wins, 0)
    met: dict[int, set[int]] = {p: set() for p in wins}
    for _ in range(rounds):
        standings = [Standing(p, wins[p], points[p], frozenset(met[p]), byes[p]) for p in wins]
        result = swiss_round(standings, seed=seed)
        yield result
        for a, b in result.matches:
            met[a].add(b)
            met[b].add(a)
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            wins[winner] += 1
            points[winner] += rng.randint(400, 1200)
            points[loser] += rng.randint(100, 900)
        if result.bye is not None:
            wins[result.bye] += 1
            byes[result.bye] += 1


def swiss_simulate(pairs: int, rounds: int, *, seed: int) -> list[SwissRound]:
    """``rounds`` rounds of pairs 1..``pairs`` with random winners (see ``simulation``)."""
    return list(simulation(pairs, rounds, seed=seed))
