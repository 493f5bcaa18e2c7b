"""Reading an event into its archive (``archive.format`` describes the format).

:func:`event_archive` reads every row of one event in a handful of queries and writes them in
a stable order: entries, pairs and log lines in the order they were made (database order, which
an import keeps by inserting in the archive's order), rounds by number, tables by round and
number, seats clockwise from North, hands by table and then as entered, revisions by number. Players are
listed in the order of their entries. So exporting an event, importing it into an empty
database and exporting it again gives the same bytes.
"""

from __future__ import annotations

import contextlib
import datetime
import json
from collections.abc import Callable, Iterable, Mapping
from operator import itemgetter
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection, models
from django.db.models.functions import Cast

from clubs.models import Club
from common.collector import collector_paused
from common.labels import SEATS
from conduct.models import Appeal, Penalty
from scoring.models import Game, Hand, HandRevision
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from tournaments.models import Bye, Entry, Event, EventLog, Pair, Round, Seat, Table, TableCard

from .format import (
    APPEAL,
    ENTRY,
    FORMAT_NAME,
    GAME,
    GAME_AT,
    LOG_REFS,
    PAIR,
    PENALTY,
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

# Where an imported event keeps the user names of its penalties and appeals
# (``archive.models.EventImport.usernames``: section -> {row's id: user name}), by field.
KEPT_USERS = {"created_by": "penalties_created", "withdrawn_by": "penalties_withdrawn",
              "decided_by": "appeals"}

# resolve(kind, database id) -> what the archive writes for it
Resolve = Callable[[str, Any], Any]


def field_value(model: type[models.Model], name: str, value: object) -> object:
    """A stored value as the archive writes it."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # the sections' layouts name fields
    return _written(field.get_internal_type(), value)


def _written(internal: str, value: object) -> object:
    """A stored value of a field of type ``internal`` as the archive writes it."""
    if value is None:
        return None
    if internal == "DateTimeField":
        assert isinstance(value, datetime.datetime)
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
            field = section.model._meta.get_field(name)
            assert isinstance(field, models.Field)  # a layout names fields
            fields.append((name, section.refs.get(name), field.get_internal_type(),
                           field.attname))
        plan = _PLANS[id(section)] = tuple(fields)
    return plan


class ArchiveTime(models.Func):
    """A stored time as the archive writes it (:func:`archive.format.timestamp`: UTC, with
    microseconds), written by PostgreSQL: a day's archive holds some 5,000 times, and reading
    each into a ``datetime`` to write it back cost a sixth of the export."""

    template = "to_char(%(expressions)s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
    output_field = models.CharField()


def _times_in_sql() -> bool:
    return connection.vendor == "postgresql"


def _sorted_object(pairs: list[tuple[str, object]]) -> dict[str, object]:
    return dict(sorted(pairs, key=itemgetter(0)))


# made once: ``json.loads`` with a hook makes a decoder per call
_read_sorted = json.JSONDecoder(object_pairs_hook=_sorted_object).raw_decode


def _canonical_text(text: str) -> object:
    """A stored JSON value, read as text (as the database writes it: nothing around it), with
    every object's keys sorted (what :func:`archive.format.canonical` makes of it), in one
    pass of the C decoder."""
    value, end = _read_sorted(text)
    if end != len(text):
        raise ValueError(f"stored JSON with text after it: {text[:40]!r}")
    return value


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


def map_refs(data: Mapping[str, object], refs: Mapping[str, str], resolve: Resolve
             ) -> dict[str, object]:
    """``data`` with the ids under ``refs``' keys (single ids, lists, or lists of lists: a
    table's draw of partners per table) resolved."""
    out = dict(data)
    for key, kind in refs.items():
        value = out.get(key)
        if isinstance(value, list):
            out[key] = [_resolve_id(kind, v, resolve) for v in value]
        elif key in out:
            out[key] = _resolve_id(kind, value, resolve)
    return out


def _resolve_id(kind: str, value: object, resolve: Resolve) -> object:
    if isinstance(value, list):
        return [_resolve_id(kind, v, resolve) for v in value]
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        return value
    return resolve(kind, value)


def _converter(internal: str) -> Callable[..., object] | None:
    """How a value of a field of type ``internal``, read as :func:`section_fields` reads it,
    is written (None: as it is)."""
    if internal == "DateTimeField":
        return None if _times_in_sql() else timestamp
    if internal == "DateField":
        return _iso_date
    if internal == "JSONField":
        return _canonical_text
    return None


def _iso_date(value: datetime.date) -> str:
    return value.isoformat()


def section_fields(section: Section) -> list[str | models.Func]:
    """The columns a section's rows are read from (``values_list``), in its layout's order:
    stored JSON as its text (parsed once, by :func:`_canonical_text`), times on PostgreSQL as
    the archive's text (:class:`ArchiveTime`)."""
    columns: list[str | models.Func] = []
    for _, kind, internal, attname in _plan(section):
        if kind is None and internal == "JSONField":
            columns.append(Cast(attname, models.TextField()))
        elif kind is None and internal == "DateTimeField" and _times_in_sql():
            columns.append(ArchiveTime(attname))
        else:
            columns.append(attname)
    return columns


def section_rows(section: Section, rows: list[Any], resolve: Resolve, *, skip: int = 0,
                 local_ids: list[int] | None = None) -> list[dict[str, Any]]:
    """A section's rows from plain rows read with :func:`section_fields` (after ``skip``
    leading columns of the caller's own): the same as :func:`section_row` of each model,
    without building the models. A ``TABLE`` or ``GAME`` reference comes first in a layout
    (checked here), written as its two keys."""
    plan = _plan(section)
    kinds = [kind for _, kind, _, _ in plan]
    if any(kind in (TABLE, GAME) for kind in kinds[1:]):
        raise ValueError(f"{section.model.__name__}: a table or game reference comes first")
    located = kinds[0] in (TABLE, GAME)
    where = kinds[0] or ""
    first = skip + 1 if located else skip
    names = [name for name, _, _, _ in plan][1 if located else 0:]
    converted = [(name, fn) for name, kind, internal, _ in plan
                 if kind is None and (fn := _converter(internal)) is not None]
    refs = [(name, kind) for name, kind, _, _ in plan if kind is not None and kind not in
            (TABLE, GAME)]
    out = []
    for number, row in enumerate(rows):
        item: dict[str, Any] = {}
        if section.local_id:
            item["id"] = local_ids[number] if local_ids is not None else None
        if located:
            item["round"], item["table"] = resolve(where, row[skip])
        item.update(zip(names, row[first:], strict=True))
        for name, fn in converted:
            value = item[name]
            if value is not None:
                item[name] = fn(value)
        for name, kind in refs:
            item[name] = resolve(kind, item[name])
        out.append(item)
    return out


def event_archive(*, event: Event) -> dict[str, object]:
    """The event's complete archive as a JSON-ready dict (no writes). The event's row is read
    afresh: an instance held since before the last hand would carry an old ``hands_version``.

    Every section but the club and the event is read as plain rows (``values_list``), not
    models: a day of 512 players is some 10,000 rows."""
    event = Event.objects.select_related("club").get(pk=event.pk)
    fields = {key: section_fields(section) for key, section in SECTIONS.items()}
    # entries, with their players' archived fields
    entry_rows = list(Entry.objects.filter(event=event).order_by("pk").values_list(
        "pk", "player__name", "player__email", *fields["entries"]))
    ids: dict[str, dict[int, int]] = {PLAYER: {}, PAIR: {}, ENTRY: {}}
    player_rows: list[tuple[object, ...]] = []
    for number, (pk, name, email, player_id, *_) in enumerate(entry_rows, start=1):
        ids[ENTRY][pk] = number
        if player_id not in ids[PLAYER]:
            player_rows.append((name, email))
            ids[PLAYER][player_id] = len(player_rows)
    pair_rows = list(Pair.objects.filter(event=event).order_by("pk").values_list(
        "pk", *fields["pairs"]))
    ids[PAIR] = {row[0]: number for number, row in enumerate(pair_rows, start=1)}

    round_rows = list(Round.objects.filter(event=event).order_by("number").values_list(
        "pk", *fields["rounds"]))
    round_number = {row[0]: row[1] for row in round_rows}
    # tables: (pk, round_id, number, match)
    table_rows = sorted(Table.objects.filter(round__event=event).order_by().values_list(
        "pk", *fields["tables"]), key=lambda t: (round_number[t[1]], t[2]))
    table_key = {t[0]: (round_number[t[1]], t[2]) for t in table_rows}
    table_order = {t[0]: i for i, t in enumerate(table_rows)}
    # (sorted here, not by the database: ``order_by()`` drops the models' default orderings)
    # games: (pk, table_id, ...)
    game_rows = sorted(Game.objects.filter(table__round__event=event).order_by().values_list(
        "pk", *fields["games"]), key=lambda g: table_order[g[1]])
    game_table = {g[0]: g[1] for g in game_rows}
    seat_rows = sorted(Seat.objects.filter(round__event=event).order_by().values_list(*fields["seats"]),
                       key=lambda s: (table_order[s[0]], SEATS.index(s[1])))
    bye_rows = sorted(Bye.objects.filter(round__event=event).order_by().values_list(*fields["byes"]),
                      key=lambda b: (round_number[b[0]], ids[ENTRY].get(b[1], 0)))
    # hands: (pk, game_id, ...)
    hand_rows = sorted(Hand.objects.filter(game__table__round__event=event).order_by().values_list(
        "pk", *fields["hands"]), key=lambda h: (table_order[game_table[h[1]]], h[0]))
    # revisions: (pk, hand_id, ...), by hand and number
    revision_rows = list(HandRevision.objects.filter(
        hand__game__table__round__event=event).order_by("hand_id", "revision").values_list(
        "pk", "hand_id", *fields["revisions"]))
    # penalties: (pk, ...) in round order as made; appeals: (pk, ...) as decided
    penalty_rows = list(Penalty.objects.filter(event=event).order_by(
        "round_number", "created_at", "pk").values_list("pk", *fields["penalties"]))
    ids[PENALTY] = {row[0]: number for number, row in enumerate(penalty_rows, start=1)}
    appeal_rows = list(Appeal.objects.filter(event=event).order_by("decided_at", "pk")
                       .values_list("pk", *fields["appeals"]))
    ids[APPEAL] = {row[0]: number for number, row in enumerate(appeal_rows, start=1)}
    # log: (pk, ...)
    log_rows = list(EventLog.objects.filter(event=event).order_by("created_at", "pk")
                    .values_list("pk", *fields["log"]))

    author_at = 2 + SECTIONS["revisions"].layout.index("author")
    actor_at = 1 + SECTIONS["log"].layout.index("actor")
    user_ids = {event.created_by_id} | {r[author_at] for r in revision_rows}
    user_ids |= {line[actor_at] for line in log_rows}
    penalty_users = {name: 1 + SECTIONS["penalties"].layout.index(name)
                     for name in ("created_by", "withdrawn_by")}
    decided_at = 1 + SECTIONS["appeals"].layout.index("decided_by")
    user_ids |= {row[at] for row in penalty_rows for at in penalty_users.values()}
    user_ids |= {row[decided_at] for row in appeal_rows}
    usernames = dict(get_user_model().objects.filter(
        pk__in=[pk for pk in user_ids if pk is not None]).values_list("pk", "username"))
    imported = EventImport.objects.filter(event=event).values_list("usernames", flat=True).first()
    kept: dict[str, Any] = imported or {}

    def resolve(kind: str, value: Any) -> Any:
        if kind == TABLE:
            return table_key[value]
        if kind == GAME:
            return table_key[game_table[value]]
        if kind == GAME_AT:
            if value is None:
                return None
            found_round, found_table = table_key[game_table[value]]
            return {"round": found_round, "table": found_table}
        if kind == ROUND:
            return round_number[value]
        if kind == USER:
            return usernames.get(value) if value is not None else None
        return ids[kind].get(value) if value is not None else None

    def user_of(pk: int | None, fallback: object) -> object:
        return usernames.get(pk) if pk is not None else fallback

    event_row = section_row(SECTIONS["event"], event, resolve)
    event_row["created_by"] = user_of(event.created_by_id, kept.get("event"))

    kept_authors = kept.get("revisions", {})
    revisions: dict[int, list[dict[str, Any]]] = {}
    for row, item in zip(revision_rows, section_rows(
            SECTIONS["revisions"], revision_rows, resolve, skip=2), strict=True):
        if row[author_at] is None:
            item["author"] = kept_authors.get(str(row[0]))
        revisions.setdefault(row[1], []).append(item)
    hands = section_rows(SECTIONS["hands"], hand_rows, resolve, skip=1)
    for row, item in zip(hand_rows, hands, strict=True):
        item["revisions"] = revisions.get(row[0], [])

    kept_actors = kept.get("log", {})
    log = section_rows(SECTIONS["log"], log_rows, resolve, skip=1)
    for row, item in zip(log_rows, log, strict=True):
        if row[actor_at] is None:
            item["actor"] = kept_actors.get(str(row[0]))
        # (keys sorted already, by _canonical_text: map_refs changes values only)
        item["details"] = map_refs(item["details"] or {}, LOG_REFS.get(item["action"], {}),
                                   resolve)

    penalties = section_rows(SECTIONS["penalties"], penalty_rows, resolve, skip=1,
                             local_ids=[ids[PENALTY][row[0]] for row in penalty_rows])
    for row, item in zip(penalty_rows, penalties, strict=True):
        for name, at in penalty_users.items():
            if row[at] is None:
                item[name] = kept.get(KEPT_USERS[name], {}).get(str(row[0]))
    appeals = section_rows(SECTIONS["appeals"], appeal_rows, resolve, skip=1,
                           local_ids=[ids[APPEAL][row[0]] for row in appeal_rows])
    for row, item in zip(appeal_rows, appeals, strict=True):
        if row[decided_at] is None:
            item["decided_by"] = kept.get(KEPT_USERS["decided_by"], {}).get(str(row[0]))

    computed = standings_compute(event=event)
    placements = StandingsSnapshot.objects.filter(event=event).values_list(
        "placements", flat=True).first() or []
    return {
        "format": FORMAT_NAME,
        "version": VERSION,
        "club": section_row(SECTIONS["club"], event.club, resolve),
        "players": section_rows(SECTIONS["players"], player_rows, resolve,
                                local_ids=list(range(1, len(player_rows) + 1))),
        "event": event_row,
        "pairs": section_rows(SECTIONS["pairs"], pair_rows, resolve, skip=1,
                              local_ids=[ids[PAIR][row[0]] for row in pair_rows]),
        "entries": section_rows(SECTIONS["entries"], entry_rows, resolve, skip=3,
                                local_ids=[ids[ENTRY][row[0]] for row in entry_rows]),
        "table_cards": section_rows(SECTIONS["table_cards"], list(
            TableCard.objects.filter(event=event).order_by("number").values_list(
                *fields["table_cards"])), resolve),
        "rounds": section_rows(SECTIONS["rounds"], round_rows, resolve, skip=1),
        "tables": section_rows(SECTIONS["tables"], table_rows, resolve, skip=1),
        "seats": section_rows(SECTIONS["seats"], seat_rows, resolve),
        "byes": section_rows(SECTIONS["byes"], bye_rows, resolve),
        "games": section_rows(SECTIONS["games"], game_rows, resolve, skip=1),
        "hands": hands,
        "penalties": penalties,
        "appeals": appeals,
        "log": log,
        "standings": {
            "tie_breaks": canonical(computed.tie_breaks),
            "rows": standings_local(computed.rows, resolve),
            "placements": standings_local(placements, resolve),
        },
    }


def standings_local(rows: Iterable[Mapping[str, object]], resolve: Resolve
                    ) -> list[dict[str, object]]:
    """Standings rows or placements with their ids resolved (``STANDINGS_REFS``)."""
    return [canonical(map_refs(row, STANDINGS_REFS, resolve)) for row in rows]


def event_archive_bytes(*, event: Event) -> bytes:
    """The event's archive as the file a director downloads (without the cyclic collector's
    passes over its rows: ``common.collector``)."""
    with collector_paused():
        return dumps(event_archive(event=event))


def archive_filename(event: Event) -> str:
    return f"event-{event.pk}-{event.date.isoformat()}.json"


# --- import jobs -------------------------------------------------------------------------------
JOB_PROGRESS_KEY = "archive:job:{job_id}:progress"


def import_job_get(*, club: Club, pk: int) -> ImportJob | None:
    return (ImportJob.objects.filter(club=club, pk=pk).defer("data")
            .select_related("event").first())


def import_job_status(job: ImportJob) -> dict[str, object]:
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
