"""Table movements for fixed partnerships: the A/B movement and winners stay.

Both movements keep one pair of every table in its place all day and move the other pair one
table up each round (table t to t + 1, the last table to table 1), so no two pairs meet twice
until the moving pairs have been round the whole room. Tables are numbered from 1; a
:class:`~pairing.round_robin.PairRound` lists a round's matches in table order, the staying pair
first, then the pair that arrived.

* **A/B movement** (:func:`ab_movement`) — the first half of the pairs (in the order given) are
  the *A pairs*: A pair i sits at table i all day. The others are the *B pairs*: B pair i starts
  at table i and moves one table up each round. Every A pair meets every B pair once; A pairs
  never meet each other, nor do B pairs.
* **winners stay** (:func:`winners_stay`) — round 1 is an opening draw the caller makes
  (:func:`first_game`, seeds 1 v 2, 3 v 4, ...; or :func:`first_draw`, a shuffle from a seed).
  The winner of each opening game keeps that table all day; the loser moves one table up each
  round, so the loser of table i plays at table i + (r - 1) in round r, wrapping round the room.

**Odd numbers of pairs.** Both movements add a *phantom table* after the last real table. It
stays put like the other tables' staying pairs, and the moving pair that arrives there has a bye
for the round; so exactly one pair has a bye each round, real tables keep their numbers (the
matches of a round are always tables 1, 2, 3, ... in order), and staying pairs never have a bye.

* A/B: with 2k + 1 pairs the first k are the A pairs at tables 1..k and the other k + 1 are the
  B pairs; the phantom is the A pair of table k + 1. Each B pair has one bye over the movement.
* winners stay: the opening draw's bye pair counts as the loser of the phantom table, so it
  moves with the losers. Over the movement every moving pair has one bye (the opening bye pair
  had its bye in round 1).

**How many rounds.** Moving pairs return to a table they have already visited — a rematch — after
going once round the room, so both movements have as many rounds as tables, the phantom table
included: ``(count + 1) // 2`` for ``count`` pairs (:func:`ab_rounds`, :func:`winners_stay_rounds`).
Asking for a later round raises :class:`~pairing.round_robin.ScheduleError` (field ``round``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules_engine.i18n import Text, gettext_noop

from .round_robin import PairRound, ScheduleError, validate_pairs


def _tables(count: int) -> int:
    if count < 2:
        raise ScheduleError(Text(gettext_noop("At least two pairs are needed.")), "pairs")
    return (count + 1) // 2


def ab_rounds(count: int) -> int:
    """Rounds of the A/B movement of ``count`` pairs before any rematch (the number of tables)."""
    return _tables(count)


def winners_stay_rounds(count: int) -> int:
    """Rounds of winners stay, the opening draw included, before any rematch (tables)."""
    return _tables(count)


def _check_round(round_number: int, last: int, *, first: int = 1) -> None:
    if not first <= round_number <= last:
        if last < first:
            raise ScheduleError(
                Text(gettext_noop("With this few pairs the movement has no rounds after the opening draw.")), "round"
            )
        if round_number == 1:
            raise ScheduleError(Text(gettext_noop("Round 1 is the opening draw; ask for round 2 or later.")), "round")
        raise ScheduleError(
            Text(gettext_noop("Round %(round_number)s is out of range: the movement has rounds %(first)s to %(last)s before pairs would meet again."), round_number=round_number, first=first, last=last),
            "round",
        )


def _move(stayers: Sequence[int | None], movers: Sequence[int], round_number: int) -> PairRound:
    """Stayer t at table t, mover i at table i + (round - 1); a ``None`` stayer is the phantom."""
    size = len(stayers)
    shift = round_number - 1
    matches: list[tuple[int, int]] = []
    byes: list[int] = []
    for table, stayer in enumerate(stayers):
        mover = movers[(table - shift) % size]
        if stayer is None:
            byes.append(mover)
        else:
            matches.append((stayer, mover))
    return PairRound(matches=tuple(matches), byes=tuple(byes))


def ab_movement(pairs: Sequence[int], round_number: int) -> PairRound:
    """Round ``round_number`` (from 1) of the A/B movement of ``pairs`` (see the module docstring).

    Raises :class:`ScheduleError` for fewer than two pairs or a pair listed twice (``pairs``) and
    for a round outside 1..:func:`ab_rounds` (``round``).
    """
    checked = validate_pairs(pairs)
    a_count = len(checked) // 2
    stayers: list[int | None] = list(checked[:a_count])
    movers = list(checked[a_count:])
    if len(checked) % 2:
        stayers.append(None)
    _check_round(round_number, ab_rounds(len(checked)))
    return _move(stayers, movers, round_number)


def first_game(pairs: Sequence[int]) -> PairRound:
    """The opening draw in the order given: 1 v 2 at table 1, 3 v 4 at table 2, ...

    With an odd number of pairs the last one has the bye.
    """
    checked = validate_pairs(pairs)
    matches = tuple((checked[i], checked[i + 1]) for i in range(0, len(checked) - 1, 2))
    byes = (checked[-1],) if len(checked) % 2 else ()
    return PairRound(matches=matches, byes=byes)


def first_draw(pairs: Sequence[int], *, seed: int) -> PairRound:
    """A random opening draw, the same every time for the same pairs and ``seed``.

    The pairs are shuffled and then seated as :func:`first_game` seats them.
    """
    shuffled = list(validate_pairs(pairs))
    random.Random(seed).shuffle(shuffled)
    return first_game(shuffled)


def winners_stay(
    first: Sequence[tuple[int, int]],
    winners: Sequence[int],
    round_number: int,
    byes: Sequence[int] = (),
) -> PairRound:
    """Round ``round_number`` (2 or later) of winners stay.

    ``first`` is the opening draw's tables in order (``first[0]`` is table 1), ``winners`` the
    winner of each of those tables and ``byes`` the opening bye pair, if the number of pairs is
    odd. Round 1 is the opening draw itself; asking for it, or for a round after
    :func:`winners_stay_rounds`, raises :class:`ScheduleError` (``round``). A winner who did not
    play at its table raises field ``winners``; a pair listed twice, a table without two pairs,
    no tables at all, or more than one bye pair raises field ``pairs``.
    """
    tables = [tuple(table) for table in first]
    if not tables:
        raise ScheduleError(Text(gettext_noop("The opening draw has no tables.")), "pairs")
    for number, table in enumerate(tables, start=1):
        if len(table) != 2:
            raise ScheduleError(Text(gettext_noop("Table %(number)s of the opening draw needs two pairs."), number=number), "pairs")
    if len(byes) > 1:
        raise ScheduleError(Text(gettext_noop("Only one pair can have a bye in the opening draw.")), "pairs")
    everyone = [p for table in tables for p in table]
    validate_pairs([*everyone, *byes])
    if len(winners) != len(tables):
        raise ScheduleError(
            Text(gettext_noop("Give one winner for each of the %(count)s tables of the opening draw."), count=len(tables)), "winners"
        )
    stayers: list[int | None] = []
    movers: list[int] = []
    for number, (table, winner) in enumerate(zip(tables, winners, strict=True), start=1):
        if winner not in table:
            raise ScheduleError(Text(gettext_noop("Pair %(winner)s did not play at table %(number)s."), winner=winner, number=number), "winners")
        stayers.append(winner)
        movers.append(table[1] if table[0] == winner else table[0])
    if byes:
        stayers.append(None)
        movers.append(byes[0])
    _check_round(round_number, len(stayers), first=2)
    return _move(stayers, movers, round_number)
