"""Standings snapshots: built from the derived seat results, versioned, updated by Celery.

How an entry reaches the wall screen (docs/architecture.md, "A hand, end to end"):

1. the score-entry service stores the hand, rebuilds *that game's* seat results
   (``scoring.services.game_recompute``: the incremental step) and bumps ``Event.hands_version``;
2. on commit it calls ``common.tasks.standings_request_update``, which queues the ``compute_standings``
   task at most once per debounce window per event (a pending mark in the cache; the task is
   queued with a short countdown so a burst of entries is folded into one run);
3. the task calls :func:`standings_rebuild` with ``incremental``: the totals of the entries of
   the games whose seat results changed are rebuilt, the others kept from its last run
   (:mod:`standings.incremental`; the same rows as :func:`standings_compute`, one GROUP BY over
   the event's seat results), the pure ranking of ``ranking.standings``, and a write of the
   snapshot only when something changed (the ``version`` moves only when the rows do; running
   it twice changes nothing);
4. pages poll the snapshot version and redraw.

Failure handling: queueing never raises (a broker outage must not fail a hand submission). A
snapshot whose ``source_version`` is below the event's ``hands_version`` is *behind*; the pages
say "updating…" and the periodic :func:`standings_reconcile` (Celery beat) rebuilds it, always
re-aggregating everything.
A full rebuild from the hands (every game's seat results again, then the snapshot) is
:func:`standings_rebuild` with ``from_hands=True``, used by the ``rebuild_standings`` command.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import (
    Aggregate,
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Q,
    Sum,
    TextField,
)
from django.utils import timezone

from common.standings_status import status_snapshot_stored
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
    pair_standings,
    validate_pair_tie_breaks,
)
from scoring.models import Game, SeatResult
from scoring.services import event_recompute
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat

from .incremental import standings_rows_incremental
from .models import StandingsSnapshot

logger = logging.getLogger(__name__)

REBUILDS_KEY = "standings:rebuilds:{event_id}"


@dataclass(frozen=True)
class Computed:
    rows: list[dict[str, Any]]
    tie_breaks: list[dict[str, str]]
    # The rows as JSON text (``json.dumps(rows, separators=(",", ":"), sort_keys=True)``) when
    # the computation has it already (the incremental path reuses unchanged rows' text).
    rows_json: str | None = None


# --- reading the seat results ------------------------------------------------------------------
class RoundPoints(Aggregate):
    """An entry's points per round as a JSON object ``{"round number": points}`` (JSON text):
    ``json_object_agg`` on PostgreSQL, ``json_group_object`` on SQLite. An entry sits at one
    table per round (constraint ``seat_entry_once_per_round``), so the keys are unique."""

    function = "json_object_agg"
    template = "%(function)s(%(expressions)s)"
    output_field = TextField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="%(function)s(%(expressions)s)::text",
                           **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="json_group_object", **extra)


def _results(event: Event, rounds: Collection[int] | None) -> Any:
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


def _meetings_for(event: Event, rounds: Collection[int] | None = None) -> Any:
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
    """The finished games of a pair event, pair against pair (the N seat's pair plays N-S).

    A forfeited game (a walkover) scores like a bye for the pair that won it (the event's bye
    policy, from the round's games played out) and nothing for the pair that forfeited."""
    pair_at: dict[tuple[int, str], int] = {}
    seats = Seat.objects.filter(round__event=event, position__in=("N", "E"))
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
        ns, ew = pair_at.get((table_id, "N")), pair_at.get((table_id, "E"))
        if ns is None or ew is None:
            continue
        side = winner or cut_winner
        out.append(PairGame(
            round_number=number, game_id=game_id, pairs=(ns, ew),
            points=(int((totals or {}).get("NS", 0)), int((totals or {}).get("EW", 0))),
            winner=ns if side == "NS" else ew if side == "EW" else None,
            forfeit=bool(forfeit),
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
    for row in pair_standings(infos, games, _pair_byes(event, rounds, games), tie_breaks):
        data = row.to_dict()
        entries = [e for e, _, _ in members.get(row.pair_id, [])]
        counted = [hands.get(e, [0, 0, 0]) for e in entries]
        data.update({
            "entry_id": entries[0] if entries else 0, "entry_ids": entries,
            "alternate": False,
            "hands_declared": sum(c[0] for c in counted), "hands_made": sum(c[1] for c in counted),
            "hands_set": sum(c[2] for c in counted),
        })
        data.setdefault("bye_points", 0)
        rows.append(data)
    labels = [{"name": "wins", "label": "Wins (a bye counts as a win)"},
              {"name": "points", "label": "Total points"}]
    labels += [{"name": n, "label": PAIR_TIE_BREAKS[n]} for n in tie_breaks]
    return Computed(rows, labels)


def standings_compute(*, event: Event, rounds: Collection[int] | None = None) -> Computed:
    """The event's ranked standings from its seat results (no writes): over every round, or
    over the given rounds only (one stage's standings, e.g. the qualifying games). A pair
    event ranks its pairs."""
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
    )
    return Computed([row.to_dict() for row in rows], tie_break_labels(tie_breaks))


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
        return [(int(r["pair_id"]), int(r["rank"]))
                for r in standings_compute(event=event, rounds=rounds).rows
                if r["active"] or r["pair_id"] in kept]
    eligible = set(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, alternate=False)
        .values_list("pk", flat=True)
    )
    rows = standings_compute(event=event, rounds=rounds).rows
    return [(int(r["entry_id"]), int(r["rank"])) for r in rows if r["entry_id"] in eligible]


@transaction.atomic
def placements_store(*, event_id: int, placements: list[dict[str, Any]]) -> None:
    """Write the final places of a finished event (an empty list clears them on reopening)."""
    snapshot = _locked_snapshot(event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(placements=placements)


# --- writing the snapshot ----------------------------------------------------------------------
def _count_rebuild(event_id: int) -> None:
    """A counter of snapshot computations per event (observability; tests use it)."""
    key = REBUILDS_KEY.format(event_id=event_id)
    try:
        if not cache.add(key, 1, timeout=24 * 3600):
            cache.incr(key)
    except Exception:  # noqa: BLE001 - the counter is an observation, never a failure
        pass


def rebuild_count(*, event_id: int) -> int:
    try:
        return int(cache.get(REBUILDS_KEY.format(event_id=event_id)) or 0)
    except Exception:  # noqa: BLE001
        return 0


@transaction.atomic
def games_recompute(*, event: Event) -> int:
    """Rebuild every game's seat results of the event from its hands (the slow, sure path)."""
    return event_recompute(event=event)


# The lock taken on every hand, as plain SQL (building and compiling the equivalent queryset,
# ``select_for_update(of=("self",)).select_related("event").defer("rows", "tie_breaks")``, cost
# several times the query): the snapshot's columns but its rows, and the event's.
_LOCKED_FIELDS = [f for f in StandingsSnapshot._meta.concrete_fields
                  if f.name not in ("rows", "tie_breaks")]
_EVENT_FIELDS = list(Event._meta.concrete_fields)


def _lock_sql() -> str:
    qn = connection.ops.quote_name
    columns = [f"s.{qn(f.column)}" for f in _LOCKED_FIELDS]
    columns += [f"e.{qn(f.column)}" for f in _EVENT_FIELDS]
    lock = (" FOR UPDATE OF s" if connection.features.has_select_for_update_of
            else " FOR UPDATE" if connection.features.has_select_for_update else "")
    event_id = qn(StandingsSnapshot._meta.get_field("event").column)
    return (f"SELECT {', '.join(columns)} FROM {qn(StandingsSnapshot._meta.db_table)} s "  # noqa: S608
            f"JOIN {qn(Event._meta.db_table)} e ON e.{qn(Event._meta.pk.column)} = s.{event_id} "
            f"WHERE s.{event_id} = %s{lock}")


def _instance(model: Any, fields: list[Any], values: tuple[Any, ...]) -> Any:
    """A model instance from raw column values, converted as the ORM converts them (SQLite
    answers dates as text, JSON fields are parsed); the fields not given are deferred."""
    converted = []
    for field, value in zip(fields, values, strict=True):
        col = field.get_col(model._meta.db_table)
        for converter in (*connection.ops.get_db_converters(col),
                          *col.get_db_converters(connection)):
            value = converter(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)


def _locked_snapshot(event_id: int) -> StandingsSnapshot:
    """The event's snapshot row, locked, without its rows (an unchanged result is recognised by
    its digest), with the event read in the same query (after the lock is granted)."""
    sql = _lock_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [event_id])
        found = cursor.fetchone()
        if found is None:
            if not Event.objects.filter(pk=event_id).exists():
                raise Event.DoesNotExist(f"No event {event_id}")
            # A savepoint; two runs racing here are fine.
            StandingsSnapshot.objects.get_or_create(event_id=event_id)
            cursor.execute(sql, [event_id])
            found = cursor.fetchone()
    if found is None:  # the event was deleted meanwhile
        raise Event.DoesNotExist(f"No event {event_id}")
    split = len(_LOCKED_FIELDS)
    snapshot: StandingsSnapshot = _instance(StandingsSnapshot, _LOCKED_FIELDS, found[:split])
    snapshot.event = _instance(Event, _EVENT_FIELDS, found[split:])
    return snapshot


# Plain SQL on the path of every hand (the ORM's compilation cost more than the statement).
# The rows go in as text: ``json`` on PostgreSQL (kept as written), text on SQLite.
_STORE_SQL = (
    f"UPDATE {StandingsSnapshot._meta.db_table} SET rows = %s, tie_breaks = %s, "  # noqa: S608
    "digest = %s, version = version + 1, computed_at = %s, "
    "source_version = CASE WHEN source_version < %s THEN %s ELSE source_version END "
    "WHERE id = %s"
)


def _store_if_changed(
    snapshot: StandingsSnapshot, computed: Computed, hands_version: int, now: datetime
) -> bool:
    """Write the rows and bump the version only if they differ from the stored ones.

    The snapshot (locked by the caller) carries a digest of what it stores, so an unchanged
    result costs no write and no comparison of rows in the database; this is on the path of
    every entry.
    """
    # The rows are serialised once, for the digest and the write (the text of
    # ``json.dumps([rows, tie_breaks], ...)``, so digests stored earlier still compare).
    rows_json = computed.rows_json or json.dumps(computed.rows, separators=(",", ":"),
                                                 sort_keys=True)
    labels_json = json.dumps(computed.tie_breaks, separators=(",", ":"), sort_keys=True)
    digest = hashlib.sha256(f"[{rows_json},{labels_json}]".encode()).hexdigest()
    if digest == snapshot.digest and snapshot.version > 0:
        return False
    with connection.cursor() as cursor:
        cursor.execute(_STORE_SQL, [
            rows_json, labels_json, digest, connection.ops.adapt_datetimefield_value(now),
            hands_version, hands_version, snapshot.pk,
        ])
    snapshot.digest = digest
    return True


@transaction.atomic
def standings_rebuild(
    *, event_id: int, from_hands: bool = False, incremental: bool = False
) -> StandingsSnapshot:
    """Bring the event's snapshot up to date and return it.

    ``incremental`` (the standings task after a hand): the rows come from
    :mod:`standings.incremental`, which keeps per-entry totals current from the games that
    changed since its last run; they equal :func:`standings_compute`'s. Without it (and always
    with ``from_hands``) everything is re-aggregated: the safety net of the reconcile task and
    ``rebuild_standings``.

    Idempotent: when the computed rows equal the stored ones (compared by the database, so the
    stored rows are never loaded) nothing is written and the version stays. The snapshot row
    lock serialises concurrent rebuilds of one event; the event (and its ``hands_version``) is
    read after the lock and *before* the seat results, so ``source_version`` can only understate
    what the rows contain (at worst the reconcile task rebuilds once more), never overstate it.
    Hand writers are not blocked: the event row is not locked here.
    """
    if from_hands:
        games_recompute(event=Event.objects.get(pk=event_id))
    snapshot = _locked_snapshot(event_id)
    event = snapshot.event
    fast = (standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
            if incremental and not from_hands else None)
    computed = Computed(*fast) if fast is not None else standings_compute(event=event)
    _count_rebuild(event_id)
    now = timezone.now()
    changed = _store_if_changed(snapshot, computed, event.hands_version, now)
    if changed:
        snapshot.version += 1
        snapshot.source_version = max(snapshot.source_version, event.hands_version)
        snapshot.computed_at = now
    elif event.hands_version > snapshot.source_version:
        # Same rows from newer hands (e.g. a correction that changed nothing in the totals):
        # record that the snapshot is current without moving the version pages redraw on.
        StandingsSnapshot.objects.filter(pk=snapshot.pk).update(source_version=event.hands_version)
        snapshot.source_version = event.hands_version
    snapshot.rows = computed.rows
    snapshot.tie_breaks = computed.tie_breaks
    _publish_status(snapshot)
    return snapshot


def _publish_status(snapshot: StandingsSnapshot) -> None:
    """What the pages poll, into the cache on commit (common.standings_status)."""
    status_snapshot_stored(
        event_id=snapshot.event_id, version=snapshot.version,
        source_version=snapshot.source_version,
        computed_at=snapshot.computed_at.isoformat() if snapshot.computed_at else None)


def events_behind() -> list[int]:
    """Events whose snapshot is older than their hands, or missing while they have rounds."""
    has_rounds = Exists(Round.objects.filter(event=OuterRef("pk")))
    return list(
        Event.objects.filter(
            Q(standings__source_version__lt=F("hands_version"))
            | (Q(standings__isnull=True) & has_rounds)
        ).order_by("pk").values_list("pk", flat=True)
    )


def standings_reconcile() -> list[int]:
    """Rebuild every snapshot that is behind its hands; returns the events rebuilt."""
    rebuilt = []
    for event_id in events_behind():
        try:
            standings_rebuild(event_id=event_id)
        except Event.DoesNotExist:
            continue
        rebuilt.append(event_id)
    return rebuilt
