"""Seeding the consolation bracket so that pairs who may already have met are kept apart.

The consolation bracket takes the losers of chosen rounds. Pairs that went out in a later round
are seeded above those that went out earlier (they get the byes); within one round the order is
free, and it is chosen here: two pairs "may have met" when, for some match of the main bracket,
one of them can have come out of it as the winner and the other as the loser. The order is
improved step by step so that as few consolation matches as possible can be such a rematch,
first round first (a pair's first consolation match matters most), then the next round, and so
on. The search is bounded, so a very large bracket gets a good order rather than the best one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

from .model import Slot

# Upper bound on leaf swaps tried while improving the order (each costs a few dozen steps).
MAX_SWAPS = 4000


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def may_have_met(sides: Mapping[str, tuple[Slot, Slot]], feeders: Sequence[str]) -> list[int]:
    """For each feeder match (by index), a bit mask of the feeders whose loser may have met its
    loser earlier in the bracket. ``sides`` holds the main bracket's matches, every match after
    the matches its sides come from."""
    index = {code: i for i, code in enumerate(feeders)}
    won_to: dict[str, str] = {}
    lost_to: dict[str, str] = {}
    for code, pair in sides.items():
        for side in pair:
            if side.kind == "winner":
                won_to[str(side.ref)] = code
            elif side.kind == "loser":
                lost_to[str(side.ref)] = code
    # ends[code]: the feeders a pair playing ``code`` can go on to lose (``code`` included).
    ends: dict[str, int] = {}
    for code in reversed(list(sides)):
        mask = 1 << index[code] if code in index else 0
        for nxt in (won_to.get(code), lost_to.get(code)):
            if nxt is not None:
                mask |= ends[nxt]
        ends[code] = mask
    related = [0] * len(feeders)
    for code in sides:
        winner_ends = ends[won_to[code]] if code in won_to else 0
        loser_ends = ends[lost_to[code]] if code in lost_to else 0
        if code in index:
            loser_ends |= 1 << index[code]
        if not winner_ends or not loser_ends:
            continue
        for i in _bits(winner_ends):
            related[i] |= loser_ends
        for i in _bits(loser_ends):
            related[i] |= winner_ends
    return related


class _Tree:
    """The consolation bracket over entrant indices, with the possible rematches per round."""

    def __init__(self, order: list[int], leaf_of_seed: list[int], related: list[int]) -> None:
        self.size = len(leaf_of_seed)
        self.related = related
        self.leaf_of_seed = leaf_of_seed
        self.mask = [0] * (2 * self.size)
        self.bad = [False] * (2 * self.size)
        self.rounds = self.size.bit_length() - 1
        self.counts = [0] * (self.rounds + 1)
        for seed, entrant in enumerate(order):
            self.mask[leaf_of_seed[seed]] = 1 << entrant
        for node in range(self.size - 1, 0, -1):
            self._refresh(node)

    def _round(self, node: int) -> int:
        return self.rounds - (node.bit_length() - 1)

    def _refresh(self, node: int) -> None:
        a, b = self.mask[2 * node], self.mask[2 * node + 1]
        self.mask[node] = a | b
        bad = False
        if a and b:
            small, big = (a, b) if a.bit_count() <= b.bit_count() else (b, a)
            bad = any(self.related[i] & big for i in _bits(small))
        if bad != self.bad[node]:
            self.counts[self._round(node)] += 1 if bad else -1
            self.bad[node] = bad

    def cost(self, upto: int | None = None) -> tuple[int, ...]:
        """Possible rematches per round, from round 1 (to round ``upto``)."""
        return tuple(self.counts[1 : (self.rounds if upto is None else upto) + 1])

    def swap(self, seed_a: int, seed_b: int, upto: int) -> None:
        """Swap two entrants, bringing the counts of rounds 1 to ``upto`` up to date (the
        rounds above are stale until :meth:`refresh_all`)."""
        leaf_a, leaf_b = self.leaf_of_seed[seed_a], self.leaf_of_seed[seed_b]
        self.mask[leaf_a], self.mask[leaf_b] = self.mask[leaf_b], self.mask[leaf_a]
        a, b = leaf_a // 2, leaf_b // 2
        for _ in range(upto):
            self._refresh(a)
            if b != a:
                self._refresh(b)
            a, b = a // 2, b // 2

    def last_entry(self) -> int:
        """The last round in which some entrant plays its first match (after its byes)."""
        last = 0
        for leaf in range(self.size, 2 * self.size):
            if not self.mask[leaf]:
                continue
            node, rnd = leaf, 1
            while node > 1 and not self.mask[node ^ 1]:
                node, rnd = node // 2, rnd + 1
            last = max(last, rnd)
        return last

    def refresh_all(self) -> None:
        for node in range(self.size - 1, 0, -1):
            self._refresh(node)


def _reverse_halves(group: list[int]) -> list[int]:
    half = len(group) // 2
    return group[:half][::-1] + group[half:][::-1]


def _swap_halves(group: list[int]) -> list[int]:
    half = len(group) // 2
    return group[half:] + group[:half]


_STARTS: tuple[Callable[[list[int]], list[int]], ...] = (
    lambda group: group,
    lambda group: group[::-1],
    _reverse_halves,
    _swap_halves,
)


def order_entrants(
    sides: Mapping[str, tuple[Slot, Slot]],
    groups: Sequence[Sequence[str]],
    seat_order: Sequence[int],
) -> list[str]:
    """The feeder matches (losers of) in consolation seed order: ``groups`` best first (each a
    round's matches from the top of the drawing down), each group reordered to keep pairs that
    may have met apart. ``seat_order`` is the consolation bracket's seeding order."""
    feeders = [code for group in groups for code in group]
    if len(feeders) <= 2:
        return feeders
    related = may_have_met(sides, feeders)
    leaf_of_seed = [0] * len(seat_order)
    for position, seed in enumerate(seat_order):
        leaf_of_seed[seed - 1] = len(seat_order) + position
    spans: list[tuple[int, int]] = []
    start = 0
    for group in groups:
        spans.append((start, start + len(group)))
        start += len(group)

    def build(order: list[int]) -> _Tree:
        return _Tree(order, leaf_of_seed, related)

    # A good start: each group as is, reversed, or with its halves reversed or swapped.
    order = list(range(len(feeders)))
    best = build(order).cost()
    for _ in range(2):
        for lo, hi in spans:
            for start_order in _STARTS:
                trial = order[:lo] + start_order(order[lo:hi]) + order[hi:]
                cost = build(trial).cost()
                if cost < best:
                    order, best = trial, cost
    # Then, round by round from the first, swap a pair under a match that can be a rematch
    # with another pair of its group while that lowers the count (earlier rounds first).
    tree = build(order)
    seed_at_leaf = {leaf: seed for seed, leaf in enumerate(leaf_of_seed) if seed < len(order)}
    span_of = [span for span in spans for _ in range(span[0], span[1])]
    swaps = 0
    # Only up to the last round where a pair can play its first consolation match (at least
    # round 2): beyond it a rematch is rarely avoidable and the search would only spend time.
    for rnd in range(1, min(tree.rounds, max(2, tree.last_entry())) + 1):
        tree.refresh_all()
        best = tree.cost(rnd)
        improved = True
        while improved and best[rnd - 1] and swaps < MAX_SWAPS:
            improved = False
            first = tree.size >> rnd
            for node in range(first, 2 * first):
                if not tree.bad[node]:
                    continue
                lo_leaf, hi_leaf = node << rnd, (node + 1) << rnd
                for i in [seed_at_leaf[x] for x in range(lo_leaf, hi_leaf) if x in seed_at_leaf]:
                    lo, hi = span_of[i]
                    for j in range(lo, hi):
                        if j == i or swaps >= MAX_SWAPS:
                            continue
                        swaps += 1
                        tree.swap(i, j, rnd)
                        cost = tree.cost(rnd)
                        if cost < best:
                            best = cost
                            order[i], order[j] = order[j], order[i]
                            improved = True
                            break
                        tree.swap(i, j, rnd)
                    if not tree.bad[node]:
                        break
    return [feeders[i] for i in order]
