"""The shapes of the standings every ranking view reads: a standings line (:class:`StandingRow`)
and a final place (:class:`Placement`).

A line is a player's, or a pair's in a pair event (the pair's keys marked below), as
``standings.compute`` ranks it and the snapshot stores it (JSON: ``per_round`` is keyed by the
round's number as text). The boards (``standings.boards``) add what a board shows of it. A
placement is what finishing the event writes (``draw.services.event_placements_compute``,
stored by ``standings.services.placements_store``): the pages, the archive, the series and the
profiles rank by these once the event is over.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ranking.standings import LineKeys, Row


class StandingRow(LineKeys):
    """One line of the standings: a player's, or a pair's (whose ``entry_id`` is its first
    player's, 0 for a pair without players)."""

    # None: not placed (a finished event's rows after the placed ones; a pair still in a
    # bracket, whose board says which places it plays for in ``rank_text``)
    rank: int | None
    penalty_points: NotRequired[int]  # the director's penalties, already taken off ``points``
    # a pair's line
    pair_id: NotRequired[int]
    players: NotRequired[list[str]]
    losses: NotRequired[int]
    against: NotRequired[int]
    entry_ids: NotRequired[list[int]]
    # what a board adds (``standings.boards``)
    stage: NotRequired[str]  # the stage that decided a place
    prize: NotRequired[str]  # the amount won
    rank_text: NotRequired[str]  # what the rank column shows ("3=", "1–4", "–")
    board: NotRequired[str]  # the key of the board the line is shown on
    # what a page adds (``standings.selectors``, ``standings.fragments``)
    checks: NotRequired[int]  # check pinochle's second tally
    round_cells: NotRequired[str]  # the per-round cells, rendered (a ``SafeString``)
    href: NotRequired[str]  # the player's (pair's) page


class Placement(TypedDict):
    """One final place: an entry's, or a pair's in a pair event (``pair_id``, ``group``)."""

    place: int
    entry_id: int  # a pair's first player's
    name: str
    stage: str  # the stage that decided it (``qualifying`` when the standings did)
    prize: str | None  # the amount won, as text
    pair_id: NotRequired[int]
    # the bracket that decided it in a split final ("upper", "lower"), "" otherwise
    group: NotRequired[str]


def player_line(row: Row) -> StandingRow:
    """A player's line (the keys in ``ranking``'s order, as the snapshot has always stored it)."""
    return {**row.to_dict()}
