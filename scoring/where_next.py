"""Where a table's players go next: the round after the table's (is it seated yet?) and, once
it is, each player's next table and seat, read by the table's phone page and its API.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.db.models import Count, Q
from django.utils.translation import gettext

from common.labels import SEAT_NAMES, reads_english
from common.rulesets import event_ruleset, table_seats
from tournaments.models import Bye, Entry, Event, Round, Seat, Table

from .models import Game
from .selectors import NextRound


def _last_round_number(event: Event) -> int | None:
    """The number of an event's last round when its format ends there (a progressive event's
    qualifying games, semi-finals and final); None for a format that may play on (a club
    night)."""
    spec = event.spec
    if spec.open_ended:
        return None
    return spec.rounds_total(event.rounds_planned, dict(event.format_settings or {}),
                             event.pairs.count() if spec.pairs else 0)


def table_next_round(*, table: Table) -> NextRound:
    """``{"number", "seated"}``: the round after the table's and whether it is seated yet (one
    query); the table's phone polls it and redraws where its players go next."""
    number = table.round.number + 1
    return {"number": number,
            "seated": Round.objects.filter(event_id=table.round.event_id, number=number).exists()}


class NextSeat(TypedDict):
    """Where one of the table's players sits next (:func:`table_next_seats`)."""

    name: str
    entry_id: int
    table: int | None
    position: str
    seat_name: str
    label: str


class NextSeats(TypedDict):
    """Where a finished table's players go next (:func:`table_next_seats`)."""

    number: int
    seated: bool
    word: str
    # the next round not seated yet
    confirmed: NotRequired[int]
    total: NotRequired[int]
    last: NotRequired[bool]
    finished: NotRequired[bool]
    held: NotRequired[bool]
    # seated
    round: NotRequired[Round]
    stage_label: NotRequired[str]
    final: NotRequired[bool]
    players: NotRequired[list[NextSeat]]


def table_next_seats(*, table: Table) -> NextSeats | None:
    """Where this table's players go next, for the phone page once its game is over.

    None while the game is being played. Otherwise ``{"number", "seated", ...}`` for the
    event's round ``number`` (this round + 1): when it is seated, ``players`` lists this table's
    players (clockwise from North) each with ``table`` (number or None), ``position``, ``seat_name``
    and a ``label`` ("table 7, North (seat N), partner Ann", "final table, North (seat N), ...",
    "sits out", "no match this round (see the bracket)", ...); when it is not,
    ``confirmed`` of ``total`` games of this round are confirmed, ``last`` says the event has no
    next round, and ``held`` that the director seats it by hand; ``word`` is what the event
    calls a round ("game" in a progressive event). At most four queries, whatever the number of
    tables or players."""
    game = table.game
    if game.status == Game.Status.PLAYING:
        return None
    round_ = table.round
    event = round_.event
    number = round_.number + 1
    out: NextSeats = {"number": number, "seated": False, "word": event.sitting}
    if event.is_over:
        # an old table link after the event ended: no "next" game, whatever was seated then
        out.update({"confirmed": 0, "total": 0, "last": True, "finished": True, "held": False})
        return out
    next_round = Round.objects.filter(event_id=event.pk, number=number).first()
    if next_round is None:
        counts = Game.objects.filter(table__round_id=round_.pk).aggregate(
            total=Count("pk"), confirmed=Count("pk", filter=Q(status=Game.Status.CONFIRMED)))
        last = _last_round_number(event)
        out.update({
            "confirmed": counts["confirmed"], "total": counts["total"],
            "last": event.status == Event.Status.FINISHED
            or (last is not None and round_.number >= last),
            "held": event.advance_held,
        })
        return out
    here = list(
        Seat.objects.filter(table_id=table.pk)
        .values_list("position", "entry_id", "entry__player__name", "entry__status")
    )
    by_position = {position: (entry, name, status) for position, entry, name, status in here}
    entry_ids = [entry for entry, _, _ in by_position.values()]
    # every seat at the tables this table's players go to: their seats and their partners
    there = list(
        Seat.objects.filter(round_id=next_round.pk, table__seats__entry_id__in=entry_ids)
        .distinct().values_list("entry_id", "table__number", "position", "entry__player__name")
    )
    going = {entry: (table_number, position) for entry, table_number, position, _ in there}
    seated_at = {(table_number, position): name for _, table_number, position, name in there}
    ruleset = event_ruleset(event)
    resting = set(Bye.objects.filter(round_id=next_round.pk, entry_id__in=entry_ids)
                  .values_list("entry_id", flat=True))
    final = next_round.stage == Round.Stage.FINAL
    stage_label = str(Round.Stage(next_round.stage).label)
    players: list[NextSeat] = []
    for position in table_seats(ruleset, by_position):
        if position not in by_position:
            continue
        entry, name, status = by_position[position]
        table_number, seat = going.get(entry, (None, ""))
        if table_number is not None:
            where = (gettext("final table") if final
                     else gettext("table %(table)s") % {"table": table_number})
            label = gettext("%(where)s, %(seat_name)s (seat %(seat)s)") % {
                "where": where, "seat_name": SEAT_NAMES[seat], "seat": seat}
            partner = [seated_at[(table_number, p)] for p in ruleset.seats_of(ruleset.side_of(seat))
                       if p != seat and (table_number, p) in seated_at]
            if partner:
                label = gettext("%(where)s, partner %(partner)s") % {"where": label,
                                                                     "partner": partner[0]}
        elif entry in resting:
            label = gettext("sits out")
        elif status == Entry.Status.LEFT:
            label = gettext("has withdrawn")
        elif next_round.stage == Round.Stage.BRACKET:
            label = gettext("no match this round (see the bracket)")
        elif next_round.stage != Round.Stage.QUALIFYING:
            label = gettext("not in the %(stage)s") % {
                "stage": stage_label.lower() if reads_english() else stage_label}
        else:
            label = gettext("not seated")
        players.append({"name": name, "entry_id": entry, "table": table_number,
                        "position": seat, "seat_name": str(SEAT_NAMES.get(seat, "")),
                        "label": label})
    out.update({"seated": True, "round": next_round, "stage_label": stage_label, "final": final,
                "players": players})
    return out
