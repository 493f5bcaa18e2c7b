"""The machinery of reading an archive: the problems found (:class:`Problem`, refused together
as :class:`ArchiveRefused`), the typed rows (:class:`Row`) and what an import writes
(:class:`Plan`), and the :class:`Reader` that types every value of a section's rows and
resolves their references, with the small checks every section shares (unique local ids,
positive numbers). ``archive.reader`` reads an event's archive with them.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models

from common.errors import DomainError
from rules_engine import Ruleset
from scoring.services import HAND_FIELDS
from tournaments.models import Event

from .format import (
    GAME,
    GAME_AT,
    ROUND,
    SECTIONS,
    TABLE,
    USER,
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

    def api_errors(self) -> list[dict[str, object]]:
        return [{**p.as_dict()} for p in self.problems]


class Enough(Exception):
    """Stop reading: MAX_PROBLEMS problems are enough to show."""


class _Bad:
    """A value that was missing or wrong (its problem is already recorded)."""


BAD = _Bad()


@dataclass
class Row:
    """One typed row: ``values`` by model field name (references as local ids, round numbers,
    (round, table) keys or user names), ``path`` where it was in the archive."""

    path: str
    values: dict[str, Any]
    raw: Mapping[str, object]
    local_id: int | None = None
    children: list[Row] = field(default_factory=list)


@dataclass
class Plan:
    version: int
    club: dict[str, Any]  # the club's and the event's model fields, typed by the reader
    event: dict[str, Any]
    sections: dict[str, list[Row]]
    standings: dict[str, Any]
    ruleset: Ruleset


class Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, code: str, message: str) -> _Bad:
        self.problems.append(Problem(path, code, message))
        if len(self.problems) >= MAX_PROBLEMS:
            raise Enough
        return BAD

    # --- shapes ------------------------------------------------------------------------------
    def mapping(self, value: object, path: str) -> dict[str, object] | None:
        if not isinstance(value, dict):
            self.fail(path, "invalid", "Must be an object.")
            return None
        return value

    def listing(self, value: object, path: str) -> list[object]:
        if not isinstance(value, list):
            self.fail(path, "invalid", "Must be a list.")
            return []
        return value

    # --- values ------------------------------------------------------------------------------
    def value(self, model: type[models.Model], name: str, row: Mapping[str, object], path: str,
              key: str | None = None) -> object:
        """``row[key or name]`` checked against the model field ``name``: its type, null, length,
        choices and range, as the database would (an aware datetime for a time, a date for a
        date)."""
        key = key or name
        where = f"{path}.{key}"
        if key not in row:
            return self.fail(where, "required", f"{key} is missing.")
        value = row[key]
        field_ = model._meta.get_field(name)
        if not isinstance(field_, models.Field):  # pragma: no cover - the layouts name fields
            raise AssertionError(f"{model.__name__}.{name} is not a field")
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

    def text(self, field_: models.Field, value: object, where: str, key: str) -> object:
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

    def number_text(self, field_: models.Field, value: object, where: str, key: str) -> object:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            value = str(value)
        if not isinstance(value, str) or not value.isascii() or not value.isdigit():
            return self.fail(where, "invalid", f"{key} must be a whole number of at most "
                             f"{field_.max_length} digits.")
        return self.text(field_, value, where, key)

    def moment(self, value: object, where: str, key: str) -> object:
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

    def json_value(self, field_: models.Field, value: object, where: str, key: str) -> object:
        kind = field_.default if field_.default in (dict, list) else None
        if kind is dict and not isinstance(value, dict):
            return self.fail(where, "invalid", f"{key} must be an object.")
        if kind is list and not isinstance(value, list):
            return self.fail(where, "invalid", f"{key} must be a list.")
        if "\\u0000" in json.dumps(value):
            return self.fail(where, "invalid", f"{key} may not contain a NUL character.")
        return value

    def username(self, row: Mapping[str, object], key: str, path: str) -> object:
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

    def local_ref(self, value: object, known: Container[object], where: str, kind: str,
                  nullable: bool) -> object:
        if value is None:
            return None if nullable else self.fail(where, "null", f"Name a {kind} here.")
        if isinstance(value, bool) or not isinstance(value, int):
            return self.fail(where, "invalid", f"Must be the id of a {kind} of this archive.")
        if value not in known:
            return self.fail(where, "unknown", f"No {kind} {value} in this archive's {kind}s.")
        return value


def read_fields(r: Reader, section: Section, row: Mapping[str, object], path: str
                ) -> dict[str, Any]:
    """The section's plain fields of ``row`` (references are read by :func:`section_rows`)."""
    return {name: r.value(section.model, name, row, path)
            if name in row or name not in section.defaults else section.defaults[name]
            for name in section.layout if name not in section.refs}


def section_rows(r: Reader, data: Mapping[str, object], key: str,
          known: Mapping[str, Container[object]]) -> list[Row]:
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
        values = read_fields(r, section, raw, path)
        for name, kind in section.refs.items():
            nullable = bool(getattr(section.model._meta.get_field(name), "null", False))
            if kind == USER:
                values[name] = r.username(raw, name, path)
            elif kind in (TABLE, GAME):
                values[name] = table_ref(r, raw, path, known[kind], kind)
            elif kind == GAME_AT:
                values[name] = game_at(r, raw, name, path, known[kind])
            elif kind == ROUND:
                values[name] = round_ref(r, raw, name, path, known[ROUND])
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
                            local_id=local_id if section.local_id and isinstance(local_id, int)
                            else None))
    return rows


def round_ref(r: Reader, raw: Mapping[str, object], name: str, path: str,
               known: Container[object]) -> object:
    if name not in raw:
        return r.fail(f"{path}.{name}", "required", f"{name} is missing.")
    number = raw[name]
    if isinstance(number, bool) or not isinstance(number, int):
        return r.fail(f"{path}.{name}", "invalid", f"{name} must be a round number.")
    if number not in known:
        return r.fail(f"{path}.{name}", "unknown", f"No round {number} in this archive's rounds.")
    return number


def table_ref(r: Reader, raw: Mapping[str, object], path: str, known: Container[object],
               kind: str) -> object:
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


def game_at(r: Reader, raw: Mapping[str, object], name: str, path: str,
             known: Container[object]) -> object:
    """A game that may be none: null, or ``{"round": …, "table": …}``."""
    if name not in raw:
        return r.fail(f"{path}.{name}", "required", f"{name} is missing.")
    if raw[name] is None:
        return None
    found = r.mapping(raw[name], f"{path}.{name}")
    if found is None:
        return BAD
    return table_ref(r, found, f"{path}.{name}", known, GAME)


def unique_ids(r: Reader, rows: list[Row], key: str) -> None:
    unique(r, rows, lambda v: None, "id", "", ids=True)


def unique(r: Reader, rows: list[Row], key_of: Callable[[dict[str, Any]], object], name: str,
           message: str, *,
            code: str = "duplicate", ids: bool = False) -> None:
    """A problem on each row whose key (``key_of(values)``) an earlier row already had."""
    first: dict[object, str] = {}
    for row in rows:
        key = row.local_id if ids else key_of(row.values)
        if key is None:
            continue
        if key in first:
            text = (f"Id {key} is used twice" if ids else message.format(key=key))
            r.fail(f"{row.path}.{name}", code, f"{text} ({first[key]} and {row.path}).")
        else:
            first[key] = row.path


def positive(r: Reader, rows: list[Row], name: str) -> None:
    for row in rows:
        if row.values[name] < 1:
            r.fail(f"{row.path}.{name}", "range", f"{name} must be 1 or more.")


# --- the event, games, hands, log, standings -------------------------------------------------
