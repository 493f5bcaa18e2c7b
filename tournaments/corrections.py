"""A *correction*: a change to a result after the players were shown it, recorded for the
event's public list of corrections (``conduct.Correction``, the page ``/events/<id>/corrections/``
and ``GET /api/events/{id}/corrections/``).

What counts: a hand of a confirmed game (or of a closed round) corrected or deleted by a
director (a desk correction included), an adjusted result, a forfeit, a penalty given or
withdrawn, a finished event reopened and finished again. Each writer wraps its change in
:func:`correction_record`, inside its own transaction::

    with correction_record(event=event, kind="game_adjusted", actor=actor, reason=why,
                           round_number=2, table_number=5) as draft:
        ... the change ...
        draft.was, draft.became = "NS 420 · EW 380", "Adjusted: NS 300 · EW 300"
        draft.before, draft.after = {...}, {...}

The recorder asks for the standings before and after the change and hands the draft to the
apps that keep it. Why signals: the writers sit in three layers (``scoring`` 6, ``conduct`` 7,
``draw`` 9) while the row lives in ``conduct`` and the standings are computed in
``standings`` (8); a layer may not call up, so the two are heard by receivers, each in the
writer's transaction: ``tournaments.signals.standings_wanted`` (``standings.signals``
answers with the standings computed from the rows as they are now, not from the snapshot, which
a task writes later) and ``tournaments.signals.correction_made`` (``conduct.signals`` writes the
row). A correction and its entry on the list commit or roll back together.

Why a row of its own rather than the event log (``EventLog``): the log is the directors'
audit, one free-form JSON per action, written by dozens of actions that are not corrections,
with no role at the time, no standings before and after, and details (user ids, internal
values) not meant for the public; the public list needs one shape for every kind, what moved in
the standings *at the time* (which cannot be recomputed later: later hands change them too),
and a cheap count for the event page. The log keeps its rows as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypedDict

from common.types import Actor

from .models import Event
from .signals import correction_made, standings_wanted

# The kinds of correction (``conduct.Correction.Kind`` lists them with their labels).
HAND_CORRECTED = "hand_corrected"
HAND_DELETED = "hand_deleted"
GAME_ADJUSTED = "game_adjusted"
GAME_FORFEITED = "game_forfeited"
PENALTY_GIVEN = "penalty_given"
PENALTY_WITHDRAWN = "penalty_withdrawn"
EVENT_REOPENED = "event_reopened"
EVENT_REFINISHED = "event_refinished"

class StandingLine(TypedDict):
    """An entrant's line of the standings as a correction compares them."""

    name: str
    points: int
    rank: int | None


class Standing(TypedDict):
    points: int
    rank: int | None


class Moved(TypedDict):
    """An entrant whose total or place a correction changed (None: not in the standings)."""

    key: str
    name: str
    before: Standing | None
    after: Standing | None


# The standings by entrant ("entry:12", "pair:3"), as ``standings_wanted``'s receiver answers.
Standings = dict[str, StandingLine]


@dataclass
class CorrectionDraft:
    """One correction as its writer describes it: ``was``/``became`` a short human text,
    ``before``/``after`` the structured values; the standings are filled in by the recorder
    (``baseline``, when given, replaces the standings before: a re-finish compares with the
    standings when the event was reopened)."""

    event: Event
    kind: str
    actor: Actor | None
    reason: str
    round_number: int | None = None
    table_number: int | None = None
    was: str = ""
    became: str = ""
    before: dict[str, object] = field(default_factory=dict)
    after: dict[str, object] = field(default_factory=dict)
    baseline: Standings | None = None
    standings_before: Standings = field(default_factory=dict)
    standings_after: Standings = field(default_factory=dict)
    # The writer found nothing changed after all: nothing is recorded.
    skip: bool = False

    def moved(self) -> list[Moved]:
        """The entrants (players, or pairs) whose total or place changed, best placed after
        first: ``{"key", "name", "before": {"points", "rank"} | None, "after": ... | None}``."""
        before = self.baseline if self.baseline is not None else self.standings_before
        after = self.standings_after
        out: list[Moved] = []
        for key in set(before) | set(after):
            was, now = before.get(key), after.get(key)
            if _pick(was) != _pick(now):
                line = now or was
                out.append({"key": key, "name": line["name"] if line else "",
                            "before": _pick(was), "after": _pick(now)})
        out.sort(key=_moved_order)
        return out


def _pick(row: StandingLine | None) -> Standing | None:
    return None if row is None else {"points": row["points"], "rank": row["rank"]}


def _moved_order(moved: Moved) -> tuple[int, str]:
    """Best placed after the correction first (before it, for an entrant no longer there)."""
    line = moved["after"] or moved["before"]
    return (line["rank"] or 0) if line else 0, moved["name"]


def standings_now(event: Event) -> Standings:
    """The event's standings as the writer's transaction sees them (empty when no app
    answers)."""
    found: Standings = {}
    for _, answer in standings_wanted.send(sender=Event, event=event):
        if isinstance(answer, dict):
            found.update(answer)
    return found


@contextmanager
def correction_record(*, event: Event, kind: str, actor: Actor | None, reason: str = "",
                      round_number: int | None = None,
                      table_number: int | None = None,
                      when: bool = True) -> Iterator[CorrectionDraft]:
    """Record the change made inside the ``with`` block as a correction of ``event``: the
    standings are read before it and after it, then the draft goes to ``correction_made``.
    An exception in the block records nothing (and rolls back with the writer). ``when``
    false (a change the players had not been shown yet): nothing is read or recorded."""
    draft = CorrectionDraft(event=event, kind=kind, actor=actor, reason=(reason or "").strip(),
                            round_number=round_number, table_number=table_number,
                            skip=not when)
    if draft.skip:
        yield draft
        return
    draft.standings_before = standings_now(event)
    yield draft
    if draft.skip:
        return
    draft.standings_after = standings_now(event)
    correction_made.send(sender=Event, draft=draft)
