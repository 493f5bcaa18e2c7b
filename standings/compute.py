"""The standings computed from the rows: totals per entry (or pair), ranked by the event's
tie-breaks, for all rounds or some (a stage's); the order a cut takes. Read by the selectors,
the boards and the services."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Aggregate, Count, Max, Q, QuerySet, Sum, TextField
from django.db.models.sql.compiler import SQLCompiler
from django.utils.translation import gettext_noop

from common.rulesets import event_ruleset
from conduct.selectors import penalty_sums
from ranking import (
    EntryTotals,
    Meeting,
    RoundScores,
    bye_score,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
)
from ranking.pairs import (
    PAIR_TIE_BREAKS,
    PairBye,
    PairGame,
    PairInfo,
    PairRow,
    pair_standings,
    validate_pair_tie_breaks,
)
from ranking.standings import MeetingsFor, per_round_text
from scoring.models import Game, SeatResult
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat

from .rows import StandingRow, player_line


# --- the standings computed from the seat results (no writes) -----------------------------------
@dataclass(frozen=True)
class Computed:
    rows: list[StandingRow]
    tie_breaks: list[dict[str, str]]
    # The rows as JSON text (``json.dumps(rows, separators=(",", ":"), sort_keys=True)``) when
    # the computation has it already (the incremental path reuses unchanged rows' text).
    rows_json: str | None = None


# The parameters of a compiled expression, as Django's ``as_sql`` gives them.
SqlParams = list[str | int] | tuple[str | int, ...]


class RoundPoints(Aggregate):
    """An entry's points per round as a JSON object ``{"round number": points}`` (JSON text):
    ``json_object_agg`` on PostgreSQL, ``json_group_object`` on SQLite. An entry sits at one
    table per round (constraint ``seat_entry_once_per_round``), so the keys are unique."""

    function = "json_object_agg"
    template = "%(function)s(%(expressions)s)"
    output_field = TextField()

    def as_postgresql(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper,
                      **extra: Any) -> tuple[str, SqlParams]:
        return self.as_sql(compiler, connection, template="%(function)s(%(expressions)s)::text",
                           **extra)

    def as_sqlite(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper,
                  **extra: Any) -> tuple[str, SqlParams]:
        return self.as_sql(compiler, connection, function="json_group_object", **extra)


def _results(event: Event, rounds: Collection[int] | None) -> QuerySet[SeatResult]:
    """The event's seat results, or those of the given rounds (a stage's standings)."""
    rows = SeatResult.objects.filter(event=event)
    return rows if rounds is None else rows.filter(round_number__in=list(rounds))


def _entry_totals(event: Event, rounds: Collection[int] | None = None) -> list[EntryTotals]:
    """Totals per entry from ONE GROUP BY over the event's seat results (index
    seatresult_event_entry_idx), the per-round points riding along as one JSON object per entry:
    250 rows come back for a 250-player event, not 3,000."""
    names = {
        pk: (name, status == Entry.Status.ACTIVE, alternate)
        for pk, name, status, alternate in Entry.objects.filter(event=event).values_list(
            "pk", "player__name", "status", "alternate"
        )
    }
    grouped = (
        _results(event, rounds).order_by().values("entry_id")
        .annotate(
            sum_points=Sum("points"),
            n_games=Count("id", filter=Q(finished=True)),
            n_wins=Count("id", filter=Q(won=True, finished=True)),
            declared=Sum("hands_declared"),
            made=Sum("hands_made"),
            set=Sum("hands_set"),
            best=Max("points", filter=Q(finished=True)),
            rounds=RoundPoints("round_number", "points"),
        )
        .values_list("entry_id", "sum_points", "n_games", "n_wins", "declared", "made", "set",
                     "best", "rounds")
    )
    found = {row[0]: row for row in grouped}
    totals = []
    for pk, (name, active, alternate) in names.items():
        agg = found.get(pk)
        if agg is None:
            totals.append(EntryTotals(entry_id=pk, name=name, active=active, alternate=alternate))
            continue
        _, points, games, wins, declared, made, set_, best, per_round = agg
        totals.append(EntryTotals(
            entry_id=pk, name=name, active=active, points=points or 0, games=games, wins=wins,
            hands_declared=declared or 0, hands_made=made or 0, hands_set=set_ or 0,
            highest_game=best,
            per_round={int(k): v for k, v in json.loads(per_round).items()} if per_round else {},
            alternate=alternate,
        ))
    return totals


def _round_scores(event: Event, rounds: Collection[int] | None = None) -> dict[int, RoundScores]:
    """Per round, the finished games' winning scores and all scores (for bye averages):
    a GROUP BY returning one row per round."""
    rows = (
        _results(event, rounds).filter(finished=True).order_by().values("round_number")
        .annotate(
            wt=Sum("points", filter=Q(won=True)), wc=Count("id", filter=Q(won=True)),
            at=Sum("points"), ac=Count("id"),
        )
        .values_list("round_number", "wt", "wc", "at", "ac")
    )
    return {n: RoundScores(wt or 0, wc, at or 0, ac) for n, wt, wc, at, ac in rows}


def _meetings_for(event: Event, rounds: Collection[int] | None = None) -> MeetingsFor:
    def meetings(ids: set[int]) -> list[Meeting]:
        return [
            Meeting(*values)
            for values in _results(event, rounds).filter(
                entry_id__in=ids, finished=True
            ).values_list("game_id", "entry_id", "side", "won")
        ]

    return meetings


def stage_rounds(event: Event, stage: str) -> list[int]:
    """The numbers of the event's rounds of one stage (``Round.Stage``)."""
    return list(event.rounds.filter(stage=stage).values_list("number", flat=True))


def _pair_games(event: Event, rounds: Collection[int] | None) -> list[PairGame]:
    """The finished games of a pair event, pair against pair (the pair in a partnership's first
    seat plays for it).

    A forfeited game (a walkover) scores like a bye for the pair that won it (the event's bye
    policy, from the round's games played out) and nothing for the pair that forfeited."""
    pair_at: dict[tuple[int, str], int] = {}
    ruleset = event_ruleset(event)
    sides = tuple(ruleset.sides)  # the two partnerships, the first playing the first seat
    firsts = tuple(ruleset.seats_of(side)[0] for side in sides)
    seats = Seat.objects.filter(round__event=event, position__in=firsts)
    if rounds is not None:
        seats = seats.filter(round__number__in=list(rounds))
    for table_id, position, pair_id in seats.values_list("table_id", "position", "entry__pair_id"):
        pair_at[(table_id, position)] = pair_id
    games = Game.objects.filter(table__round__event=event).exclude(status=Game.Status.PLAYING)
    if rounds is not None:
        games = games.filter(table__round__number__in=list(rounds))
    out = []
    for game_id, table_id, number, totals, winner, cut_winner, forfeit in games.values_list(
            "pk", "table_id", "table__round__number", "totals", "winner", "cut_winner",
            "forfeit"):
        pairs = tuple(pair_at.get((table_id, seat)) for seat in firsts)
        if None in pairs:
            continue
        won = dict(zip(sides, pairs, strict=True)).get(winner or cut_winner)
        out.append(PairGame(
            round_number=number, game_id=game_id, pairs=pairs,  # type: ignore[arg-type]
            points=tuple(int((totals or {}).get(side, 0)) for side in sides),  # type: ignore[arg-type]
            winner=won, forfeit=bool(forfeit),
        ))
    if not any(g.forfeit for g in out):
        return out
    scores = _pair_round_scores(out)
    for index, game in enumerate(out):
        if game.forfeit and game.winner is not None:
            won = _pair_bye_points(event, scores, game.round_number)
            out[index] = replace(game, points=(won, 0) if game.winner == game.pairs[0]
                                 else (0, won))
    return out


def walkover_points(event: Event) -> dict[int, dict[int, int]]:
    """What each walkover of a pair event is credited with, as the standings count it: game id
    -> {pair id: points} (the winner a bye's score, the pair that forfeited nothing). The
    bracket shows these, so a walkover reads the same on the bracket and in the standings."""
    return {game.game_id: dict(zip(game.pairs, game.points, strict=True))
            for game in _pair_games(event, None) if game.forfeit}


def _pair_round_scores(games: list[PairGame]) -> dict[int, RoundScores]:
    """Per round, what a bye is scored from: the games played out (not the walkovers)."""
    sums: dict[int, list[int]] = {}
    for game in games:
        if game.forfeit:
            continue
        row = sums.setdefault(game.round_number, [0, 0, 0, 0])
        if game.winner is not None:
            row[0] += game.points[game.pairs.index(game.winner)]
            row[1] += 1
        row[2] += sum(game.points)
        row[3] += 2
    return {number: RoundScores(*row) for number, row in sums.items()}


def _pair_bye_points(event: Event, scores: dict[int, RoundScores], number: int) -> int:
    return bye_score(scoring=event.bye_scoring, fixed_points=event.bye_points,
                     scores=scores.get(number, RoundScores()))


def _pair_byes(event: Event, rounds: Collection[int] | None,
               games: list[PairGame]) -> list[PairBye]:
    """A bye per pair and round, scored by the event's bye policy from that round's games."""
    byes = Bye.objects.filter(round__event=event, entry__pair__isnull=False)
    if rounds is not None:
        byes = byes.filter(round__number__in=list(rounds))
    sitting = set(byes.values_list("round__number", "entry__pair_id"))
    scores = _pair_round_scores(games)
    return [
        PairBye(round_number=number, pair_id=pair_id,
                points=_pair_bye_points(event, scores, number))
        for number, pair_id in sorted(sitting)
    ]


def _pair_line(row: PairRow, entries: list[int], counted: list[list[int]]) -> StandingRow:
    """A pair's line: its entries (the first stands for it) and its players' hands summed."""
    return {
        "rank": row.rank, "tied": row.tied, "pair_id": row.pair_id, "name": row.name,
        "players": list(row.players), "active": row.active, "wins": row.wins,
        "losses": row.losses, "games": row.games, "byes": row.byes,
        "points": row.points, "penalty_points": row.penalty_points, "against": row.against,
        "highest_game": row.highest_game, "per_round": per_round_text(row.per_round),
        "entry_id": entries[0] if entries else 0, "entry_ids": entries,
        "alternate": False,
        "hands_declared": sum(c[0] for c in counted), "hands_made": sum(c[1] for c in counted),
        "hands_set": sum(c[2] for c in counted), "bye_points": 0,
    }


def _pair_rows(event: Event, rounds: Collection[int] | None) -> Computed:
    """Standings per pair: wins (a bye counts as one), points, then the named tie-breaks."""
    members: dict[int, list[tuple[int, str, bool]]] = {}
    for pair_id, entry_id, name, status in Entry.objects.filter(
            event=event, pair__isnull=False).order_by("pk").values_list(
            "pair_id", "pk", "player__name", "status"):
        members.setdefault(pair_id, []).append((entry_id, name, status == Entry.Status.ACTIVE))
    infos = [
        PairInfo(pair_id=pk, name=name or " & ".join(n for _, n, _ in members.get(pk, [])),
                 players=tuple(n for _, n, _ in members.get(pk, [])),
                 active=all(a for _, _, a in members.get(pk, [])))
        for pk, name in Pair.objects.filter(event=event).order_by("pk").values_list("pk", "name")
    ]
    games = _pair_games(event, rounds)
    hands: dict[int, list[int]] = {}
    for entry_id, declared, made, set_ in _results(event, rounds).values_list(
            "entry_id", "hands_declared", "hands_made", "hands_set"):
        sums = hands.setdefault(entry_id, [0, 0, 0])
        sums[0] += declared
        sums[1] += made
        sums[2] += set_
    tie_breaks = validate_pair_tie_breaks(event.tie_breaks or None)
    rows = []
    for row in pair_standings(infos, games, _pair_byes(event, rounds, games), tie_breaks,
                              penalties=penalty_sums(event, rounds)):
        entries = [e for e, _, _ in members.get(row.pair_id, [])]
        counted = [hands.get(e, [0, 0, 0]) for e in entries]
        rows.append(_pair_line(row, entries, counted))
    labels = [{"name": "wins", "label": gettext_noop("Wins (a bye counts as a win)")},
              {"name": "points", "label": "Total points"}]
    labels += [{"name": n, "label": PAIR_TIE_BREAKS[n]} for n in tie_breaks]
    return Computed(rows, labels)


def standings_compute(*, event: Event, rounds: Collection[int] | None = None) -> Computed:
    """The event's ranked standings from its seat results (no writes): over every round, or
    over the given rounds only (one stage's standings, e.g. the qualifying games). A pair
    event ranks its pairs. The director's penalties in force (of those rounds) are taken off
    the penalised player's points, or the pair's in a pair event (``conduct``)."""
    if event.is_pairs:
        return _pair_rows(event, rounds)
    tie_breaks = tie_breaks_in_force(event.tie_breaks, partnership=event.partnership)
    byes_of = Bye.objects.filter(round__event=event)
    if rounds is not None:
        byes_of = byes_of.filter(round__number__in=list(rounds))
    byes = list(byes_of.values_list("round__number", "entry_id"))
    averaged = event.bye_scoring in (Event.ByeScoring.AVERAGE_WINNING, Event.ByeScoring.AVERAGE_ALL)
    rows = standings_rows(
        totals=_entry_totals(event, rounds),
        byes=byes,
        round_scores=_round_scores(event, rounds) if byes and averaged else {},
        tie_breaks=tie_breaks,
        bye_scoring=event.bye_scoring,
        bye_points=event.bye_points,
        meetings_for=_meetings_for(event, rounds),
        penalties=penalty_sums(event, rounds),
    )
    return Computed([player_line(row) for row in rows], tie_break_labels(tie_breaks))


def qualifying_order(event: Event) -> list[tuple[int, int]]:
    """The players eligible for a cut or a place, in qualifying order, as (entry id, rank):
    the qualifying stage's standings without alternates and players who withdrew. In a pair
    event: the pairs still playing, as (pair id, rank)."""
    rounds = stage_rounds(event, Round.Stage.QUALIFYING)
    if event.is_pairs:
        # A pair that withdrew after the qualifying rounds (from a playoff under way) keeps its
        # place, so the bracket's seeds stay as drawn (its later matches are walkovers).
        last = max(rounds, default=0)
        kept = set(Entry.objects.filter(
            event=event, pair__isnull=False, status=Entry.Status.LEFT,
            left_after_round__gt=last).values_list("pair_id", flat=True)) if last else set()
        return [(r.get("pair_id", 0), r["rank"] or 0)
                for r in standings_compute(event=event, rounds=rounds).rows
                if r["active"] or r.get("pair_id") in kept]
    eligible = set(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, alternate=False)
        .values_list("pk", flat=True)
    )
    rows = standings_compute(event=event, rounds=rounds).rows
    return [(r["entry_id"], r["rank"] or 0) for r in rows if r["entry_id"] in eligible]
