"""Standings snapshots: built from the derived seat results, versioned, updated by Celery.

How an entry reaches the wall screen (DESIGN §3.1):

1. the score-entry service stores the hand, rebuilds *that game's* seat results
   (``scoring.services.game_recompute``: the incremental step) and bumps ``Event.hands_version``;
2. on commit it calls :func:`standings_request_update`, which queues the ``compute_standings``
   task at most once per debounce window per event (a pending mark in the cache; the task is
   queued with a short countdown so a burst of entries is folded into one run);
3. the task calls :func:`standings_rebuild`: one GROUP BY over the event's seat results, the pure
   ranking of ``scoring.standings_rules``, and a write of the snapshot only when something
   changed (the ``version`` moves only when the rows do; running it twice changes nothing);
4. pages poll the snapshot version and redraw.

Failure handling: queueing never raises (a broker outage must not fail a hand submission). A
snapshot whose ``source_version`` is below the event's ``hands_version`` is *behind*; the pages
say "updating…" and the periodic :func:`standings_reconcile` (Celery beat) rebuilds it.
A full rebuild from the hands (every game's seat results again, then the snapshot) is
:func:`standings_rebuild` with ``from_hands=True``, used by the ``rebuild_standings`` command.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Count, Exists, F, Max, OuterRef, Q, Sum

from tournaments.models import Bye, Entry, Event, Round

from .models import Game, SeatResult, StandingsSnapshot
from .standings_rules import (
    EntryTotals,
    Meeting,
    RoundScores,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
)

logger = logging.getLogger(__name__)

PENDING_KEY = "standings:pending:{event_id}"
REBUILDS_KEY = "standings:rebuilds:{event_id}"


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


@dataclass(frozen=True)
class Computed:
    rows: list[dict[str, Any]]
    tie_breaks: list[dict[str, str]]


# --- reading the seat results ------------------------------------------------------------------
def _entry_totals(event: Event) -> list[EntryTotals]:
    """One GROUP BY over the event's seat results (index seatresult_event_entry_idx)."""
    names = {
        pk: (name, status == Entry.Status.ACTIVE)
        for pk, name, status in Entry.objects.filter(event=event).values_list(
            "pk", "player__name", "status"
        )
    }
    aggregates: dict[str, Any] = {
        "sum_points": Sum("points"),
        "n_games": Count("id", filter=Q(finished=True)),
        "n_wins": Count("id", filter=Q(won=True, finished=True)),
        "declared": Sum("hands_declared"),
        "made": Sum("hands_made"),
        "set": Sum("hands_set"),
        "best": Max("points", filter=Q(finished=True)),
    }
    postgres = connection.vendor == "postgresql"
    if postgres:
        from django.contrib.postgres.aggregates import ArrayAgg  # noqa: PLC0415

        # Per-round points ride along in the same query: one row per entry, not per game.
        aggregates["rounds"] = ArrayAgg("round_number", order_by=("round_number", "game_id"))
        aggregates["round_points"] = ArrayAgg("points", order_by=("round_number", "game_id"))
    grouped = (
        SeatResult.objects.filter(event=event).order_by().values("entry_id").annotate(**aggregates)
    )
    per_round: dict[int, dict[int, int]] = {}
    found: dict[int, dict[str, Any]] = {}
    for row in grouped:
        found[row["entry_id"]] = row
        if postgres:
            rounds: dict[int, int] = {}
            for number, points in zip(row["rounds"], row["round_points"], strict=True):
                rounds[number] = rounds.get(number, 0) + points
            per_round[row["entry_id"]] = rounds
    if not postgres:
        for entry_id, number, points in SeatResult.objects.filter(event=event).values_list(
            "entry_id", "round_number", "points"
        ):
            rounds = per_round.setdefault(entry_id, {})
            rounds[number] = rounds.get(number, 0) + points
    totals = []
    for pk, (name, active) in names.items():
        agg = found.get(pk)
        if agg is None:
            totals.append(EntryTotals(entry_id=pk, name=name, active=active))
            continue
        totals.append(EntryTotals(
            entry_id=pk, name=name, active=active, points=agg["sum_points"] or 0,
            games=agg["n_games"], wins=agg["n_wins"], hands_declared=agg["declared"] or 0,
            hands_made=agg["made"] or 0, hands_set=agg["set"] or 0, highest_game=agg["best"],
            per_round=per_round.get(pk, {}),
        ))
    return totals


def _round_scores(event: Event) -> dict[int, RoundScores]:
    """Per round, the finished games' winning scores and all scores (for bye averages)."""
    rows = (
        SeatResult.objects.filter(event=event, finished=True).order_by().values("round_number")
        .annotate(
            wt=Sum("points", filter=Q(won=True)), wc=Count("id", filter=Q(won=True)),
            at=Sum("points"), ac=Count("id"),
        )
    )
    return {
        r["round_number"]: RoundScores(r["wt"] or 0, r["wc"], r["at"] or 0, r["ac"]) for r in rows
    }


def _meetings_for(event: Event) -> Any:
    def meetings(ids: set[int]) -> list[Meeting]:
        return [
            Meeting(*values)
            for values in SeatResult.objects.filter(
                event=event, entry_id__in=ids, finished=True
            ).values_list("game_id", "entry_id", "side", "won")
        ]

    return meetings


def standings_compute(*, event: Event) -> Computed:
    """The event's ranked standings from its seat results (no writes)."""
    tie_breaks = tie_breaks_in_force(event.tie_breaks, partnership=event.partnership)
    byes = list(Bye.objects.filter(round__event=event).values_list("round__number", "entry_id"))
    needs_rounds = bool(byes) and event.bye_scoring in ("average_winning", "average_all")
    rows = standings_rows(
        totals=_entry_totals(event),
        byes=byes,
        round_scores=_round_scores(event) if needs_rounds else {},
        tie_breaks=tie_breaks,
        bye_scoring=event.bye_scoring,
        bye_points=event.bye_points,
        meetings_for=_meetings_for(event),
    )
    return Computed([row.to_dict() for row in rows], tie_break_labels(tie_breaks))


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
    from .services import game_recompute  # noqa: PLC0415 (services import this module)

    games = list(Game.objects.filter(table__round__event=event).order_by("pk"))
    for game in games:
        game_recompute(game=game)
    return len(games)


@transaction.atomic
def standings_rebuild(*, event_id: int, from_hands: bool = False) -> StandingsSnapshot:
    """Bring the event's snapshot up to date and return it.

    Idempotent: when the computed rows equal the stored ones nothing is written and the version
    stays. The snapshot row lock serialises concurrent rebuilds of one event; the event's
    ``hands_version`` is read *before* the seat results, so ``source_version`` can only
    understate what the rows contain (at worst the reconcile task rebuilds once more), never
    overstate it. Hand writers are not blocked: the event row is not locked here.
    """
    event = Event.objects.get(pk=event_id)
    if from_hands:
        games_recompute(event=event)
    snapshot, _ = StandingsSnapshot.objects.get_or_create(event=event)
    snapshot = StandingsSnapshot.objects.select_for_update().get(pk=snapshot.pk)
    source_version = Event.objects.values_list("hands_version", flat=True).get(pk=event_id)
    event.hands_version = source_version
    computed = standings_compute(event=event)
    _count_rebuild(event_id)
    changed = snapshot.rows != computed.rows or snapshot.tie_breaks != computed.tie_breaks
    if changed or snapshot.version == 0:
        snapshot.version += 1
        snapshot.rows = computed.rows
        snapshot.tie_breaks = computed.tie_breaks
        snapshot.source_version = max(snapshot.source_version, source_version)
        snapshot.save()
    elif source_version > snapshot.source_version:
        # Same rows from newer hands (e.g. a correction that changed nothing in the totals):
        # record that the snapshot is current without moving the version pages redraw on.
        StandingsSnapshot.objects.filter(pk=snapshot.pk).update(source_version=source_version)
        snapshot.source_version = source_version
    return snapshot


def standings_request_update(*, event_id: int) -> None:
    """Queue a standings update once the current transaction commits. Never raises.

    At most one update per event is queued per debounce window (``STANDINGS_DEBOUNCE_SECONDS``,
    the countdown the task waits before running): every hand committed before the task starts is
    folded into that one run; a hand committed after it starts queues the next. When the broker
    is unreachable the failure is logged and the reconcile task catches the snapshot up.
    """

    def queue() -> None:
        from .tasks import compute_standings  # noqa: PLC0415 (tasks import this module)

        key = PENDING_KEY.format(event_id=event_id)
        debounce = _setting("STANDINGS_DEBOUNCE_SECONDS", 1.0)
        pending_for = max(int(_setting("STANDINGS_PENDING_SECONDS", 30)), 1)
        try:
            if not cache.add(key, 1, timeout=pending_for):
                return  # an update is queued and has not started: it will see this change
        except Exception:  # noqa: BLE001 - cache down: queue anyway (the broker likely is too)
            logger.warning("cache unavailable; queueing standings update for %s", event_id)
        try:
            compute_standings.apply_async((event_id,), countdown=debounce, retry=False)
        except Exception:  # noqa: BLE001 - broker down: reconcile catches up later
            logger.warning("could not queue standings update for event %s", event_id,
                           exc_info=True)
            with contextlib.suppress(Exception):
                cache.delete(key)

    transaction.on_commit(queue, robust=True)


def standings_clear_pending(*, event_id: int) -> None:
    """Called by the task as it starts: entries from now on queue a new update."""
    with contextlib.suppress(Exception):  # the mark is an optimisation only
        cache.delete(PENDING_KEY.format(event_id=event_id))


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
