"""The club's record of what was done with a player's data: a director's export of it, an
erasure. It names nobody: the player by id only (after an erasure that row reads "Withdrawn
player"), the acting director by their account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player


class PrivacyLog(models.Model):
    class Action(models.TextChoices):
        EXPORT = "export", _("Data exported by a director")
        ERASURE = "erasure", _("Account erased at the player's request")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    action = models.CharField(max_length=10, choices=Action.choices)
    # The director who produced an export; null for an erasure (the player's own request).
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(action__in=["export", "erasure"]),
                                   name="privacylog_action_valid"),
        ]
        indexes = [
            # a club's privacy record, newest first (the admin's list filtered by club)
            models.Index(fields=["club", "-created_at"], name="privacylog_club_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.action} of player {self.player_id} in club {self.club_id}"
