"""Swapping two places of a seated round before play starts: two players (two seats, or a seat
and a bye), or in a pair event two pairs, partners moving together.

A service of its own beside ``draw.services`` (which builds the rounds): it moves the same rows,
under the event's lock, with the same checks (results not yet final, the round not started)
and an ``EventLog`` row for the director's action.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from common.errors import DomainError
from common.rulesets import event_ruleset
from common.types import Actor
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat
from tournaments.selectors import results_final_check
from tournaments.services import event_lock, event_log, event_results_changed

from .signals import walls_nudge


@transaction.atomic
def seat_swap(
    *, round_: Round, entry_a: Entry | None = None, entry_b: Entry | None = None,
    pair_a: Pair | None = None, pair_b: Pair | None = None, actor: Actor | None = None,
) -> None:
    """Swap two places of a round before play starts: two players' (``entry_a``, ``entry_b``:
    two seats, or a seat and a bye), or in a pair event two pairs' (``pair_a``, ``pair_b``: the
    partners move together, to the other pair's side of a table or its bye).

    A pair event never swaps single players: the standings credit a table's N-S and E-W results
    to the pairs registered there, so a pair split across two sides would be credited with
    another pair's game. A bracket's matches are the bracket's: a pair may only change sides
    with its opponent."""
    locked_event = event_lock(round_.event)
    results_final_check(locked_event)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.status != Round.Status.SEATED:
        raise DomainError(gettext("Seats can be swapped only before the round starts."), field="round")
    if locked_event.is_pairs:
        if entry_a is not None or entry_b is not None:
            raise DomainError(
                gettext("In a pair event partners stay together: swap two pairs (pair_a and pair_b), not two players."), field="entry_a" if entry_a is not None else "entry_b",
                code="pair_event")
        if pair_a is None or pair_b is None:
            raise DomainError(gettext("Pick two pairs to swap."),
                              field="pair_a" if pair_a is None else "pair_b")
        _pair_swap(locked_event, locked, pair_a, pair_b, actor)
    else:
        if pair_a is not None or pair_b is not None:
            raise DomainError(
                gettext("This event seats players one by one: swap two players (entry_a and entry_b)."),
                field="pair_a" if pair_a is not None else "pair_b", code="players_only")
        if entry_a is None or entry_b is None:
            raise DomainError(gettext("Pick two players to swap."),
                              field="entry_a" if entry_a is None else "entry_b")
        _player_swap(locked_event, locked, entry_a, entry_b, actor)
    event_results_changed(locked_event)
    walls_nudge(locked_event.pk)  # the seats were rewritten in bulk: no model signal says so


def _player_swap(event: Event, locked: Round, entry_a: Entry, entry_b: Entry, actor: Actor | None) -> None:
    if entry_a.pk == entry_b.pk:
        raise DomainError(gettext("Pick two different players to swap."), field="entry_b")
    places = {}
    for field, entry in (("entry_a", entry_a), ("entry_b", entry_b)):
        seat = Seat.objects.filter(round=locked, entry=entry).first()
        bye = Bye.objects.filter(round=locked, entry=entry).first()
        if seat is None and bye is None:
            raise DomainError(gettext("%(name)s is not in round %(number)s.") % {"name": entry.player.name, "number": locked.number}, field=field)
        places[field] = (seat, bye)
    (seat_a, bye_a), (seat_b, bye_b) = places["entry_a"], places["entry_b"]
    if seat_a and seat_b:
        # Two-step through a placeholder would break the unique (round, entry) constraint;
        # delete and recreate both seats inside the transaction instead.
        pos_a, table_a, pos_b, table_b = seat_a.position, seat_a.table_id, seat_b.position, seat_b.table_id
        Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
        Seat.objects.bulk_create([
            Seat(table_id=table_a, round=locked, position=pos_a, entry=entry_b),
            Seat(table_id=table_b, round=locked, position=pos_b, entry=entry_a),
        ])
    elif seat_a or seat_b:
        seat, bye = (seat_a, bye_b) if seat_a else (seat_b, bye_a)
        assert seat is not None and bye is not None
        sitting, resting = seat.entry_id, bye.entry_id
        seat.entry_id = resting
        bye.entry_id = sitting
        bye.save(update_fields=["entry"])
        seat.save(update_fields=["entry"])
    else:
        raise DomainError(gettext("Both players are sitting out; nothing to swap."), field="entry_b")
    event_log(event, actor, "seat_swap", round=locked.number, a=entry_a.pk, b=entry_b.pk,
              a_name=entry_a.player.name, b_name=entry_b.player.name)


def _pair_place(locked: Round, pair: Pair, field: str) -> tuple[list[Seat], list[Bye]]:
    """Where the pair is in the round: its two seats on one side of a table (N before S, E
    before W), or its two byes; anything else is refused."""
    if pair.event_id != locked.event_id:
        raise DomainError(gettext("%(pair)s is not in this event.") % {"pair": pair}, field=field)
    ruleset = event_ruleset(locked.event)
    seats = sorted(Seat.objects.filter(round=locked, entry__pair=pair).select_related("table"),
                   key=lambda seat: ruleset.seats.index(seat.position))
    # partners sit on one side of the table (opposite each other)
    sides = [set(ruleset.seats_of(side)) for side in ruleset.sides]
    byes = list(Bye.objects.filter(round=locked, entry__pair=pair).order_by("entry_id"))
    if not seats and not byes:
        raise DomainError(gettext("%(pair)s is not in round %(number)s.") % {"pair": pair, "number": locked.number}, field=field)
    together = (len(seats) == 2 and not byes and seats[0].table_id == seats[1].table_id
                and {s.position for s in seats} in sides) or (len(byes) == 2 and not seats)
    if not together:
        raise DomainError(gettext("%(pair)s's two players are not on one side of a table in round %(number)s: reseat the round.") % {"pair": pair, "number": locked.number}, field=field)
    return seats, byes


def _pair_swap(event: Event, locked: Round, pair_a: Pair, pair_b: Pair, actor: Actor | None) -> None:
    """The two pairs exchange places, partners together: seat for seat (the player in the first
    seat of a side takes the other pair's first seat), or a side of a table for a bye."""
    if pair_a.pk == pair_b.pk:
        raise DomainError(gettext("Pick two different pairs to swap."), field="pair_b")
    seats_a, byes_a = _pair_place(locked, pair_a, "pair_a")
    seats_b, byes_b = _pair_place(locked, pair_b, "pair_b")
    if byes_a and byes_b:
        raise DomainError(gettext("Both pairs are sitting out; nothing to swap."), field="pair_b")
    one_table = not (byes_a or byes_b) and seats_a[0].table_id == seats_b[0].table_id
    if not one_table and any(s.table.match for s in seats_a + seats_b):
        raise DomainError(
            gettext("This round's tables are bracket matches: a pair can only change sides with its opponent at the same table."), field="pair_b", code="bracket_match")
    members_a = [s.entry_id for s in seats_a] or [b.entry_id for b in byes_a]
    members_b = [s.entry_id for s in seats_b] or [b.entry_id for b in byes_b]
    Seat.objects.filter(pk__in=[s.pk for s in seats_a + seats_b]).delete()
    Bye.objects.filter(pk__in=[b.pk for b in byes_a + byes_b]).delete()
    moved = [(seats_a, members_b), (seats_b, members_a)]
    Seat.objects.bulk_create(
        Seat(table_id=seat.table_id, round=locked, position=seat.position, entry_id=entry_id)
        for seats, members in moved if seats
        for seat, entry_id in zip(seats, members, strict=True))
    Bye.objects.bulk_create(
        Bye(round=locked, entry_id=entry_id)
        for seats, members in moved if not seats for entry_id in members)
    event_log(event, actor, "pair_swap", round=locked.number, a=pair_a.pk, b=pair_b.pk,
              a_name=str(pair_a), b_name=str(pair_b))
