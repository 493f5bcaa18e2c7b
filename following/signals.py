"""A round seated or started tells its followers (``following.services.round_notify``).

``post_save`` of a ``Round``: created (``draw.services.round_create`` writes the tables, seats
and byes in the same transaction) or its status moved to playing (the director's Start, or the
one-step advance that seats and starts at once). Either queues one task for the round on
commit; the task claims what is still owed, so seating and starting in one transaction sends one
message ("… — come to your tables"), and a rolled-back round sends nothing.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db.models.signals import post_save
from django.dispatch import receiver

from tournaments.models import Round

from .services import round_notify_queue


@receiver(post_save, sender=Round, dispatch_uid="following-round-saved")
def _round_saved(instance: Round, created: bool, update_fields: Collection[str] | None = None, **_: object) -> None:
    started = instance.status == Round.Status.PLAYING and (
        update_fields is None or "status" in update_fields)
    if created or started:
        round_notify_queue(instance.pk)
