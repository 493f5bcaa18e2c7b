"""Receivers that keep the profile summaries (``profiles.models.EventSummary``) in step.

Once the transaction that changed it commits, an event that is over (finished or cancelled) has
its summaries written again by ``profiles.tasks.event_summaries`` (queued by name; the task
writes nothing when they are current):

* the event saved while over (finishing or cancelling it, a later edit of an event that is over);
* its standings stored (``standings.status.snapshot_stored``: the final places written, a
  penalty or a correction counted after the end, a player's name erased).

Hands corrected after the end move the snapshot too (the standings task follows every hand), so
they are caught by the second. A summary left behind anyway (a task lost with the broker) is
only slower: the profile computes that event live, and ``manage.py profile_summaries`` catches
up.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from common.tasks import task_queue
from standings.status import snapshot_stored
from tournaments.models import Event

SUMMARIES_TASK = "profiles.tasks.event_summaries"


@receiver(post_save, sender=Event, dispatch_uid="profiles-event-saved")
def event_saved(instance: Event, **_: object) -> None:
    if instance.is_over:
        task_queue(SUMMARIES_TASK, args=(instance.pk,))


@receiver(snapshot_stored, dispatch_uid="profiles-standings-stored")
def standings_stored(event_id: int, **_: object) -> None:
    def queue() -> None:
        # after the commit, and only for an event that is over (standings of an event in play
        # are stored after nearly every hand)
        if Event.objects.filter(pk=event_id, status__in=Event.OVER).exists():
            task_queue(SUMMARIES_TASK, args=(event_id,), on_commit=False)

    transaction.on_commit(queue, robust=True)
