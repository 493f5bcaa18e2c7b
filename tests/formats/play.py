"""Playing a format's spec by itself, as the round managers would feed it, without a database:
situations for players or pairs, every round's results made up from a seeded random source, and
the checks every format's own tests share (each entrant seated at most once a round)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from formats import Format, FormatError, Situation
from formats.spec import Finish
from pairing.club_night import BuiltRound
from pairing.results import TableResult
from pairing.rotation import RoundPlan

SEATS = ("N", "E", "S", "W")


def pairs_of(count: int) -> dict[int, tuple[int, int]]:
    """Pair ids 1.. with entries 101, 102 (pair 1), 103, 104 (pair 2), ..."""
    return {p: (100 + 2 * p - 1, 100 + 2 * p) for p in range(1, count + 1)}


def assert_each_seated_once(plan: RoundPlan[int]) -> None:
    everyone = list(plan.seated()) + list(plan.byes)
    assert len(everyone) == len(set(everyone)), "an entrant seated twice in one round"


@dataclass
class Day:
    """An event of one format played round by round on made-up results."""

    spec: Format
    entrants: int
    settings: Mapping[str, Any] = field(default_factory=dict)
    rounds_planned: int = 4
    seed: int = 7
    history: list[RoundPlan[int]] = field(default_factory=list)
    results: list[TableResult] = field(default_factory=list)
    built: list[BuiltRound] = field(default_factory=list)
    # the qualifying order each round was built from (empty in a qualifying round)
    rankings: list[tuple[int, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.settings = self.spec.check_settings(dict(self.settings))
        self.rng = random.Random(self.seed)
        if self.spec.pairs:
            self.pairs = pairs_of(self.entrants)
            self.entries = tuple(e for members in self.pairs.values() for e in members)
        else:
            self.pairs = {}
            self.entries = tuple(range(1, self.entrants + 1))

    @property
    def total(self) -> int:
        return self.spec.rounds_total(self.rounds_planned, self.settings, self.entrants)

    def ranking(self) -> tuple[int, ...]:
        """The qualifying order: by points won so far (players, or pairs)."""
        points: dict[int, int] = dict.fromkeys(self.pairs or self.entries, 0)
        pair_of = {e: p for p, members in self.pairs.items() for e in members}
        for r in self.results:
            for seat, entry in r.seats.items():
                side = "NS" if seat in ("N", "S") else "EW"
                who = pair_of.get(entry, entry) if self.pairs else entry
                if not self.pairs or seat in ("N", "E"):
                    points[who] += r.points.get(side, 0)
        return tuple(sorted(points, key=lambda k: (-points[k], k)))

    def situation(self, number: int) -> Situation:
        stage = self.spec.stage_of(number, self.rounds_planned, self.settings, self.entrants)
        return Situation(
            number=number, seed=self.seed, rounds_planned=self.rounds_planned,
            entries=self.entries, history=tuple(self.history), results=tuple(self.results),
            settings=self.settings,
            ranking=self.ranking() if stage != "qualifying" else (),
            pairs=self.pairs, active_pairs=tuple(self.pairs))

    def play_round(self) -> BuiltRound:
        number = len(self.history) + 1
        situation = self.situation(number)
        self.rankings.append(situation.ranking)
        built = self.spec.build(situation)
        assert_each_seated_once(built.plan)
        for table_number, table in enumerate(built.plan.tables, start=1):
            ns, ew = self.rng.randrange(30, 80), self.rng.randrange(30, 80)
            if ns == ew:
                ew += 1
            match = built.matches[table_number - 1] if built.matches else ""
            self.results.append(TableResult(
                round_number=number, table_number=table_number, seats=dict(zip(SEATS, table, strict=True)),
                points={"NS": ns, "EW": ew}, winner="NS" if ns > ew else "EW", finished=True,
                match=match))
        self.history.append(built.plan)
        self.built.append(built)
        return built

    def play_all(self, limit: int = 40) -> None:
        """Every round of the plan; a bracket decided before its deepest round (a grand final
        with no reset) stops early, as ``round_create`` does."""
        while len(self.history) < min(self.total, limit):
            try:
                self.play_round()
            except FormatError as exc:
                if exc.code != "complete":
                    raise
                return

    def finish(self) -> list[Any]:
        ranking = self.ranking()
        return self.spec.placements(Finish(
            rounds_planned=self.rounds_planned, settings=self.settings,
            ranking=tuple((who, n) for n, who in enumerate(ranking, start=1)),
            results=tuple(self.results), pairs=self.pairs))
