"""The standings' cached status (``standings.status``) kept in step with the apps below.

* Who may see an event changes when the event or its club is saved: the cached answer of the
  standings poll ("public") is forgotten then, in every process at once (the cache is shared),
  and the next poll goes through the permission check again.
* The event's ``hands_version`` moved (``tournaments.signals.hands_version_moved``, sent by the
  one bump every hand writer calls): the new value goes into the cache on commit, so the pages
  say "updating…" without asking the database.
* A round of a later stage seated (a semi-final, a final game, a bracket wave) changes what
  the standings show (its tables come first, ``standings.boards``) before any of its hands
  changes the rows: the snapshot's version moves then, so the pages redraw and no region
  cached for the version before is served for it.
* A correction of a result (``tournaments.corrections``) asks for the standings before and
  after its change (``tournaments.signals.standings_wanted``): they are computed from the rows
  in the writer's transaction (the snapshot is written later, by a task).
"""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from clubs.models import Club
from tournaments.corrections import Standings
from tournaments.models import Event, Round
from tournaments.signals import hands_version_moved, standings_wanted

from .compute import standings_compute
from .services import standings_version_bump
from .status import status_forget, status_hands_entered


@receiver(post_save, sender=Event, dispatch_uid="standings-status-event-saved")
@receiver(post_delete, sender=Event, dispatch_uid="standings-status-event-deleted")
def _event_changed(instance: Event, **_: object) -> None:
    status_forget([instance.pk])


@receiver(post_save, sender=Club, dispatch_uid="standings-status-club-saved")
def _club_saved(instance: Club, **_: object) -> None:
    status_forget(Event.objects.filter(club_id=instance.pk).values_list("pk", flat=True))


@receiver(hands_version_moved, dispatch_uid="standings-status-hands-moved")
def _hands_moved(event_id: int, hands_version: int, **_: object) -> None:
    status_hands_entered(event_id=event_id, hands_version=hands_version)


@receiver(post_save, sender=Round, dispatch_uid="standings-later-stage-seated")
def _round_seated(instance: Round, created: bool, **_: object) -> None:
    if created and instance.stage != Round.Stage.QUALIFYING:
        standings_version_bump(event_id=instance.event_id)


@receiver(standings_wanted, dispatch_uid="standings-for-correction")
def _standings_wanted(event: Event, **_: object) -> Standings:
    rows = standings_compute(event=event).rows
    key = "pair" if event.is_pairs else "entry"
    return {f"{key}:{row.get('pair_id') if event.is_pairs else row['entry_id']}": {
        "name": row["name"], "points": row["points"], "rank": row["rank"]} for row in rows}
