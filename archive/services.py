"""Writes: importing an event archive, importing a roster from CSV. One transaction each.

**An event import** (:func:`event_import`) reads the whole archive first (``archive.reader``:
every value, reference and database rule checked, problems named by path), then in one
transaction: matches the archive's players to the target club's roster (``archive.roster``) or
adds them to it, creates the event and every row in the archive's order (new table tokens; the
archived times kept), records the user names the archive gave (``EventImport``), rebuilds the
games' derived results and the standings from the hands, and refuses the archive when they
differ from what it says. The final places are stored as the archive gives them. An import never
touches an existing event: the same archive imported twice into one club is refused.

**A roster import** (:func:`roster_preview`, :func:`roster_import`) is all or nothing: a file
with any bad line imports nothing, and the preview lists every bad line with its line and
column. Lines whose player is already on the roster (or repeats an earlier line) are skipped and
reported, never changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, Player, validate_time_zone
from clubs.services import player_create
from common.errors import DomainError
from common.rulesets import check_ruleset
from common.tasks import RATE_EVENT, task_queue
from common.types import Actor, actor_user
from conduct.models import Appeal, Penalty
from rules_engine import CoreError
from scoring.models import Game, Hand, HandRevision, SeatResult
from scoring.services import event_recompute
from standings.services import placements_store, standings_rebuild
from tournaments.models import Bye, Entry, Event, EventLog, Pair, Round, Seat, Table, TableCard
from tournaments.services import hands_version_bump

from .format import APPEAL, ENTRY, LOG_REFS, PAIR, PENALTY, PLAYER, STANDINGS_REFS, canonical
from .models import EventImport, ImportJob
from .reader import ArchiveRefused, Plan, Problem, Row, read_archive
from .roster import (
    CSV_MAX_BYTES,
    CsvError,
    CsvFile,
    CsvLine,
    RosterIndex,
    csv_size_error,
    decode_csv,
    read_csv,
)
from .selectors import JOB_PROGRESS_KEY, KEPT_USERS, map_refs

M = TypeVar("M", bound=models.Model)  # a model whose rows are written in bulk

ARCHIVE_MAX_BYTES = 25 * 1024 * 1024
# The most hands one import may hold (a day of 1,000 players, 10 rounds of 8 deals is 20,000),
# counted in the file's bytes before it is parsed.
ARCHIVE_MAX_HANDS = 20_000
# Archives larger than this are imported by the worker (an ImportJob), never in a web request.
ARCHIVE_INLINE_MAX_BYTES = 1024 * 1024
ARCHIVE_IMPORT_TASK = "archive.tasks.import_archive"
__all__ = ["CSV_MAX_BYTES", "ARCHIVE_MAX_BYTES", "ARCHIVE_MAX_HANDS", "ARCHIVE_INLINE_MAX_BYTES"]
# Standings keys that come from the players' current names: a player matched to a roster
# player of another name shows that name, which is not a difference in the results.
NAME_KEYS = ("name", "players")


def _refuse(field_: str, code: str, message: str) -> ArchiveRefused:
    return ArchiveRefused([Problem(field_, code, message)])


# --- reading the file --------------------------------------------------------------------------
def archive_check_size(size: int) -> None:
    """Refuse a file of ``size`` bytes before reading it when it is too large (the request's
    ``Content-Length`` is given here before the upload is read)."""
    limit = archive_max_bytes()
    if size > limit:
        raise _refuse("file", "too_large",
                      gettext("The file is %(value)s MB; an archive is at most %(value2)s MB.") % {"value": format(size / (1024 * 1024), '.1f'), "value2": format(limit / (1024 * 1024), 'g')})


def archive_max_bytes() -> int:
    return int(getattr(settings, "ARCHIVE_MAX_BYTES", ARCHIVE_MAX_BYTES))


def archive_max_hands() -> int:
    return int(getattr(settings, "ARCHIVE_MAX_HANDS", ARCHIVE_MAX_HANDS))


def archive_inline_max_bytes() -> int:
    return int(getattr(settings, "ARCHIVE_INLINE_MAX_BYTES", ARCHIVE_INLINE_MAX_BYTES))


# Every hand of an archive carries its ``revisions`` list, once: the key's bytes are what a scan
# counts. A file spelling the key otherwise (JSON escapes) passes the scan but not the count of
# the parsed hands, which is checked again before anything is read further.
_HAND_MARK = b'"revisions"'


def archive_count_hands(raw: bytes, *, stop_after: int | None = None) -> int:
    """The hands in an archive file, counted in its bytes without parsing it (one pass, no
    copy), stopping once past ``stop_after``."""
    count, at = 0, raw.find(_HAND_MARK)
    while at != -1:
        count += 1
        if stop_after is not None and count > stop_after:
            break
        at = raw.find(_HAND_MARK, at + len(_HAND_MARK))
    return count


def _too_many_hands(count: int | str) -> ArchiveRefused:
    limit = archive_max_hands()
    return _refuse("file", "too_many_hands",
                   gettext("The archive has %(count)s hands; an import takes at most %(limit)s. Split the event, or ask the site's administrator to import it.") % {"count": count, "limit": format(limit, ',')})


def archive_check_hands(raw: bytes) -> int:
    """The file's hands, counted before parsing; refused past :data:`ARCHIVE_MAX_HANDS`."""
    limit = archive_max_hands()
    count = archive_count_hands(raw, stop_after=limit)
    if count > limit:
        raise _too_many_hands(f"more than {limit:,}")
    return count


def archive_load(raw: bytes) -> object:
    """The archive file's JSON, or :class:`ArchiveRefused` on ``file``: its size and its hands
    are checked first, before it is parsed."""
    archive_check_size(len(raw))
    archive_check_hands(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _refuse("file", "encoding", gettext("The file is not UTF-8 text.")) from None

    def no_constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError) as exc:
        raise _refuse("file", "invalid_json", gettext("The file is not JSON: %(exc)s.") % {"exc": exc}) from None
    hands = data.get("hands") if isinstance(data, dict) else None
    if isinstance(hands, list) and len(hands) > archive_max_hands():
        raise _too_many_hands(f"{len(hands):,}")
    _check_text(data)
    return data


MAX_DEPTH = 32  # an archive nests six levels deep; code walking it recursively must not fail


def _check_text(data: object) -> None:
    """Every string (keys too) valid Unicode (``\\ud800`` parses, but no database stores it),
    and no nesting deeper than :data:`MAX_DEPTH`. Iterative: it cannot run out of stack."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, (dict, list)) and depth >= MAX_DEPTH:
            raise _refuse(path or "__all__", "too_deep",
                          gettext("Nested deeper than %(max_depth)s levels: not an event archive.") % {"max_depth": MAX_DEPTH})
        if isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, path, depth + 1))
                stack.append((item, f"{path}.{key}" if path else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise _refuse(path or "__all__", "invalid",
                              gettext("Text must be valid Unicode (a lone surrogate).")) from None


# --- the import --------------------------------------------------------------------------------
@dataclass
class ImportResult:
    event: Event
    players_added: list[str] = field(default_factory=list)
    # (the archive's name, the roster player's name, matched by "email" or "name")
    players_matched: list[tuple[str, str, str]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


Progress = Callable[[str, int], None]


def _no_progress(stage: str, percent: int) -> None:
    return None


def event_import(*, archive: object, club_slug: str, actor: Actor | None = None,
                 create_club: bool = False,
                 digest: str = "", progress: Progress = _no_progress) -> ImportResult:
    """Create the archived event in the club ``club_slug`` (created from the archive's club
    when missing and ``create_club``). Raises :class:`ArchiveRefused` (nothing written).
    ``progress(stage, percent)`` is told what is being done (the worker's job shows it)."""
    progress("Checking every row of the archive", 15)
    plan = read_archive(archive)
    progress(f"Writing the event: {len(plan.sections['hands']):,} hands", 45)
    try:
        with transaction.atomic():
            return _write(plan, club_slug, actor, create_club, digest, progress)
    except (IntegrityError, DataError) as exc:  # a rule the reader does not know yet
        raise _refuse("__all__", "integrity",
                      gettext("The database refused the archive: %(value)s") % {"value": str(exc).splitlines()[0]}) from None
    except ArchiveRefused:
        raise
    except CoreError as exc:  # a refusal of the services the reader did not foresee
        raise ArchiveRefused([Problem(str(p["field"]), str(p["code"]), str(p["message"]))
                              for p in exc.api_errors()]) from None


def archive_digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _club(plan: Plan, slug: str, create: bool) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is not None:
        return club
    if not create:
        raise _refuse("club", "unknown", gettext("No club %(slug)s.") % {"slug": repr(slug)})
    try:
        validate_slug(slug)
    except ValidationError:
        raise _refuse("club", "invalid", gettext("%(slug)s is not a club address (letters, digits, hyphens).") % {"slug": repr(slug)}) from None
    data = plan.club
    try:
        validate_time_zone(data["time_zone"])
    except ValidationError as exc:
        raise _refuse("club.time_zone", "invalid", exc.messages[0]) from None
    try:
        check_ruleset(preset=data["ruleset_preset"], overrides=data["ruleset_overrides"])
    except DomainError as exc:
        raise _refuse(f"club.{exc.field}", exc.code, exc.message) from None
    return Club.objects.create(**{**data, "slug": slug})


def _bulk(model: type[M], objs: list[M], rows: list[Row]) -> list[M]:
    """Insert ``objs`` in order; then give back the archived times of the fields Django fills
    in itself on insert (``auto_now``, ``auto_now_add``)."""
    created = model._default_manager.bulk_create(objs, batch_size=500)
    auto = [f for f in model._meta.concrete_fields
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    if auto and created:
        for obj, row in zip(created, rows, strict=True):
            for field_ in auto:
                setattr(obj, field_.attname, row.values[field_.name])
        _update_columns(model, created, auto)
    return created


def _update_columns(model: type[models.Model], objs: Sequence[models.Model],
                    fields: Sequence[models.Field]) -> None:
    """Write ``fields`` of ``objs`` in one UPDATE … FROM (VALUES …) per thousand rows
    (``bulk_update``'s CASE expressions took seconds for a big event). A VALUES list's columns
    are ``column1``, ``column2`` … in PostgreSQL and SQLite alike; values are prepared by their
    fields, as the ORM would (SQLite stores times as UTC text)."""
    quote = connection.ops.quote_name
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    def value(field_: models.Field, i: int) -> str:
        # PostgreSQL types a VALUES column from its first row: a NULL there would be text
        if connection.vendor == "postgresql":
            return f"CAST(v.column{i} AS {field_.db_type(connection)})"
        return f"v.column{i}"

    sets = ", ".join(f"{quote(f.column)} = {value(f, i)}" for i, f in enumerate(fields, start=2))
    for start in range(0, len(objs), 1000):
        chunk = objs[start:start + 1000]
        row = "(" + ", ".join(["%s"] * (len(fields) + 1)) + ")"
        params = [value for obj in chunk for value in (
            obj.pk, *(f.get_db_prep_value(getattr(obj, f.attname), connection) for f in fields))]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET {sets} "  # noqa: S608 - names quoted, values as parameters
                f"FROM (VALUES {', '.join([row] * len(chunk))}) AS v WHERE {table}.{pk} = v.column1",
                params)


def _plain(row: Row, *skip: str) -> dict[str, Any]:
    """A row's fields but ``skip``, as a model's keyword arguments."""
    return {k: v for k, v in row.values.items() if k not in skip}


def _write(plan: Plan, club_slug: str, actor: Actor | None, create_club: bool,
           digest: str, progress: Progress = _no_progress) -> ImportResult:
    s = plan.sections
    club = _club(plan, club_slug, create_club)
    ev = plan.event
    twin = Event.objects.filter(club=club, name=ev["name"], date=ev["date"],
                                created_at=ev["created_at"]).first()
    if twin is not None:
        raise _refuse("event", "exists",
                      gettext("%(name)s already has this event (#%(pk)s, %(name2)s on %(date)s); an import never overwrites an event.") % {"name": club.name, "pk": twin.pk, "name2": twin.name, "date": twin.date})
    result = ImportResult(event=Event())

    # players: the roster's, or new on it
    players: dict[int, Player] = {}
    index = RosterIndex.of_club(club)
    taken: dict[int, Row] = {}
    for row in s["players"]:
        name, email = row.values["name"], row.values["email"]
        found = index.match(name, email)
        if found is None:
            try:
                player = player_create(club=club, name=name, email=email)
            except DomainError as exc:
                raise _refuse(f"{row.path}.{exc.field}", exc.code, exc.message) from None
            index.add(player)
            result.players_added.append(player.name)
        else:
            player, how = found
            if player.pk in taken:
                raise _refuse(row.path, "same_player",
                              gettext("%(name)s and %(name2)s (%(path)s) both match %(name3)s of the roster; one entry per player.") % {"name": name, "name2": taken[player.pk].values['name'], "path": taken[player.pk].path, "name3": player.name})
            result.players_matched.append((name, player.name, how))
        taken[player.pk] = row
        players[row.local_id or 0] = player

    # The event starts as before any hand: its hands' write below moves ``hands_version`` to the
    # archive's through the one bump (an archive without hands keeps its value as it is).
    fields = {k: v for k, v in ev.items() if k != "created_by"}
    archived_version = fields.pop("hands_version") if s["hands"] else 0
    event = Event(club=club, **fields)
    event.save()
    Event.objects.filter(pk=event.pk).update(created_at=ev["created_at"])
    result.event = event

    pair_rows = s["pairs"]
    pairs = dict(zip([r.local_id or 0 for r in pair_rows], _bulk(
        Pair, [Pair(event=event, **_plain(r)) for r in pair_rows], pair_rows), strict=True))
    entry_rows = s["entries"]
    entries = dict(zip([r.local_id or 0 for r in entry_rows], _bulk(Entry, [
        Entry(event=event, **_plain(r, "player", "pair"), player=players[r.values["player"]],
              pair=pairs[r.values["pair"]] if r.values["pair"] is not None else None)
        for r in entry_rows], entry_rows), strict=True))
    _bulk(TableCard, [TableCard(event=event, **_plain(r)) for r in s["table_cards"]],
          s["table_cards"])
    rounds = {r.number: r for r in _bulk(
        Round, [Round(event=event, **_plain(r)) for r in s["rounds"]], s["rounds"])}
    tables = {(t.round.number, t.number): t for t in _bulk(Table, [
        Table(round=rounds[r.values["round"]], **_plain(r, "round")) for r in s["tables"]],
        s["tables"])}
    _bulk(Seat, [
        Seat(table=tables[r.values["table"]], round=tables[r.values["table"]].round,
             position=r.values["position"], entry=entries[r.values["entry"]])
        for r in s["seats"]], s["seats"])
    _bulk(Bye, [Bye(round=rounds[r.values["round"]], entry=entries[r.values["entry"]])
                for r in s["byes"]], s["byes"])
    game_rows = s["games"]
    games = _bulk(Game, [
        Game(table=tables[r.values["table"]], **_plain(r, "table", "confirmed_by"),
             confirmed_by=entries.get(r.values["confirmed_by"]))
        for r in game_rows], game_rows)
    game_at = {r.values["table"]: g for r, g in zip(game_rows, games, strict=True)}
    hands = _bulk(Hand, [Hand(game=game_at[r.values["game"]], **_plain(r, "game"))
                         for r in s["hands"]], s["hands"])
    revision_rows = [c for r in s["hands"] for c in r.children]
    revisions = _bulk(HandRevision, [
        HandRevision(hand=hand, **_plain(c, "author"))
        for r, hand in zip(s["hands"], hands, strict=True) for c in r.children],
        revision_rows)
    if hands:
        hands_version_bump(event_id=event.pk, at_least=archived_version)

    def game_of(key: tuple[int, int] | None) -> Game | None:
        return game_at[tuple(key)] if key is not None else None

    penalty_rows = s["penalties"]
    penalties = dict(zip([r.local_id or 0 for r in penalty_rows], _bulk(Penalty, [
        Penalty(event=event, game=game_of(r.values["game"]),
                entry=entries.get(r.values["entry"]), pair=pairs.get(r.values["pair"]),
                **_plain(r, "game", "entry", "pair", "created_by", "withdrawn_by"))
        for r in penalty_rows], penalty_rows), strict=True))
    appeal_rows = s["appeals"]
    appeals = dict(zip([r.local_id or 0 for r in appeal_rows], _bulk(Appeal, [
        Appeal(event=event, game=game_of(r.values["game"]),
               penalty=penalties.get(r.values["penalty"]), entry=entries.get(r.values["entry"]),
               **_plain(r, "game", "penalty", "entry", "decided_by"))
        for r in appeal_rows], appeal_rows), strict=True))
    decided_users: dict[str, dict[str, str]] = {}
    for rows, made in ((penalty_rows, penalties), (appeal_rows, appeals)):
        for r in rows:
            for name in ("created_by", "withdrawn_by", "decided_by"):
                if r.values.get(name) is not None:
                    decided_users.setdefault(KEPT_USERS[name], {})[
                        str(made[r.local_id or 0].pk)] = r.values[name]

    pks: dict[str, dict[int, int]] = {
           PLAYER: {k: p.pk for k, p in players.items()},
           PAIR: {k: p.pk for k, p in pairs.items()},
           ENTRY: {k: e.pk for k, e in entries.items()},
           PENALTY: {k: p.pk for k, p in penalties.items()},
           APPEAL: {k: a.pk for k, a in appeals.items()}}

    def to_pk(kind: str, local: int) -> int | None:
        return pks[kind].get(local)

    log = _bulk(EventLog, [
        EventLog(event=event, action=r.values["action"], created_at=r.values["created_at"],
                 details=map_refs(r.values["details"], LOG_REFS.get(r.values["action"], {}),
                                  to_pk))
        for r in s["log"]], s["log"])
    EventImport.objects.create(
        event=event, archive_version=plan.version, digest=digest,
        imported_by=actor_user(actor),
        usernames={
            "event": ev["created_by"],
            "log": {str(line.pk): r.values["actor"] for r, line in zip(s["log"], log, strict=True)
                    if r.values["actor"] is not None},
            "revisions": {str(rev.pk): c.values["author"]
                          for c, rev in zip(revision_rows, revisions, strict=True)
                          if c.values["author"] is not None},
            **decided_users,
        },
    )
    progress("Rebuilding the games and the standings from the hands", 75)
    _check_derived(plan, event, game_rows, games, pks)
    placements_store(event_id=event.pk, placements=[
        map_refs(p, STANDINGS_REFS, to_pk) for p in plan.standings["placements"]])
    # Its confirmed games are rated (unless the event is here already: league.ratings).
    task_queue(RATE_EVENT, args=(event.pk,))
    result.counts = {"entries": len(entries), "rounds": len(rounds), "tables": len(tables),
                     "hands": len(hands), "revisions": len(revisions), "log": len(log)}
    return result


REBUILD_HINT = (" If the event's results were stored by an older version, run "
                "`manage.py rebuild_standings EVENT_ID` where it was played, then export it again.")
GAME_DERIVED = ("status", "totals", "winner", "cut_winner", "finish_reason", "hands_count",
                "confirmed_by_id", "confirmed_at")


def _check_derived(plan: Plan, event: Event, game_rows: list[Row], games: list[Game],
                   pks: dict[str, dict[int, int]]) -> None:
    """Rebuild the games and the standings from the hands; refuse when they are not what the
    archive says (the archive contradicts its own hands).

    A game whose totals are empty was never derived (seated, no hand entered, no time called:
    the scoring services write totals for every side the first time): it has no seat results,
    and stays so here, as long as it has no hands either."""
    with_hands = set(Hand.objects.filter(game__in=games).values_list("game_id", flat=True))
    untouched = [g for g in games if not g.totals]
    problems = [Problem(f"{row.path}.totals", "inconsistent",
                        "The archive says totals {}, as for a game nobody entered a hand of, but "
                        "the game has hands.")
                for row, game in zip(game_rows, games, strict=True)
                if not game.totals and game.pk in with_hands]
    if problems:
        raise ArchiveRefused(problems[:20])
    event_recompute(event=event)
    if untouched:
        SeatResult.objects.filter(game__in=untouched).delete()
        _update_columns(Game, untouched, [
            field_ for name in (*GAME_DERIVED, "updated_at")
            if isinstance(field_ := Game._meta.get_field(name), models.Field)])
    stored = {pk: dict(zip(GAME_DERIVED, values, strict=True)) for pk, *values in
              Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", *GAME_DERIVED)}
    for row, game in zip(game_rows, games, strict=True):
        for name in GAME_DERIVED:
            now, said = stored[game.pk][name], getattr(game, name)
            if now != said:
                key = name.removesuffix("_id")
                problems.append(Problem(
                    f"{row.path}.{key}", "inconsistent",
                    f"The archive says {key} {_shown(said)}, but the game's hands give "
                    f"{_shown(now)}.{REBUILD_HINT}"))
    if problems:
        raise ArchiveRefused(problems[:20])
    snapshot = standings_rebuild(event_id=event.pk)
    local = {kind: {pk: local for local, pk in ids.items()} for kind, ids in pks.items()}

    def to_local(kind: str, pk: int) -> int | None:
        return local[kind].get(pk)

    def keyed(rows: Iterable[Mapping[str, object]]
              ) -> dict[tuple[object, object], dict[str, object]]:
        return {(row.get("pair_id"), row.get("entry_id")):
                {k: v for k, v in row.items() if k not in NAME_KEYS} for row in rows}

    said = keyed(canonical(plan.standings["rows"]))
    now = keyed([canonical(map_refs(r, STANDINGS_REFS, to_local)) for r in snapshot.rows])
    if canonical(snapshot.tie_breaks) != canonical(plan.standings["tie_breaks"]):
        raise _refuse("standings.tie_breaks", "inconsistent",
                      gettext("The event's tie-breaks give other standings columns than the archive's."))
    if said != now:
        rows = plan.standings["rows"]
        for index, row in enumerate(rows):
            found = (row.get("pair_id"), row.get("entry_id"))
            theirs = now.get(found)
            if theirs is None or theirs != said.get(found):
                diff = next((k for k in sorted(said.get(found) or {})
                             if theirs is None or theirs.get(k) != said[found].get(k)), "")
                path = f"standings.rows[{index}]" + (f".{diff}" if diff else "")
                raise _refuse(path, "inconsistent",
                              "The standings computed from the archive's hands differ from the "
                              f"archive's standings here (the hands give "
                              f"{_shown((theirs or {}).get(diff)) if diff else 'no such row'})."
                              + REBUILD_HINT)
        raise _refuse("standings.rows", "inconsistent",
                      gettext("The hands give standings rows the archive does not list."))


def _shown(value: object) -> str:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return json.dumps(value, ensure_ascii=False, default=str)


# --- large archives: the worker's job ------------------------------------------------------------
def import_report(result: ImportResult) -> dict[str, object]:
    """What an import did, as the API answers it (and a job keeps it)."""
    return {"id": result.event.pk, "name": result.event.name,
            "players_added": result.players_added,
            "players_matched": [{"name": a, "roster_name": b, "matched_by": how}
                                for a, b, how in result.players_matched],
            "counts": result.counts}


def archive_import_start(*, raw: bytes, club: Club, actor: Actor | None = None,
                         digest: str | None = None) -> ImportResult | ImportJob:
    """Import an uploaded archive: its size and hands checked first (before it is parsed), then
    a small file imported here and now (:class:`ImportResult`), a large one (above
    ``ARCHIVE_INLINE_MAX_BYTES``) handed to the worker as an :class:`ImportJob`, whose page
    shows how far it is. Raises :class:`ArchiveRefused` (nothing written)."""
    archive_check_size(len(raw))
    hands = archive_check_hands(raw)
    digest = digest or archive_digest(raw)
    if len(raw) <= archive_inline_max_bytes():
        return event_import(archive=archive_load(raw), club_slug=club.slug, actor=actor,
                            digest=digest)
    with transaction.atomic():
        job = ImportJob.objects.create(
            club=club, requested_by=actor_user(actor),
            size=len(raw), hands=hands, data=raw, digest=digest,
            stage="Waiting for the worker")
        task_queue(ARCHIVE_IMPORT_TASK, args=(job.pk,))
    return job


def _progress_of(job_id: int) -> Progress:
    def tell(stage: str, percent: int) -> None:
        with contextlib.suppress(Exception):  # progress is shown when it can be
            cache.set(JOB_PROGRESS_KEY.format(job_id=job_id), [stage, percent], timeout=3600)
    return tell


def import_job_run(*, job_id: int) -> str:
    """The worker's part: import the job's archive into its club, once. A finished job is left
    alone (a retried task); a job whose worker died half-way starts again (its transaction
    was rolled back). The outcome and the job's new status are written together."""
    job = ImportJob.objects.filter(pk=job_id).select_related("club", "requested_by").first()
    if job is None or job.finished:
        return "skipped"
    ImportJob.objects.filter(pk=job.pk).update(status=ImportJob.Status.RUNNING,
                                              stage="Reading the file", progress=5)
    tell = _progress_of(job.pk)
    tell("Reading the file", 5)
    problems: list[dict[str, object]] = []
    try:
        data = archive_load(bytes(job.data or b""))
        with transaction.atomic():
            result = event_import(archive=data, club_slug=job.club.slug, actor=job.requested_by,
                                  digest=job.digest, progress=tell)
            ImportJob.objects.filter(pk=job.pk).update(
                status=ImportJob.Status.DONE, stage="Imported", progress=100, event=result.event,
                report=import_report(result), data=None, finished_at=timezone.now())
        return ImportJob.Status.DONE
    except ArchiveRefused as exc:
        problems = exc.api_errors()
    except SoftTimeLimitExceeded:
        problems = [{"field": "file", "code": "too_slow",
                     "message": gettext("The import took longer than the worker allows; nothing was changed. Split the event, or ask the site's administrator.")}]
    ImportJob.objects.filter(pk=job.pk).update(
        status=ImportJob.Status.REFUSED, stage="Not imported", progress=100, problems=problems,
        data=None, finished_at=timezone.now())
    return ImportJob.Status.REFUSED


# --- roster from CSV ---------------------------------------------------------------------------
@dataclass
class RosterReport:
    """What a roster CSV would do (or did): players to add, players already on the roster
    (with the roster player and whether the e-mail or the name matched), lines repeating an
    earlier line, and bad lines."""

    added: list[CsvLine] = field(default_factory=list)
    existing: list[tuple[CsvLine, Player, str]] = field(default_factory=list)
    repeated: list[tuple[CsvLine, int]] = field(default_factory=list)
    errors: list[CsvError] = field(default_factory=list)
    text: str = ""
    committed: bool = False

    def summary(self) -> str:
        parts = [f"{len(self.added)} {'player' if len(self.added) == 1 else 'players'} "
                 f"{'added' if self.committed else 'to add'}",
                 f"{len(self.existing)} already on the roster"]
        if self.repeated:
            parts.append(f"{len(self.repeated)} repeated in the file")
        if self.errors:
            parts.append(f"{len(self.errors)} {'error' if len(self.errors) == 1 else 'errors'}")
        return ", ".join(parts) + "."


class RosterRefused(DomainError):
    """A roster CSV with bad lines: nothing was imported; ``report`` lists every line."""

    def __init__(self, report: RosterReport) -> None:
        first = report.errors[0]
        super().__init__(first.message, field=first.field, code=first.code)
        self.report = report

    def api_errors(self) -> list[dict[str, object]]:
        return [{**e.as_dict()} for e in self.report.errors]


def roster_csv_text(raw: bytes) -> tuple[str, CsvError | None]:
    """An uploaded file's text, or why it cannot be read (size, encoding)."""
    return decode_csv(raw)


def roster_check_size(size: int) -> CsvError | None:
    """Why a file of ``size`` bytes is not read, if it is too large."""
    return csv_size_error(size)


def roster_preview(*, club: Club, text: str) -> RosterReport:
    """What importing ``text`` would do to the club's roster (no writes)."""
    parsed: CsvFile = read_csv(text)
    report = RosterReport(errors=list(parsed.errors), text=text)
    roster = RosterIndex.of_club(club)
    earlier = RosterIndex()
    line_of: dict[int, int] = {}
    for line in parsed.lines:
        found = roster.match(line.name, line.email)
        if found is not None:
            report.existing.append((line, found[0], found[1]))
            continue
        repeat = earlier.match(line.name, line.email)
        if repeat is not None:
            report.repeated.append((line, line_of[id(repeat[0])]))
            continue
        placeholder = Player(name=line.name, email=line.email)
        earlier.add(placeholder)
        line_of[id(placeholder)] = line.line
        report.added.append(line)
    return report


@transaction.atomic
def roster_import(*, club: Club, text: str, actor: Actor | None = None) -> RosterReport:
    """Add the file's new players to the club's roster, all or nothing: any bad line raises
    :class:`RosterRefused` with the full report and adds nobody."""
    report = roster_preview(club=club, text=text)
    if report.errors:
        raise RosterRefused(report)
    for line in report.added:
        try:
            player_create(club=club, name=line.name, email=line.email)
        except DomainError as exc:  # someone added the same player meanwhile
            report.errors.append(CsvError(line.line, exc.field if exc.field in ("name", "email")
                                          else "", exc.code, exc.message))
            raise RosterRefused(report) from None
    report.committed = True
    return report
