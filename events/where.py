"""Where do I sit: every player of an event's latest round with their table, seat, partner and
opponents, or why they have no seat.

Words: the *board round* is the event's latest round (the one being seated or played, or the
last one played when the next is not seated yet). Each player of the event gets one *row*:
``state`` is ``seated`` (a table and a seat), ``bye`` (sits the round out), ``alternate``
(waits for a free seat), ``waiting`` (a bracket pair whose next match is not ready yet),
``out`` (not in a semi-final, final or bracket stage), ``withdrawn`` or ``not_seated``
(checked in after the round was seated). The wall's seating board, the event page's name
search and ``GET /api/events/N/seating/`` all read :func:`seating`; the wall polls the cheap
:func:`seating_version` and redraws when it moves.
"""

from __future__ import annotations

import hashlib
import json
from typing import NotRequired, TypedDict

from django.utils.text import capfirst
from django.utils.translation import gettext

from common.labels import SEAT_NAMES, reads_english, sitting_title, sitting_word
from common.rulesets import event_ruleset
from draw.selectors import event_bracket, rounds_total
from tournaments.models import Bye, Entry, Event, Round, Seat

# the longest name (or part of one) the search takes
NAME_MAX = 100
STATES = ("seated", "bye", "alternate", "waiting", "out", "withdrawn", "not_seated")
# bracket matches whose pairs still play
_OPEN_MATCHES = {"waiting", "ready", "seated", "playing", "to_confirm"}


class RoundStatus(TypedDict):
    """The board round's state (:func:`_status`)."""

    status: str
    status_text: str
    next_number: int
    last: bool


class SeatingRow(TypedDict):
    """One player's row (module docstring; ``state``, ``where`` and ``answer`` once known)."""

    entry_id: int
    name: str
    table: int | None
    match: str
    position: str
    seat_name: str
    partner: str
    opponents: list[str]
    pair: str
    state: NotRequired[str]
    where: NotRequired[str]
    answer: NotRequired[str]


class Seating(RoundStatus):
    """The board round and its rows (:func:`seating`)."""

    event: Event
    round: Round | None
    title: str
    word: str
    stage: str
    rows: list[SeatingRow]
    query: str


def round_word(event: Event) -> str:
    """What the event calls one sitting of every table, in the reader's language: a
    progressive day plays games."""
    return sitting_word(event.sitting)


def _round_title(event: Event, round_: Round) -> str:
    """"Round 3", "Game 2", "Semi-final (game 7)", "Final (game 8)", "Round 5 (bracket)"."""
    values = {"stage": Round.Stage(round_.stage).label, "word": round_word(event),
              "title": sitting_title(event.sitting), "number": round_.number}
    if round_.stage in (Round.Stage.SEMIFINAL, Round.Stage.FINAL):
        return gettext("%(stage)s (%(word)s %(number)s)") % values
    if round_.stage == Round.Stage.BRACKET:
        return gettext("%(title)s %(number)s (bracket)") % values
    return f"{values['title']} {round_.number}"


def board_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def _seat_rows(round_: Round) -> list[tuple[int, int, str, str]]:
    return list(Seat.objects.filter(round=round_).order_by("table__number", "position")
                .values_list("entry_id", "table__number", "table__match", "position"))


def seating_version(event: Event) -> str:
    """A short digest of the board round's seats, byes and status (three small queries): it
    changes when a round is seated, started, closed or its seats are swapped."""
    round_ = board_round(event)
    if round_ is None:
        payload: list[object] = [event.status]
    else:
        byes = sorted(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
        payload = [event.status, round_.pk, round_.status, _seat_rows(round_), byes]
    return hashlib.sha1(json.dumps(payload).encode(), usedforsecurity=False).hexdigest()[:16]


def _bracket_players(event: Event, round_: Round) -> set[int] | None:
    """Entries of the pairs still to play a bracket match (None when the round is no bracket
    round or the bracket cannot be drawn)."""
    if round_.stage != Round.Stage.BRACKET:
        return None
    bracket = event_bracket(event)
    if bracket is None:
        return None
    alive = {side["pair"] for b in bracket["brackets"] for r in b["rounds"] for m in r["matches"]
             if m["status"] in _OPEN_MATCHES for side in m["sides"] if side["pair"] is not None}
    return set(Entry.objects.filter(event=event, pair_id__in=alive).values_list("pk", flat=True))


def _status(event: Event, round_: Round | None) -> RoundStatus:
    """The board round's state in words, and the number of the round players wait for."""
    word = round_word(event)
    if round_ is None:
        return {"status": "none", "status_text": gettext("No %(word)s is seated yet.") % {"word": word},
                "next_number": 1, "last": False}
    title = _round_title(event, round_)
    if round_.status == Round.Status.SEATED:
        text = gettext("%(title)s is seated: find your table and seat.") % {"title": title}
    elif round_.status == Round.Status.PLAYING:
        text = gettext("%(title)s is being played.") % {"title": title}
    else:
        text = ""
    last = event.is_over
    if round_.status == Round.Status.CLOSED and not last:
        last = not event.spec.open_ended and round_.number >= rounds_total(event)
        if not last and round_.stage == Round.Stage.BRACKET:
            bracket = event_bracket(event)
            last = bool(bracket and bracket["complete"])
    if round_.status == Round.Status.CLOSED:
        text = (gettext("%(title)s is over. That was the last %(word)s.") if last else
                gettext("%(title)s is over; %(word)s %(next)s is not seated yet.")) % {
            "title": title, "word": word, "next": round_.number + 1}
    return {"status": round_.status, "status_text": text, "next_number": round_.number + 1,
            "last": last}


def _answer(row: SeatingRow, title: str, status: str, word: str,
            next_number: int) -> str:
    """The one-line answer to "where do I sit?" for a row."""
    name = row["name"]
    if row["state"] == "seated":
        values = {"name": name, "title": title, "word": word, "next": next_number,
                  "table": row["table"], "match": row["match"], "seat": row["position"],
                  "partner": row["partner"]}
        if row["match"]:
            text = gettext("table %(table)s (match %(match)s), seat %(seat)s") % values
        else:
            text = gettext("table %(table)s, seat %(seat)s") % values
        if row["partner"]:
            text = gettext("%(where)s, partner %(partner)s") % {**values, "where": text}
        if status == Round.Status.CLOSED:
            return gettext("%(name)s — %(title)s is over (you sat at %(where)s); %(word)s "
                           "%(next)s is not seated yet.") % {**values, "where": text}
        return f"{name} — {title}: {text}"
    if status == Round.Status.CLOSED and row["state"] in ("bye", "not_seated", "alternate"):
        return gettext("%(name)s — %(word)s %(next)s is not seated yet.") % {
            "name": name, "word": capfirst(word), "next": next_number}
    return f"{name} — {title}: {row['where']}"


def seating(event: Event, *, name: str = "", withdrawn: bool = False) -> Seating:
    """The board round and one row per player of the event, alphabetically.

    A row: ``{"entry_id", "name", "state", "where", "table", "match", "position",
    "seat_name", "partner", "opponents", "pair", "answer"}``. ``name`` keeps the rows whose
    player's name holds every word given (any case); ``withdrawn`` keeps players who left
    (the search answers them; the wall leaves them out)."""
    round_ = board_round(event)
    status = _status(event, round_)
    word = round_word(event)
    title = _round_title(event, round_) if round_ else ""
    entries = list(
        Entry.objects.filter(event=event).select_related("player", "pair").order_by("pk"))
    names = {e.pk: e.player.name for e in entries}
    words = [w.casefold() for w in name.split()]
    wanted = [e for e in entries
              if all(w in e.player.name.casefold() for w in words)
              and (withdrawn or e.status == Entry.Status.ACTIVE)]
    rows: list[SeatingRow] = []
    ruleset = event_ruleset(event)
    at: dict[int, dict[str, int]] = {}
    placed: dict[int, tuple[int, str, str]] = {}
    byes: set[int] = set()
    in_bracket: set[int] | None = None
    if round_ is not None:
        seats = _seat_rows(round_)
        for entry_id, table, _, position in seats:
            at.setdefault(table, {})[position] = entry_id
        placed = {entry_id: (table, match, position) for entry_id, table, match, position in seats}
        byes = set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
        in_bracket = _bracket_players(event, round_) if any(
            e.pk not in placed and e.pk not in byes for e in wanted) else None
    stage_label = str(Round.Stage(round_.stage).label) if round_ else ""
    if reads_english():  # "not in the semi-final"; German keeps the noun's capital
        stage_label = stage_label.lower()
    for entry in wanted:
        row: SeatingRow = {
            "entry_id": entry.pk, "name": entry.player.name, "table": None, "match": "",
            "position": "", "seat_name": "", "partner": "", "opponents": [],
            "pair": str(entry.pair) if entry.pair_id else "",
        }
        if round_ is None:
            row.update({"state": "not_seated",
                        "where": gettext("no %(word)s is seated yet") % {"word": word}})
        elif entry.pk in placed:
            table, match, position = placed[entry.pk]
            side = ruleset.side_of(position)
            mates = at[table]
            partner = [mates[p] for p in ruleset.seats_of(side) if p != position and p in mates]
            opponents = [mates[p] for p in ruleset.seats if ruleset.side_of(p) != side
                         and p in mates]
            where = (gettext("final table") if round_.stage == Round.Stage.FINAL
                     else gettext("table %(table)s") % {"table": table})
            row.update({"state": "seated", "table": table, "match": match, "position": position,
                        "seat_name": str(SEAT_NAMES.get(position, position)),
                        "partner": names[partner[0]] if partner else "",
                        "opponents": [names[o] for o in opponents],
                        "where": gettext("%(where)s, seat %(seat)s") % {
                            "where": where, "seat": position}})
        elif entry.status == Entry.Status.LEFT:
            row.update({"state": "withdrawn", "where": gettext("has withdrawn")})
        elif entry.pk in byes:
            row.update({"state": "bye", "where": gettext("bye: sits this %(word)s out") % {
                "word": word}})
        elif entry.alternate and round_.stage == Round.Stage.QUALIFYING:
            row.update({"state": "alternate", "where": gettext("alternate: waits for a free seat")})
        elif round_.stage in (Round.Stage.SEMIFINAL, Round.Stage.FINAL):
            row.update({"state": "out", "where": gettext("not in the %(stage)s") % {
                "stage": stage_label}})
        elif round_.stage == Round.Stage.BRACKET:
            if in_bracket is not None and entry.pk in in_bracket:
                row.update({"state": "waiting",
                            "where": gettext("no match this round: waits for the next one")})
            else:
                row.update({"state": "out", "where": gettext("out of the bracket")})
        else:
            row.update({"state": "not_seated", "where": gettext("not seated in this %(word)s") % {
                "word": word}})
        row["answer"] = (_answer(row, title, status["status"], word, status["next_number"])
                         if round_ else gettext("%(name)s — no %(word)s is seated yet.") % {
                             "name": row["name"], "word": word})
        rows.append(row)
    rows.sort(key=lambda r: (r["name"].casefold(), r["name"], r["entry_id"]))
    return {
        "event": event, "round": round_, "title": title, "word": word, **status,
        "stage": round_.stage if round_ else "", "rows": rows, "query": name.strip(),
    }
