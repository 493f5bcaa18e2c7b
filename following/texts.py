"""What a follower is told, in words, from the event's "where do I sit" board (``events.where``).

Every word of a format comes from the event's spec through the board (``title``: "Round 3",
"Game 2", "Semi-final (game 7)"; ``word``: "round" or "game") and from the round's stage label
("Semi-final", "Final", "Bracket"); nothing here names a format.

* a round seated: ``"Round 3: table 5, seat N, partner Bob Jones"``; a bye: ``"Round 3: bye —
  you sit this round out"``; an alternate, a bracket pair waiting for its match, a player not in
  a later stage: the board's own words;
* the first round after the qualifying stage (the cut): ``"The cut is made: you play semi-final
  table 2, seat N, partner …"`` or ``"The cut is made: your day is over — 23rd"``;
* the players called (the round started): ``"Round 3: come to your tables — table 5, seat N"``.

A withdrawn player, and one checked in after the round was seated, are told nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.utils.translation import get_language, gettext

from common.labels import lower_in_english
from tournaments.models import Round

if TYPE_CHECKING:
    from events.where import Seating, SeatingRow

SILENT = frozenset({"withdrawn", "not_seated"})


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd, 23rd, 101st (German: 1., 2., 23.)."""
    if (get_language() or "").startswith("de"):
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _place(row: SeatingRow) -> str:
    """ "table 5, seat N" (with the bracket's match), "final table, seat N"; in the reader's
    language, as the board said it."""
    where = str(row["where"])
    if row.get("match"):
        table = gettext("table %(table)s") % {"table": row["table"]}
        where = where.replace(table, gettext("table %(table)s (match %(match)s)") % {
            "table": row["table"], "match": row["match"]}, 1)
    return where


def seat_text(board: Seating, row: SeatingRow) -> str:
    """The line the follow page shows for ``row`` of ``board`` (``events.where.seating``)."""
    title, word = board["title"], board["word"]
    if board["round"] is None:
        return gettext("No %(word)s is seated yet.") % {"word": word}
    state = row["state"]
    if state == "seated":
        text = f"{title}: {_place(row)}"
        if row["partner"]:
            text += gettext(", partner %(partner)s") % {"partner": row["partner"]}
        return text
    if state == "bye":
        return gettext("%(title)s: bye — you sit this %(word)s out") % {"title": title,
                                                                       "word": word}
    if state == "withdrawn":
        return gettext("You have withdrawn from this event.")
    return f"{title}: {row['where']}"


def cut_text(board: Seating, row: SeatingRow, place: int | None) -> str | None:
    """The line of the first round after the cut: where a player who made it plays, or that a
    player's day is over and their place (``place``: the qualifying order's, None unknown)."""
    state = row["state"]
    if state == "seated":
        round_ = cast(Round, board["round"])  # a seated row: its round is seated
        where = _place(row)
        if round_.stage == Round.Stage.FINAL:  # "final table, seat N"
            text = gettext("The cut is made: you play the %(where)s") % {"where": where}
        else:  # "semi-final table 2, seat N"; German keeps the stage's capital
            text = gettext("The cut is made: you play %(stage)s %(where)s") % {
                "stage": lower_in_english(Round.Stage(round_.stage).label), "where": where}
        if row["partner"]:
            text += gettext(", partner %(partner)s") % {"partner": row["partner"]}
        return text
    if state in ("out", "alternate"):
        if place:
            return gettext("The cut is made: your day is over — %(place)s") % {
                "place": ordinal(place)}
        return gettext("The cut is made: your day is over")
    if state in SILENT:
        return None
    return gettext("The cut is made. %(text)s") % {"text": seat_text(board, row)}


def called_text(board: Seating, row: SeatingRow) -> str | None:
    """The players are called: only those seated are told."""
    if row["state"] != "seated":
        return None
    return gettext("%(title)s: come to your tables — %(place)s") % {"title": board["title"],
                                                                      "place": _place(row)}


def notice_text(board: Seating, row: SeatingRow, *, seated: bool, called: bool,
                cut: bool, place: int | None) -> str | None:
    """What a follower of ``row`` is told when their round was seated and/or its players
    called (both at once when the director seats and starts in one step); None: nothing."""
    if row["state"] in SILENT:
        return None
    if not seated:
        return called_text(board, row) if called else None
    text = cut_text(board, row, place) if cut else seat_text(board, row)
    if text and called and row["state"] == "seated":
        text += gettext(" — come to your tables")
    return text
