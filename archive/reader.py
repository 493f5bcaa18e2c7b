"""Reading an archive before anything is written: every value typed and checked, every
reference resolved, every rule the database enforces checked here first, so that a bad archive
is refused with the path of each problem (``hands[12].revisions[0].bid``) and changes nothing.

:func:`read_archive` returns a :class:`Plan` (typed rows in the archive's order) or raises
:class:`ArchiveRefused` listing the problems found (at most :data:`MAX_PROBLEMS`).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models

import formats
from common.errors import DomainError
from common.labels import OUTCOMES, RESULTS, SEATS
from common.rulesets import check_ruleset, table_seats, table_sides
from conduct.models import PENALTY_POINTS_MAX
from ranking import RankingError, validate_tie_breaks
from ranking.pairs import validate_pair_tie_breaks
from ranking.prizes import check_prizes
from rules_engine import RulesError, Ruleset, parse_hand, score_game
from scoring.models import NO_BID_OUTCOMES, HandRevision
from scoring.selectors import revision_values
from scoring.services import ADJUST_KINDS, ADJUSTED_POINTS_LIMIT, HAND_FIELDS, hand_check
from tournaments.models import BYE_POINTS_LIMIT, Event, Round
from tournaments.services import check_format_settings, check_table_shape

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
    SECTION_SINCE,
    SECTIONS,
    STANDINGS_REFS,
    TABLE,
    USER,
    VERSION,
    Section,
)

MAX_PROBLEMS = 50
# A revision's entered values, as the rules engine reads them (each a field of the revision).
REVISION_VALUES = HAND_FIELDS
LIST_SECTIONS = ("players", "pairs", "entries", "table_cards", "rounds", "tables", "seats",
                 "byes", "games", "hands", "penalties", "appeals", "log")
USERNAME_MAX = 150
INT_RANGES = {
    "PositiveSmallIntegerField": (0, 32767),
    "SmallIntegerField": (-32768, 32767),
    "PositiveIntegerField": (0, 2147483647),
    "IntegerField": (-2147483648, 2147483647),
}
TEXT_FIELDS = {"CharField", "SlugField", "EmailField", "TextField"}
# Text fields holding a whole number in decimal digits. An archive written while the event's
# draw seed was a 32-bit integer column has a JSON number there: it reads as its digits.
NUMBER_TEXT_FIELDS = {(Event, "seed")}


@dataclass(frozen=True)
class Problem:
    field: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


class ArchiveRefused(DomainError):
    """The archive cannot be imported; ``problems`` lists why, each with its path."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(first.message, field=first.field, code=first.code)
        self.problems = problems

    def api_errors(self) -> list[dict[str, Any]]:
        return [p.as_dict() for p in self.problems]


class _Enough(Exception):
    """Stop reading: MAX_PROBLEMS problems are enough to show."""


class _Bad:
    """A value that was missing or wrong (its problem is already recorded)."""


BAD: Any = _Bad()


@dataclass
class Row:
    """One typed row: ``values`` by model field name (references as local ids, round numbers,
    (round, table) keys or user names), ``path`` where it was in the archive."""

    path: str
    values: dict[str, Any]
    raw: Mapping[str, Any]
    local_id: int | None = None
    children: list[Row] = field(default_factory=list)


@dataclass
class Plan:
    version: int
    club: dict[str, Any]
    event: dict[str, Any]
    sections: dict[str, list[Row]]
    standings: dict[str, Any]
    ruleset: Ruleset


class Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, code: str, message: str) -> Any:
        self.problems.append(Problem(path, code, message))
        if len(self.problems) >= MAX_PROBLEMS:
            raise _Enough
        return BAD

    # --- shapes ------------------------------------------------------------------------------
    def mapping(self, value: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.fail(path, "invalid", "Must be an object.")
            return None
        return value

    def listing(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, "invalid", "Must be a list.")
            return []
        return value

    # --- values ------------------------------------------------------------------------------
    def value(self, model: type[models.Model], name: str, row: Mapping[str, Any], path: str,
              key: str | None = None) -> Any:
        """``row[key or name]`` checked against the model field ``name``: its type, null, length,
        choices and range, as the database would (an aware datetime for a time, a date for a
        date)."""
        key = key or name
        where = f"{path}.{key}"
        if key not in row:
            return self.fail(where, "required", f"{key} is missing.")
        value = row[key]
        field_: Any = model._meta.get_field(name)
        if value is None:
            return None if field_.null else self.fail(where, "null", f"{key} may not be null.")
        internal = field_.get_internal_type()
        if internal == "BooleanField":
            return value if isinstance(value, bool) else self.fail(
                where, "invalid", f"{key} must be true or false.")
        if internal in INT_RANGES:
            low, high = INT_RANGES[internal]
            if isinstance(value, bool) or not isinstance(value, int):
                return self.fail(where, "invalid", f"{key} must be a whole number.")
            if not low <= value <= high:
                return self.fail(where, "range", f"{key} must be from {low} to {high}.")
            return value
        if (model, name) in NUMBER_TEXT_FIELDS:
            return self.number_text(field_, value, where, key)
        if internal in TEXT_FIELDS:
            return self.text(field_, value, where, key)
        if internal == "DateTimeField":
            return self.moment(value, where, key)
        if internal == "DateField":
            try:
                return datetime.date.fromisoformat(value) if isinstance(value, str) else self.fail(
                    where, "invalid", f"{key} must be a date (YYYY-MM-DD).")
            except ValueError:
                return self.fail(where, "invalid", f"{key} must be a date (YYYY-MM-DD).")
        if internal == "JSONField":
            return self.json_value(field_, value, where, key)
        raise AssertionError(f"no archive reading for {internal}")  # pragma: no cover

    def text(self, field_: Any, value: Any, where: str, key: str) -> Any:
        if not isinstance(value, str):
            return self.fail(where, "invalid", f"{key} must be text.")
        if "\x00" in value:
            return self.fail(where, "invalid", f"{key} may not contain a NUL character.")
        if field_.max_length is not None and len(value) > field_.max_length:
            return self.fail(where, "too_long", f"{key} is at most {field_.max_length} characters.")
        if not field_.blank and not value:
            return self.fail(where, "blank", f"{key} may not be empty.")
        if field_.choices and value not in {str(c) for c, _ in field_.flatchoices}:
            allowed = ", ".join(str(c) for c, _ in field_.flatchoices)
            return self.fail(where, "invalid_choice", f"{key} must be one of: {allowed}.")
        if field_.get_internal_type() == "EmailField" and value:
            try:
                validate_email(value)
            except ValidationError:
                return self.fail(where, "invalid", f"{value!r} is not an e-mail address.")
        return value

    def number_text(self, field_: Any, value: Any, where: str, key: str) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            value = str(value)
        if not isinstance(value, str) or not value.isascii() or not value.isdigit():
            return self.fail(where, "invalid", f"{key} must be a whole number of at most "
                             f"{field_.max_length} digits.")
        return self.text(field_, value, where, key)

    def moment(self, value: Any, where: str, key: str) -> Any:
        message = f"{key} must be a time with its zone, e.g. 2026-11-20T19:03:04.000000Z."
        if not isinstance(value, str):
            return self.fail(where, "invalid", message)
        try:
            moment = datetime.datetime.fromisoformat(value)
            if moment.tzinfo is None:
                return self.fail(where, "invalid", message)
            return moment.astimezone(datetime.UTC)
        except (ValueError, OverflowError):
            return self.fail(where, "invalid", message)

    def json_value(self, field_: Any, value: Any, where: str, key: str) -> Any:
        kind = field_.default if field_.default in (dict, list) else None
        if kind is dict and not isinstance(value, dict):
            return self.fail(where, "invalid", f"{key} must be an object.")
        if kind is list and not isinstance(value, list):
            return self.fail(where, "invalid", f"{key} must be a list.")
        if "\\u0000" in json.dumps(value):
            return self.fail(where, "invalid", f"{key} may not contain a NUL character.")
        return value

    def username(self, row: Mapping[str, Any], key: str, path: str) -> Any:
        where = f"{path}.{key}"
        if key not in row:
            return self.fail(where, "required", f"{key} is missing.")
        value = row[key]
        if value is None:
            return None
        if not isinstance(value, str) or not value or len(value) > USERNAME_MAX:
            return self.fail(where, "invalid",
                             f"{key} must be a user name (1 to {USERNAME_MAX} characters) or null.")
        return value

    def local_ref(self, value: Any, known: Mapping[Any, Any], where: str, kind: str,
                  nullable: bool) -> Any:
        if value is None:
            return None if nullable else self.fail(where, "null", f"Name a {kind} here.")
        if isinstance(value, bool) or not isinstance(value, int):
            return self.fail(where, "invalid", f"Must be the id of a {kind} of this archive.")
        if value not in known:
            return self.fail(where, "unknown", f"No {kind} {value} in this archive's {kind}s.")
        return value


def read_archive(data: Any) -> Plan:
    """The archive ``data`` (parsed JSON) read into a :class:`Plan`, or :class:`ArchiveRefused`."""
    reader = Reader()
    try:
        plan = _read(reader, data)
    except _Enough:
        plan = None
    if reader.problems or plan is None:
        raise ArchiveRefused(reader.problems)
    return plan


def _stop(reader: Reader) -> None:
    if reader.problems:
        raise _Enough


def _read(r: Reader, data: Any) -> Plan | None:
    if not isinstance(data, dict):
        r.fail("__all__", "invalid", "An archive is one JSON object.")
        return None
    if data.get("format") != FORMAT_NAME:
        r.fail("format", "unknown_format",
               f"Not an event archive: format must be {FORMAT_NAME!r}.")
        return None
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        r.fail("version", "invalid", "version must be a whole number from 1.")
        return None
    if version > VERSION:
        r.fail("version", "newer_version",
               f"This archive was written in format version {version}, newer than this site "
               f"reads (up to {VERSION}). Update the site, then import it.")
        return None
    data = dict(data)
    for key in ("club", "event", "standings", *LIST_SECTIONS):
        if key not in data and SECTION_SINCE.get(key, 1) > version:
            data[key] = []  # an earlier version's archive: the section did not exist yet
        elif key not in data:
            r.fail(key, "required", f"The archive has no {key} section.")
    _stop(r)

    club = _read_fields(r, SECTIONS["club"], r.mapping(data["club"], "club") or {}, "club")
    event_data = r.mapping(data["event"], "event") or {}
    event = _read_fields(r, SECTIONS["event"], event_data, "event")
    event["created_by"] = r.username(event_data, "created_by", "event")
    _stop(r)
    ruleset = _check_event(r, event)
    _stop(r)

    s: dict[str, list[Row]] = {}
    s["players"] = _rows(r, data, "players", {})
    _unique_ids(r, s["players"], "players")
    player_ids = {row.local_id: row for row in s["players"]}
    s["pairs"] = _rows(r, data, "pairs", {})
    _unique_ids(r, s["pairs"], "pairs")
    pair_ids = {row.local_id: row for row in s["pairs"]}
    _unique(r, s["pairs"], lambda v: v["seed"] if v["seed"] is not None else None, "seed",
            "Seed {key} is given to two pairs")
    s["entries"] = _rows(r, data, "entries", {PLAYER: player_ids, PAIR: pair_ids})
    _unique_ids(r, s["entries"], "entries")
    entry_ids = {row.local_id: row for row in s["entries"]}
    _unique(r, s["entries"], lambda v: v["player"], "player", "Player {key} has two entries")

    s["table_cards"] = _rows(r, data, "table_cards", {})
    _unique(r, s["table_cards"], lambda v: v["number"], "number", "Table card {key} is listed twice")
    _positive(r, s["table_cards"], "number")
    s["rounds"] = _rows(r, data, "rounds", {})
    _unique(r, s["rounds"], lambda v: v["number"], "number", "Round {key} is listed twice")
    _positive(r, s["rounds"], "number")
    open_rounds = [row for row in s["rounds"] if row.values["status"] != Round.Status.CLOSED]
    for row in open_rounds[1:]:
        r.fail(f"{row.path}.status", "open_round",
               f"Round {open_rounds[0].values['number']} is open too: an event has at most one "
               "round not closed.")
    rounds = {row.values["number"]: row for row in s["rounds"]}
    s["tables"] = _rows(r, data, "tables", {ROUND: rounds})
    _unique(r, s["tables"], lambda v: (v["round"], v["number"]), "number",
            "Table {key[1]} of round {key[0]} is listed twice")
    tables = {(row.values["round"], row.values["number"]): row for row in s["tables"]}
    refs = {ENTRY: entry_ids, ROUND: rounds, TABLE: tables}
    s["seats"] = _rows(r, data, "seats", refs)
    _unique(r, s["seats"], lambda v: (*v["table"], v["position"]), "position",
            "Seat {key[2]} at table {key[1]} of round {key[0]} is taken twice", code="taken")
    _unique(r, s["seats"], lambda v: (v["table"][0], v["entry"]), "entry",
            "Entry {key[1]} is seated twice in round {key[0]}", code="seated_twice")
    s["byes"] = _rows(r, data, "byes", refs)
    _unique(r, s["byes"], lambda v: (v["round"], v["entry"]), "entry",
            "Entry {key[1]} has two byes in round {key[0]}")
    # each table's seats, clockwise (three, or four where the dealer sits out; four in pairs)
    positions: dict[Any, list[str]] = {}
    for row in s["seats"]:
        positions.setdefault(tuple(row.values["table"]), []).append(row.values["position"])
    seats_at = {key: table_seats(ruleset, found) for key, found in positions.items()}
    s["games"] = _rows(r, data, "games", refs)
    _unique(r, s["games"], lambda v: v["table"], "table",
            "Table {key[1]} of round {key[0]} has two games")
    for row in s["games"]:
        _check_game(r, row, ruleset, seats_at.get(tuple(row.values["table"]), ruleset.seats))
    games = {row.values["table"]: row for row in s["games"]}
    s["hands"] = _rows(r, data, "hands", {GAME: games})
    _positive(r, s["hands"], "number")
    _unique(r, [h for h in s["hands"] if h.values["deleted_at"] is None],
            lambda v: (*v["game"], v["number"]), "number",
            "Hand {key[2]} of table {key[1]} in round {key[0]} is listed twice (and not deleted)")
    for row in s["hands"]:
        _read_revisions(r, row, ruleset,
                        seats_at.get(tuple(row.values["game"]), ruleset.seats))
    _check_games_end(r, s["hands"], games, ruleset, event["deals_per_round"], seats_at)
    decided = {ENTRY: entry_ids, PAIR: pair_ids, GAME_AT: games}
    s["penalties"] = _rows(r, data, "penalties", decided)
    _unique_ids(r, s["penalties"], "penalties")
    pairs_event = bool(getattr(formats.FORMATS.get(event["format"]), "pairs", False))
    for row in s["penalties"]:
        _check_penalty(r, row, pairs_event)
    penalty_ids = {row.local_id: row for row in s["penalties"]}
    s["appeals"] = _rows(r, data, "appeals", {**decided, PENALTY: penalty_ids})
    _unique_ids(r, s["appeals"], "appeals")
    appeal_ids = {row.local_id: row for row in s["appeals"]}
    s["log"] = _rows(r, data, "log", {})
    for row in s["log"]:
        _check_log(r, row, {PLAYER: player_ids, PAIR: pair_ids, ENTRY: entry_ids,
                            PENALTY: penalty_ids, APPEAL: appeal_ids})
    standings = _read_standings(r, data["standings"], {PAIR: pair_ids, ENTRY: entry_ids})
    return Plan(version=version, club=club, event=event, sections=s, standings=standings,
                ruleset=ruleset)


# --- rows --------------------------------------------------------------------------------------
def _read_fields(r: Reader, section: Section, row: Mapping[str, Any], path: str) -> dict[str, Any]:
    """The section's plain fields of ``row`` (references are read by :func:`_rows`)."""
    return {name: r.value(section.model, name, row, path)
            if name in row or name not in section.defaults else section.defaults[name]
            for name in section.layout if name not in section.refs}


def _rows(r: Reader, data: Mapping[str, Any], key: str,
          known: Mapping[str, Mapping[Any, Any]]) -> list[Row]:
    """The rows of list section ``key``, typed, their references checked against ``known``
    (local ids, round numbers, (round, table) keys). Rows with a problem are left out."""
    section = SECTIONS[key]
    rows = []
    for index, item in enumerate(r.listing(data[key], key)):
        path = f"{key}[{index}]"
        raw = r.mapping(item, path)
        if raw is None:
            continue
        before = len(r.problems)
        values = _read_fields(r, section, raw, path)
        for name, kind in section.refs.items():
            nullable = bool(getattr(section.model._meta.get_field(name), "null", False))
            if kind == USER:
                values[name] = r.username(raw, name, path)
            elif kind in (TABLE, GAME):
                values[name] = _table_ref(r, raw, path, known[kind], kind)
            elif kind == GAME_AT:
                values[name] = _game_at(r, raw, name, path, known[kind])
            elif kind == ROUND:
                values[name] = _round_ref(r, raw, name, path, known[ROUND])
            else:
                if name not in raw:
                    values[name] = r.fail(f"{path}.{name}", "required", f"{name} is missing.")
                else:
                    values[name] = r.local_ref(raw[name], known[kind], f"{path}.{name}", kind,
                                               nullable)
        local_id = raw.get("id")
        if section.local_id and (isinstance(local_id, bool) or not isinstance(local_id, int)
                                 or local_id < 1):
            r.fail(f"{path}.id", "invalid", "id must be a whole number from 1.")
        if len(r.problems) == before:
            rows.append(Row(path=path, values=values, raw=raw,
                            local_id=local_id if section.local_id else None))
    return rows


def _round_ref(r: Reader, raw: Mapping[str, Any], name: str, path: str,
               known: Mapping[Any, Any]) -> Any:
    if name not in raw:
        return r.fail(f"{path}.{name}", "required", f"{name} is missing.")
    number = raw[name]
    if isinstance(number, bool) or not isinstance(number, int):
        return r.fail(f"{path}.{name}", "invalid", f"{name} must be a round number.")
    if number not in known:
        return r.fail(f"{path}.{name}", "unknown", f"No round {number} in this archive's rounds.")
    return number


def _table_ref(r: Reader, raw: Mapping[str, Any], path: str, known: Mapping[Any, Any],
               kind: str) -> Any:
    for key in ("round", "table"):
        if key not in raw:
            return r.fail(f"{path}.{key}", "required", f"{key} is missing.")
    found = (raw["round"], raw["table"])
    if any(isinstance(v, bool) or not isinstance(v, int) for v in found):
        return r.fail(f"{path}.table", "invalid", "round and table must be numbers.")
    if found not in known:
        what = "table" if kind == TABLE else "game at table"
        return r.fail(f"{path}.table", "unknown",
                      f"No {what} {found[1]} in round {found[0]} in this archive.")
    return found


def _game_at(r: Reader, raw: Mapping[str, Any], name: str, path: str,
             known: Mapping[Any, Any]) -> Any:
    """A game that may be none: null, or ``{"round": …, "table": …}``."""
    if name not in raw:
        return r.fail(f"{path}.{name}", "required", f"{name} is missing.")
    if raw[name] is None:
        return None
    found = r.mapping(raw[name], f"{path}.{name}")
    if found is None:
        return BAD
    return _table_ref(r, found, f"{path}.{name}", known, GAME)


def _unique_ids(r: Reader, rows: list[Row], key: str) -> None:
    _unique(r, rows, lambda v: None, "id", "", ids=True)


def _unique(r: Reader, rows: list[Row], key_of: Any, name: str, message: str, *,
            code: str = "duplicate", ids: bool = False) -> None:
    """A problem on each row whose key (``key_of(values)``) an earlier row already had."""
    first: dict[Any, str] = {}
    for row in rows:
        key = row.local_id if ids else key_of(row.values)
        if key is None:
            continue
        if key in first:
            text = (f"Id {key} is used twice" if ids else message.format(key=key))
            r.fail(f"{row.path}.{name}", code, f"{text} ({first[key]} and {row.path}).")
        else:
            first[key] = row.path


def _positive(r: Reader, rows: list[Row], name: str) -> None:
    for row in rows:
        if row.values[name] < 1:
            r.fail(f"{row.path}.{name}", "range", f"{name} must be 1 or more.")


# --- the event, games, hands, log, standings -------------------------------------------------
def _check_event(r: Reader, event: dict[str, Any]) -> Ruleset:
    """The event's settings as the event services check them (the refusals' fields are the
    event's: ``event.format_settings.cut``, ``event.tie_breaks`` …)."""
    ruleset = None
    try:
        ruleset = check_ruleset(preset=event["ruleset_preset"],
                                overrides=event["ruleset_overrides"])
    except DomainError as exc:
        r.fail(f"event.{exc.field}", exc.code, exc.message)
    try:
        check_format_settings(format=event["format"], settings=event["format_settings"],
                              ruleset=ruleset)
    except DomainError as exc:
        r.fail(f"event.{exc.field}", exc.code, exc.message)
    if ruleset is not None:
        try:
            check_table_shape(ruleset=ruleset, format=event["format"])
        except DomainError as exc:
            r.fail(f"event.{exc.field}", exc.code, exc.message)
    if not all(isinstance(name, str) for name in event["tie_breaks"]):
        r.fail("event.tie_breaks", "invalid", "tie_breaks is a list of tie-break names.")
        raise _Enough
    try:
        if getattr(formats.FORMATS.get(event["format"]), "pairs", False):
            validate_pair_tie_breaks(event["tie_breaks"] or None)
        else:
            validate_tie_breaks(event["tie_breaks"] or None, partnership=event["partnership"])
        check_prizes(event["prizes"])
    except RankingError as exc:
        r.fail(f"event.{exc.field}", exc.code, exc.message)
    if event["rounds_planned"] < 1:
        r.fail("event.rounds_planned", "range", "rounds_planned must be 1 or more.")
    if event["deals_per_round"] is not None and event["deals_per_round"] < 1:
        r.fail("event.deals_per_round", "range", "deals_per_round must be 1 or more, or null.")
    if not -BYE_POINTS_LIMIT <= event["bye_points"] <= BYE_POINTS_LIMIT:
        r.fail("event.bye_points", "range",
               f"bye_points must be from {-BYE_POINTS_LIMIT} to {BYE_POINTS_LIMIT}.")
    if ruleset is None:
        raise _Enough
    return ruleset


def _check_game(r: Reader, row: Row, ruleset: Ruleset, seats: Sequence[str]) -> None:
    values = row.values
    named = table_sides(ruleset, seats)
    sides = set(named)
    totals = values["totals"]
    if set(totals) - sides or any(isinstance(v, bool) or not isinstance(v, int)
                                  for v in totals.values()):
        r.fail(f"{row.path}.totals", "invalid",
               f"totals maps sides ({', '.join(named)}) to whole numbers.")
    for name in ("winner", "cut_winner"):
        if values[name] and values[name] not in sides:
            r.fail(f"{row.path}.{name}", "invalid_choice",
                   f"{name} is empty or one of: {', '.join(named)}.")
    if values["forfeit"] and (values["forfeit"] not in sides or values["status"] != "confirmed"):
        r.fail(f"{row.path}.forfeit", "invalid",
               "forfeit is empty or the side that forfeited a confirmed game: "
               f"{', '.join(ruleset.sides)}.")
    _check_adjusted(r, row, sides)
    if values["scorer_position"] and values["scorer_position"] not in SEATS:
        r.fail(f"{row.path}.scorer_position", "invalid_choice",
               f"scorer_position is empty or one of: {', '.join(SEATS)}.")


def _check_adjusted(r: Reader, row: Row, sides: set[str]) -> None:
    """An adjusted result as ``scoring.services.game_adjust`` writes it: its kind, every side's
    points (whole numbers within the limit) and the reason, on a confirmed game."""
    adjusted = row.values["adjusted"]
    where = f"{row.path}.adjusted"
    if adjusted is None:
        return
    if not isinstance(adjusted, dict):
        r.fail(where, "invalid", "adjusted is null or an object.")
        return
    if adjusted.get("kind") not in ADJUST_KINDS:
        r.fail(f"{where}.kind", "invalid_choice", f"kind must be one of: {', '.join(ADJUST_KINDS)}.")
    points = adjusted.get("points")
    if not isinstance(points, dict) or set(points) != sides or any(
            isinstance(v, bool) or not isinstance(v, int) or abs(v) > ADJUSTED_POINTS_LIMIT
            for v in points.values()):
        r.fail(f"{where}.points", "invalid",
               f"points maps each side ({', '.join(sorted(sides))}) to a whole number within "
               f"{ADJUSTED_POINTS_LIMIT:,} of 0.")
    reason = adjusted.get("reason")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
        r.fail(f"{where}.reason", "invalid", "reason is the director's words (1 to 200 characters).")
    if row.values["status"] != "confirmed":
        r.fail(f"{row.path}.status", "invalid", "An adjusted game is confirmed.")


def _check_penalty(r: Reader, row: Row, pairs_event: bool) -> None:
    """A penalty as the database keeps it: its points and round in range, a player or a pair
    penalised (the pair in a pair event), its game in its round, withdrawn with a reason."""
    values = row.values
    if not 1 <= values["points"] <= PENALTY_POINTS_MAX:
        r.fail(f"{row.path}.points", "range", f"points must be from 1 to {PENALTY_POINTS_MAX}.")
    if values["round_number"] < 1:
        r.fail(f"{row.path}.round_number", "range", "round_number must be 1 or more.")
    if values["entry"] is None and values["pair"] is None:
        r.fail(f"{row.path}.entry", "required", "A penalty names a player (entry) or a pair.")
    if pairs_event and values["pair"] is None:
        r.fail(f"{row.path}.pair", "required", "In a pair event a penalty names the pair.")
    if values["game"] is not None and values["game"][0] != values["round_number"]:
        r.fail(f"{row.path}.game", "invalid", "The game is one of the penalty's round.")
    if (values["withdrawn_at"] is None) != (values["withdrawn_reason"] == ""):
        r.fail(f"{row.path}.withdrawn_reason", "invalid",
               "A withdrawn penalty has a reason (withdrawn_reason); one in force has none.")


def _read_revisions(r: Reader, hand: Row, ruleset: Ruleset, seats: Sequence[str]) -> None:
    raw = hand.raw
    path = f"{hand.path}.revisions"
    if "revisions" not in raw:
        r.fail(path, "required", "revisions is missing.")
        return
    items = r.listing(raw["revisions"], path)
    if not items:
        r.fail(path, "required", "A hand has at least one revision.")
        return
    section = SECTIONS["revisions"]
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        row = r.mapping(item, where)
        if row is None:
            continue
        before = len(r.problems)
        values = _read_fields(r, section, row, where)
        values["author"] = r.username(row, "author", where)
        if len(r.problems) == before:
            _check_revision(r, values, where, ruleset, seats)
        if len(r.problems) == before:
            hand.children.append(Row(path=where, values=values, raw=row))
    if len(hand.children) != len(items):
        return
    _unique(r, hand.children, lambda v: v["revision"], "revision", "Revision {key} is listed twice")
    _positive(r, hand.children, "revision")
    live = [c for c in hand.children if c.values["is_live"]]
    deleted = hand.values["deleted_at"] is not None
    if deleted and live:
        r.fail(f"{live[0].path}.is_live", "invalid", "A deleted hand has no live revision.")
    elif not deleted and len(live) != 1:
        r.fail(f"{path}", "live", "A hand that is not deleted has exactly one live revision "
                                  f"(this one has {len(live)}).")


def _check_revision(r: Reader, values: dict[str, Any], where: str, ruleset: Ruleset,
                    seats: Sequence[str]) -> None:
    before = len(r.problems)
    for name, allowed in (("dealer", SEATS), ("outcome", OUTCOMES), ("result", RESULTS)):
        if values[name] not in allowed:
            r.fail(f"{where}.{name}", "invalid_choice", f"{name} must be one of: {', '.join(allowed)}.")
    bid = values["bid"]
    if bid is not None and not 1 <= bid <= 10000:
        r.fail(f"{where}.bid", "range", "bid must be from 1 to 10000.")
    if bid is None and values["outcome"] not in NO_BID_OUTCOMES:
        r.fail(f"{where}.bid", "required", "Only a misdeal has no bid.")
    if values["is_deletion"] and values["is_live"]:
        r.fail(f"{where}.is_live", "invalid", "A deletion is never live.")
    for name in ("meld", "points"):
        if not isinstance(values[name], dict):
            r.fail(f"{where}.{name}", "invalid", f"{name} must be an object.")
    for name in ("counters", "tricks"):
        if values[name] is not None and not isinstance(values[name], dict):
            r.fail(f"{where}.{name}", "invalid", f"{name} must be an object or null.")
    if len(r.problems) > before:
        return
    revision = HandRevision(**{k: values[k] for k in REVISION_VALUES})
    try:
        _hand, score = hand_check(values=revision_values(revision), ruleset=ruleset,
                                  seats=seats)
    except RulesError as exc:
        for error in exc.errors:
            r.fail(f"{where}.{error.field}", error.code, error.message)
        return
    # What a hand scores is derived from its values, as entry derives it: the archive's own
    # points, result, made and reason are replaced by the engine's (a forged "NS 999" is not
    # kept; an honest archive says the same).
    # A deletion's reason says so, as ``scoring.services.hand_delete_last`` writes it.
    values.update(points=dict(score.points), result=score.result, made=score.made,
                  reason="deleted" if values["is_deletion"] else score.reason[:200])


def _check_games_end(r: Reader, hands: list[Row], games: Mapping[Any, Row], ruleset: Ruleset,
                     deals_per_round: int | None,
                     seats_at: Mapping[Any, Sequence[str]]) -> None:
    """Each game's live hands scored in order as the scoring services score them: a hand after
    the one that ended the game (a target reached, the deals played) is refused at its path,
    before anything is written."""
    by_game: dict[Any, list[tuple[int, Row]]] = {}
    for hand in hands:
        live = [c for c in hand.children if c.values["is_live"]]
        if hand.values["deleted_at"] is None and len(live) == 1:
            by_game.setdefault(hand.values["game"], []).append((hand.values["number"], live[0]))
    for key, listed in by_game.items():
        game = games.get(key)
        if game is None or game.values["forfeit"] or game.values["adjusted"]:
            continue  # a forfeited or adjusted game is decided whatever its hands say
        listed.sort(key=lambda item: item[0])
        try:
            seats = seats_at.get(tuple(key), ruleset.seats)
            engine_hands = [parse_hand(revision_values(HandRevision(
                **{k: c.values[k] for k in REVISION_VALUES})), ruleset, seats=seats)
                for _, c in listed]
            score_game(engine_hands, ruleset, max_deals=deals_per_round, seats=seats)
        except RulesError as exc:
            for error in exc.errors:
                index = _hand_index(error.field)
                where = listed[index][1].path if index is not None else f"{game.path}.totals"
                r.fail(where, error.code, f"{error.message[:1].upper()}{error.message[1:]}.")


def _hand_index(field_: str) -> int | None:
    if field_.startswith("hands[") and field_.endswith("]"):
        try:
            return int(field_[6:-1])
        except ValueError:
            return None
    return None


def _check_log(r: Reader, row: Row, known: Mapping[str, Mapping[Any, Any]]) -> None:
    for key, kind in LOG_REFS.get(row.values["action"], {}).items():
        value = row.values["details"].get(key)
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            where = f"{row.path}.details.{key}" + (f"[{index}]" if isinstance(value, list) else "")
            if item is not None:
                r.local_ref(item, known[kind], where, kind, True)


def _read_standings(r: Reader, raw: Any, known: Mapping[str, Mapping[Any, Any]]) -> dict[str, Any]:
    standings = r.mapping(raw, "standings") or {}
    out = _read_fields(r, SECTIONS["standings"], standings, "standings")
    for name in ("rows", "placements"):
        listed = out.get(name)
        for index, item in enumerate(listed if isinstance(listed, list) else []):
            where = f"standings.{name}[{index}]"
            if r.mapping(item, where) is None:
                continue
            for key, kind in STANDINGS_REFS.items():
                value = item.get(key)
                for n, ref in enumerate(value if isinstance(value, list) else [value]):
                    if ref is not None:
                        r.local_ref(ref, known[kind], f"{where}.{key}"
                                    + (f"[{n}]" if isinstance(value, list) else ""), kind, True)
    return out
