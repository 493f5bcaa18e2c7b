"""Standings snapshots: built from the derived seat results, versioned, updated by Celery.

How an entry reaches the wall screen (docs/architecture.md, "A hand, end to end"):

1. the score-entry service stores the hand, rebuilds *that game's* seat results
   (``scoring.services.game_recompute``: the incremental step) and bumps ``Event.hands_version``;
2. on commit it calls ``common.tasks.standings_request_update``, which puts the event among
   those waiting and queues one ``compute_pending_standings`` run for all of them at most once
   per debounce window (a pending mark in the cache; the task is queued with a short countdown
   so a burst of entries, of every event, is folded into one run);
3. the run calls :func:`standings_update_pending`, and so :func:`standings_rebuild` with
   ``incremental`` for each event waiting: the totals of the entries of
   the games whose seat results changed are rebuilt, the others kept from its last run
   (:mod:`standings.incremental`; the same rows as ``standings.selectors.standings_compute``, one GROUP BY over
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
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TypeVar

from django.core.cache import cache
from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import (
    Exists,
    F,
    Field,
    Model,
    OuterRef,
    Q,
)
from django.utils import timezone

from common.tasks import standings_pending_return
from scoring.services import event_recompute
from tournaments.models import Event, Round

from .incremental import standings_rows_incremental
from .models import StandingsSnapshot
from .rows import Placement
from .selectors import Computed, standings_compute
from .status import status_snapshot_stored

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=Model)

REBUILDS_KEY = "standings:rebuilds:{event_id}"
RUNS_KEY = "standings:runs"


@transaction.atomic
def placements_store(*, event_id: int, placements: Sequence[Placement | Mapping[str, object]]
                     ) -> None:
    """Write the final places of a finished event (an empty list clears them on reopening):
    ``draw.services.event_placements_compute``'s, or an archive's as it was exported.
    The places are what the standings pages rank by from then on, so the version moves (the
    pages redraw, the cached regions of the last version are not served for this one)."""
    snapshot = _locked_snapshot(event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(
        placements=placements, version=F("version") + 1)
    snapshot.version += 1
    _publish_status(snapshot)


@transaction.atomic
def standings_version_bump(*, event_id: int) -> int:
    """Move the snapshot's version without changing its rows, for what the pages show besides
    them (``standings.signals``: a round of a later stage seated, whose tables the standings
    show from then on); returns the new version. The pages hear of it on commit."""
    snapshot = _locked_snapshot(event_id)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(version=F("version") + 1)
    snapshot.version += 1
    _publish_status(snapshot)
    return snapshot.version


# --- writing the snapshot ----------------------------------------------------------------------
def _count_rebuild(event_id: int) -> None:
    """A counter of snapshot computations per event (observability; tests use it)."""
    _count(REBUILDS_KEY.format(event_id=event_id))


def rebuild_count(*, event_id: int) -> int:
    try:
        return int(cache.get(REBUILDS_KEY.format(event_id=event_id)) or 0)
    except Exception:  # noqa: BLE001
        return 0


def _count(key: str) -> None:
    try:
        if not cache.add(key, 1, timeout=24 * 3600):
            cache.incr(key)
    except Exception:  # noqa: BLE001 - a counter is an observation, never a failure
        pass


def run_count() -> int:
    """Runs of :func:`standings_update_pending` (observability; tests use it)."""
    try:
        return int(cache.get(RUNS_KEY) or 0)
    except Exception:  # noqa: BLE001
        return 0


@transaction.atomic
def games_recompute(*, event: Event) -> int:
    """Rebuild every game's seat results of the event from its hands (the slow, sure path)."""
    return event_recompute(event=event)


# The lock taken on every run, as plain SQL (building and compiling the equivalent querysets cost
# several times the statements): the snapshot's columns but its rows, then the event's.
_LOCKED_FIELDS = [f for f in StandingsSnapshot._meta.concrete_fields
                  if f.name not in ("rows", "tie_breaks")]
_EVENT_FIELDS = list(Event._meta.concrete_fields)


def _lock_sql() -> tuple[str, str]:
    """The statement locking the snapshot row, and the one reading its event.

    Two statements, not a join: in PostgreSQL's read committed mode, a ``SELECT … FOR UPDATE``
    that waits for the lock re-reads the locked row once it is granted, but a row joined to it
    stays as the statement first saw it. A run that waited for another would take the event's
    ``hands_version`` from before the wait, and record its snapshot as behind hands it counted.
    The event's own statement, after the lock, sees every write committed until then."""
    qn = connection.ops.quote_name
    lock = (" FOR UPDATE" if connection.features.has_select_for_update else "")
    event_id = qn(StandingsSnapshot._meta.get_field("event").column)
    snapshot = (f"SELECT {', '.join(qn(f.column) for f in _LOCKED_FIELDS)} "  # noqa: S608
                f"FROM {qn(StandingsSnapshot._meta.db_table)} WHERE {event_id} = %s{lock}")
    event = (f"SELECT {', '.join(qn(f.column) for f in _EVENT_FIELDS)} "  # noqa: S608
             f"FROM {qn(Event._meta.db_table)} WHERE {qn(Event._meta.pk.column)} = %s")
    return snapshot, event


def _instance(model: type[M], fields: list[Field], values: tuple[object, ...]) -> M:
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
    its digest), with the event read once the lock is granted (:func:`_lock_sql`)."""
    lock_sql, event_sql = _lock_sql()
    with connection.cursor() as cursor:
        cursor.execute(lock_sql, [event_id])
        found = cursor.fetchone()
        if found is None:
            if not Event.objects.filter(pk=event_id).exists():
                raise Event.DoesNotExist(f"No event {event_id}")
            # A savepoint; two runs racing here are fine.
            StandingsSnapshot.objects.get_or_create(event_id=event_id)
            cursor.execute(lock_sql, [event_id])
            found = cursor.fetchone()
        if found is None:  # the event was deleted meanwhile
            raise Event.DoesNotExist(f"No event {event_id}")
        cursor.execute(event_sql, [event_id])
        event = cursor.fetchone()
    if event is None:
        raise Event.DoesNotExist(f"No event {event_id}")
    snapshot: StandingsSnapshot = _instance(StandingsSnapshot, _LOCKED_FIELDS, found)
    snapshot.event = _instance(Event, _EVENT_FIELDS, event)
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
    *, event_id: int, from_hands: bool = False, incremental: bool = False,
    publish_here: bool = False,
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

    ``publish_here`` (the worker's runs): the open pages are told of a new version by this
    process once it commits (``standings.status``), not by a second task.
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
    _publish_status(snapshot, publish_here=publish_here)
    return snapshot


def _publish_status(snapshot: StandingsSnapshot, *, publish_here: bool = False) -> None:
    """What the pages poll, into the cache on commit (standings.status)."""
    status_snapshot_stored(
        event_id=snapshot.event_id, version=snapshot.version,
        source_version=snapshot.source_version,
        computed_at=snapshot.computed_at.isoformat() if snapshot.computed_at else None,
        publish_here=publish_here)


def standings_update_pending(*, event_ids: Sequence[int], seconds: float) -> list[int]:
    """Bring the standings of the events waiting (``common.tasks``: every event a hand moved
    since the last run, oldest first) up to date, each in its own transaction and published by
    this process as it commits; returns the events served. Past ``seconds`` the rest are put
    back among those waiting with a run of their own, so one run never holds a worker process
    for long. An event that fails is logged and left to the reconcile (the others are served);
    the database away puts back every event not served and raises (the task's retry takes
    them)."""
    served: list[int] = []
    deadline = time.monotonic() + seconds
    if event_ids:
        _count(RUNS_KEY)
    for index, event_id in enumerate(event_ids):
        if index and time.monotonic() > deadline:
            standings_pending_return(event_ids=event_ids[index:])
            break
        try:
            standings_rebuild(event_id=event_id, incremental=True, publish_here=True)
        except Event.DoesNotExist:
            continue  # deleted after the hand that asked
        except (OperationalError, InterfaceError):
            standings_pending_return(event_ids=event_ids[index:], queue=False)
            raise
        except Exception:
            logger.exception("the standings of event %s failed; the reconcile retries", event_id)
            continue
        served.append(event_id)
    return served


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
    """Bring every snapshot that is behind its hands up to date; returns those events.

    With the shared set of events waiting (Redis), they are put among them with one pending run
    queued (:func:`standings_update_pending`: incremental, each event once, oldest first), the
    same path as a hand's: on a busy night most events are behind for the second between a
    hand and its run, and rebuilding them all here, from scratch and each under its snapshot's
    lock, took a worker process for many seconds and held up the very runs that serve them.
    Without the set (the embedded default, or Redis away) each is rebuilt here, in full."""
    behind = events_behind()
    if behind and standings_pending_return(event_ids=behind):
        return behind
    rebuilt = []
    for event_id in behind:
        try:
            standings_rebuild(event_id=event_id)
        except Event.DoesNotExist:
            continue
        rebuilt.append(event_id)
    return rebuilt
