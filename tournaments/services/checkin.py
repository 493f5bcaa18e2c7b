"""Check-in for a big room: many players at once (all or nobody), alternates, and the
players' own check-in on their phones (``self_check_in``) with the director's approval
(``arrival_decide``). Services as in :mod:`.events`: keyword-only arguments, one transaction,
the event's row locked, an :class:`EventLog` row for the audit.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player
from common.errors import DomainError
from common.types import Actor, actor_user

from ..models import (
    Arrival,
    Entry,
    Event,
    Seat,
)
from .events import check_not_erased, entry_check_in, event_lock, event_log


class EntriesRefused(DomainError):
    """A bulk check-in refused as a whole: every refused player id with its reason (the API
    answers each as its own error, field ``player_ids.<id>``)."""

    code = "refused"

    def __init__(self, problems: dict[int, tuple[str, str]]) -> None:
        first = next(iter(problems.values()))[1]
        super().__init__(f"{len(problems)} of the players cannot be checked in ({first}); "
                         "nobody was checked in.", field="player_ids")
        self.problems = problems

    def api_errors(self) -> list[dict[str, object]]:
        return [{"field": f"player_ids.{pk}", "code": code, "message": message}
                for pk, (code, message) in self.problems.items()]


@transaction.atomic
def entries_bulk_create(*, event: Event, player_ids: Iterable[int], alternate: bool = False,
                        actor: Actor | None = None) -> list[Entry]:
    """Check in many players of the club's roster at once, all or nobody: a refused id (not on
    the roster, already checked in, given twice) refuses the whole list, naming every refused
    id and why. A player who left comes back (as at the desk). Returns the entries, in the order
    given."""
    locked = event_lock(event)
    ids = list(player_ids)
    players = Player.objects.filter(pk__in=ids, club_links__club_id=locked.club_id).in_bulk()
    here = set(locked.entries.filter(status=Entry.Status.ACTIVE, player_id__in=ids)
               .values_list("player_id", flat=True))
    problems: dict[int, tuple[str, str]] = {}
    seen: set[int] = set()
    for pk in ids:
        if pk in seen:
            problems.setdefault(pk, ("repeated", "This player is in the list twice."))
        elif pk not in players:
            problems[pk] = ("not_on_roster", "No such player on this club's roster.")
        elif players[pk].erased_at is not None:
            problems[pk] = ("erased", "This player erased their data: they cannot be entered.")
        elif pk in here:
            problems[pk] = ("already_here", f"{players[pk].name} is already checked in.")
        seen.add(pk)
    if problems:
        raise EntriesRefused(problems)
    entries = [entry_check_in(event=locked, player=players[pk], actor=actor,
                              alternate=alternate) for pk in ids]
    return entries


@transaction.atomic
def entry_set_alternate(*, entry: Entry, alternate: bool, actor: Actor | None = None) -> Entry:
    """Mark a checked-in player as an alternate (waits to take the seat of a player who
    withdraws; scores but is not ranked) or as a player, until they are first seated: after
    that their games count one way or the other and the mark stays."""
    locked = event_lock(entry.event)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    if alternate and not locked.spec.alternates:
        raise DomainError(gettext("Alternates wait for a seat in a progressive event; at a club night everyone plays (sitting out in turn)."), field="alternate")
    if entry.status != Entry.Status.ACTIVE:
        raise DomainError(gettext("%(name)s has left the event.") % {"name": entry.player.name}, field="entry")
    if entry.alternate == alternate:
        return entry
    if Seat.objects.filter(entry=entry).exists():
        raise DomainError(gettext("%(name)s has been seated already: the mark stays as it is.") % {"name": entry.player.name}, field="alternate", code="seated")
    entry.alternate = alternate
    entry.save(update_fields=["alternate"])
    event_log(locked, actor, "alternate_marked" if alternate else "alternate_cleared",
              entry=entry.pk, name=entry.player.name)
    return entry


@transaction.atomic
def event_self_check_in_set(*, event: Event, mode: str, actor: Actor | None = None) -> Event:
    """Turn the event's self check-in off or on (with or without the director's approval)."""
    if mode not in Event.SelfCheckIn.values:
        raise DomainError(gettext("Self check-in is one of: %(values)s.") % {"values": ', '.join(Event.SelfCheckIn.values)},
                          field="self_check_in")
    locked = event_lock(event)
    if locked.self_check_in != mode:
        locked.self_check_in = mode
        locked.save(update_fields=["self_check_in"])
        event_log(locked, actor, "self_check_in", mode=mode)
    event.self_check_in = mode
    return locked


def self_check_in_refusal(event: Event) -> DomainError | None:
    """Why the event's self check-in page takes nobody now, or None: self check-in is off, the
    event takes pairs (registered together at the desk), play has started (a late arrival sees
    the director, who knows where a seat is), or the event is over."""
    if event.self_check_in == Event.SelfCheckIn.OFF:
        return DomainError(gettext("Check in at the desk: this event has no self check-in."),
                           field="event", code="off")
    if event.is_over:
        return DomainError(gettext("This event is over."), field="event", code="over")
    if event.is_pairs:
        return DomainError(gettext("Pairs register together at the desk."), field="event",
                           code="pairs_only")
    if event.rounds.exists():
        return DomainError(gettext("Play has started: please check in at the desk."), field="event",
                           code="started")
    return None


@transaction.atomic
def self_check_in(*, event: Event, player: Player,
                  tapped_by: dict[str, str] | None = None) -> Arrival:
    """A player taps "I'm here" on the event's self check-in page. Open until the first round
    is seated (:func:`self_check_in_refusal`). Without approval the player is checked in at once
    (never as an alternate: that is the director's call); with approval the arrival waits for
    the director (asking again changes nothing). Refused for a player not on the club's roster
    and for one already checked in. Each tap taken is in the event's log (``here_tapped``)
    with who tapped: ``tapped_by`` (the phone, the address)."""
    locked = event_lock(event)
    refusal = self_check_in_refusal(locked)
    if refusal is not None:
        raise refusal
    if not player.club_links.filter(club_id=locked.club_id).exists():
        raise DomainError(gettext("That name is not on this club's list: please see the desk."),
                          field="player")
    check_not_erased(player, field="player")
    if locked.entries.filter(player=player, status=Entry.Status.ACTIVE).exists():
        raise DomainError(gettext("%(name)s, you are already checked in.") % {"name": player.name}, field="player",
                          code="already_here")
    waiting = Arrival.objects.filter(event=locked, player=player,
                                     status=Arrival.Status.WAITING).first()
    if waiting is not None:
        arrival = waiting
    elif locked.self_check_in == Event.SelfCheckIn.APPROVAL:
        arrival = Arrival.objects.create(event=locked, player=player)
        event_log(locked, None, "arrived", player=player.pk, name=player.name)
    else:
        entry_check_in(event=locked, player=player, actor=None)
        arrival = Arrival.objects.create(event=locked, player=player,
                                         status=Arrival.Status.APPROVED,
                                         decided_at=timezone.now())
    event_log(locked, None, "here_tapped", player=player.pk, name=player.name,
              arrival=arrival.pk, state=arrival.status, **(tapped_by or {}))
    return arrival


@transaction.atomic
def arrival_decide(*, arrival: Arrival, approve: bool, actor: Actor | None = None) -> Arrival:
    """The director approves a waiting arrival (the player is checked in, as at the desk) or
    declines it (nobody is checked in; the player may ask again or see the desk). Deciding
    again changes nothing."""
    locked_event = event_lock(arrival.event)
    locked = (Arrival.objects.select_for_update(of=("self",)).select_related("player")
              .get(pk=arrival.pk))
    if locked.status != Arrival.Status.WAITING:
        return locked
    if approve:
        if not locked_event.entries.filter(player=locked.player,
                                           status=Entry.Status.ACTIVE).exists():
            entry_check_in(event=locked_event, player=locked.player, actor=actor)
    else:
        event_log(locked_event, actor, "arrival_declined", player=locked.player_id,
                  name=locked.player.name)
    locked.status = Arrival.Status.APPROVED if approve else Arrival.Status.DECLINED
    locked.decided_at = timezone.now()
    locked.decided_by = actor_user(actor)
    locked.save(update_fields=["status", "decided_at", "decided_by"])
    return locked
