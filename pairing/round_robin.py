"""Round robin for fixed partnerships: every pair meets every other pair of its group once.

Vocabulary, as this module uses it:

* a **pair** is a fixed partnership, known by its id; pairs are given in **seed order** (the
  registration order, or the order the director seeded them);
* a **match** is one game between two pairs at one table; a :class:`PairRound` lists a round's
  matches in table order (table 1 first) and its **byes**, the pairs sitting the round out;
* a **group** is a set of pairs playing their own round robin. With several groups the pairs are
  dealt out in seed order **snake-wise** (group 1, 2, ..., g, then g, ..., 2, 1, and so on), so
  the groups differ in size by at most one and the top seeds are spread over the groups.

Each group's schedule is drawn by the **circle method**: the first pair stays put while the
others rotate one place per round. A group with an odd number of pairs gets a *phantom* pair;
whoever meets the phantom has a bye that round, so every pair of an odd group sits out exactly
once. A group of ``n`` pairs needs ``n - 1`` rounds when ``n`` is even and ``n`` when it is odd.

With several groups one schedule round holds every group's matches of that round, tables numbered
group by group (group 1's matches on the first tables). A smaller group can need fewer rounds
than a larger one (with 9 pairs in two groups, the group of 4 plays 3 rounds and the group of 5
plays 5); in the extra rounds its pairs are idle, neither in a match nor on a bye.

Which pair of a match is listed first alternates from round to round, so no pair is always
listed first (that is, always the pair that deals first or keeps score, wherever the event uses
the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine.errors import CoreError
from rules_engine.i18n import Text, gettext_noop


class ScheduleError(CoreError, ValueError):
    """A schedule that cannot be drawn, with the input at fault (the web layer shows it there).

    ``field`` is one of ``pairs``, ``groups``, ``round``, ``winners`` or ``byes``; ``message`` is a
    sentence a tournament director can act on.
    """

    def __init__(self, message: str, field: str, code: str = "invalid") -> None:
        super().__init__(message, field=field, code=code)

    def to_dict(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


@dataclass(frozen=True)
class PairRound:
    """One round: the matches in table order (table 1 first) and the pairs on a bye."""

    matches: tuple[tuple[int, int], ...]
    byes: tuple[int, ...] = ()

    def placed(self) -> tuple[int, ...]:
        """Every pair in the round, matches first (table order), then the byes."""
        return (*(p for match in self.matches for p in match), *self.byes)


def validate_pairs(pairs: Sequence[int]) -> tuple[int, ...]:
    """The pairs as a tuple, after checking there are at least two and none is listed twice."""
    pairs = tuple(pairs)
    if len(pairs) < 2:
        raise ScheduleError(Text(gettext_noop("At least two pairs are needed.")), "pairs")
    seen: set[int] = set()
    for pair in pairs:
        if pair in seen:
            raise ScheduleError(Text(gettext_noop("Pair %(pair)s is listed twice."), pair=pair), "pairs")
        seen.add(pair)
    return pairs


def _group_count(count: int, groups: int) -> None:
    if groups < 1:
        raise ScheduleError(Text(gettext_noop("There must be at least one group.")), "groups")
    if count < 2 * groups:
        raise ScheduleError(
            Text(gettext_noop("%(count)s pairs cannot make %(groups)s groups of at least two pairs each."), count=count, groups=groups), "groups"
        )


def snake_groups(pairs: Sequence[int], groups: int) -> tuple[tuple[int, ...], ...]:
    """Deal the pairs (in seed order) into ``groups`` groups snake-wise: 1..g, g..1, 1..g, ...

    Group sizes differ by at most one; the larger groups come first.
    """
    checked = validate_pairs(pairs)
    _group_count(len(checked), groups)
    dealt: list[list[int]] = [[] for _ in range(groups)]
    for i, pair in enumerate(checked):
        lap, step = divmod(i, groups)
        dealt[step if lap % 2 == 0 else groups - 1 - step].append(pair)
    return tuple(tuple(group) for group in dealt)


def _rounds_for(size: int) -> int:
    return size - 1 if size % 2 == 0 else size


def round_robin_rounds(count: int, *, groups: int = 1) -> int:
    """How many rounds the round robin of ``count`` pairs in ``groups`` groups takes.

    That is the largest group's count: ``n - 1`` rounds for an even group of ``n``, ``n`` for an
    odd one (each pair has one bye).
    """
    if count < 2:
        raise ScheduleError(Text(gettext_noop("At least two pairs are needed.")), "pairs")
    _group_count(count, groups)
    largest = -(-count // groups)
    return _rounds_for(largest)


def _circle(group: tuple[int, ...]) -> tuple[PairRound, ...]:
    """One group's schedule by the circle method (see the module docstring).

    An even group keeps its top seed in place; an odd group keeps the phantom in place, so every
    real pair rotates and meets the phantom (a bye) exactly once.
    """
    if len(group) % 2 == 0:
        fixed: int | None = group[0]
        rest = group[1:]
    else:
        fixed = None
        rest = group
    slots = len(rest) + 1  # even
    half = slots // 2
    rounds: list[PairRound] = []
    for r in range(len(rest)):
        seats: list[int | None] = [fixed, *(rest[(p - 1 + r) % len(rest)] for p in range(1, slots))]
        matches: list[tuple[int, int]] = []
        byes: list[int] = []
        for i in range(half):
            first, second = seats[i], seats[slots - 1 - i]
            if first is None or second is None:
                byes.extend(p for p in (first, second) if p is not None)
                continue
            # The standing pair is listed first in even rounds; at the other tables the order
            # alternates by table, and as everyone else rotates through the tables they are
            # listed first in some rounds and second in others.
            swap = (r % 2 == 1) if i == 0 else (i % 2 == 0)
            matches.append((second, first) if swap else (first, second))
        rounds.append(PairRound(matches=tuple(matches), byes=tuple(byes)))
    return tuple(rounds)


def round_robin(pairs: Sequence[int], *, groups: int = 1) -> tuple[PairRound, ...]:
    """The whole round robin: one :class:`PairRound` per round, in round order.

    ``pairs`` are in seed order; with ``groups`` > 1 they are split snake-wise (see
    :func:`snake_groups`) and each round lists group 1's matches first, then group 2's, and so on;
    the byes likewise. Raises :class:`ScheduleError` for fewer than two pairs, a pair listed twice
    (``pairs``) or a group that would have fewer than two pairs (``groups``).
    """
    schedules = [_circle(group) for group in snake_groups(pairs, groups)]
    total = max(len(schedule) for schedule in schedules)
    out: list[PairRound] = []
    for r in range(total):
        played = [schedule[r] for schedule in schedules if r < len(schedule)]
        out.append(PairRound(
            matches=tuple(m for rnd in played for m in rnd.matches),
            byes=tuple(b for rnd in played for b in rnd.byes),
        ))
    return tuple(out)
