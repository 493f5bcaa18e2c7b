"""Ranking: standings order with a registry of named tie-breaks. Pure Python, no ORM.

The standings app reads seat results from the database, hands them here as plain values, and
stores what comes back. Everything about *order* is decided here once: totals per entry, bye
scores, the named tie-breaks (``TIE_BREAKS``) applied in the event's order, and shared ranks
(1, 1, 3). Vocabulary is in :mod:`ranking.standings`.
"""

from __future__ import annotations

from .standings import (
    INDIVIDUAL_DEFAULT,
    PARTNERSHIP_DEFAULT,
    TIE_BREAKS,
    EntryTotals,
    Meeting,
    RankingError,
    Result,
    RoundScores,
    Row,
    bye_score,
    compute_standings,
    default_tie_breaks,
    head_to_head_wins,
    rank_rows,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
    totals_from_results,
    validate_tie_breaks,
)

__all__ = [
    "INDIVIDUAL_DEFAULT",
    "PARTNERSHIP_DEFAULT",
    "TIE_BREAKS",
    "EntryTotals",
    "Meeting",
    "RankingError",
    "Result",
    "RoundScores",
    "Row",
    "bye_score",
    "compute_standings",
    "default_tie_breaks",
    "head_to_head_wins",
    "rank_rows",
    "standings_rows",
    "tie_break_labels",
    "tie_breaks_in_force",
    "totals_from_results",
    "validate_tie_breaks",
]
