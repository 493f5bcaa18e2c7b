"""The soak's end-of-day checks, pure: no Django, no database, no network.

* :func:`hands_checksum` — one SHA-256 over every hand as (game, table, hand number, values),
  in a canonical JSON form, and :func:`hands_differences`: what the generator sent (answered
  2xx) against what the database holds, hand by hand.
* :func:`recompute_standings` — the standings rebuilt from the hands the generator sent and the
  seats the director's API showed, with the rules engine alone (``rules_engine.parse_hand`` and
  ``score_game`` per table and game) and the pure ranking code
  (``ranking.compute_standings``). It shares nothing with the live path (the hand's save, the
  stored seat results, the incremental snapshot, the GROUP BY of ``standings.compute``), so
  equal rows say the live path kept every hand, and kept it right, all day.
* :func:`rows_differences` — the first differences between two lists of standings rows.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ranking import Result, compute_standings
from rules_engine import Ruleset, parse_hand, score_game

HandKey = tuple[int, int, int]  # (game, table, hand number)


def canonical(values: Mapping[str, Any]) -> str:
    return json.dumps(values, sort_keys=True, separators=(",", ":"))


def hands_checksum(hands: Mapping[HandKey, Mapping[str, Any]]) -> str:
    """SHA-256 (hex) of every hand in key order: equal for two sets of equal hands."""
    digest = hashlib.sha256()
    for key in sorted(hands):
        digest.update(f"{key[0]}/{key[1]}/{key[2]}:{canonical(hands[key])}\n".encode())
    return digest.hexdigest()


def hands_differences(sent: Mapping[HandKey, Mapping[str, Any]],
                      stored: Mapping[HandKey, Mapping[str, Any]],
                      limit: int = 20) -> tuple[dict[str, int], list[str]]:
    """(counts of ``missing``, ``extra`` and ``changed`` hands, the first few described). A
    stored hand is compared on the fields the generator sent."""
    counts = {"missing": 0, "extra": 0, "changed": 0}
    notes: list[str] = []
    for key in sorted(set(sent) | set(stored)):
        where = f"game {key[0]} table {key[1]} hand {key[2]}"
        if key not in stored:
            counts["missing"] += 1
            notes.append(f"{where}: answered 2xx, not stored")
        elif key not in sent:
            counts["extra"] += 1
            notes.append(f"{where}: stored, never answered 2xx")
        else:
            mine = {k: stored[key].get(k) for k in sent[key]}
            if canonical(mine) != canonical(sent[key]):
                counts["changed"] += 1
                notes.append(f"{where}: sent {canonical(sent[key])}, stored {canonical(mine)}")
    return counts, notes[:limit]


@dataclass(frozen=True)
class PlayedGame:
    """One table's game as the generator played it: its seats and the hands it sent, in order."""

    game: int  # the event's game (round) number
    table: int
    seats: Mapping[str, int]  # position -> entry id
    hands: Sequence[Mapping[str, Any]]


def game_results(played: PlayedGame, ruleset: Ruleset, deals: int | None) -> list[Result]:
    """Each seated entry's result in one game, scored by the rules engine from the hands."""
    scored = score_game([parse_hand(dict(h), ruleset) for h in played.hands], ruleset,
                        max_deals=deals)
    totals = dict(scored.totals[-1]) if scored.totals else dict.fromkeys(ruleset.sides, 0)
    finished = scored.finished_after is not None
    made_by: dict[str, list[bool | None]] = {}
    for hand, score in zip(played.hands, scored.scores, strict=True):
        if hand.get("bidder"):
            made_by.setdefault(str(hand["bidder"]), []).append(score.made)
    game_id = played.game * 100_000 + played.table
    results = []
    for position, entry_id in sorted(played.seats.items()):
        side = str(ruleset.side_of(position))
        mine = made_by.get(position, [])
        results.append(Result(
            entry_id=entry_id, round_number=played.game, game_id=game_id, side=side,
            points=totals.get(side, 0),
            opponents_points=sum(v for s, v in totals.items() if s != side),
            won=finished and scored.winner == side, finished=finished,
            hands_declared=len(mine), hands_made=sum(1 for m in mine if m),
            hands_set=sum(1 for m in mine if m is False),
        ))
    return results


def recompute_standings(*, entries: Mapping[int, str], games: Iterable[PlayedGame],
                        ruleset: Ruleset, deals: int | None,
                        tie_breaks: Sequence[str]) -> list[dict[str, Any]]:
    """The event's standings rows (as ``ranking.Row.to_dict``) from the hands alone: every
    entry active and none an alternate, no byes and no penalties (the soak has none)."""
    results = [r for played in games for r in game_results(played, ruleset, deals)]
    rows = compute_standings(
        entries=[(entry_id, name, True) for entry_id, name in entries.items()],
        results=results, byes=[], tie_breaks=tie_breaks,
    )
    return [row.to_dict() for row in rows]


def rows_differences(expected: Sequence[Mapping[str, Any]], actual: Sequence[Mapping[str, Any]],
                     limit: int = 10) -> list[str]:
    """The first differences, row by row in order (rank, entry and every field)."""
    notes: list[str] = []
    if len(expected) != len(actual):
        notes.append(f"{len(expected)} rows recomputed, {len(actual)} in the snapshot")
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        fields = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        if fields:
            notes.append(f"row {i + 1}: " + ", ".join(
                f"{k} {want.get(k)!r} recomputed, {got.get(k)!r} live" for k in fields[:4]))
        if len(notes) >= limit:
            break
    return notes
