"""Reading an archive file for the verifier: its shape checked, nothing more.

Only what the verifier needs is checked here (the archive's name and version, every section,
the keys it reads with their types, the references between rows); a file that fails is
*malformed* (:class:`Malformed`, exit 2) and nothing is recomputed. Whether the values are
*right* is the recomputation's question (:mod:`verify.recompute`).

Sections added by a later format version read as their defaults in an earlier version's
archive (version 1 has no ``penalties`` or ``appeals``, no game's ``adjusted``), as the site's
import reads them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, TypeGuard

from .rows import ArchiveData, JSONObject

FORMAT_NAME = "pinochle-event-archive"
VERSION = 3  # the newest format version this verifier reads (archive.format.VERSION)
# Sections (and their version) added after version 1.
SECTION_SINCE = {"penalties": 2, "appeals": 2}
LIST_SECTIONS = ("players", "pairs", "entries", "table_cards", "rounds", "tables", "seats",
                 "byes", "games", "hands", "penalties", "appeals", "log")


class Malformed(Exception):  # noqa: N818 - what the file is, as the CLI says it
    """The file is not an archive the verifier can read: ``where`` names the place."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


Check = Callable[[object], bool]


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is(kind: type) -> Check:
    return lambda value: isinstance(value, kind)


INT: Check = _int
STR, BOOL, DICT, LIST = _is(str), _is(bool), _is(dict), _is(list)
TYPE_WORDS: dict[Check, str] = {INT: "a whole number", STR: "text", BOOL: "true or false",
                                DICT: "an object", LIST: "a list"}


def _opt(check: Check) -> Check:
    def fits(value: object) -> bool:
        return value is None or check(value)
    TYPE_WORDS[fits] = f"{TYPE_WORDS[check]} or null"
    return fits


# The keys each row of a section must have, with their types (None: not read, only present).
SHAPES: dict[str, dict[str, Check]] = {
    "event": {"format": STR, "format_settings": DICT, "partnership": STR, "status": STR,
              "ruleset_preset": STR, "ruleset_overrides": DICT, "rounds_planned": INT,
              "deals_per_round": _opt(INT), "bye_scoring": STR, "bye_points": INT,
              "tie_breaks": LIST, "prizes": DICT},
    "players": {"id": INT, "name": STR},
    "pairs": {"id": INT, "name": STR, "seed": _opt(INT)},
    "entries": {"id": INT, "player": INT, "pair": _opt(INT), "status": STR, "alternate": BOOL,
                "left_after_round": _opt(INT)},
    "table_cards": {},
    "rounds": {"number": INT, "stage": STR, "status": STR},
    "tables": {"round": INT, "number": INT, "match": STR},
    "seats": {"round": INT, "table": INT, "position": STR, "entry": INT},
    "byes": {"round": INT, "entry": INT},
    "games": {"round": INT, "table": INT, "status": STR, "totals": DICT, "winner": STR,
              "cut_winner": STR, "time_called": BOOL, "forfeit": STR, "finish_reason": STR,
              "hands_count": INT, "confirmed_by": _opt(INT), "adjusted": _opt(DICT)},
    "hands": {"round": INT, "table": INT, "number": INT, "deleted_at": _opt(STR),
              "revisions": LIST},
    "revisions": {"revision": INT, "is_live": BOOL, "is_deletion": BOOL, "dealer": STR,
                  "outcome": STR, "points": DICT, "result": STR, "made": _opt(BOOL),
                  "reason": STR},
    "penalties": {"id": INT, "round_number": INT, "entry": _opt(INT), "pair": _opt(INT),
                  "points": INT, "withdrawn_at": _opt(STR)},
    "appeals": {},
    "log": {},
    "standings": {"tie_breaks": LIST, "rows": LIST, "placements": LIST},
}
# Keys added after version 1, read as these values when absent.
DEFAULTS: dict[str, JSONObject] = {
    "games": {"forfeit": "", "adjusted": None},
    "revisions": {"tricks": None, "quadruple_run": "", "partner": "", "misdeal_seat": "",
                  "widow_seen": None, "check_melds": None},
}


@dataclass(frozen=True)
class Archive:
    """An archive whose shape was checked: ``data`` with every section present (an earlier
    version's missing ones empty) and every row's defaults filled in."""

    version: int
    data: ArchiveData

    def __getitem__(self, key: str) -> object:
        sections: Mapping[str, object] = self.data
        return sections[key]


def load(path: str | Path) -> Archive:
    """Read and check the file at ``path``; :class:`Malformed` when it cannot be read."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise Malformed("", f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Malformed("", "the file is not UTF-8 text") from None

    def no_constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=no_constant)
    except (ValueError, RecursionError) as exc:
        raise Malformed("", f"the file is not JSON ({exc})") from None
    return check(data)


def check(data: object) -> Archive:
    """``data`` (parsed JSON) as an :class:`Archive`, or :class:`Malformed`."""
    if not isinstance(data, dict):
        raise Malformed("", "an archive is one JSON object")
    if data.get("format") != FORMAT_NAME:
        raise Malformed("format", f"not an event archive (format must be {FORMAT_NAME!r})")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= VERSION:
        raise Malformed("version", f"version {version!r} is not one this verifier reads "
                                   f"(1 to {VERSION})")
    out = dict(data)
    for key in ("club", "event", "standings", *LIST_SECTIONS):
        if key not in out:
            if SECTION_SINCE.get(key, 1) > version:
                out[key] = []
                continue
            raise Malformed(key, "the archive has no such section")
    _row(out["event"], "event", "event")
    _row(out["standings"], "standings", "standings")
    for key in LIST_SECTIONS:
        rows = out[key]
        if not isinstance(rows, list):
            raise Malformed(key, "must be a list")
        out[key] = [_row(row, key, f"{key}[{index}]") for index, row in enumerate(rows)]
    for index, hand in enumerate(out["hands"]):
        hand["revisions"] = [_row(rev, "revisions", f"hands[{index}].revisions[{n}]")
                             for n, rev in enumerate(hand["revisions"])]
    for name in ("rows", "placements"):
        for index, row in enumerate(out["standings"][name]):
            if not isinstance(row, dict):
                raise Malformed(f"standings.{name}[{index}]", "must be an object")
    if not _checked(out):
        raise Malformed("", "an archive is one JSON object")  # pragma: no cover - checked above
    _references(out)
    return Archive(version=version, data=out)


def _checked(data: dict[str, object]) -> TypeGuard[ArchiveData]:
    """``data`` as :func:`check` leaves it: every section there, of its kind (each row's keys
    were checked by :func:`_row` against :data:`SHAPES`)."""
    return (isinstance(data.get("format"), str) and _int(data.get("version"))
            and all(isinstance(data.get(key), dict) for key in ("club", "event", "standings"))
            and all(isinstance(data.get(key), list) for key in LIST_SECTIONS))


def _row(row: object, section: str, where: str) -> JSONObject:
    if not isinstance(row, dict):
        raise Malformed(where, "must be an object")
    out = {**DEFAULTS.get(section, {}), **row}
    for key, fits in SHAPES[section].items():
        if key not in out:
            raise Malformed(f"{where}.{key}", "is missing")
        if not fits(out[key]):
            raise Malformed(f"{where}.{key}", f"must be {TYPE_WORDS[fits]}")
    return out


def _references(data: ArchiveData) -> None:
    """Every reference the verifier follows names a row of the archive."""
    players = {p["id"] for p in data["players"]}
    pairs = {p["id"] for p in data["pairs"]}
    entries = {e["id"] for e in data["entries"]}
    rounds = {r["number"] for r in data["rounds"]}
    tables = {(t["round"], t["number"]) for t in data["tables"]}
    games = {(g["round"], g["table"]) for g in data["games"]}

    def need(ok: bool, where: str, what: str) -> None:
        if not ok:
            raise Malformed(where, f"names {what} that is not in the archive")

    for i, e in enumerate(data["entries"]):
        need(e["player"] in players, f"entries[{i}].player", "a player")
        need(e["pair"] is None or e["pair"] in pairs, f"entries[{i}].pair", "a pair")
    for i, t in enumerate(data["tables"]):
        need(t["round"] in rounds, f"tables[{i}].round", "a round")
    for i, s in enumerate(data["seats"]):
        need((s["round"], s["table"]) in tables, f"seats[{i}].table", "a table")
        need(s["entry"] in entries, f"seats[{i}].entry", "an entry")
    for i, b in enumerate(data["byes"]):
        need(b["round"] in rounds, f"byes[{i}].round", "a round")
        need(b["entry"] in entries, f"byes[{i}].entry", "an entry")
    for i, g in enumerate(data["games"]):
        need((g["round"], g["table"]) in tables, f"games[{i}].table", "a table")
        need(g["confirmed_by"] is None or g["confirmed_by"] in entries,
             f"games[{i}].confirmed_by", "an entry")
    for i, h in enumerate(data["hands"]):
        need((h["round"], h["table"]) in games, f"hands[{i}].table", "a game")
    for i, p in enumerate(data["penalties"]):
        need(p["entry"] is None or p["entry"] in entries, f"penalties[{i}].entry", "an entry")
        need(p["pair"] is None or p["pair"] in pairs, f"penalties[{i}].pair", "a pair")
