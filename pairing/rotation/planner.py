"""``next_round`` and ``plan_schedule``: validation, labels, and the choice between candidates."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules_engine.i18n import Text, gettext_noop

from .designs import whist_design
from .engine import History, Table, seat_round
from .model import P, Quality, RotationError, RoundPlan, Schedule, measure

MAX_ROUNDS = 200
MAX_PLAYERS = 1000


def _check_players(players: Sequence[P], field: str = "players") -> list[P]:
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise RotationError(field, Text(gettext_noop("Give the players as a list of ids.")), "not_a_list")
    if len(players) < 4:
        raise RotationError(
            field,
            Text(gettext_noop("At least 4 players are needed for a table; %(count)s present."), count=len(players)),
            "too_few_players",
        )
    if len(players) > MAX_PLAYERS:
        raise RotationError(
            field, Text(gettext_noop("At most %(max_players)s players can be seated; %(count)s given."), max_players=MAX_PLAYERS, count=len(players)), "too_many"
        )
    try:
        seen = set(players)
        ordered = sorted(seen)
    except TypeError as exc:
        raise RotationError(
            field, Text(gettext_noop("Player ids must be hashable and comparable (e.g. all integers).")), "bad_id"
        ) from exc
    if len(seen) != len(players):
        dupes = sorted({p for p in players if list(players).count(p) > 1})
        raise RotationError(
            field,
            Text(gettext_noop("Each player may appear only once; duplicated: %(players)s."),
                 players=", ".join(map(str, dupes))),
            "duplicate_player",
        )
    return ordered


def _check_history(history: Sequence[RoundPlan[P]]) -> None:
    if not isinstance(history, Sequence):
        raise RotationError("history", Text(gettext_noop("Give the history as a list of rounds.")), "not_a_list")
    for number, plan in enumerate(history, start=1):
        if not isinstance(plan, RoundPlan):
            raise RotationError("history", Text(gettext_noop("Round %(number)s is not a RoundPlan."), number=number), "bad_round")
        everyone: list[P] = []
        for table in plan.tables:
            if len(table) != 4:
                raise RotationError(
                    "history", Text(gettext_noop("Round %(number)s has a table without 4 players."), number=number), "bad_table"
                )
            everyone.extend(table)
        everyone.extend(plan.byes)
        try:
            if len(set(everyone)) != len(everyone):
                raise RotationError(
                    "history", Text(gettext_noop("Round %(number)s lists a player twice."), number=number), "duplicate_player"
                )
        except TypeError as exc:
            raise RotationError(
                "history", Text(gettext_noop("Round %(number)s has a bad player id."), number=number), "bad_id"
            ) from exc


def max_partner_free_rounds(n: int) -> int:
    """An upper bound on the rounds ``n`` players can play without a repeat partnership.

    Each round uses ``m/2`` partnerships (m seated); there are ``n(n−1)/2`` pairs; and with fair
    byes somebody plays ``R − ⌊R·k/n⌋`` rounds (k byes a round) and needs that many partners.
    """
    k = n % 4
    m = n - k
    best = 0
    for r in range(1, n * n):
        if r * (m // 2) > n * (n - 1) // 2 or r - (r * k) // n > n - 1:
            break
        best = r
    return best


def next_round(
    players: Sequence[P],
    history: Sequence[RoundPlan[P]] = (),
    *,
    seed: int = 0,
    fixed_tables: Mapping[P, int] | None = None,
    season: Mapping[frozenset[P], int] | None = None,
) -> RoundPlan[P]:
    """The next round for the players present, given the rounds played so far.

    ``history`` may mention players who have left; players who arrive late simply appear in
    ``players``. Byes go to the present, non-fixed players with the fewest byes in ``history``.
    ``fixed_tables`` pins players to a table number (1-based); they never sit out. Repeat
    partners are avoided whenever a seating without them exists (decided exactly, not hoped);
    when none exists the round with the fewest is returned (see ``measure``). ``season`` is
    what partnering again costs for the club's earlier nights (pair -> weight,
    ``pairing.season.season_weights``): after the evening's own repeats the round avoids the
    costliest of those. Raises
    ``RotationError`` on impossible or malformed input; never returns a partial round.
    """
    present = _check_players(players)
    _check_history(history)
    fixed = _check_fixed(present, fixed_tables or {})
    everyone = set(present)
    for plan in history:
        everyone.update(plan.players())
    try:
        labels = sorted(everyone)
    except TypeError as exc:
        raise RotationError(
            "history", Text(gettext_noop("Player ids in the history are not comparable.")), "bad_id"
        ) from exc
    index = {p: i for i, p in enumerate(labels)}
    hist = History(len(labels))
    for plan in history:
        hist.add(
            [(index[a], index[b], index[c], index[d]) for a, b, c, d in plan.tables],
            [index[p] for p in plan.byes],
        )
    for pair, weight in (season or {}).items():
        if len(pair) == 2 and all(p in index for p in pair) and weight > 0:
            x, y = (index[p] for p in pair)
            hist.set_season(x, y, int(weight))
    rng = random.Random(f"next:{seed}:{len(history)}:{len(present)}")
    tables, byes, _ = seat_round(
        hist, [index[p] for p in present], {index[p]: t for p, t in fixed.items()}, rng
    )
    return _label(tables, byes, labels)


def _check_fixed(present: list[P], fixed_tables: Mapping[P, int]) -> dict[P, int]:
    if not isinstance(fixed_tables, Mapping):
        raise RotationError(
            "fixed_tables", Text(gettext_noop("Give fixed tables as player → table number.")), "bad_fixed"
        )
    n_tables = len(present) // 4
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
                "fixed_tables",
                Text(gettext_noop("Table number for player %(player)s must be a whole number."), player=player),
                "bad_table",
            )
        if not 1 <= number <= n_tables:
            raise RotationError(
                "fixed_tables",
                Text(gettext_noop("Player %(player)s is fixed to table %(number)s, but this round has tables 1 to %(n_tables)s only."), player=player, number=number, n_tables=n_tables),
                "no_such_table",
            )
        per_table.setdefault(number, []).append(player)
        if len(per_table[number]) > 4:
            raise RotationError(
                "fixed_tables",
                Text(gettext_noop("More than 4 players are fixed to table %(number)s: "
                                  "%(players)s."),
                     number=number, players=", ".join(map(str, sorted(per_table[number])))),
                "table_full",
            )
        out[player] = number - 1
    return out


def _label(tables: Sequence[Table], byes: Sequence[int], labels: Sequence[P]) -> RoundPlan[P]:
    return RoundPlan(
        tables=tuple((labels[a], labels[b], labels[c], labels[d]) for a, b, c, d in tables),
        byes=tuple(labels[p] for p in byes),
    )


def _score(q: Quality[P]) -> tuple[int, int, int]:
    return (q.repeat_partners, q.repeat_opponents + q.repeat_tablemates, q.repeat_opponents)


def plan_schedule(
    players: Sequence[P],
    rounds: int,
    *,
    seed: int = 0,
    allow_repeat_partners: bool = False,
) -> Schedule[P]:
    """Plan ``rounds`` rounds for ``players`` (all present throughout).

    Returns the complete whist design when one is known for ``len(players)`` and ``rounds`` is
    its full length; otherwise the better (by repeat partners, then repeat opponents +
    tablemates) of a design prefix and a greedy-then-improved schedule. Refuses more rounds than
    can possibly be played without a repeat partnership unless ``allow_repeat_partners``.
    """
    ordered = _check_players(players)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise RotationError(
            "rounds", Text(gettext_noop("The number of rounds must be a whole number ≥ 1.")), "bad_rounds"
        )
    if rounds > MAX_ROUNDS:
        raise RotationError(
            "rounds", Text(gettext_noop("At most %(max_rounds)s rounds can be planned at once."), max_rounds=MAX_ROUNDS), "too_many_rounds"
        )
    n = len(ordered)
    limit = max_partner_free_rounds(n)
    if rounds > limit and not allow_repeat_partners:
        raise RotationError(
            "rounds",
            Text(gettext_noop("%(n)s players can play at most %(limit)s rounds without somebody partnering the same player twice; %(rounds)s requested."), n=n, limit=limit, rounds=rounds),
            "too_many_rounds",
        )
    rng = random.Random(f"plan:{seed}:{n}:{rounds}")
    perm = list(range(n))
    rng.shuffle(perm)

    best: list[RoundPlan[int]] | None = None
    best_q: Quality[int] | None = None
    design = whist_design(n)
    if design is not None and rounds <= len(design):
        plans = [
            RoundPlan(
                tables=tuple((perm[a], perm[b], perm[c], perm[d]) for a, b, c, d in tables),
                byes=tuple(perm[p] for p in bye),
            )
            for tables, bye in design[:rounds]
        ]
        best, best_q = plans, measure(plans)
        if rounds == len(design):
            return _relabel(best, ordered)

    for attempt in range(4):
        plans = _greedy(n, rounds, random.Random(f"plan:{seed}:{n}:{rounds}:{attempt}"))
        q = measure(plans)
        if best_q is None or _score(q) < _score(best_q):
            best, best_q = plans, q
        if attempt >= (2 if n <= 100 else 0) and best_q.repeat_partners == 0:
            break
    assert best is not None
    return _relabel(best, ordered)


GREEDY_EFFORT = 1.0
PASS_EFFORT = 0.5
PASSES = 2


def _greedy(n: int, rounds: int, rng: random.Random) -> list[RoundPlan[int]]:
    hist = History(n)
    made: list[tuple[list[Table], list[int]]] = []
    everyone = list(range(n))
    for _ in range(rounds):
        tables, byes, _ = seat_round(hist, everyone, {}, rng, effort=GREEDY_EFFORT)
        hist.add(tables, byes)
        made.append((tables, byes))
    # improve each round against all the others, keeping its byes
    passes = PASSES if n <= 100 else max(1, PASSES // 2)
    for _ in range(passes):
        for r in range(rounds):
            tables, byes = made[r]
            hist.add(tables, byes, sign=-1)
            new_tables, _, _ = seat_round(
                hist, everyone, {}, rng, byes=byes, start=tables, effort=PASS_EFFORT
            )
            hist.add(new_tables, byes)
            made[r] = (new_tables, byes)
    return [RoundPlan(tables=tuple(t), byes=tuple(b)) for t, b in made]


def _relabel(plans: Sequence[RoundPlan[int]], labels: Sequence[P]) -> Schedule[P]:
    out = tuple(
        _label([(a, b, c, d) for a, b, c, d in p.tables], list(p.byes), labels) for p in plans
    )
    return Schedule(rounds=out, quality=measure(out))


__all__ = ["max_partner_free_rounds", "next_round", "plan_schedule"]
