"""Receivers that keep the ratings true to what they count.

A player merged into another (``clubs.services.player_merge``) leaves one history made of
two: the duplicate's rating changes now belong to the kept player, interleaved with theirs, and
the duplicate's rating row is gone. Players are deleted only by a merge (an entry protects a
player who played), so a deleted player, while any game is rated, asks for every rating to be
rebuilt once the merge commits.

Ratings count only the games of public events of public clubs (``league.ratings``): an event
made public or hidden is rated again from its first game on, a club made public or private has
every rating rebuilt (rare: a club's visibility is set when it is made), once the change
commits. The old visibility is read before the save; saves that leave it alone queue nothing."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from clubs.models import Club, Player
from common.tasks import RATE_EVENT, task_queue
from tournaments.models import Event

from .models import RatingChange

RATINGS_REBUILD = "league.tasks.rebuild_ratings"


@receiver(post_delete, sender=Player, dispatch_uid="league-player-deleted")
def player_deleted(sender: Any, instance: Player, **kwargs: Any) -> None:
    if RatingChange.objects.exists():
        task_queue(RATINGS_REBUILD)


def _visibility_before(sender: Any, instance: Any, update_fields: Any) -> None:
    if instance.pk is None or (update_fields is not None and "is_public" not in update_fields):
        instance._public_before = None
        return
    instance._public_before = (sender.objects.filter(pk=instance.pk)
                               .values_list("is_public", flat=True).first())


def _visibility_moved(instance: Any) -> bool:
    before = getattr(instance, "_public_before", None)
    instance._public_before = None
    return before is not None and before != instance.is_public


@receiver(pre_save, sender=Event, dispatch_uid="league-event-visibility-before")
def event_visibility_before(sender: Any, instance: Event, update_fields: Any = None,
                            **kwargs: Any) -> None:
    _visibility_before(sender, instance, update_fields)


@receiver(post_save, sender=Event, dispatch_uid="league-event-visibility")
def event_visibility_changed(sender: Any, instance: Event, created: bool = False,
                             **kwargs: Any) -> None:
    if _visibility_moved(instance):
        task_queue(RATE_EVENT, args=(instance.pk,))


@receiver(pre_save, sender=Club, dispatch_uid="league-club-visibility-before")
def club_visibility_before(sender: Any, instance: Club, update_fields: Any = None,
                           **kwargs: Any) -> None:
    _visibility_before(sender, instance, update_fields)


@receiver(post_save, sender=Club, dispatch_uid="league-club-visibility")
def club_visibility_changed(sender: Any, instance: Club, created: bool = False,
                            **kwargs: Any) -> None:
    if _visibility_moved(instance):
        task_queue(RATINGS_REBUILD)
