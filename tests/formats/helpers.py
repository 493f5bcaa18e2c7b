"""Plain values for the per-format tests: a field of players or pairs, the situation a builder
receives, and the games of a built round played to a result (no database: the formats are pure
packages)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from formats import Finish, Format, Situation
from pairing.club_night import BuiltRound
from pairing.results import TableResult
from pairing.rotation import RoundPlan

SEED = 7
SEATS = "NESW"
WIN, LOSE = 300, 200


def players(count: int) -> tuple[int, ...]:
    """``count`` players' entries, in check-in order."""
    return tuple(range(1, count + 1))


def pairs(count: int) -> dict[int, tuple[int, int]]:
    """``count`` pairs (ids 1..count, in seed order), pair ``p``'s entries ``100p+1, 100p+2``."""
    return {p: (100 * p + 1, 100 * p + 2) for p in range(1, count + 1)}


def pair_of(field: Mapping[int, tuple[int, ...]]) -> dict[int, int]:
    return {entry: pair for pair, entries in field.items() for entry in entries}


def situation(spec: Format, number: int, *, field: Mapping[int, tuple[int, int]] | None = None,
              entries: Sequence[int] = (), history: Sequence[RoundPlan[int]] = (),
              results: Sequence[TableResult] = (), settings: Mapping[str, Any] | None = None,
              ranking: Sequence[int] = (), active: Sequence[int] | None = None,
              rounds_planned: int = 4, seed: int = SEED,
              fixed_tables: Mapping[int, int] | None = None) -> Situation:
    """What a round manager hands the builder: for a pair format, ``field`` (every pair; those
    in ``active``, by default all, still play), for an individual format ``entries``; the
    settings as the format checks them."""
    chosen = spec.check_settings(dict(settings or {}))
    if field is not None:
        entries = tuple(e for p in (active if active is not None else field) for e in field[p])
    return Situation(
        number=number, seed=seed, rounds_planned=rounds_planned, entries=tuple(entries),
        fixed_tables=dict(fixed_tables or {}), history=tuple(history), results=tuple(results),
        settings=chosen, ranking=tuple(ranking), pairs=dict(field or {}),
        active_pairs=tuple(active if active is not None else (field or {})),
    )


def matches(built: BuiltRound, field: Mapping[int, tuple[int, ...]]) -> list[tuple[int, int]]:
    """A pairs' round as (N-S pair, E-W pair) per table, table 1 first."""
    of = pair_of(field)
    return [(of[t[0]], of[t[1]]) for t in built.plan.tables]


def byes(built: BuiltRound, field: Mapping[int, tuple[int, ...]]) -> set[int]:
    of = pair_of(field)
    return {of[e] for e in built.plan.byes}


def play(number: int, built: BuiltRound, winner: Callable[[TableResult], str]) -> list[TableResult]:
    """Every table of round ``number`` finished, ``winner`` choosing the side ("NS" or "EW")
    from the table's seats; the winning side scores 300, the other 200."""
    out = []
    for table, seats in enumerate(built.plan.tables, start=1):
        code = built.matches[table - 1] if built.matches else ""
        unplayed = TableResult(number, table, dict(zip(SEATS, seats, strict=True)), match=code)
        side = winner(unplayed)
        points = {side: WIN, "EW" if side == "NS" else "NS": LOSE}
        out.append(TableResult(number, table, unplayed.seats, points, side, True, code))
    return out


def lower_id_wins(result: TableResult) -> str:
    """The side holding the lowest entry wins (for pairs: the better seed)."""
    return "NS" if min(result.seats["N"], result.seats["S"]) < min(
        result.seats["E"], result.seats["W"]) else "EW"


def ns_wins(result: TableResult) -> str:
    return "NS"


def ew_wins(result: TableResult) -> str:
    return "EW"


def run(spec: Format, rounds: int, *, field: Mapping[int, tuple[int, int]] | None = None,
        entries: Sequence[int] = (), winner: Callable[[TableResult], str] = lower_id_wins,
        settings: Mapping[str, Any] | None = None, rounds_planned: int | None = None,
        ranking: Sequence[int] = (), seed: int = SEED,
        ) -> tuple[list[BuiltRound], list[TableResult]]:
    """Rounds 1..``rounds`` built and played one after the other, as the round managers would."""
    built: list[BuiltRound] = []
    results: list[TableResult] = []
    for number in range(1, rounds + 1):
        s = situation(spec, number, field=field, entries=entries,
                      history=[b.plan for b in built], results=results, settings=settings,
                      rounds_planned=rounds_planned or rounds, ranking=ranking, seed=seed)
        round_ = spec.build(s)
        built.append(round_)
        results += play(number, round_, winner)
    return built, results


def finish(spec: Format, ranking: Sequence[int], results: Sequence[TableResult], *,
           field: Mapping[int, tuple[int, int]] | None = None,
           settings: Mapping[str, Any] | None = None, rounds_planned: int = 4) -> Finish:
    """What placing needs: the qualifying order (``ranking``, best first, ranks 1, 2, ...)."""
    return Finish(rounds_planned=rounds_planned, settings=spec.check_settings(dict(settings or {})),
                  ranking=tuple((e, rank) for rank, e in enumerate(ranking, start=1)),
                  results=tuple(results), pairs=dict(field or {}))


def seated_once(built: BuiltRound) -> list[int]:
    """Everyone the round places (tables and byes), checking no one is placed twice."""
    everyone = [*built.plan.seated(), *built.plan.byes]
    assert len(everyone) == len(set(everyone)), "an entrant placed twice in one round"
    assert all(len(t) == 4 for t in built.plan.tables)
    return everyone
