"""The wall screens hear at once when what they draw moved (``standings.push.push_wall``).

The seating and movement walls draw the latest round's seats, byes and state, the bracket wall
the matches and their results. On commit of a change to any of these, one message goes out on
the event's push stream (``event: wall``); each wall then asks for its version and redraws when
it moved, so a room's screens follow a round seated, started or closed, a seat handed over, a
game confirmed or the event finished within a second or two, and poll only as a safety net.
Hands do not nudge them: a hand moves the standings, whose own message the bracket wall hears.
Swaps rewrite seats in bulk (no model signal): ``draw.swaps.seat_swap`` nudges itself.

A call for a director raised, taken or closed (``conduct.models.DirectorCall``) sends ``event:
calls`` on the same stream: the director screen and the directors' calls page then ask for the
calls (``events.calls``). The conduct app, below the push, publishes nothing itself.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from conduct.models import DirectorCall
from scoring.models import Game
from standings.push import push_calls, push_enabled, push_wall
from tournaments.models import Bye, Event, Round, Seat

# A game's fields that move a wall (the bracket's winners, walkovers, the round's state).
GAME_FIELDS = frozenset({"status", "cut_winner", "forfeit", "winner"})


def walls_nudge(event_id: int, what: str = "seating") -> None:
    """Tell the event's wall screens, once the transaction commits, that ``what`` moved."""
    if push_enabled():
        transaction.on_commit(lambda: push_wall(event_id, what))


@receiver(post_save, sender=Round, dispatch_uid="walls-round-saved")
@receiver(post_delete, sender=Round, dispatch_uid="walls-round-deleted")
def _round_changed(instance: Round, **_: object) -> None:
    walls_nudge(instance.event_id)


@receiver(post_save, sender=Seat, dispatch_uid="walls-seat-saved")
@receiver(post_save, sender=Bye, dispatch_uid="walls-bye-saved")
def _seat_changed(instance: Seat | Bye, **_: object) -> None:
    event_id = Round.objects.filter(pk=instance.round_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        walls_nudge(event_id)


@receiver(post_save, sender=Game, dispatch_uid="walls-game-saved")
def _game_changed(instance: Game, update_fields: frozenset[str] | None = None,
                  **_: object) -> None:
    if update_fields is not None and not GAME_FIELDS & set(update_fields):
        return  # the scorer named, and the like: nothing a wall draws
    event_id = Round.objects.filter(tables__pk=instance.table_id).values_list(
        "event_id", flat=True).first()
    if event_id is not None:
        walls_nudge(event_id, "results")


@receiver(post_save, sender=Event, dispatch_uid="walls-event-saved")
def _event_saved(instance: Event, created: bool, **_: object) -> None:
    if not created:
        walls_nudge(instance.pk)


@receiver(post_save, sender=DirectorCall, dispatch_uid="calls-call-saved")
def _call_changed(instance: DirectorCall, update_fields: frozenset[str] | None = None,
                  **_: object) -> None:
    if update_fields is not None and set(update_fields) == {"dismissed_at"}:
        return  # the table put a ruling away: nothing a director's screen draws
    if push_enabled():
        event_id = instance.event_id
        transaction.on_commit(lambda: push_calls(event_id))
