"""Reading an archive before anything is written: every value typed and checked, every
reference resolved, every rule the database enforces checked here first, so that a bad archive
is refused with the path of each problem (``hands[12].revisions[0].bid``) and changes nothing.

:func:`read_archive` returns a :class:`Plan` (typed rows in the archive's order) or raises
:class:`ArchiveRefused` listing the problems found (at most :data:`MAX_PROBLEMS`).
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

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
from scoring.services import ADJUST_KINDS, ADJUSTED_POINTS_LIMIT, hand_check
from tournaments.models import BYE_POINTS_LIMIT, Round
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
    VERSION,
)
from .reading import (
    LIST_SECTIONS,
    MAX_PROBLEMS,
    REVISION_VALUES,
    ArchiveRefused,
    Enough,
    Plan,
    Problem,
    Reader,
    Row,
    positive,
    read_fields,
    section_rows,
    unique,
    unique_ids,
)

__all__ = ["MAX_PROBLEMS", "ArchiveRefused", "Plan", "Problem", "Row", "read_archive"]


def read_archive(data: object) -> Plan:
    """The archive ``data`` (parsed JSON) read into a :class:`Plan`, or :class:`ArchiveRefused`."""
    reader = Reader()
    try:
        plan = _read(reader, data)
    except Enough:
        plan = None
    if reader.problems or plan is None:
        raise ArchiveRefused(reader.problems)
    return plan


def _stop(reader: Reader) -> None:
    if reader.problems:
        raise Enough


def _read(r: Reader, data: object) -> Plan | None:
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

    club = read_fields(r, SECTIONS["club"], r.mapping(data["club"], "club") or {}, "club")
    event_data = r.mapping(data["event"], "event") or {}
    event = read_fields(r, SECTIONS["event"], event_data, "event")
    event["created_by"] = r.username(event_data, "created_by", "event")
    _stop(r)
    ruleset = _check_event(r, event)
    _stop(r)

    s: dict[str, list[Row]] = {}
    s["players"] = section_rows(r, data, "players", {})
    unique_ids(r, s["players"], "players")
    player_ids = {row.local_id: row for row in s["players"]}
    s["pairs"] = section_rows(r, data, "pairs", {})
    unique_ids(r, s["pairs"], "pairs")
    pair_ids = {row.local_id: row for row in s["pairs"]}
    unique(r, s["pairs"], lambda v: v["seed"] if v["seed"] is not None else None, "seed",
            "Seed {key} is given to two pairs")
    s["entries"] = section_rows(r, data, "entries", {PLAYER: player_ids, PAIR: pair_ids})
    unique_ids(r, s["entries"], "entries")
    entry_ids = {row.local_id: row for row in s["entries"]}
    unique(r, s["entries"], lambda v: v["player"], "player", "Player {key} has two entries")

    s["table_cards"] = section_rows(r, data, "table_cards", {})
    unique(r, s["table_cards"], lambda v: v["number"], "number", "Table card {key} is listed twice")
    positive(r, s["table_cards"], "number")
    s["rounds"] = section_rows(r, data, "rounds", {})
    unique(r, s["rounds"], lambda v: v["number"], "number", "Round {key} is listed twice")
    positive(r, s["rounds"], "number")
    open_rounds = [row for row in s["rounds"] if row.values["status"] != Round.Status.CLOSED]
    for row in open_rounds[1:]:
        r.fail(f"{row.path}.status", "open_round",
               f"Round {open_rounds[0].values['number']} is open too: an event has at most one "
               "round not closed.")
    rounds = {row.values["number"]: row for row in s["rounds"]}
    s["tables"] = section_rows(r, data, "tables", {ROUND: rounds})
    unique(r, s["tables"], lambda v: (v["round"], v["number"]), "number",
            "Table {key[1]} of round {key[0]} is listed twice")
    tables = {(row.values["round"], row.values["number"]): row for row in s["tables"]}
    refs = {ENTRY: entry_ids, ROUND: rounds, TABLE: tables}
    s["seats"] = section_rows(r, data, "seats", refs)
    unique(r, s["seats"], lambda v: (*v["table"], v["position"]), "position",
            "Seat {key[2]} at table {key[1]} of round {key[0]} is taken twice", code="taken")
    unique(r, s["seats"], lambda v: (v["table"][0], v["entry"]), "entry",
            "Entry {key[1]} is seated twice in round {key[0]}", code="seated_twice")
    s["byes"] = section_rows(r, data, "byes", refs)
    unique(r, s["byes"], lambda v: (v["round"], v["entry"]), "entry",
            "Entry {key[1]} has two byes in round {key[0]}")
    # each table's seats, clockwise (three, or four where the dealer sits out; four in pairs)
    positions: dict[tuple[int, ...], list[str]] = {}
    for row in s["seats"]:
        positions.setdefault(tuple(row.values["table"]), []).append(row.values["position"])
    seats_at = {key: table_seats(ruleset, found) for key, found in positions.items()}
    s["games"] = section_rows(r, data, "games", refs)
    unique(r, s["games"], lambda v: v["table"], "table",
            "Table {key[1]} of round {key[0]} has two games")
    for row in s["games"]:
        _check_game(r, row, ruleset, seats_at.get(tuple(row.values["table"]), ruleset.seats))
    games = {row.values["table"]: row for row in s["games"]}
    s["hands"] = section_rows(r, data, "hands", {GAME: games})
    positive(r, s["hands"], "number")
    unique(r, [h for h in s["hands"] if h.values["deleted_at"] is None],
            lambda v: (*v["game"], v["number"]), "number",
            "Hand {key[2]} of table {key[1]} in round {key[0]} is listed twice (and not deleted)")
    for row in s["hands"]:
        _read_revisions(r, row, ruleset,
                        seats_at.get(tuple(row.values["game"]), ruleset.seats))
    _check_games_end(r, s["hands"], games, ruleset, event["deals_per_round"], seats_at)
    decided = {ENTRY: entry_ids, PAIR: pair_ids, GAME_AT: games}
    s["penalties"] = section_rows(r, data, "penalties", decided)
    unique_ids(r, s["penalties"], "penalties")
    pairs_event = bool(getattr(formats.FORMATS.get(event["format"]), "pairs", False))
    for row in s["penalties"]:
        _check_penalty(r, row, pairs_event)
    penalty_ids = {row.local_id: row for row in s["penalties"]}
    s["appeals"] = section_rows(r, data, "appeals", {**decided, PENALTY: penalty_ids})
    unique_ids(r, s["appeals"], "appeals")
    appeal_ids = {row.local_id: row for row in s["appeals"]}
    s["log"] = section_rows(r, data, "log", {})
    for row in s["log"]:
        _check_log(r, row, {PLAYER: player_ids, PAIR: pair_ids, ENTRY: entry_ids,
                            PENALTY: penalty_ids, APPEAL: appeal_ids})
    standings = _read_standings(r, data["standings"], {PAIR: pair_ids, ENTRY: entry_ids})
    return Plan(version=version, club=club, event=event, sections=s, standings=standings,
                ruleset=ruleset)


# --- rows --------------------------------------------------------------------------------------
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
        raise Enough
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
        raise Enough
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
        values = read_fields(r, section, row, where)
        values["author"] = r.username(row, "author", where)
        if len(r.problems) == before:
            _check_revision(r, values, where, ruleset, seats)
        if len(r.problems) == before:
            hand.children.append(Row(path=where, values=values, raw=row))
    if len(hand.children) != len(items):
        return
    unique(r, hand.children, lambda v: v["revision"], "revision", "Revision {key} is listed twice")
    positive(r, hand.children, "revision")
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


def _check_games_end(r: Reader, hands: list[Row], games: Mapping[tuple[int, int], Row],
                     ruleset: Ruleset, deals_per_round: int | None,
                     seats_at: Mapping[tuple[int, ...], Sequence[str]]) -> None:
    """Each game's live hands scored in order as the scoring services score them: a hand after
    the one that ended the game (a target reached, the deals played) is refused at its path,
    before anything is written."""
    by_game: dict[tuple[int, int], list[tuple[int, Row]]] = {}
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


def _check_log(r: Reader, row: Row, known: Mapping[str, Container[object]]) -> None:
    for key, kind in LOG_REFS.get(row.values["action"], {}).items():
        value = row.values["details"].get(key)
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            where = f"{row.path}.details.{key}" + (f"[{index}]" if isinstance(value, list) else "")
            # a list of lists (a table's draw of partners per table): each id in it
            inner = item if isinstance(item, list) else [item]
            for place, one in enumerate(inner):
                if one is not None:
                    r.local_ref(one, known[kind], where + (f"[{place}]" if isinstance(item, list)
                                                           else ""), kind, True)


def _read_standings(r: Reader, raw: object, known: Mapping[str, Container[object]]
                    ) -> dict[str, Any]:
    standings = r.mapping(raw, "standings") or {}
    out = read_fields(r, SECTIONS["standings"], standings, "standings")
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
