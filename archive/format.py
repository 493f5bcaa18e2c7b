"""The event archive format: what an archive holds, field by field, and what it leaves out.

An **archive** is one JSON object describing one event completely::

    {"format": "pinochle-event-archive", "version": 3,
     "club": {...}, "players": [...], "event": {...}, "pairs": [...], "entries": [...],
     "table_cards": [...], "rounds": [...], "tables": [...], "seats": [...], "byes": [...],
     "games": [...], "hands": [{..., "revisions": [...]}], "penalties": [...],
     "appeals": [...], "log": [...],
     "standings": {"tie_breaks": [...], "rows": [...], "placements": [...]}}

Words used here:

* a **section** is one of those keys; each list section holds one object per database row, in a
  stable order (see :data:`SECTIONS`), so the same event always gives the same bytes;
* a **local id** numbers the players, pairs and entries of one archive (1, 2, 3 … in the order
  listed): references between sections use them, never a database's primary keys. Rounds are
  named by their number, tables (and their games, seats and hands) by round and table number;
* a **user** (who created the event, who entered a hand, who did a director action) is named by
  user name: accounts belong to the database they were made in, so the import keeps the names as
  data (``archive.models.EventImport``) and links no account.

Left out on purpose (each field's reason is in :data:`SECTIONS`): table and table-card
**tokens** (secrets that open score entry: an imported event gets new ones), hand revisions'
**idempotency keys** (a device's retry key, meaningless elsewhere), and what is **derived** from
the hands (seat results, the standings snapshot's bookkeeping). The standings rows *are* in the
archive, for a reader, but the import recomputes them from the hands and refuses an archive
whose rows differ; the final places (``placements``) are stored data, written when the event
finished, and are carried as they are.

**Versions.** Version 2 added what a director decides beyond the hands: a game's adjusted result
(``games[].adjusted``: the director's points, the round's average or a forfeit, with the
reason; null for a game played out) and the ``penalties`` and ``appeals`` sections (penalties
in force are taken off the standings; a withdrawn one keeps its row, with who withdrew it and
why). The log's penalty and appeal lines name them by local id. A version-1 archive reads as
before: no adjusted results, no penalties, no appeals.

Version 3 added the tables' own draw of partners (a progressive day with ``draw: "table"``):
the ``round_seated`` log line's ``table_draw`` lists, per table, the stayer and the arrival
partnering them, as entries' local ids; the verifier seats those games again from it. An
earlier site would have kept those ids unmapped, so it refuses a version-3 archive (``version``:
newer than it reads) instead. A version-1 or -2 archive has no such line and reads as before.

Timestamps are UTC with microseconds (``2026-11-20T19:03:04.000123Z``), dates ``YYYY-MM-DD``;
stored JSON values (settings, totals, meld, log details) are written with their keys sorted.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NoReturn, TypeGuard, TypeVar, overload

from django.db import models

from clubs.models import Club, Player
from conduct.models import Appeal, Penalty
from scoring.models import Game, Hand, HandRevision
from standings.models import StandingsSnapshot
from tournaments.models import Bye, Entry, Event, EventLog, Pair, Round, Seat, Table, TableCard

FORMAT_NAME = "pinochle-event-archive"
VERSION = 3

# What a reference names (``Section.refs``): a local id of players/pairs/entries, a user name,
# a round by number, or a table or its game by round and table number.
PLAYER, PAIR, ENTRY, USER, ROUND = "player", "pair", "entry", "user", "round"
TABLE, GAME = "table", "game"
# A penalty or an appeal by its local id; a game that may be none, written as
# {"round": …, "table": …} or null.
PENALTY, APPEAL, GAME_AT = "penalty", "appeal", "game_at"


@dataclass(frozen=True)
class Section:
    """How one model's rows appear in the archive.

    ``layout`` lists the model's fields in the order written; a field in ``refs`` is written as
    a reference (a ``TABLE`` or ``GAME`` reference as two keys, ``round`` and ``table``).
    ``excluded`` names every other concrete field of the model with the reason it is not in
    the archive: a test fails when a model gains a field that is in neither.
    """

    model: type[models.Model]
    layout: tuple[str, ...]
    refs: Mapping[str, str] = field(default_factory=dict)
    excluded: Mapping[str, str] = field(default_factory=dict)
    # Rows carry a local id ("id") that other sections refer to.
    local_id: bool = False
    # Fields added after an archive version was first written: an archive without them reads
    # as these values (what the database held before the field existed).
    defaults: Mapping[str, object] = field(default_factory=dict)


LOCAL_ID = "a local id numbers the rows of the archive instead"
THE_EVENT = "the event the row belongs to: the archive's event"

SECTIONS: dict[str, Section] = {
    "club": Section(
        Club, ("slug", "name", "time_zone", "ruleset_preset", "ruleset_overrides", "is_public"),
        excluded={"id": "the target club is chosen on import",
                  "created_at": "the club's own history, not the event's",
                  "show_director_names": "how the club's own site names its directors on a "
                                         "corrections list, not the event's",
                  "correction_window_minutes": "when the club's own site locks results: an "
                                               "imported event is finished already",
                  "language": "the language of the club's own pages for readers who chose "
                              "none: the target club's applies",
                  "show_watchers": "whether the club's own pages count who watches a running "
                                   "event: an imported event is finished already"},
    ),
    "players": Section(
        Player, ("name", "email"), local_id=True,
        excluded={"id": LOCAL_ID,
                  "user": "a login belongs to the database it was made in",
                  "created_at": "the roster's history, not the event's: players are matched "
                                "to the target club's roster",
                  "erased_at": "an erased player is archived as they read here (the erased "
                               "name, no address); the roster of each database keeps its own"},
    ),
    "event": Section(
        Event,
        ("name", "format", "format_settings", "partnership", "status", "date", "ruleset_preset",
         "ruleset_overrides", "rounds_planned", "deals_per_round", "bye_scoring", "bye_points",
         "tie_breaks", "is_public", "seed", "advance_held", "prizes", "hands_version",
         "created_by", "created_at"),
        refs={"created_by": USER},
        excluded={"id": "a new event is made on import", "club": "the target club",
                  "self_check_in": "the door's policy on the day, not a result"},
    ),
    "pairs": Section(
        Pair, ("name", "seed", "created_at"), local_id=True,
        excluded={"id": LOCAL_ID, "event": THE_EVENT},
    ),
    "entries": Section(
        Entry,
        ("player", "pair", "status", "checked_in_at", "joined_round", "left_after_round",
         "fixed_table", "alternate"),
        refs={"player": PLAYER, "pair": PAIR}, local_id=True,
        excluded={"id": LOCAL_ID, "event": THE_EVENT},
    ),
    "table_cards": Section(
        TableCard, ("number",),
        excluded={"id": "named by number", "event": THE_EVENT,
                  "token": "a secret that opens score entry: an imported event gets new ones"},
    ),
    "rounds": Section(
        Round, ("number", "stage", "status", "created_at", "started_at", "closed_at"),
        excluded={"id": "named by number", "event": THE_EVENT},
    ),
    "tables": Section(
        Table, ("round", "number", "match"), refs={"round": ROUND},
        excluded={"id": "named by round and number",
                  "token": "a secret that opens score entry: an imported event gets new ones"},
    ),
    "seats": Section(
        Seat, ("table", "position", "entry"), refs={"table": TABLE, "entry": ENTRY},
        excluded={"id": "named by table and position", "round": "the table's round"},
    ),
    "byes": Section(
        Bye, ("round", "entry"), refs={"round": ROUND, "entry": ENTRY},
        excluded={"id": "named by round and entry"},
    ),
    "games": Section(
        Game,
        ("table", "status", "totals", "winner", "cut_winner", "time_called", "forfeit",
         "finish_reason", "hands_count", "version", "scorer_position", "confirmed_by",
         "confirmed_at", "adjusted", "updated_at"),
        refs={"table": TABLE, "confirmed_by": ENTRY},
        # ``forfeit``: the side that forfeited (a walkover), empty for a game played out;
        # ``adjusted``: the director's adjusted result (version 2), null for a game played out.
        defaults={"forfeit": "", "adjusted": None},
        excluded={"id": "named by its table (one game per table)",
                  "checks": "derived from the hands on import (check pinochle's checks)"},
    ),
    "hands": Section(
        Hand, ("game", "number", "created_at", "deleted_at"), refs={"game": GAME},
        excluded={"id": "listed in order; a hand's revisions are nested in it"},
    ),
    "revisions": Section(
        HandRevision,
        ("revision", "is_live", "is_deletion", "dealer", "bidder", "bid", "trump", "outcome",
         "renege_seat", "meld", "counters", "tricks", "quadruple_run", "partner", "misdeal_seat",
         "widow_seen", "check_melds", "points", "result", "made", "reason", "author", "source",
         "note", "created_at"),
        refs={"author": USER},
        # entered only where the ruleset needs them
        defaults={"tricks": None, "quadruple_run": "", "partner": "", "misdeal_seat": "",
                  "widow_seen": None,
                  "check_melds": None},
        excluded={"id": "nested in its hand, named by its revision number",
                  "hand": "nested in its hand",
                  "idempotency_key": "a device's retry key, meaningless in another database"},
    ),
    "penalties": Section(
        Penalty,
        ("round_number", "game", "entry", "pair", "kind", "points", "reason", "created_by",
         "created_at", "withdrawn_at", "withdrawn_by", "withdrawn_reason"),
        refs={"game": GAME_AT, "entry": ENTRY, "pair": PAIR, "created_by": USER,
              "withdrawn_by": USER},
        local_id=True,
        excluded={"id": LOCAL_ID, "event": THE_EVENT},
    ),
    "appeals": Section(
        Appeal,
        ("penalty", "game", "entry", "contested", "decision", "note", "decided_by",
         "decided_at"),
        refs={"penalty": PENALTY, "game": GAME_AT, "entry": ENTRY, "decided_by": USER},
        local_id=True,
        excluded={"id": LOCAL_ID, "event": THE_EVENT},
    ),
    "log": Section(
        EventLog, ("action", "actor", "details", "created_at"), refs={"actor": USER},
        excluded={"id": "listed in time order", "event": THE_EVENT},
    ),
    "standings": Section(
        StandingsSnapshot, ("tie_breaks", "rows", "placements"),
        excluded={"id": "one per event", "event": THE_EVENT,
                  "version": "derived: counts rebuilds in one database",
                  "source_version": "derived: rebuilt from the hands on import",
                  "digest": "derived: rebuilt from the hands on import",
                  "computed_at": "derived: rebuilt from the hands on import"},
    ),
}

# Models of the apps an event lives in that the archive does not carry, and why (by label, so a
# model that is renamed or removed here fails the test too). A test fails when one of these apps
# gains a model that is neither here nor in SECTIONS.
NOT_ARCHIVED: dict[str, str] = {
    "clubs.Membership": "the club's people and roles, not the event's",
    "clubs.ClubPlayer": "the roster: an import puts the event's players on the target club's "
                        "roster",
    "clubs.Invitation": "invitations to join the club, not the event's",
    "clubs.AccountSettings": "a person's own choices for their account (their language), not "
                             "the event's",
    "scoring.SeatResult": "derived from the hands: rebuilt on import",
    "tournaments.Arrival": "the door's self check-ins of the day: those admitted are archived as "
                           "entries",
    "conduct.PenaltyTable": "the default points per kind offered for new penalties: each "
                            "penalty archived carries its own points",
    "conduct.DirectorCall": "a table's call for a director on the day: the ruling that "
                            "changed a result is archived as a penalty or an adjusted game",
    "conduct.Correction": "the public trail of changes made on the site that shows it: the "
                          "results they led to are archived; an imported event starts its own "
                          "trail",
}
ARCHIVED_APPS = ("clubs", "tournaments", "scoring", "standings", "conduct")
# Sections added by a later version: an archive of an earlier version has none (read as empty).
SECTION_SINCE: dict[str, int] = {"penalties": 2, "appeals": 2}

# Keys of EventLog.details that hold database ids, by action (as the services that log them
# write them): the archive writes local ids there, the import the new database's ids.
LOG_REFS: dict[str, dict[str, str]] = {
    "checked_in": {"player": PLAYER},
    "returned": {"player": PLAYER},
    "pair_registered": {"pair": PAIR, "players": PLAYER},
    "pair_withdrew": {"pair": PAIR},
    "left": {"entry": ENTRY},
    "alternates_named": {"entries": ENTRY},
    "alternate_seated": {"entry": ENTRY, "replaces": ENTRY},
    "seat_swap": {"a": ENTRY, "b": ENTRY},
    "round_seated": {"table_draw": ENTRY},  # [[stayer, arrival], ...] per table
    "pair_swap": {"a": PAIR, "b": PAIR},
    "confirmation_cleared": {"confirmed_by": ENTRY},
    "penalty_recorded": {"penalty": PENALTY, "entry": ENTRY, "pair": PAIR},
    "penalty_withdrawn": {"penalty": PENALTY},
    "appeal_decided": {"appeal": APPEAL, "penalty": PENALTY},
}
# Keys of standings rows and placements that hold database ids.
STANDINGS_REFS: dict[str, str] = {"entry_id": ENTRY, "entry_ids": ENTRY, "pair_id": PAIR}


def timestamp(value: datetime.datetime | None) -> str | None:
    """A stored time as the archive writes it: UTC, always with microseconds."""
    if value is None:
        return None
    if value.year >= 1000 and value.utcoffset() == _NO_OFFSET:
        # a time in UTC already (as the database gives them): its ISO form, a fifth the cost
        return value.isoformat(timespec="microseconds")[:26] + "Z"
    return value.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_NO_OFFSET = datetime.timedelta(0)


K = TypeVar("K")
V = TypeVar("V")


@overload
def canonical(value: dict[K, V]) -> dict[str, V]: ...
@overload
def canonical(value: list[V]) -> list[V]: ...
@overload
def canonical(value: object) -> object: ...
def canonical(value: object) -> object:
    """A stored JSON value with every object's keys sorted (lists keep their order)."""
    if isinstance(value, dict):
        return {str(k): canonical(value[k]) if isinstance(value[k], (dict, list)) else value[k]
                for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [canonical(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def dumps(archive: Mapping[str, object]) -> bytes:
    """The archive's bytes: UTF-8 JSON laid out one record per line, a final newline.

    A list of objects (a section's rows, the standings' rows) is written one object per line,
    each on its line whole (a hand with its revisions too); an object holding such a list (the
    archive, its standings) one key per line; everything else on the line of its key. Keys
    keep their order; the separators are ``", "`` and ``": "``; text is written as it is
    (no ``\\u`` escapes but the ones JSON needs). So a line-by-line diff of two exports shows
    the records that differ, and every line is written by the standard library's C encoder in
    one call (an indented layout would need its pure-Python encoder: three times the time on
    a big day's archive). ``json.loads`` reads back what ``json.dumps`` would have written.
    Values JSON cannot hold (NaN, infinities, other types) are refused as ``json`` refuses
    them."""
    out: list[str] = []
    _write(archive, "\n", out)
    out.append("\n")
    return "".join(out).encode()


def _refuse_type(value: object) -> NoReturn:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


# the C encoder's maker (``json.encoder.c_make_encoder``), when the interpreter has it
_make_encoder: Callable[..., Callable[[object, int], Iterable[str]]] | None = getattr(
    json.encoder, "c_make_encoder", None)
_line: Callable[[object], str]  # ``value`` on one line
if _make_encoder is not None:
    # the C encoder, made once (``JSONEncoder.encode`` makes one per call)
    _encode = _make_encoder(None, _refuse_type, json.encoder.encode_basestring, None, ": ",
                            ", ", False, False, False)

    def _line(value: object) -> str:
        return "".join(_encode(value, 0))
else:
    _line = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(", ", ": ")).encode


def _rows(value: object) -> TypeGuard[Sequence[object]]:
    """A non-empty list of objects: written one per line."""
    return (isinstance(value, (list, tuple)) and bool(value)
            and all(isinstance(item, dict) for item in value))


def _tall(value: object) -> TypeGuard[Mapping[object, object]]:
    """An object written one key per line: one holding rows, or such an object."""
    return isinstance(value, dict) and any(_rows(item) or _tall(item) for item in value.values())


def _write(value: object, newline: str, out: list[str]) -> None:
    """``value`` at the indent ``newline`` ends with (one space per level)."""
    inner = newline + " "
    if _rows(value):
        out.append("[" + inner + ("," + inner).join(map(_line, value)) + newline + "]")
    elif _tall(value):
        opening = "{"
        for key, item in value.items():
            out.append(opening + inner + _line(_key(key)) + ": ")
            _write(item, inner, out)
            opening = ","
        out.append(newline + "}")
    else:
        out.append(_line(value))


def _key(key: object) -> str:
    """A mapping key as ``json`` writes it."""
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, float):
        return _line(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
