"""The series table from the events' final places: pure Python, no database.

Rules (the series page says them in words, ``describe``):

* **Points for a place.** ``table``: place *p* earns ``points[p-1]``; places past the end of the
  list earn 0. ``field`` (share of the field beaten): with *N* entrants placed in the event and
  *b* of them placed strictly below, a place earns ``top × b / (N − 1)`` rounded half up to a
  whole point (``top`` is the one number given: the winner of any field earns it, the last
  place 0; a lone entrant earns ``top``). Entrants who share a place earn that place's points
  each (a table's points are not averaged over the places they cover; in a field they beat the
  same entrants). In a pair event both players of a pair earn the pair's points.
* **Events played**: the finished events a player is placed in.
* **Best N**: with ``best_of`` set, a player's best N event scores count and the others are
  dropped (shown, marked); between equal scores the earlier event counts.
* **Minimum events**: a player placed in fewer than ``min_events`` events is listed after the
  ranked players, without a rank (not yet qualified).
* **Order and ties**: more counted points; then more events won (first places, counted or not);
  then the better best placing. Players equal on all three share the rank (listed by name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

TABLE = "table"
FIELD = "field"
SIDE_KINDS = {"high_game": "High game", "high_hand": "High hand"}
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Placing:
    """One placed entrant of an event: its place, its player(s), and the link to its results."""

    place: int
    players: tuple[int, ...]
    link: str = ""


@dataclass(frozen=True)
class EventPlacings:
    """A finished event's places, best first."""

    event_id: int
    placings: tuple[Placing, ...]


@dataclass
class EventScore:
    """What one player earned at one event."""

    event_id: int
    place: int
    points: int
    counted: bool = True
    link: str = ""


@dataclass
class Line:
    """One player's line of the series table."""

    player_id: int
    name: str
    total: int = 0
    played: int = 0
    firsts: int = 0
    best_place: int | None = None
    scores: dict[int, EventScore] = field(default_factory=dict)
    rank: int | None = None
    tied: bool = False
    qualified: bool = True
    prize: str | None = None

    def key(self) -> tuple[int, int, int]:
        """What the table ranks by (smaller first)."""
        return (-self.total, -self.firsts, self.best_place or 10**9)


def place_points(*, rule: str, points: Sequence[int], place: int, entrants: int,
                 beaten: int) -> int:
    """The series points one place earns (the module's first rule)."""
    if rule == FIELD:
        top = int(points[0]) if points else 0
        if entrants <= 1:
            return top
        span = entrants - 1
        return (2 * top * beaten + span) // (2 * span)  # top × beaten / span, half up
    return int(points[place - 1]) if 1 <= place <= len(points) else 0


def series_table(events: Sequence[EventPlacings], *, rule: str, points: Sequence[int],
                 best_of: int | None, min_events: int | None,
                 names: Mapping[int, str]) -> list[Line]:
    """Every placed player's line, ranked players first (the module's rules); ``events`` in the
    series' order (date, then id), which decides between equal scores for best N."""
    lines: dict[int, Line] = {}
    order = {e.event_id: i for i, e in enumerate(events)}
    for event in events:
        entrants = len(event.placings)
        for placing in event.placings:
            beaten = sum(1 for other in event.placings if other.place > placing.place)
            earned = place_points(rule=rule, points=points, place=placing.place,
                                  entrants=entrants, beaten=beaten)
            for player_id in placing.players:
                line = lines.setdefault(player_id, Line(player_id, names.get(player_id, "")))
                before = line.scores.get(event.event_id)
                if before is not None and before.points >= earned:
                    continue  # placed twice in one event (never in practice): the better one
                line.scores[event.event_id] = EventScore(event.event_id, placing.place, earned,
                                                         link=placing.link)
    needed = min_events or 1
    for line in lines.values():
        scores = sorted(line.scores.values(), key=lambda s: (-s.points, order[s.event_id]))
        for position, score in enumerate(scores):
            score.counted = best_of is None or position < best_of
        line.total = sum(s.points for s in scores if s.counted)
        line.played = len(scores)
        line.firsts = sum(1 for s in scores if s.place == 1)
        line.best_place = min((s.place for s in scores), default=None)
        line.qualified = line.played >= needed
    ordered = sorted(lines.values(), key=lambda ln: (ln.key(), ln.name, ln.player_id))
    ranked = [ln for ln in ordered if ln.qualified]
    previous: tuple[int, int, int] | None = None
    rank = 0
    for position, line in enumerate(ranked, start=1):
        if line.key() != previous:
            rank, previous = position, line.key()
        line.rank = rank
    shared: dict[int, int] = {}
    for line in ranked:
        shared[line.rank or 0] = shared.get(line.rank or 0, 0) + 1
    for line in ranked:
        line.tied = shared[line.rank or 0] > 1
    return ranked + [ln for ln in ordered if not ln.qualified]


def split(amount: str, winners: int) -> str:
    """An amount shared equally by ``winners``, rounded down to the cent."""
    if winners < 1:
        return "0.00"
    return str((Decimal(amount) / winners).quantize(CENT, rounding=ROUND_DOWN))


def describe(*, rule: str, points: Sequence[int], best_of: int | None,
             min_events: int | None) -> list[str]:
    """The series' rules in sentences, for its page."""
    if rule == FIELD:
        top = points[0] if points else 0
        sentences = [f"Each event: the winner earns {top} points, the others a share of "
                     f"{top} by the part of the field they beat (last place 0)."]
    else:
        shown = ", ".join(str(p) for p in points[:10]) + (", …" if len(points) > 10 else "")
        sentences = [f"Each event: points by place ({shown}); places further down earn 0."]
    sentences.append("In a pair event both players of a pair earn its points.")
    if best_of:
        sentences.append(f"A player's best {best_of} event{'s' if best_of > 1 else ''} count; "
                         "the others are dropped.")
    if min_events and min_events > 1:
        sentences.append(f"Ranked after {min_events} events.")
    sentences.append("Ties: more events won, then the better best place; then shared.")
    return sentences
