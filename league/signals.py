"""A player merged into another (``clubs.services.player_merge``) leaves one history made of
two: the duplicate's rating changes now belong to the kept player, interleaved with theirs, and
the duplicate's rating row is gone. Players are deleted only by a merge (an entry protects a
player who played), so a deleted player, while any game is rated, asks for every rating to be
rebuilt once the merge commits."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete
from django.dispatch import receiver

from clubs.models import Player
from common.tasks import task_queue

from .models import RatingChange

RATINGS_REBUILD = "league.tasks.rebuild_ratings"


@receiver(post_delete, sender=Player, dispatch_uid="league-player-deleted")
def player_deleted(sender: Any, instance: Player, **kwargs: Any) -> None:
    if RatingChange.objects.exists():
        task_queue(RATINGS_REBUILD)
