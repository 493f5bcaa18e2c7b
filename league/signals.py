"""Receivers that keep the ratings true to what they count.

A player merged into another (``clubs.services.player_merge``) leaves one history made of
two: the duplicate's rating changes now belong to the kept player, interleaved with theirs, and
the duplicate's rating row is gone. Players are deleted only by a merge (an entry protects a
player who played), so a deleted player, while any game is rated, asks for every rating to be
rebuilt once the merge commits.

Ratings count only the games of public events of public clubs (``league.ratings``): an event
made public or hidden is rated again from its first game on, a club made public or private has
every rating rebuilt (rare: a club's visibility is set when it is made), once the change
commits. The old visibility is read before the save; saves that leave it alone queue nothing.
An event's date or deals per round changed, or the event deleted, re-rates as well (its games
move in the rating order, or their results change, or they are gone), so the ratings never wait
for ``manage.py rebuild_ratings``."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from clubs.models import Club, Player
from common.tasks import RATE_EVENT, task_queue
from tournaments.models import Event

from .models import RatingChange

RATINGS_REBUILD = "league.tasks.rebuild_ratings"


@receiver(post_delete, sender=Player, dispatch_uid="league-player-deleted")
def player_deleted(sender: type[Player], instance: Player, **kwargs: object) -> None:
    if RatingChange.objects.exists():
        task_queue(RATINGS_REBUILD)


def _visibility_before(sender: type[Event] | type[Club], instance: Any,
                       update_fields: Collection[str] | None) -> None:
    if instance.pk is None or (update_fields is not None and "is_public" not in update_fields):
        instance._public_before = None
        return
    instance._public_before = (sender.objects.filter(pk=instance.pk)
                               .values_list("is_public", flat=True).first())


def _visibility_moved(instance: Any) -> bool:
    before = getattr(instance, "_public_before", None)
    instance._public_before = None
    return before is not None and before != instance.is_public


# An event's fields that move its games' ratings: who may see it, when it was played (the order
# games are rated in), and its deals per round (its games' results).
EVENT_RATED_FIELDS = ("is_public", "date", "deals_per_round")


@receiver(pre_save, sender=Event, dispatch_uid="league-event-visibility-before")
def event_visibility_before(sender: type[Event], instance: Event, update_fields: Collection[str] | None = None,
                            **kwargs: object) -> None:
    _visibility_before(sender, instance, update_fields)
    if instance.pk is None or (update_fields is not None
                               and not set(EVENT_RATED_FIELDS[1:]) & set(update_fields)):
        instance._rated_before = None  # type: ignore[attr-defined]
        return
    instance._rated_before = (  # type: ignore[attr-defined]
        sender.objects.filter(pk=instance.pk).values_list("date", "deals_per_round").first())


@receiver(post_save, sender=Event, dispatch_uid="league-event-visibility")
def event_visibility_changed(sender: type[Event], instance: Event, created: bool = False,
                             **kwargs: object) -> None:
    before = getattr(instance, "_rated_before", None)
    instance._rated_before = None  # type: ignore[attr-defined]
    moved_date = before is not None and str(before[0]) != str(instance.date)
    moved_deals = before is not None and before[1] != instance.deals_per_round
    if _visibility_moved(instance) or moved_deals:
        task_queue(RATE_EVENT, args=(instance.pk,))
    if moved_date and RatingChange.objects.exists():
        # The event's games move in the order everyone's games are rated in: every rating
        # after the earlier of the two dates may change, so all are rebuilt (a date is rarely
        # changed once games are rated).
        task_queue(RATINGS_REBUILD)


@receiver(post_delete, sender=Event, dispatch_uid="league-event-deleted")
def event_deleted(sender: type[Event], instance: Event, **kwargs: object) -> None:
    """A deleted event's games leave everyone's history: the ratings are rebuilt without them."""
    if RatingChange.objects.exists():
        task_queue(RATINGS_REBUILD)


@receiver(pre_save, sender=Club, dispatch_uid="league-club-visibility-before")
def club_visibility_before(sender: type[Club], instance: Club, update_fields: Collection[str] | None = None,
                           **kwargs: object) -> None:
    _visibility_before(sender, instance, update_fields)


@receiver(post_save, sender=Club, dispatch_uid="league-club-visibility")
def club_visibility_changed(sender: type[Club], instance: Club, created: bool = False,
                            **kwargs: object) -> None:
    if _visibility_moved(instance):
        task_queue(RATINGS_REBUILD)
