"""The event archive's JSON as typed rows: one ``TypedDict`` per section.

The site writes these (``archive.format`` lays the sections out, ``archive.selectors`` fills
them) and the verifier reads them (:mod:`verify.read` checks the keys typed here before anything
is recomputed). A key the verifier checks has its type; a key it only reads when present, or
passes through, is ``NotRequired[object]`` and is narrowed where it is read. Rows hold more keys
than are named here (every field of ``archive.format.SECTIONS``): these are the ones read.

Stored JSON objects whose shape the format leaves open (settings, overrides, totals, an
adjusted result, a log line's details) are :data:`JSONObject`, read with ``isinstance``.
"""

from __future__ import annotations

from typing import NotRequired, TypeAlias, TypedDict

# A stored JSON object of open shape (read with isinstance where a value is used).
JSONObject: TypeAlias = dict[str, object]


class EventRow(TypedDict):
    format: str
    format_settings: JSONObject
    partnership: str
    status: str
    ruleset_preset: str
    ruleset_overrides: JSONObject
    rounds_planned: int
    deals_per_round: int | None
    bye_scoring: str
    bye_points: int
    tie_breaks: list[object]
    prizes: JSONObject
    seed: NotRequired[object]  # decimal text (an archive of an older site: a number)


class PlayerRow(TypedDict):
    id: int
    name: str


class PairRow(TypedDict):
    id: int
    name: str
    seed: int | None


class EntryRow(TypedDict):
    id: int
    player: int
    pair: int | None
    status: str
    alternate: bool
    left_after_round: int | None
    joined_round: NotRequired[object]
    fixed_table: NotRequired[object]
    checked_in_at: NotRequired[object]


class RoundRow(TypedDict):
    number: int
    stage: str
    status: str
    created_at: NotRequired[object]
    closed_at: NotRequired[object]


class TableRow(TypedDict):
    round: int
    number: int
    match: str


class SeatRow(TypedDict):
    round: int
    table: int
    position: str
    entry: int


class ByeRow(TypedDict):
    round: int
    entry: int


class GameRow(TypedDict):
    round: int
    table: int
    status: str
    totals: JSONObject
    winner: str
    cut_winner: str
    time_called: bool
    forfeit: str  # the side that forfeited, "" for a game played out (version 2)
    finish_reason: str
    hands_count: int
    confirmed_by: int | None
    adjusted: JSONObject | None  # the director's adjusted result (version 2)


class RevisionRow(TypedDict):
    revision: int
    is_live: bool
    is_deletion: bool
    dealer: str
    outcome: str
    points: JSONObject
    result: str
    made: bool | None
    reason: str
    # the entered values the rules engine reads (``verify.recompute.HAND_VALUES``, ``meld``)
    bidder: NotRequired[object]
    meld: NotRequired[object]
    created_at: NotRequired[object]


class HandRow(TypedDict):
    round: int
    table: int
    number: int
    deleted_at: str | None
    revisions: list[RevisionRow]


class PenaltyRow(TypedDict):
    id: int
    round_number: int
    entry: int | None
    pair: int | None
    points: int
    withdrawn_at: str | None


class StandingsSection(TypedDict):
    tie_breaks: list[object]
    rows: list[JSONObject]
    placements: list[JSONObject]


class ArchiveData(TypedDict):
    """A whole archive as :func:`verify.read.check` gives it: every section present (an
    earlier version's missing ones empty), every row's defaults filled in."""

    format: str
    version: int
    club: JSONObject
    event: EventRow
    players: list[PlayerRow]
    pairs: list[PairRow]
    entries: list[EntryRow]
    table_cards: list[JSONObject]
    rounds: list[RoundRow]
    tables: list[TableRow]
    seats: list[SeatRow]
    byes: list[ByeRow]
    games: list[GameRow]
    hands: list[HandRow]
    penalties: list[PenaltyRow]
    appeals: list[JSONObject]
    log: list[JSONObject]
    standings: StandingsSection
