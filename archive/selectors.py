"""Reading an event into its archive (``archive.format`` describes the format).

:func:`event_archive` reads every row of one event in a handful of queries and writes them in
a stable order: entries, pairs and log lines in the order they were made (database order, which
an import keeps by inserting in the archive's order), rounds by number, tables by round and
number, seats N, E, S, W, hands by table and then as entered, revisions by number. Players are
listed in the order of their entries. So exporting an event, importing it into an empty
database and exporting it again gives the same bytes.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import models

from scoring.models import Game, Hand, HandRevision
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from tournaments.models import Bye, Entry, Event, EventLog, Pair, Round, Seat, Table, TableCard

from .format import (
    ENTRY,
    FORMAT_NAME,
    GAME,
    LOG_REFS,
    PAIR,
    PLAYER,
    ROUND,
    SECTIONS,
    STANDINGS_REFS,
    TABLE,
    USER,
    VERSION,
    Section,
    canonical,
    dumps,
    timestamp,
)
from .models import EventImport, ImportJob

POSITIONS = "NESW"

# resolve(kind, database id) -> what the archive writes for it
Resolve = Callable[[str, Any], Any]


def field_value(model: type[models.Model], name: str, value: Any) -> Any:
    """A stored value as the archive writes it."""
    field: Any = model._meta.get_field(name)
    return _written(field.get_internal_type(), value)


def _written(internal: str, value: Any) -> Any:
    """A stored value of a field of type ``internal`` as the archive writes it."""
    if value is None:
        return None
    if internal == "DateTimeField":
        return timestamp(value)
    if internal == "DateField":
        assert isinstance(value, datetime.date)
        return value.isoformat()
    if internal == "JSONField":
        return canonical(value)
    return value


# section -> each field of its layout: (name, reference kind or None, internal type, attname);
# looked up once per section, not once per row and field.
_PLANS: dict[int, tuple[tuple[str, str | None, str, str], ...]] = {}


def _plan(section: Section) -> tuple[tuple[str, str | None, str, str], ...]:
    plan = _PLANS.get(id(section))
    if plan is None:
        fields = []
        for name in section.layout:
            field: Any = section.model._meta.get_field(name)
            fields.append((name, section.refs.get(name), field.get_internal_type(),
                           field.attname))
        plan = _PLANS[id(section)] = tuple(fields)
    return plan


def section_row(section: Section, obj: models.Model, resolve: Resolve,
                local_id: int | None = None) -> dict[str, Any]:
    """One row of a section: its local id, then its fields in the section's layout."""
    out: dict[str, Any] = {}
    if section.local_id:
        out["id"] = local_id
    for name, kind, internal, attname in _plan(section):
        if kind is None:
            out[name] = _written(internal, getattr(obj, name))
            continue
        value = getattr(obj, attname)
        if kind in (TABLE, GAME):
            out["round"], out["table"] = resolve(kind, value)
        else:
            out[name] = resolve(kind, value)
    return out


def map_refs(data: Mapping[str, Any], refs: Mapping[str, str], resolve: Resolve) -> dict[str, Any]:
    """``data`` with the ids under ``refs``' keys (single ids or lists) resolved."""
    out = dict(data)
    for key, kind in refs.items():
        value = out.get(key)
        if isinstance(value, list):
            out[key] = [_resolve_id(kind, v, resolve) for v in value]
        elif key in out:
            out[key] = _resolve_id(kind, value, resolve)
    return out


def _resolve_id(kind: str, value: Any, resolve: Resolve) -> Any:
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return value
    return resolve(kind, value)


def event_archive(*, event: Event) -> dict[str, Any]:
    """The event's complete archive as a JSON-ready dict (no writes). The event's row is read
    afresh: an instance held since before the last hand would carry an old ``hands_version``."""
    event = Event.objects.select_related("club").get(pk=event.pk)
    entries = list(Entry.objects.filter(event=event).select_related("player").order_by("pk"))
    players: list[Any] = []
    ids: dict[str, dict[int, int]] = {PLAYER: {}, PAIR: {}, ENTRY: {}}
    for entry in entries:
        if entry.player_id not in ids[PLAYER]:
            players.append(entry.player)
            ids[PLAYER][entry.player_id] = len(players)
    for number, entry in enumerate(entries, start=1):
        ids[ENTRY][entry.pk] = number
    pairs = list(Pair.objects.filter(event=event).order_by("pk"))
    ids[PAIR] = {pair.pk: number for number, pair in enumerate(pairs, start=1)}

    rounds = list(Round.objects.filter(event=event).order_by("number"))
    round_number = {r.pk: r.number for r in rounds}
    tables = sorted(Table.objects.filter(round__event=event),
                    key=lambda t: (round_number[t.round_id], t.number))
    table_key = {t.pk: (round_number[t.round_id], t.number) for t in tables}
    table_order = {t.pk: i for i, t in enumerate(tables)}
    games = sorted(Game.objects.filter(table__round__event=event),
                   key=lambda g: table_order[g.table_id])
    game_table = {g.pk: g.table_id for g in games}
    seats = sorted(Seat.objects.filter(round__event=event),
                   key=lambda s: (table_order[s.table_id], POSITIONS.index(s.position)))
    byes = sorted(Bye.objects.filter(round__event=event),
                  key=lambda b: (round_number[b.round_id], ids[ENTRY].get(b.entry_id, 0)))
    hands = sorted(Hand.objects.filter(game__table__round__event=event),
                   key=lambda h: (table_order[game_table[h.game_id]], h.pk))
    revisions: dict[int, list[HandRevision]] = {}
    for revision in HandRevision.objects.filter(
            hand__game__table__round__event=event).order_by("hand_id", "revision"):
        revisions.setdefault(revision.hand_id, []).append(revision)
    log = list(EventLog.objects.filter(event=event).order_by("created_at", "pk"))

    user_ids = {event.created_by_id} | {r.author_id for rs in revisions.values() for r in rs}
    user_ids |= {line.actor_id for line in log}
    usernames = dict(get_user_model().objects.filter(
        pk__in=[pk for pk in user_ids if pk is not None]).values_list("pk", "username"))
    imported = EventImport.objects.filter(event=event).values_list("usernames", flat=True).first()
    kept: dict[str, Any] = imported or {}

    def resolve(kind: str, value: Any) -> Any:
        if kind == TABLE:
            return table_key[value]
        if kind == GAME:
            return table_key[game_table[value]]
        if kind == ROUND:
            return round_number[value]
        if kind == USER:
            return usernames.get(value) if value is not None else None
        return ids[kind].get(value) if value is not None else None

    def user_of(pk: int | None, fallback: Any) -> Any:
        return usernames.get(pk) if pk is not None else fallback

    event_row = section_row(SECTIONS["event"], event, resolve)
    event_row["created_by"] = user_of(event.created_by_id, kept.get("event"))

    hand_rows = []
    for hand in hands:
        row = section_row(SECTIONS["hands"], hand, resolve)
        row["revisions"] = []
        for revision in revisions.get(hand.pk, []):
            item = section_row(SECTIONS["revisions"], revision, resolve)
            item["author"] = user_of(revision.author_id,
                                     kept.get("revisions", {}).get(str(revision.pk)))
            row["revisions"].append(item)
        hand_rows.append(row)

    log_rows = []
    for line in log:
        row = section_row(SECTIONS["log"], line, resolve)
        row["actor"] = user_of(line.actor_id, kept.get("log", {}).get(str(line.pk)))
        row["details"] = canonical(map_refs(line.details or {}, LOG_REFS.get(line.action, {}),
                                            resolve))
        log_rows.append(row)

    computed = standings_compute(event=event)
    placements = StandingsSnapshot.objects.filter(event=event).values_list(
        "placements", flat=True).first() or []
    return {
        "format": FORMAT_NAME,
        "version": VERSION,
        "club": section_row(SECTIONS["club"], event.club, resolve),
        "players": [section_row(SECTIONS["players"], p, resolve, n)
                    for n, p in enumerate(players, start=1)],
        "event": event_row,
        "pairs": [section_row(SECTIONS["pairs"], p, resolve, ids[PAIR][p.pk]) for p in pairs],
        "entries": [section_row(SECTIONS["entries"], e, resolve, ids[ENTRY][e.pk])
                    for e in entries],
        "table_cards": [section_row(SECTIONS["table_cards"], c, resolve)
                        for c in TableCard.objects.filter(event=event).order_by("number")],
        "rounds": [section_row(SECTIONS["rounds"], r, resolve) for r in rounds],
        "tables": [section_row(SECTIONS["tables"], t, resolve) for t in tables],
        "seats": [section_row(SECTIONS["seats"], s, resolve) for s in seats],
        "byes": [section_row(SECTIONS["byes"], b, resolve) for b in byes],
        "games": [section_row(SECTIONS["games"], g, resolve) for g in games],
        "hands": hand_rows,
        "log": log_rows,
        "standings": {
            "tie_breaks": canonical(computed.tie_breaks),
            "rows": standings_local(computed.rows, resolve),
            "placements": standings_local(placements, resolve),
        },
    }


def standings_local(rows: list[dict[str, Any]], resolve: Resolve) -> list[dict[str, Any]]:
    """Standings rows or placements with their ids resolved (``STANDINGS_REFS``)."""
    return [canonical(map_refs(row, STANDINGS_REFS, resolve)) for row in rows]


def event_archive_bytes(*, event: Event) -> bytes:
    """The event's archive as the file a director downloads."""
    return dumps(event_archive(event=event))


def archive_filename(event: Event) -> str:
    return f"event-{event.pk}-{event.date.isoformat()}.json"


# --- import jobs -------------------------------------------------------------------------------
JOB_PROGRESS_KEY = "archive:job:{job_id}:progress"


def import_job_get(*, club: Any, pk: int) -> ImportJob | None:
    return (ImportJob.objects.filter(club=club, pk=pk).defer("data")
            .select_related("event").first())


def import_job_status(job: ImportJob) -> dict[str, Any]:
    """What the status page and the API show of a job: ``status``, ``stage``, ``progress``
    (0-100; the worker's live progress from the cache while it runs), the event once imported
    and the problems once refused."""
    stage, progress = job.stage, job.progress
    if job.status == ImportJob.Status.RUNNING:
        with contextlib.suppress(Exception):  # the cache is only for the live figure
            live = cache.get(JOB_PROGRESS_KEY.format(job_id=job.pk))
            if live:
                stage, progress = str(live[0]), int(live[1])
    return {"id": job.pk, "status": job.status, "status_label": job.get_status_display(),
            "stage": stage, "progress": progress, "size": job.size, "hands": job.hands,
            "finished": job.finished, "event_id": job.event_id,
            "event_name": job.event.name if job.event else "",
            "problems": job.problems, "report": job.report,
            "created_at": job.created_at, "finished_at": job.finished_at}
