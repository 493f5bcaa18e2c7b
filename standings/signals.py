"""Who may see an event changes when the event or its club is saved: the cached answer of the
standings poll (``common.standings_status``, "public") is forgotten then, in every process at
once (the cache is shared), and the next poll goes through the permission check again.

A round of a later stage seated (a semi-final, a final game, a bracket wave) changes what the
standings show (its tables come first, ``standings.boards``) before any of its hands changes the
rows: the snapshot's version moves then, so the pages redraw and no region cached for the
version before is served for it."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from clubs.models import Club
from common.standings_status import status_forget
from tournaments.models import Event, Round

from .services import standings_version_bump


@receiver(post_save, sender=Event, dispatch_uid="standings-status-event-saved")
@receiver(post_delete, sender=Event, dispatch_uid="standings-status-event-deleted")
def _event_changed(instance: Event, **_: Any) -> None:
    status_forget([instance.pk])


@receiver(post_save, sender=Club, dispatch_uid="standings-status-club-saved")
def _club_saved(instance: Club, **_: Any) -> None:
    status_forget(Event.objects.filter(club_id=instance.pk).values_list("pk", flat=True))


@receiver(post_save, sender=Round, dispatch_uid="standings-later-stage-seated")
def _round_seated(instance: Round, created: bool, **_: Any) -> None:
    if created and instance.stage != Round.Stage.QUALIFYING:
        standings_version_bump(event_id=instance.event_id)
