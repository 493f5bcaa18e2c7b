"""The registry of event formats: how each one builds its next round.

A format is registered once, keyed by ``Event.format``. Its builder receives a
:class:`Situation` (who is here, the seatings so far and every game's result, all as plain values)
and returns a :class:`pairing.club_night.BuiltRound`; ``draw.services.round_create`` reads the
rows, calls the builder and writes the round. Adding a format is adding a pure builder under
``pairing/`` and one :func:`register` call here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from common.errors import DomainError
from pairing.club_night import BuiltRound, club_night_round
from pairing.progressive import ProgressiveError, next_game
from pairing.progressive import stages as progressive_stages
from pairing.progressive.stages import Stage
from pairing.progressive.start import first_game
from pairing.results import TableResult
from pairing.rotation import RoundPlan


@dataclass(frozen=True)
class Situation:
    """Everything a builder may use to seat round ``number``."""

    number: int
    seed: int
    rounds_planned: int
    entries: tuple[int, ...]
    fixed_tables: Mapping[int, int] = field(default_factory=dict)
    history: tuple[RoundPlan[int], ...] = ()
    results: tuple[TableResult, ...] = ()
    settings: Mapping[str, Any] = field(default_factory=dict)
    # The eligible players (pairs, in a pair event) in qualifying order (best first), for
    # rounds after a cut.
    ranking: tuple[int, ...] = ()
    # Fixed-partnership formats: every pair of the event (withdrawn ones too) with its two
    # entries, in seed order (the director's seeds, then registration order); and the pairs
    # still playing.
    pairs: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    active_pairs: tuple[int, ...] = ()


@dataclass(frozen=True)
class Finish:
    """What placing a finished event needs: the eligible players in qualifying order with their
    qualifying rank, and every game's result (``results``) by round."""

    rounds_planned: int
    settings: Mapping[str, Any]
    ranking: tuple[tuple[int, int], ...]
    results: tuple[TableResult, ...]
    # A pair event's pairs with their entries, in seed order (as in :class:`Situation`).
    pairs: Mapping[int, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Placed:
    place: int
    entry_id: int
    stage: str


def _one_stage(number: int, rounds_planned: int, settings: Mapping[str, Any],
               entrants: int) -> str:
    return Stage.QUALIFYING.value


def _planned(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
    return rounds_planned


def _by_ranking(finish: Finish) -> list[Placed]:
    return [Placed(rank, entry, Stage.QUALIFYING.value) for entry, rank in finish.ranking]


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    build: Callable[[Situation], BuiltRound]
    min_entries: int = 4
    # Seat the next round by itself when the last game of the current one is confirmed.
    seats_automatically: bool = False
    # The stage of round N (``Round.Stage``) and how many rounds the event plays in all, from
    # ``Event.rounds_planned`` (the rounds, or qualifying games, the director asked for), the
    # settings and the number of entrants (players, or pairs in a pair event).
    stage_of: Callable[[int, int, Mapping[str, Any], int], str] = _one_stage
    rounds_total: Callable[[int, Mapping[str, Any], int], int] = _planned
    # Final places when the event finishes (by default the standings' ranks).
    placements: Callable[[Finish], list[Placed]] = _by_ranking
    # Every game must have a winner before the next round (a level game is settled by a cut).
    needs_winners: bool = False
    # More rounds than planned may be seated (a club night that plays on); otherwise the
    # event's rounds end at ``rounds_total``.
    open_ended: bool = True
    # Entries are pairs of players (fixed partnerships): the builder pairs pairs.
    pairs: bool = False


FORMATS: dict[str, Format] = {}


def register(spec: Format) -> Format:
    if spec.name in FORMATS:
        raise ValueError(f"format {spec.name!r} is registered twice")
    FORMATS[spec.name] = spec
    return spec


def format_for(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise DomainError(
            f"No round builder for the format {name!r}; choose one of {', '.join(FORMATS)}.",
            field="format",
        ) from None


def _club_night(s: Situation) -> BuiltRound:
    return club_night_round(
        s.entries, s.history, rounds_planned=s.rounds_planned, seed=s.seed,
        fixed_tables=s.fixed_tables or None, results=s.results,
    )


register(Format(name="club_night", label="Club night (rotating partners)", build=_club_night))


def _progressive(s: Situation) -> BuiltRound:
    """Individual progressive: a seat draw for the first game, then the movement (winners move
    and losers stay, or fixed seats) from the last game's seating and who won at each table.
    Players who left are replaced by those who arrived since (alternates), seat for seat; tables
    are full, so players beyond them are left unseated (the bridge makes them alternates).
    After the qualifying games: the semi-final tables from the qualifying order, then the final
    table (``pairing.progressive.stages``)."""
    plan = progressive_stages.plan_from(s.settings, s.rounds_planned)
    stage = plan.stage_of(s.number)
    try:
        if stage == Stage.SEMIFINAL:
            tables = progressive_stages.semifinal_tables(
                s.ranking, mode=str(s.settings.get("semi_partners", "seeded")), seed=s.seed)
            return BuiltRound(RoundPlan(tables=tables), "semifinal")
        if stage == Stage.FINAL:
            first_final = plan.first_round(Stage.FINAL) or s.number
            semis = [r for r in s.results if r.round_number in plan.rounds_of(Stage.SEMIFINAL)]
            players = progressive_stages.finalists(s.ranking, semis, cut=plan.cut)
            table = progressive_stages.final_table(
                players, game=s.number - first_final + 1,
                rule=str(s.settings.get("final_rule", "rotate")))
            return BuiltRound(RoundPlan(tables=(table,)), "final")
        if not s.history:
            # Full tables only: players beyond a multiple of four (the last to check in) wait
            # as alternates; the bridge marks them so.
            full = s.entries[:len(s.entries) - len(s.entries) % 4]
            return BuiltRound(RoundPlan(tables=first_game(full, seed=s.seed)), "seat_draw")
        last = s.history[-1]
        previous = len(s.history)
        games = {r.table_number: r for r in s.results if r.round_number == previous}
        winners: list[str | None] = []
        points: list[Mapping[str, int] | None] = []
        for number in range(1, len(last.tables) + 1):
            game = games.get(number)
            if game is None or not game.finished:
                raise DomainError(
                    f"Table {number}'s game of round {previous} is not finished: the movement "
                    "needs every table's winners.",
                    field="round",
                )
            winners.append(game.winner)
            points.append(dict(game.points))
        seated = set(last.seated())
        present = set(s.entries)
        # Arrivals since the last game, in check-in order: as many as there are empty seats
        # take them; the others wait as alternates (the bridge marks them so).
        leaving = sorted(seated - present)
        entering = [e for e in s.entries if e not in seated][:len(leaving)]
        if len(leaving) > len(entering):
            raise DomainError(
                f"{len(leaving) - len(entering)} player(s) withdrew and no alternate is waiting "
                "to take the seat: check in an alternate before seating the next game.",
                field="entries", code="no_alternate",
            )
        movement = str(s.settings.get("movement", "winners_move"))
        built = next_game(
            [tuple(table) for table in last.tables], winners,
            [list(plan.tables) for plan in s.history[:-1]],
            movement=movement, direction=str(s.settings.get("direction", "up")),
            draw=str(s.settings.get("draw", "system")), seed=s.seed * 1000 + s.number,
            steps=s.settings.get("steps"), points=points,
            entering=entering, leaving=leaving,
        )
    except ProgressiveError as exc:
        raise DomainError.of(exc) from None
    return BuiltRound(RoundPlan(tables=tuple(built.tables)), movement)


def _progressive_stage(number: int, rounds_planned: int, settings: Mapping[str, Any],
                       entrants: int) -> str:
    return progressive_stages.plan_from(settings, rounds_planned).stage_of(number).value


def _progressive_total(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
    return progressive_stages.plan_from(settings, rounds_planned).rounds_total


def _progressive_placements(finish: Finish) -> list[Placed]:
    plan = progressive_stages.plan_from(finish.settings, finish.rounds_planned)
    semis = plan.rounds_of(Stage.SEMIFINAL)
    finals = plan.rounds_of(Stage.FINAL)
    try:
        placed = progressive_stages.placements(
            ranking=finish.ranking, plan=plan,
            semis=[r for r in finish.results if r.round_number in semis],
            finals=[r for r in finish.results if r.round_number in finals],
        )
    except ProgressiveError as exc:
        raise DomainError.of(exc) from None
    return [Placed(p.place, p.entry_id, p.stage.value) for p in placed]


register(Format(
    name="individual_progressive", label="Individual progressive (NPA)", build=_progressive,
    seats_automatically=True, stage_of=_progressive_stage, rounds_total=_progressive_total,
    placements=_progressive_placements, needs_winners=True, open_ended=False,
))
