"""Paper for the day: the day-long table cards (one per physical table, valid for every game)
and the players' scorecards (the paper backup of what each player played and scored).

A day card names a table number, not a round: its QR code opens ``/c/<token>/``, which
:func:`table_card_target` resolves to the table of that number in the event's open round, so a
director prints the cards once before the first game and players keep scanning the same card as
they move from game to game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.db import transaction
from django.db.models import Count, Max
from django.http import Http404
from django.utils.translation import gettext

from common.errors import DomainError
from common.labels import sitting_title
from common.rulesets import event_ruleset, opponents_of, partners_of, table_seats
from common.types import Actor
from conduct.selectors import penalties_of
from scoring.models import Game
from standings.models import StandingsSnapshot
from tournaments.models import Bye, Entry, Event, Round, Seat, Table, TableCard
from tournaments.services import event_lock, event_log

from .selectors import event_stages, rounds_total

# A day has at most this many tables (a 64-table NPA day fits with room to spare).
MAX_TABLE_CARDS = 200


# --- day table cards -----------------------------------------------------------------------------
@transaction.atomic
def table_cards_ensure(*, event: Event, count: int, actor: Actor | None = None) -> list[TableCard]:
    """The event's day cards for tables 1..``count``, creating those missing (idempotent: the
    tokens of cards already printed never change). Cards above ``count`` are kept."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_TABLE_CARDS:
        raise DomainError(gettext("Table cards are printed for 1 to %(max_table_cards)s tables.") % {"max_table_cards": MAX_TABLE_CARDS},
                          field="tables")
    locked = event_lock(event)  # two directors printing at once make one card per table
    have = set(TableCard.objects.filter(event=locked, number__lte=count)
               .values_list("number", flat=True))
    missing = [n for n in range(1, count + 1) if n not in have]
    if missing:
        TableCard.objects.bulk_create(TableCard(event=locked, number=n) for n in missing)
        event_log(locked, actor, "table_cards_created", numbers=missing)
    return list(TableCard.objects.filter(event=locked, number__lte=count).order_by("number"))


def table_card_count(event: Event) -> int:
    """How many day cards the event needs: its largest round so far, or, before the first
    round (or when more players have checked in since), a table per full table of players."""
    largest = (Round.objects.filter(event=event).annotate(tables_count=Count("tables"))
               .aggregate(most=Max("tables_count"))["most"]) or 0
    players = Entry.objects.filter(event=event, status=Entry.Status.ACTIVE,
                                   alternate=False).count()
    # the most tables the players fill: tables of the smallest size the ruleset seats
    ruleset = event_ruleset(event)
    return min(max(largest, players // min(ruleset.table_sizes)), MAX_TABLE_CARDS)


@dataclass(frozen=True)
class CardTarget:
    """Where a day card leads now: the open round's table of its number, or nowhere (``table``
    is None) with the round that is open, if any, to explain why."""

    card: TableCard
    event: Event
    round: Round | None
    table: Table | None
    tables_in_round: int = 0
    all_played: bool = False


def table_card_target(*, token: str) -> CardTarget:
    card = TableCard.objects.select_related("event__club").filter(token=token).first()
    if card is None:
        raise Http404(gettext("No such table card"))
    event = card.event
    open_round = event.rounds.exclude(status=Round.Status.CLOSED).first()
    if open_round is None:
        last = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
        return CardTarget(card, event, None, None,
                          all_played=last > 0 and last >= rounds_total(event))
    table = Table.objects.filter(round=open_round, number=card.number).first()
    count = 0 if table else Table.objects.filter(round=open_round).count()
    return CardTarget(card, event, open_round, table, tables_in_round=count)


# --- scorecards ----------------------------------------------------------------------------------
def round_labels(event: Event) -> dict[int, tuple[str, str]]:
    """{round number: (label, stage)} of the event's planned rounds: "Game 1".."Game 6",
    "Semi-final", "Final 1".. for a progressive event; "Round 1".. for a club night."""
    word = sitting_title(event.sitting)
    labels: dict[int, tuple[str, str]] = {}
    for stage in event_stages(event):
        numbers = stage["rounds"]
        for i, number in enumerate(numbers, start=1):
            if stage["stage"] == Round.Stage.QUALIFYING:
                label = f"{word} {i}"
            else:
                label = stage["label"] if len(numbers) == 1 else f"{stage['label']} {i}"
            labels[number] = (label, stage["stage"])
    return labels


class CardRow(TypedDict):
    """A round of a player's scorecard (blank fields for the pen until it is played)."""

    number: int
    label: str
    stage: str
    new_stage: bool
    table: int | None
    seat: str
    partner: str
    opponents: list[str]
    ours: int | None
    theirs: int | None
    running: int | None  # the stage's running total
    bye: bool
    absent: bool  # seated without them (cut, late, left)
    adjusted: bool
    penalty: int  # the director's penalties of that round, taken off the running total


class Scorecard(TypedDict):
    entry: Entry
    rows: list[CardRow]
    penalised: bool  # a penalty or an adjusted game: the card explains its running total


def scorecards(event: Event, entries: list[Entry]) -> list[Scorecard]:
    """One scorecard per entry: a row per planned round (and per round played beyond the plan)
    with the table, seat, partner and opponents once seated, the scores once the game is over,
    and the running total of the stage; rows not played yet are left blank for the pen.

    A few queries whatever the number of players: the seats of the event's tables, the byes and
    the standings snapshot (a bye's score is the standings')."""
    ids = [e.pk for e in entries]
    rounds = {r.number: r for r in event.rounds.all()}
    labels = round_labels(event)
    last = max([*labels, *rounds, 0])
    word = sitting_title(event.sitting)
    mine: dict[int, dict[int, Seat]] = {pk: {} for pk in ids}
    names: dict[tuple[int, str], str] = {}
    seats = (Seat.objects.filter(round__event=event)
             .select_related("table__round", "table__game", "entry__player"))
    if len(ids) == 1:
        seats = seats.filter(table__seats__entry_id=ids[0])
    at_table: dict[int, list[str]] = {}
    ruleset = event_ruleset(event)
    for found in seats:
        names[(found.table_id, found.position)] = found.entry.player.name
        at_table.setdefault(found.table_id, []).append(found.position)
        if found.entry_id in mine:
            mine[found.entry_id][found.table.round.number] = found
    byes: dict[int, set[int]] = {}
    for number, entry_id in Bye.objects.filter(round__event=event, entry_id__in=ids) \
            .values_list("round__number", "entry_id"):
        byes.setdefault(entry_id, set()).add(number)
    snapshot_rows = StandingsSnapshot.objects.filter(event=event).values_list("rows", flat=True)
    per_round = {int(r["entry_id"]): r.get("per_round", {})
                 for stored in snapshot_rows[:1] for r in stored}
    cards: list[Scorecard] = []
    for entry in entries:
        rows: list[CardRow] = []
        running, stage_now = 0, None
        # The director's penalties in force, by round (taken off the running total there).
        penalised: dict[int, int] = {}
        for penalty in penalties_of(event, entry):
            penalised[penalty.round_number] = (penalised.get(penalty.round_number, 0)
                                               + penalty.points)
        for number in range(1, last + 1):
            label, stage = labels.get(number, (f"{word} {number}", Round.Stage.QUALIFYING))
            if stage != stage_now:
                running, stage_now = 0, stage
            row: CardRow = {"number": number, "label": label, "stage": stage,
                            "new_stage": bool(rows) and rows[-1]["stage"] != stage,
                            "table": None, "seat": "", "partner": "", "opponents": [],
                            "ours": None, "theirs": None, "running": None,
                            "bye": False, "absent": False, "adjusted": False,
                            "penalty": penalised.get(number, 0)}
            seat = mine[entry.pk].get(number)
            if seat is not None:
                table = seat.table
                side = ruleset.side_of(seat.position)
                here = table_seats(ruleset, at_table.get(table.pk, ()))
                partners = partners_of(ruleset, seat.position)
                row["table"], row["seat"] = table.number, seat.position
                row["partner"] = " & ".join(names.get((table.pk, p), "") for p in partners)
                row["opponents"] = [names.get((table.pk, p), "")
                                    for p in opponents_of(ruleset, seat.position, here)]
                game = getattr(table, "game", None)
                if game is not None and game.status != Game.Status.PLAYING:
                    totals = game.totals or {}
                    # theirs: the best score against us (the other partnership's)
                    ours = int(totals.get(side, 0))
                    theirs = max((int(v) for s, v in totals.items() if s != side), default=0)
                    running += ours
                    row["ours"], row["theirs"], row["running"] = ours, theirs, running
                    row["adjusted"] = bool(game.adjusted)
            elif number in byes.get(entry.pk, set()):
                row["bye"] = True
                points = per_round.get(entry.pk, {}).get(str(number))
                if points is not None:
                    running += int(points)
                    row["ours"], row["running"] = int(points), running
            elif number in rounds:
                row["absent"] = True  # the round is seated without them (cut, late, left)
            if row["penalty"]:
                running -= row["penalty"]
                row["running"] = running
            rows.append(row)
        cards.append({"entry": entry, "rows": rows,
                      "penalised": bool(penalised) or any(r["adjusted"] for r in rows)})
    return cards
